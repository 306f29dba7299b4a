package testservers

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// InstallCommand is the command that installs every server binary into
// the cache this package searches.
const InstallCommand = "bash .ci/install-test-servers.sh"

// ErrNotInstalled is wrapped by errors about a server binary that cannot be
// found.
var ErrNotInstalled = errors.New("testservers: server not installed")

// Required reports whether the run must exercise the object stores, so that
// a missing server fails the test instead of skipping it: PAIMON_INTEROP=1
// (CI's full run) or PAIMON_STORES=1.
func Required() bool {
	return os.Getenv("PAIMON_INTEROP") == "1" || os.Getenv("PAIMON_STORES") == "1"
}

// binary describes where a server executable lives: its name, and its path
// relative to the install cache.
type binary struct {
	name     string // file name looked up on PATH and in $PAIMON_TEST_SERVERS
	cacheRel string // path below the cache directory
	needs    string // an interpreter the executable needs on PATH ("" for none)
}

var (
	versitygwBin   = binary{name: "versitygw", cacheRel: filepath.Join("bin", "versitygw")}
	fakeGCSBin     = binary{name: "fake-gcs-server", cacheRel: filepath.Join("bin", "fake-gcs-server")}
	azuriteBlobBin = binary{name: "azurite-blob", cacheRel: filepath.Join("azurite", "node_modules", ".bin", "azurite-blob"), needs: "node"}
)

// cacheDir is the install script's cache: $PAIMON_TEST_SERVERS_CACHE or
// ~/.cache/paimon-go-servers.
func cacheDir() string {
	if d := os.Getenv("PAIMON_TEST_SERVERS_CACHE"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "paimon-go-servers")
}

// find returns the path of the executable, searching $PAIMON_TEST_SERVERS,
// the cache and PATH in that order.
func (b binary) find() (string, error) {
	var candidates []string
	if d := os.Getenv("PAIMON_TEST_SERVERS"); d != "" {
		candidates = append(candidates, filepath.Join(d, b.name), filepath.Join(d, b.cacheRel))
	}
	if d := cacheDir(); d != "" {
		candidates = append(candidates, filepath.Join(d, b.cacheRel))
	}
	path := ""
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
			path = c
			break
		}
	}
	if path == "" {
		p, err := exec.LookPath(b.name)
		if err != nil {
			return "", fmt.Errorf("%w: %s not found in $PAIMON_TEST_SERVERS, %s or PATH", ErrNotInstalled, b.name, cacheDir())
		}
		path = p
	}
	if b.needs != "" {
		if _, err := exec.LookPath(b.needs); err != nil {
			return "", fmt.Errorf("%w: %s needs %s on PATH", ErrNotInstalled, b.name, b.needs)
		}
	}
	return path, nil
}

// require returns the executable's path, or ends the test: Fatal when the
// stores are [Required], Skip otherwise.
func (b binary) require(t testing.TB) string {
	t.Helper()
	path, err := b.find()
	if err == nil {
		return path
	}
	msg := fmt.Sprintf("%v; install with: %s", err, InstallCommand)
	if Required() {
		t.Fatal(msg + " (required: PAIMON_INTEROP=1 or PAIMON_STORES=1)")
	}
	t.Skip(msg)
	return ""
}

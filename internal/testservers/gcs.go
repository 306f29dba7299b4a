package testservers

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// GCSServer is a fake-gcs-server speaking the GCS JSON API over plain HTTP,
// without authentication. Its filesystem backend keeps objects in Dir.
type GCSServer struct {
	*Process
	// Endpoint is the server's base URL, "http://127.0.0.1:<port>".
	Endpoint string
	// Bucket is created empty when the server starts.
	Bucket string
	// Dir is the filesystem backend's root (unused by [GCSInMemory]).
	Dir string
}

// GCS starts a fake-gcs-server for the test, creates its bucket and sets
// STORAGE_EMULATOR_HOST in the test's environment (t.Setenv: the test must
// not be parallel), which gcsfs (like the Go storage client) reads
// to talk to the emulator without credentials. It is stopped at t.Cleanup.
// A missing binary skips the test (fails it when [Required]).
//
// gcsfs reads STORAGE_EMULATOR_HOST on every open; opening a gs:// URL
// before calling GCS looks for real Google credentials.
func GCS(t testing.TB) *GCSServer {
	t.Helper()
	return startGCS(t, false)
}

// GCSInMemory is [GCS] with the emulator's memory backend. Unlike the
// filesystem backend it keeps objects whose names end in "/" (directory
// markers), as GCS does, but its data does not survive Restart.
func GCSInMemory(t testing.TB) *GCSServer {
	t.Helper()
	return startGCS(t, true)
}

func startGCS(t testing.TB, memory bool) *GCSServer {
	t.Helper()
	bin := fakeGCSBin.require(t)
	dir := t.TempDir()
	s := &GCSServer{Bucket: testBucket, Dir: dir}
	backend := []string{"-backend", "filesystem", "-filesystem-root", dir}
	if memory {
		backend = []string{"-backend", "memory"}
	}
	s.Process = startProcess(t, "fake-gcs-server", bin, func(port int) []string {
		return append(backend,
			"-scheme", "http",
			"-host", "127.0.0.1",
			"-port", strconv.Itoa(port),
			// The Go storage client reads objects with XML-API paths
			// (/bucket/object), which the server routes only for requests
			// to its public host.
			"-public-host", "127.0.0.1:"+strconv.Itoa(port),
			"-external-url", "http://127.0.0.1:"+strconv.Itoa(port),
			"-log-level", "warn",
		)
	})
	s.Endpoint = "http://127.0.0.1:" + strconv.Itoa(s.Port())
	ready(t, "fake-gcs-server", s.Process, s.Env(), func() error {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost,
			s.Endpoint+"/storage/v1/b?project=paimon-test", bytes.NewReader([]byte(`{"name":"`+s.Bucket+`"}`)))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := httpClient.Do(req)
		if err != nil {
			return err
		}
		return expectStatus(resp, "create bucket "+s.Bucket, http.StatusOK)
	})
	return s
}

// URL is the gs:// URL of prefix inside the bucket; the
// emulator's address comes from STORAGE_EMULATOR_HOST.
func (s *GCSServer) URL(prefix string) string {
	return (&url.URL{Scheme: "gs", Host: s.Bucket, Path: slashPrefix(prefix)}).String()
}

// Env returns the variables a child process needs to reach the emulator,
// as "KEY=value". GCS also sets them in the test's own environment.
func (s *GCSServer) Env() []string {
	return []string{"STORAGE_EMULATOR_HOST=" + strings.TrimPrefix(s.Endpoint, "http://")}
}

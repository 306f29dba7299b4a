// Package blobcheck holds the tests that every object-store driver package
// of fs/blobfs (s3fs, gcsfs, azurefs) runs against its real server: the
// fs conformance suite, the cross-process create-if-absent race, and the
// handling of directory markers. The servers come from
// internal/testservers; this package only needs the URI of an empty
// location in the store.
package blobcheck

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
)

// Join returns uri with elem appended to its path; the query is kept.
func Join(t testing.TB, uri, elem string) string {
	t.Helper()
	u, err := url.Parse(uri)
	require.NoError(t, err)
	u.Path = "/" + path.Join(u.Path, elem)
	return u.String()
}

// OpenURI opens uri with fs.OpenURI and returns the file system rooted at
// its location. The bucket is closed when t ends.
func OpenURI(t testing.TB, uri string) fs.FS {
	t.Helper()
	fsys, name, err := fs.OpenURI(context.Background(), uri)
	require.NoError(t, err, "open %s", uri)
	t.Cleanup(func() { require.NoError(t, fsys.Close()) })
	sub, err := fs.Sub(fsys, name)
	require.NoError(t, err)
	return sub
}

// Conformance runs the fs conformance suite and Verification against a
// store; url returns the URI of a location (a relative path such as
// "conformance-3") in it, which every check opens with fs.OpenURI.
func Conformance(t *testing.T, url func(location string) string) {
	var n atomic.Int64
	fstest.Run(t, func(t *testing.T) fs.FS {
		return OpenURI(t, url(fmt.Sprintf("conformance-%d", n.Add(1))))
	}, nil)
	t.Run("Verification", func(t *testing.T) {
		Verification(t, OpenURI(t, url("verification")))
	})
}

// baseEnv hands the store's base URI from the test process to the child
// processes of fstest.RunCrossProcess, which re-run the calling test: a
// child finds it set and must not start a server of its own.
const baseEnv = "PAIMON_STORETEST_XPROC_BASE"

// CrossProcess runs fstest.RunCrossProcess against the store. start runs
// in the test process only: it starts the server, leaves in the
// environment (t.Setenv) whatever a child needs to reach it, and returns
// the URI of an empty location. Every racing process opens the location
// with fs.OpenURI.
func CrossProcess(t *testing.T, start func(t *testing.T) string, opts *fstest.CrossProcessOptions) {
	base := os.Getenv(baseEnv)
	if base == "" {
		base = start(t)
		t.Setenv(baseEnv, base)
	}
	fstest.RunCrossProcess(t, func(t *testing.T, dir string) fs.FS {
		return OpenURI(t, Join(t, base, "xproc-"+filepath.Base(dir)))
	}, opts)
}

package gcsfs_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs/gcsfs"
	"github.com/paimon-go/paimon-go/fs/blobfs/internal/blobcheck"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/internal/testservers"
)

func TestConformance(t *testing.T) {
	blobcheck.Conformance(t, testservers.GCS(t).URL)
}

// TestCrossProcess races 4 processes × 2 goroutines for 100 snapshot
// names through gs:// URIs; every name must have exactly one winner.
func TestCrossProcess(t *testing.T) {
	blobcheck.CrossProcess(t, func(t *testing.T) string {
		return testservers.GCS(t).URL("race")
	}, &fstest.CrossProcessOptions{Processes: 4, Goroutines: 2, Names: 100})
}

func TestMarkers(t *testing.T) {
	ctx := context.Background()
	srv := testservers.GCSInMemory(t)
	root, err := gcsfs.Open(ctx, srv.Bucket, "", nil)
	require.NoError(t, err)
	defer root.Close()
	// fake-gcs-server v1.56 with its filesystem backend answers 200 to the
	// upload of "probe/" but keeps nothing; its memory backend, like GCS,
	// keeps the object and lists it as a prefix.
	require.NoError(t, root.Bucket().WriteAll(ctx, "probe/", nil, nil))
	ok, err := root.Bucket().Exists(ctx, "probe/")
	require.NoError(t, err)
	require.True(t, ok, "the emulator must keep objects named \"dir/\"")
	require.NoError(t, root.Bucket().Delete(ctx, "probe/"))
	blobcheck.Markers(t, func(t *testing.T, prefix string) fs.FS {
		return blobcheck.OpenURI(t, srv.URL(prefix))
	}, []blobcheck.Marker{
		// What the console's "create folder" and Hadoop's GCS connector
		// write; gcsblob stores the key unchanged.
		{Name: "slash", Put: func(t *testing.T, key string) {
			require.NoError(t, root.Bucket().WriteAll(ctx, key+"/", nil, nil))
		}},
	})
}

// TestOpen reaches the emulator through STORAGE_EMULATOR_HOST alone
// (testservers.GCS sets it), both with Open and with a URI.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	srv := testservers.GCS(t)
	fsys, err := gcsfs.Open(ctx, srv.Bucket, "wh", nil)
	require.NoError(t, err)
	defer fsys.Close()
	require.NoError(t, fs.WriteFile(ctx, fsys, "db.db/t/snapshot/LATEST", []byte("1"), nil))
	ok, err := fsys.Bucket().Exists(ctx, "wh/db.db/t/snapshot/LATEST")
	require.NoError(t, err)
	require.True(t, ok)

	sub := blobcheck.OpenURI(t, srv.URL("wh/db.db"))
	b, err := fs.ReadFile(ctx, sub, "t/snapshot/LATEST")
	require.NoError(t, err)
	require.Equal(t, "1", string(b))

	_, err = gcsfs.Open(ctx, "", "", nil)
	require.Error(t, err)
}

// TestURIErrors needs no server: a URI the opener rejects fails before any
// credential lookup.
func TestURIErrors(t *testing.T) {
	for _, tt := range []struct{ uri, want string }{
		{"gs://bucket/wh?bogus=1", `unknown query parameter "bogus"`},
		{"gs://bucket/wh?anonymous=maybe", "anonymous"},
		{"gs:///wh", "without a bucket"},
	} {
		t.Run(tt.uri, func(t *testing.T) {
			_, _, err := fs.OpenURI(context.Background(), tt.uri)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

package azurefs_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	"gocloud.dev/blob/azureblob"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs/azurefs"
	"github.com/paimon-go/paimon-go/fs/blobfs/internal/blobcheck"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/internal/testservers"
)

func TestConformance(t *testing.T) {
	blobcheck.Conformance(t, testservers.Azure(t).URL)
}

// TestCrossProcess races 4 processes × 2 goroutines for 100 snapshot
// names through azblob:// URIs; every name must have exactly one winner.
func TestCrossProcess(t *testing.T) {
	blobcheck.CrossProcess(t, func(t *testing.T) string {
		return testservers.Azure(t).URL("race")
	}, &fstest.CrossProcessOptions{Processes: 4, Goroutines: 2, Names: 100})
}

// TestMarkers covers the ways a directory gets marked on Azure: a "dir/"
// key written through gocloud (stored escaped, "dir__0x2f__"), the same
// key written by another client (stored as is), and the zero-byte
// hdi_isfolder blobs of Hadoop's WASB/ABFS connectors.
func TestMarkers(t *testing.T) {
	ctx := context.Background()
	srv := testservers.Azure(t)
	root, err := azurefs.Open(ctx, srv.Container, "", nil)
	require.NoError(t, err)
	defer root.Close()
	put := func(t *testing.T, name string, header http.Header) {
		t.Helper()
		h := http.Header{"X-Ms-Blob-Type": {"BlockBlob"}}
		for k, v := range header {
			h[k] = v
		}
		resp, err := srv.Do(ctx, http.MethodPut, name, nil, h)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusCreated, resp.StatusCode)
	}
	blobcheck.Markers(t, func(t *testing.T, prefix string) fs.FS {
		return blobcheck.OpenURI(t, srv.URL(prefix))
	}, []blobcheck.Marker{
		{Name: "gocloud-slash", Put: func(t *testing.T, key string) {
			require.NoError(t, root.Bucket().WriteAll(ctx, key+"/", nil, nil))
		}},
		{Name: "raw-slash", Put: func(t *testing.T, key string) {
			put(t, key+"/", nil)
		}},
		{Name: "hdi_isfolder", Put: func(t *testing.T, key string) {
			put(t, key, http.Header{"X-Ms-Meta-Hdi_isfolder": {"true"}})
		}},
		{Name: "gocloud-hdi_isfolder", Put: func(t *testing.T, key string) {
			require.NoError(t, root.Bucket().WriteAll(ctx, key, nil,
				&blob.WriterOptions{Metadata: map[string]string{"hdi_isfolder": "true"}}))
		}},
	})
}

// TestOpen reaches Azurite through the AZURE_STORAGE_* environment alone
// (testservers.Azure sets it), through explicit service options, and
// through a URI.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	srv := testservers.Azure(t)
	fsys, err := azurefs.Open(ctx, srv.Container, "wh", nil)
	require.NoError(t, err)
	defer fsys.Close()
	require.NoError(t, fs.WriteFile(ctx, fsys, "db.db/t/snapshot/LATEST", []byte("1"), nil))
	ok, err := fsys.Bucket().Exists(ctx, "wh/db.db/t/snapshot/LATEST")
	require.NoError(t, err)
	require.True(t, ok)

	t.Setenv("AZURE_STORAGE_DOMAIN", "127.0.0.1:1") // a dead endpoint; the options win
	fsys2, err := azurefs.Open(ctx, srv.Container, "wh/db.db", &azurefs.Options{Service: &azureblob.ServiceURLOptions{
		AccountName: srv.Account, StorageDomain: srv.Endpoint[len("http://"):], Protocol: "http", IsLocalEmulator: true,
	}})
	require.NoError(t, err)
	defer fsys2.Close()
	b, err := fs.ReadFile(ctx, fsys2, "t/snapshot/LATEST")
	require.NoError(t, err)
	require.Equal(t, "1", string(b))

	sub := blobcheck.OpenURI(t, srv.URL("wh/db.db"))
	b, err = fs.ReadFile(ctx, sub, "t/snapshot/LATEST")
	require.NoError(t, err)
	require.Equal(t, "1", string(b))

	_, err = azurefs.Open(ctx, "", "", nil)
	require.Error(t, err)
}

// TestURIErrors needs no server.
func TestURIErrors(t *testing.T) {
	t.Setenv("AZURE_STORAGE_ACCOUNT", "acct")
	for _, tt := range []struct{ uri, want string }{
		{"azblob://container/wh?bogus=1", `unknown query parameter "bogus"`},
		{"azblob://container/wh?localemu=maybe", "maybe"},
		{"azblob:///wh", "without a bucket"},
	} {
		t.Run(tt.uri, func(t *testing.T) {
			_, _, err := fs.OpenURI(context.Background(), tt.uri)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

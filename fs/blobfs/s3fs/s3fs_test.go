package s3fs_test

import (
	"context"
	"io"
	iofs "io/fs"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs"
	"github.com/paimon-go/paimon-go/fs/blobfs/internal/blobcheck"
	"github.com/paimon-go/paimon-go/fs/blobfs/s3fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/internal/testservers"
)

func TestConformance(t *testing.T) {
	blobcheck.Conformance(t, testservers.S3(t).URL)
}

// TestCrossProcess races 4 processes × 2 goroutines for 100 snapshot
// names through s3:// URIs; every name must have exactly one winner.
func TestCrossProcess(t *testing.T) {
	blobcheck.CrossProcess(t, func(t *testing.T) string {
		return testservers.S3(t).URL("race")
	}, &fstest.CrossProcessOptions{Processes: 4, Goroutines: 2, Names: 100})
}

func TestMarkers(t *testing.T) {
	ctx := context.Background()
	srv := testservers.S3(t)
	root, err := s3fs.Open(ctx, srv.Bucket, "", nil)
	require.NoError(t, err)
	defer root.Close()
	blobcheck.Markers(t, func(t *testing.T, prefix string) fs.FS {
		return blobcheck.OpenURI(t, srv.URL(prefix))
	}, []blobcheck.Marker{
		{Name: "gocloud", Put: func(t *testing.T, key string) {
			require.NoError(t, root.Bucket().WriteAll(ctx, key+"/", nil, nil))
		}},
		{Name: "raw", Put: func(t *testing.T, key string) {
			resp, err := srv.Do(ctx, http.MethodPut, key+"/", nil, nil)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
		}},
	})
}

// TestOpen configures the client from the AWS environment alone (which
// testservers.S3 sets: keys, region, AWS_ENDPOINT_URL_S3), and lets
// Options override the environment.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	srv := testservers.S3(t)

	fsys, err := s3fs.Open(ctx, srv.Bucket, "wh", nil)
	require.NoError(t, err)
	require.NoError(t, fs.WriteFile(ctx, fsys, "db.db/t/snapshot/LATEST", []byte("1"), nil))
	require.NoError(t, fsys.Close())
	requireObject(t, srv, "wh/db.db/t/snapshot/LATEST", "1")

	// A dead endpoint in the environment; the options point at the server.
	t.Setenv("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:1")
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	t.Setenv("AWS_REGION", "eu-north-1")
	fsys, err = s3fs.Open(ctx, srv.Bucket, "wh", &s3fs.Options{
		Endpoint: srv.Endpoint, Region: srv.Region, UsePathStyle: true,
	})
	require.NoError(t, err)
	defer fsys.Close()
	b, err := fs.ReadFile(ctx, fsys, "db.db/t/snapshot/LATEST")
	require.NoError(t, err)
	require.Equal(t, "1", string(b))

	// The URI's query overrides the environment too.
	sub := blobcheck.OpenURI(t, srv.URL("wh/db.db"))
	b, err = fs.ReadFile(ctx, sub, "t/snapshot/LATEST")
	require.NoError(t, err)
	require.Equal(t, "1", string(b))

	_, err = s3fs.Open(ctx, "", "", nil)
	require.Error(t, err)
}

// TestServerRestart stops the server under an open file system: reads
// fail (after bounded retries) without hanging, and work again once the
// server is back.
func TestServerRestart(t *testing.T) {
	ctx := context.Background()
	srv := testservers.S3(t)
	fsys, err := s3fs.Open(ctx, srv.Bucket, "wh", &s3fs.Options{FS: &blobfs.Options{
		Retry: &blobfs.RetryPolicy{Attempts: 2, Backoff: time.Millisecond},
	}})
	require.NoError(t, err)
	defer fsys.Close()
	require.NoError(t, fs.WriteFile(ctx, fsys, "f", []byte("data"), nil))

	srv.Stop()
	_, err = fs.ReadFile(ctx, fsys, "f")
	require.Error(t, err)
	require.NotErrorIs(t, err, iofs.ErrNotExist)
	srv.Restart()
	b, err := fs.ReadFile(ctx, fsys, "f")
	require.NoError(t, err)
	require.Equal(t, "data", string(b))
}

// TestURIErrors needs no server: a URI the opener rejects fails at once,
// without loading credentials or reaching the network.
func TestURIErrors(t *testing.T) {
	for _, tt := range []struct{ uri, want string }{
		{"s3://bucket/wh?bogus=1", `unknown query parameter "bogus"`},
		{"s3://bucket/wh?use_path_style=maybe", "use_path_style"},
		{"s3:///wh", "without a bucket"},
	} {
		t.Run(tt.uri, func(t *testing.T) {
			_, _, err := fs.OpenURI(context.Background(), tt.uri)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

// requireObject reads key from the server directly.
func requireObject(t *testing.T, srv *testservers.S3Server, key, want string) {
	t.Helper()
	resp, err := srv.Do(context.Background(), http.MethodGet, key, nil, nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	require.Equal(t, want, string(body))
}

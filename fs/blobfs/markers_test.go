package blobfs_test

import (
	"context"
	iofs "io/fs"
	"testing"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs"
)

// TestEscapedMarkers emulates azureblob, which stores the trailing slash of
// a "dir/" key escaped: such markers are not listed under "dir/", but the
// parent lists them as objects named "dir/". They must still act as
// directories, once each, and RemoveAll must delete them.
func TestEscapedMarkers(t *testing.T) {
	ctx := context.Background()
	b, d := newFaultBucket(t, true)
	for _, key := range []string{"wh/empty.db/", "wh/full.db/", "wh/full.db/t/", "wh/full.db/t/f"} {
		require.NoError(t, b.WriteAll(ctx, key, []byte{}, nil))
	}
	ok, err := b.Exists(ctx, "wh/empty.db/")
	require.NoError(t, err)
	require.True(t, ok)

	for _, tt := range []struct {
		name    string
		escaped bool // Markers.EscapedSlash declared
	}{{"declared", true}, {"undeclared", false}} {
		t.Run(tt.name, func(t *testing.T) {
			fsys, err := blobfs.New(b, "wh", &blobfs.Options{Markers: blobfs.Markers{EscapedSlash: tt.escaped}})
			require.NoError(t, err)
			infos, err := fs.ReadDir(ctx, fsys, ".")
			require.NoError(t, err)
			require.Equal(t, []fs.FileInfo{{Name: "empty.db", IsDir: true}, {Name: "full.db", IsDir: true}}, infos,
				"listing maps escaped markers to directories, merged with prefixes")
			infos, err = fs.ReadDir(ctx, fsys, "full.db")
			require.NoError(t, err)
			require.Equal(t, []fs.FileInfo{{Name: "t", IsDir: true}}, infos)

			fi, err := fsys.Stat(ctx, "empty.db")
			if tt.escaped {
				require.NoError(t, err)
				require.True(t, fi.IsDir)
			} else {
				require.ErrorIs(t, err, iofs.ErrNotExist, "without the declaration the marker is invisible to Stat")
			}
		})
	}

	// Another client's "raw.db/" marker, stored unescaped: the driver
	// cannot address it, DeleteRaw can.
	require.NoError(t, d.b.WriteAll(ctx, "wh/raw.db/", []byte{}, nil))
	var raw []string
	fsys, err := blobfs.New(b, "wh", &blobfs.Options{Markers: blobfs.Markers{
		EscapedSlash: true,
		DeleteRaw: func(ctx context.Context, _ *blob.Bucket, key string) error {
			raw = append(raw, key)
			if err := d.b.Delete(ctx, key); gcerrors.Code(err) != gcerrors.NotFound {
				return err
			}
			return nil
		},
	}})
	require.NoError(t, err)
	fi, err := fsys.Stat(ctx, "raw.db")
	require.NoError(t, err)
	require.True(t, fi.IsDir)
	for _, dir := range []string{"empty.db", "full.db", "raw.db"} {
		require.NoError(t, fs.RemoveAll(ctx, fsys, dir))
	}
	require.Equal(t, []string{"wh/full.db/t/", "wh/raw.db/"}, raw, "DeleteRaw is asked for listed slash keys")
	infos, err := fs.ReadDir(ctx, fsys, ".")
	require.NoError(t, err)
	require.Empty(t, infos)
	objs, _, err := d.b.ListPage(ctx, blob.FirstPageToken, 10, nil)
	require.NoError(t, err)
	require.Empty(t, objs, "RemoveAll deletes escaped and raw markers too")
}

// TestFolderMarkers checks the hooks for markers that look like files
// (Azure's zero-byte hdi_isfolder blobs named like the directory).
func TestFolderMarkers(t *testing.T) {
	ctx := context.Background()
	bucket := memBucket(t)
	folder := &blob.WriterOptions{Metadata: map[string]string{"hdi_isfolder": "true"}}
	require.NoError(t, bucket.WriteAll(ctx, "wh/db.db", []byte{}, folder))
	require.NoError(t, bucket.WriteAll(ctx, "wh/db.db/t", []byte{}, folder))
	require.NoError(t, bucket.WriteAll(ctx, "wh/db.db/t/f", []byte("data"), nil))
	require.NoError(t, bucket.WriteAll(ctx, "wh/db.db/empty", []byte{}, nil))
	markers := blobfs.Markers{
		// memblob lists no metadata; the test knows its markers by name.
		Listed: func(o *blob.ListObject) bool { return o.Size == 0 && (o.Key == "wh/db.db" || o.Key == "wh/db.db/t") },
		Attributes: func(a *blob.Attributes) bool {
			return a.Size == 0 && a.Metadata["hdi_isfolder"] == "true"
		},
	}
	fsys, err := blobfs.New(bucket, "wh", &blobfs.Options{Markers: markers})
	require.NoError(t, err)

	infos, err := fs.ReadDir(ctx, fsys, ".")
	require.NoError(t, err)
	require.Equal(t, []fs.FileInfo{{Name: "db.db", IsDir: true}}, infos, "marker and prefix merged")
	infos, err = fs.ReadDir(ctx, fsys, "db.db")
	require.NoError(t, err)
	require.Len(t, infos, 2)
	require.Equal(t, fs.FileInfo{Name: "t", IsDir: true}, infos[1])
	require.Equal(t, "empty", infos[0].Name, "an empty file without the metadata stays a file")
	require.False(t, infos[0].IsDir)

	fi, err := fsys.Stat(ctx, "db.db/t")
	require.NoError(t, err)
	require.Equal(t, fs.FileInfo{Name: "t", IsDir: true}, fi)
	fi, err = fsys.Stat(ctx, "db.db/empty")
	require.NoError(t, err)
	require.False(t, fi.IsDir)
	_, err = fsys.Open(ctx, "db.db/t")
	require.Error(t, err, "a directory cannot be opened")
	require.NotErrorIs(t, err, iofs.ErrNotExist)

	require.NoError(t, fs.RemoveAll(ctx, fsys, "db.db"))
	objs, _, err := bucket.ListPage(ctx, blob.FirstPageToken, 10, nil)
	require.NoError(t, err)
	require.Empty(t, objs)
}

package blobcheck

import (
	"context"
	iofs "io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
)

// Marker is one way a store or a tool marks an empty directory.
type Marker struct {
	Name string
	// Put creates the marker for the directory whose object key is key
	// (bucket-relative, without trailing slash).
	Put func(t *testing.T, key string)
}

// Markers checks, for each kind of marker, that marked directories behave
// as directories: listed once in their parent (merged with the common
// prefix when files exist below), empty when listed, directories to Stat,
// not openable, and gone after RemoveAll. open returns the file system
// whose names start at the bucket key prefix.
func Markers(t *testing.T, open func(t *testing.T, prefix string) fs.FS, markers []Marker) {
	ctx := context.Background()
	for _, m := range markers {
		t.Run(m.Name, func(t *testing.T) {
			prefix := "markers/" + m.Name
			fsys := open(t, prefix)
			m.Put(t, prefix+"/empty.db")
			m.Put(t, prefix+"/full.db")
			m.Put(t, prefix+"/full.db/t")
			require.NoError(t, fs.WriteFile(ctx, fsys, "full.db/t/f", []byte("data"), nil))

			infos, err := fs.ReadDir(ctx, fsys, ".")
			require.NoError(t, err)
			require.Equal(t, []fs.FileInfo{{Name: "empty.db", IsDir: true}, {Name: "full.db", IsDir: true}}, infos)
			infos, err = fs.ReadDir(ctx, fsys, "empty.db")
			require.NoError(t, err)
			require.Empty(t, infos)
			infos, err = fs.ReadDir(ctx, fsys, "full.db")
			require.NoError(t, err)
			require.Equal(t, []fs.FileInfo{{Name: "t", IsDir: true}}, infos)
			infos, err = fs.ReadDir(ctx, fsys, "full.db/t")
			require.NoError(t, err)
			require.Len(t, infos, 1)
			require.Equal(t, "f", infos[0].Name)
			require.EqualValues(t, 4, infos[0].Size)

			for _, dir := range []string{"empty.db", "full.db", "full.db/t"} {
				fi, err := fsys.Stat(ctx, dir)
				require.NoError(t, err, dir)
				require.True(t, fi.IsDir, dir)
				_, err = fsys.Open(ctx, dir)
				require.Error(t, err, "open %s", dir)
			}

			require.NoError(t, fs.RemoveAll(ctx, fsys, "empty.db"))
			require.NoError(t, fs.RemoveAll(ctx, fsys, "full.db"))
			infos, err = fs.ReadDir(ctx, fsys, ".")
			require.NoError(t, err)
			require.Empty(t, infos, "RemoveAll leaves no marker behind")
			_, err = fsys.Stat(ctx, "empty.db")
			require.ErrorIs(t, err, iofs.ErrNotExist)
		})
	}
}

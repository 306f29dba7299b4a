package memfs_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/memfs"
)

func TestConformance(t *testing.T) {
	tests := []struct {
		name  string
		newFS func(t *testing.T) fs.FS
	}{
		{"plain", func(t *testing.T) fs.FS { return memfs.New(nil) }},
		{"Sub", func(t *testing.T) fs.FS {
			sub, err := fs.Sub(memfs.New(nil), "a/b")
			require.NoError(t, err)
			return sub
		}},
		{"nested Sub", func(t *testing.T) fs.FS {
			sub, err := fs.Sub(memfs.New(nil), "a")
			require.NoError(t, err)
			sub, err = fs.Sub(sub, "b/c")
			require.NoError(t, err)
			return sub
		}},
		{"CountingFS", func(t *testing.T) fs.FS { return fstest.NewCountingFS(memfs.New(nil)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fstest.Run(t, tt.newFS, &fstest.Options{RaceGoroutines: 16, RaceNames: 64})
		})
	}
}

// TestOpenSnapshot checks that an open File keeps the bytes it opened when
// the file is replaced, like a descriptor of a renamed-over local file.
func TestOpenSnapshot(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	require.NoError(t, fs.WriteFile(ctx, fsys, "LATEST", []byte("1"), nil))
	f, err := fsys.Open(ctx, "LATEST")
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, fs.WriteFile(ctx, fsys, "LATEST", []byte("22"), nil))
	buf := make([]byte, 1)
	_, err = f.ReadAt(buf, 0)
	require.NoError(t, err)
	require.Equal(t, "1", string(buf))
	require.EqualValues(t, 1, f.Size())
}

func TestClock(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	fsys := memfs.New(&memfs.Options{Clock: func() time.Time { return at }})
	require.NoError(t, fs.WriteFile(ctx, fsys, "d/f", nil, nil))
	for _, name := range []string{"d", "d/f"} {
		fi, err := fsys.Stat(ctx, name)
		require.NoError(t, err)
		require.Equal(t, at, fi.ModTime, name)
	}
}

func TestDirectories(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	require.NoError(t, fs.WriteFile(ctx, fsys, "d/f", []byte("x"), nil))

	// Like a local file system, directories outlive their last file.
	require.NoError(t, fsys.Remove(ctx, "d/f"))
	fi, err := fsys.Stat(ctx, "d")
	require.NoError(t, err)
	require.True(t, fi.IsDir)
	require.NoError(t, fsys.Remove(ctx, "d"), "empty directories can be removed")

	require.NoError(t, fs.WriteFile(ctx, fsys, "e/f", []byte("x"), nil))
	require.ErrorIs(t, fsys.Remove(ctx, "e"), memfs.ErrNotEmpty)

	// A file cannot be a parent, and a directory cannot be replaced.
	require.ErrorIs(t, fs.WriteFile(ctx, fsys, "e/f/g", nil, nil), fs.ErrNotDir)
	require.ErrorIs(t, fs.WriteFile(ctx, fsys, "e", nil, nil), fs.ErrIsDir)
	require.ErrorIs(t, fs.MkdirAll(ctx, fsys, "e/f"), fs.ErrNotDir)
	_, err = fsys.Open(ctx, "e")
	require.ErrorIs(t, err, fs.ErrIsDir)
	for _, err := range fsys.List(ctx, "e/f") {
		require.ErrorIs(t, err, fs.ErrNotDir)
	}
}

func TestOpenURI(t *testing.T) {
	ctx := context.Background()
	require.NoError(t, fs.WriteFile(ctx, memfs.Named("uri-test"), "wh/db.db/t/x", []byte("hi"), nil))

	fsys, name, err := fs.OpenURI(ctx, "mem://uri-test/wh/db.db")
	require.NoError(t, err)
	require.Equal(t, "wh/db.db", name)
	require.Same(t, memfs.Named("uri-test"), fsys)
	b, err := fs.ReadFile(ctx, fsys, name+"/t/x")
	require.NoError(t, err)
	require.Equal(t, "hi", string(b))

	_, name, err = fs.OpenURI(ctx, "MEM://uri-test")
	require.NoError(t, err)
	require.Equal(t, ".", name)

	_, _, err = fs.OpenURI(ctx, "mem://uri-test/a//b")
	require.ErrorIs(t, err, fs.ErrInvalidName)
}

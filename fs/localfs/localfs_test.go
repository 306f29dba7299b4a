package localfs_test

import (
	"context"
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/localfs"
)

func newFS(t *testing.T, opts *localfs.Options) *localfs.FS {
	t.Helper()
	fsys, err := localfs.New(t.TempDir(), opts)
	require.NoError(t, err)
	return fsys
}

func TestConformance(t *testing.T) {
	tests := []struct {
		name  string
		newFS func(t *testing.T) fs.FS
	}{
		{"default", func(t *testing.T) fs.FS { return newFS(t, nil) }},
		{"NoSync", func(t *testing.T) fs.FS { return newFS(t, &localfs.Options{NoSync: true}) }},
		{"root not created yet", func(t *testing.T) fs.FS {
			fsys, err := localfs.New(filepath.Join(t.TempDir(), "does", "not", "exist"), nil)
			require.NoError(t, err)
			return fsys
		}},
		{"Sub", func(t *testing.T) fs.FS {
			sub, err := fs.Sub(newFS(t, nil), "warehouse/db.db")
			require.NoError(t, err)
			return sub
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fstest.Run(t, tt.newFS, nil)
		})
	}
}

// TestCrossProcess races OS processes on one directory: link(2) must give
// exactly one winner per name, which an in-process lock could not.
func TestCrossProcess(t *testing.T) {
	fstest.RunCrossProcess(t, func(t *testing.T, dir string) fs.FS {
		fsys, err := localfs.New(dir, &localfs.Options{NoSync: true})
		require.NoError(t, err)
		return fsys
	}, nil)
}

// TestCrossProcessSync is the same race with fsync on (the default), fewer
// names because every create syncs.
func TestCrossProcessSync(t *testing.T) {
	fstest.RunCrossProcess(t, func(t *testing.T, dir string) fs.FS {
		fsys, err := localfs.New(dir, nil)
		require.NoError(t, err)
		return fsys
	}, &fstest.CrossProcessOptions{Processes: 3, Names: 20})
}

// TestTempFileName pins the temporary name: hidden (leading dot) so that
// Java's "snapshot-*" scans never see it, and shaped like Java Paimon's own
// Path.createTempPath so orphan cleaners treat both alike.
func TestTempFileName(t *testing.T) {
	ctx := context.Background()
	fsys := newFS(t, &localfs.Options{NoSync: true})
	for _, opts := range []*fs.CreateOptions{nil, {IfNotExist: true}} {
		w, err := fsys.Create(ctx, "snapshot/snapshot-7", opts)
		require.NoError(t, err)
		_, err = w.Write([]byte("{}"))
		require.NoError(t, err)

		infos, err := fs.ReadDir(ctx, fsys, "snapshot")
		require.NoError(t, err)
		require.Len(t, infos, 1)
		require.Regexp(t, regexp.MustCompile(`^\.snapshot-7\.[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.tmp$`), infos[0].Name)

		require.NoError(t, w.Abort())
		infos, err = fs.ReadDir(ctx, fsys, "snapshot")
		require.NoError(t, err)
		require.Empty(t, infos)
	}
}

func TestNew(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		_, err := localfs.New("", nil)
		require.Error(t, err)
	})
	t.Run("root is a file", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "file")
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o666))
		_, err := localfs.New(p, nil)
		require.ErrorIs(t, err, fs.ErrNotDir)
	})
	t.Run("relative root is made absolute", func(t *testing.T) {
		fsys, err := localfs.New(".", nil)
		require.NoError(t, err)
		require.True(t, filepath.IsAbs(fsys.Root()))
	})
}

func TestCreateUnderFile(t *testing.T) {
	ctx := context.Background()
	fsys := newFS(t, nil)
	require.NoError(t, fs.WriteFile(ctx, fsys, "f", []byte("x"), nil))
	_, err := fsys.Create(ctx, "f/child", nil)
	require.ErrorIs(t, err, fs.ErrNotDir)
	var pe *iofs.PathError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "f/child", pe.Path)
}

func TestOpenDirectory(t *testing.T) {
	ctx := context.Background()
	fsys := newFS(t, nil)
	require.NoError(t, fs.MkdirAll(ctx, fsys, "d"))
	_, err := fsys.Open(ctx, "d")
	require.ErrorIs(t, err, fs.ErrIsDir)
}

// TestVisibleToOS checks that files land where the OS expects them, which
// is what lets Java and Go share a warehouse directory.
func TestVisibleToOS(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	require.NoError(t, fs.WriteFile(ctx, fsys, "db.db/t/snapshot/LATEST", []byte("3"), nil))
	got, err := os.ReadFile(filepath.Join(root, "db.db", "t", "snapshot", "LATEST"))
	require.NoError(t, err)
	require.Equal(t, "3", string(got))

	require.NoError(t, os.WriteFile(filepath.Join(root, "db.db", "t", "snapshot", "EARLIEST"), []byte("1"), 0o666))
	b, err := fs.ReadFile(ctx, fsys, "db.db/t/snapshot/EARLIEST")
	require.NoError(t, err)
	require.Equal(t, "1", string(b))
}

func TestSymlinkedDirectory(t *testing.T) {
	ctx := context.Background()
	root, other := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "data"), []byte("abc"), 0o666))
	if err := os.Symlink(other, filepath.Join(root, "linked")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	infos, err := fs.ReadDir(ctx, fsys, ".")
	require.NoError(t, err)
	require.Len(t, infos, 1)
	require.True(t, infos[0].IsDir, "symlinks are followed")
	b, err := fs.ReadFile(ctx, fsys, "linked/data")
	require.NoError(t, err)
	require.Equal(t, "abc", string(b))
}

func TestOpenURI(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rel := filepath.ToSlash(dir)[1:] // the name inside the FS rooted at "/"
	if filepath.Separator != '/' {
		t.Skip("URI forms below are POSIX paths")
	}
	tests := []struct {
		name, uri string
	}{
		{"file URL", "file://" + dir},
		{"file URL localhost", "file://localhost" + dir},
		{"Hadoop style", "file:" + dir},
		{"plain path", dir},
		{"plain path with trailing slash", dir + "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys, name, err := fs.OpenURI(ctx, tt.uri)
			require.NoError(t, err)
			defer fsys.Close()
			require.Equal(t, rel, name)
			require.IsType(t, &localfs.FS{}, fsys)
			require.Equal(t, "/", fsys.(*localfs.FS).Root())
		})
	}
	t.Run("round trip through Sub", func(t *testing.T) {
		fsys, name, err := fs.OpenURI(ctx, "file://"+dir)
		require.NoError(t, err)
		wh, err := fs.Sub(fsys, name)
		require.NoError(t, err)
		require.NoError(t, fs.WriteFile(ctx, wh, "x", []byte("y"), nil))
		b, err := os.ReadFile(filepath.Join(dir, "x"))
		require.NoError(t, err)
		require.Equal(t, "y", string(b))
	})
	t.Run("percent in plain path is literal", func(t *testing.T) {
		_, name, err := fs.OpenURI(ctx, dir+"/a%20b")
		require.NoError(t, err)
		require.Equal(t, rel+"/a%20b", name)
	})
	t.Run("percent in file URL is decoded", func(t *testing.T) {
		_, name, err := fs.OpenURI(ctx, "file://"+dir+"/a%20b")
		require.NoError(t, err)
		require.Equal(t, rel+"/a b", name)
	})
	t.Run("root", func(t *testing.T) {
		_, name, err := fs.OpenURI(ctx, "file:///")
		require.NoError(t, err)
		require.Equal(t, ".", name)
	})
	t.Run("remote host refused", func(t *testing.T) {
		_, _, err := fs.OpenURI(ctx, "file://otherhost/tmp")
		require.Error(t, err)
	})
}

// TestLargeFileWriteback writes a file several write-back chunks long (the
// writer asks the kernel to start writing each 8 MiB as it goes) in odd
// pieces and reads back the same bytes.
func TestLargeFileWriteback(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	want := make([]byte, 20<<20+12345)
	for i := range want {
		want[i] = byte(i*7 + i>>11)
	}
	w, err := fsys.Create(ctx, "data/big.bin", nil)
	require.NoError(t, err)
	for off := 0; off < len(want); {
		n := min(len(want)-off, 1<<20+off%997)
		_, err := w.Write(want[off : off+n])
		require.NoError(t, err)
		off += n
	}
	require.NoError(t, w.Close())
	got, err := os.ReadFile(filepath.Join(root, "data", "big.bin"))
	require.NoError(t, err)
	require.Equal(t, want, got)
}

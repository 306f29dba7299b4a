package fs_test

import (
	"context"
	"errors"
	iofs "io/fs"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
)

// bare hides every optional capability of the wrapped FS, so the helpers
// must use their generic fallbacks (as they would on a minimal third-party
// implementation).
type bare struct{ fs.FS }

func TestConformanceWithoutCapabilities(t *testing.T) {
	t.Run("memfs", func(t *testing.T) {
		fstest.Run(t, func(t *testing.T) fs.FS { return bare{memfs.New(nil)} }, nil)
	})
	t.Run("localfs", func(t *testing.T) {
		fstest.Run(t, func(t *testing.T) fs.FS {
			fsys, err := localfs.New(t.TempDir(), &localfs.Options{NoSync: true})
			require.NoError(t, err)
			return bare{fsys}
		}, nil)
	})
	t.Run("Sub over bare", func(t *testing.T) {
		fstest.Run(t, func(t *testing.T) fs.FS {
			sub, err := fs.Sub(bare{memfs.New(nil)}, "x")
			require.NoError(t, err)
			return sub
		}, nil)
	})
}

func TestValidName(t *testing.T) {
	tests := []struct {
		name      string
		file, dir bool
	}{
		{"a", true, true},
		{"a/b/c.parquet", true, true},
		{".hidden", true, true},
		{"a/..b", true, true},
		{"with space/ü", true, true},
		{".", false, true},
		{"", false, false},
		{"/a", false, false},
		{"a/", false, false},
		{"..", false, false},
		{"a/../b", false, false},
		{"./a", false, false},
		{"a//b", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.file, fs.ValidName(tt.name))
			require.Equal(t, tt.dir, fs.ValidDir(tt.name))
			if tt.file {
				require.NoError(t, fs.CheckName("op", tt.name))
			} else {
				err := fs.CheckName("op", tt.name)
				require.ErrorIs(t, err, fs.ErrInvalidName)
				require.ErrorIs(t, err, iofs.ErrInvalid)
				var pe *iofs.PathError
				require.ErrorAs(t, err, &pe)
				require.Equal(t, "op", pe.Op)
				require.Equal(t, tt.name, pe.Path)
			}
		})
	}
	// The reason is spelled out.
	require.ErrorContains(t, fs.CheckName("open", "/etc/passwd"), "absolute")
	require.ErrorContains(t, fs.CheckName("open", "a/../../b"), `".."`)
}

func TestJoin(t *testing.T) {
	tests := []struct{ dir, name, want string }{
		{".", "a", "a"},
		{"", "a", "a"},
		{"d", ".", "d"},
		{"d", "a/b", "d/a/b"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, fs.Join(tt.dir, tt.name))
	}
}

func TestSub(t *testing.T) {
	ctx := context.Background()
	base := memfs.New(nil)
	sub, err := fs.Sub(base, "a/b")
	require.NoError(t, err)

	same, err := fs.Sub(base, ".")
	require.NoError(t, err)
	require.Same(t, base, same)
	_, err = fs.Sub(base, "../x")
	require.ErrorIs(t, err, fs.ErrInvalidName)

	// Paths in errors are relative to the sub root, also when reported by
	// Writer.Close.
	require.NoError(t, fs.WriteFile(ctx, sub, "s/snapshot-1", nil, &fs.CreateOptions{IfNotExist: true}))
	err = fs.WriteFile(ctx, sub, "s/snapshot-1", nil, &fs.CreateOptions{IfNotExist: true})
	var pe *iofs.PathError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "s/snapshot-1", pe.Path)
	require.ErrorIs(t, err, iofs.ErrExist)

	// Nested subs flatten.
	nested, err := fs.Sub(sub, "s")
	require.NoError(t, err)
	_, err = nested.Open(ctx, "missing")
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "missing", pe.Path)
	ok, err := fs.Exists(ctx, nested, "snapshot-1")
	require.NoError(t, err)
	require.True(t, ok)

	require.NoError(t, sub.Close())
	ok, err = fs.Exists(ctx, base, "a/b/s/snapshot-1")
	require.NoError(t, err)
	require.True(t, ok, "closing a Sub leaves the parent alone")
}

func TestHelpers(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)

	t.Run("ReadDir sorts", func(t *testing.T) {
		for _, n := range []string{"d/snapshot-10", "d/snapshot-2", "d/EARLIEST", "d/LATEST"} {
			require.NoError(t, fs.WriteFile(ctx, fsys, n, nil, nil))
		}
		infos, err := fs.ReadDir(ctx, fsys, "d")
		require.NoError(t, err)
		var names []string
		for _, fi := range infos {
			names = append(names, fi.Name)
		}
		require.Equal(t, []string{"EARLIEST", "LATEST", "snapshot-10", "snapshot-2"}, names)
	})

	t.Run("Exists propagates real errors", func(t *testing.T) {
		broken := fstest.NewCountingFS(fsys)
		boom := errors.New("boom")
		broken.SetFault(func(op fstest.Op, _ string) error {
			if op == fstest.OpStat {
				return boom
			}
			return nil
		})
		_, err := fs.Exists(ctx, broken, "d/LATEST")
		require.ErrorIs(t, err, boom, "cannot tell must not read as absent")
	})

	t.Run("WriteFile aborts on write error", func(t *testing.T) {
		canceled, cancel := context.WithCancel(ctx)
		cancel()
		err := fs.WriteFile(canceled, fsys, "w", []byte("x"), nil)
		require.ErrorIs(t, err, context.Canceled)
		ok, err := fs.Exists(ctx, fsys, "w")
		require.NoError(t, err)
		require.False(t, ok)
	})

	t.Run("MkdirAll without directories", func(t *testing.T) {
		require.NoError(t, fs.MkdirAll(ctx, bare{fsys}, "no/dirs/here"))
		ok, err := fs.Exists(ctx, fsys, "no")
		require.NoError(t, err)
		require.False(t, ok, "a store without MkdirAll is left untouched")
	})
}

func TestOpenURI(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, uri, wantName string
		wantErr             error
	}{
		{name: "mem", uri: "mem://fs-test/a/b", wantName: "a/b"},
		{name: "mem root", uri: "mem://fs-test", wantName: "."},
		{name: "scheme is case-insensitive", uri: "Mem://fs-test/x", wantName: "x"},
		{name: "unknown scheme", uri: "s3://bucket/x", wantErr: fs.ErrNoScheme},
		{name: "empty", uri: "", wantErr: fs.ErrInvalidName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys, name, err := fs.OpenURI(ctx, tt.uri)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			defer fsys.Close()
			require.Equal(t, tt.wantName, name)
		})
	}
	require.ErrorContains(t, func() error { _, _, err := fs.OpenURI(ctx, "s3://b/x"); return err }(), "blobfs.RegisterSchemes")
	require.Subset(t, fs.Schemes(), []string{"file", "mem"})
}

func TestRegister(t *testing.T) {
	ctx := context.Background()
	var got *url.URL
	fs.Register("fstestscheme", func(_ context.Context, u *url.URL) (fs.FS, string, error) {
		got = u
		return memfs.New(nil), "x", nil
	})
	_, name, err := fs.OpenURI(ctx, "fstestscheme://host:1/p%20q?k=v")
	require.NoError(t, err)
	require.Equal(t, "x", name)
	require.Equal(t, "host:1", got.Host)
	require.Equal(t, "/p q", got.Path)
	require.Equal(t, "v", got.Query().Get("k"))

	fs.Register("fstestscheme", func(context.Context, *url.URL) (fs.FS, string, error) {
		return nil, "", errors.New("replaced")
	})
	_, _, err = fs.OpenURI(ctx, "fstestscheme://h")
	require.ErrorContains(t, err, "replaced", "a later registration wins")

	require.Panics(t, func() {
		fs.Register("bad scheme", func(context.Context, *url.URL) (fs.FS, string, error) { return nil, "", nil })
	})
	require.Panics(t, func() {
		fs.Register("c", func(context.Context, *url.URL) (fs.FS, string, error) { return nil, "", nil })
	}, "one letter is a drive")
	require.Panics(t, func() { fs.Register("ok", nil) })
}

package fstest

import (
	"context"
	"fmt"
	iofs "io/fs"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
)

func testNotExist(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "file", []byte("x"))
	for _, name := range []string{"missing", "dir/missing", "file/child"} {
		t.Run(name, func(t *testing.T) {
			_, err := fsys.Open(ctx, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			_, err = fsys.Stat(ctx, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			_, err = fs.ReadFile(ctx, fsys, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			ok, err := fs.Exists(ctx, fsys, name)
			require.NoError(t, err)
			require.False(t, ok)
		})
	}
	err := fsys.Remove(ctx, "missing")
	requirePathErr(t, err, "missing", iofs.ErrNotExist)
}

func testStat(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "dir/sub/file.parquet", []byte("12345"))

	fi, err := fsys.Stat(ctx, "dir/sub/file.parquet")
	require.NoError(t, err)
	require.Equal(t, "file.parquet", fi.Name)
	require.EqualValues(t, 5, fi.Size)
	require.False(t, fi.IsDir)
	require.False(t, fi.ModTime.IsZero(), "files have a modification time")

	for _, dir := range []string{"dir", "dir/sub"} {
		fi, err := fsys.Stat(ctx, dir)
		require.NoError(t, err, dir)
		require.True(t, fi.IsDir, dir)
		_, base := splitName(dir)
		require.Equal(t, base, fi.Name)
	}
	fi, err = fsys.Stat(ctx, ".")
	require.NoError(t, err)
	require.True(t, fi.IsDir)

	ok, err := fs.Exists(ctx, fsys, "dir")
	require.NoError(t, err)
	require.True(t, ok)

	// Opening a directory is an error (which one depends on the store).
	_, err = fsys.Open(ctx, "dir")
	require.Error(t, err)
}

func testList(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "dir/a", []byte("1"))
	writeFile(t, fsys, "dir/b", []byte("22"))
	writeFile(t, fsys, "dir/sub/c", []byte("333"))
	writeFile(t, fsys, "dir2/x", []byte("x"))  // shares the prefix "dir"
	writeFile(t, fsys, "dirx", []byte("file")) // likewise

	infos, err := fs.ReadDir(ctx, fsys, "dir")
	require.NoError(t, err)
	require.Len(t, infos, 3)
	require.Equal(t, "a", infos[0].Name)
	require.EqualValues(t, 1, infos[0].Size)
	require.False(t, infos[0].IsDir)
	require.Equal(t, "b", infos[1].Name)
	require.EqualValues(t, 2, infos[1].Size)
	require.Equal(t, "sub", infos[2].Name)
	require.True(t, infos[2].IsDir)

	require.Equal(t, []string{"dir", "dir2", "dirx"}, listNames(t, fsys, "."))
	require.Equal(t, []string{"c"}, listNames(t, fsys, "dir/sub"))

	// A missing directory lists as empty.
	require.Empty(t, listNames(t, fsys, "nope"))
	require.Empty(t, listNames(t, fsys, "dir/nope/deeper"))

	// Breaking out early is fine.
	count := 0
	for _, err := range fsys.List(ctx, "dir") {
		require.NoError(t, err)
		count++
		break
	}
	require.Equal(t, 1, count)

	// The listing is usable while modifying the FS afterwards.
	for fi, err := range fsys.List(ctx, "dir") {
		require.NoError(t, err)
		if !fi.IsDir {
			require.NoError(t, fsys.Remove(ctx, "dir/"+fi.Name))
		}
	}
	require.Equal(t, []string{"sub"}, listNames(t, fsys, "dir"))
}

func testRemove(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "d/x", []byte("x"))
	writeFile(t, fsys, "d/y", []byte("y"))
	require.NoError(t, fsys.Remove(ctx, "d/x"))
	_, err := fsys.Stat(ctx, "d/x")
	requirePathErr(t, err, "d/x", iofs.ErrNotExist)
	require.Equal(t, []string{"y"}, listNames(t, fsys, "d"))
	err = fsys.Remove(ctx, "d/x")
	requirePathErr(t, err, "d/x", iofs.ErrNotExist)
}

// specialNames need escaping in URLs or shells, or are Paimon-typical
// (partition directories "k=v", dot files, "%" from Hive escaping).
var specialNames = []string{
	"with space",
	"dt=2026-08-01/hr=00/data-0.parquet",
	"100%",
	"%2F-not-a-slash",
	"a+b&c;d",
	"q?x#y",
	"ünïcødé/名前/файл",
	"emoji-🦀",
	".hidden",
	"..dots-in-name..",
	"snapshot-1",
	"tab\there",
	"quote'\"",
}

func testNames(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	for i, name := range specialNames {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			require.True(t, fs.ValidName(name))
			data := []byte("content of " + name)
			writeFile(t, fsys, name, data)
			require.Equal(t, data, readFile(t, fsys, name))
			fi, err := fsys.Stat(ctx, name)
			require.NoError(t, err)
			dir, base := splitName(name)
			require.Equal(t, base, fi.Name)
			require.Contains(t, listNames(t, fsys, dir), base)
			require.NoError(t, fsys.Remove(ctx, name))
			ok, err := fs.Exists(ctx, fsys, name)
			require.NoError(t, err)
			require.False(t, ok)
		})
	}
}

func splitName(name string) (dir, base string) {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[:i], name[i+1:]
		}
	}
	return ".", name
}

// escapingNames must be rejected by every operation.
var escapingNames = []string{"", "/abs", "/", "..", "../x", "a/../../b", "a/..", "./a", "a/./b", "a//b", "a/", "//server/share"}

func testInvalidNames(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "a/inside", []byte("x"))
	ops := []struct {
		name string
		fn   func(name string) error
	}{
		{"Open", func(n string) error { _, err := fsys.Open(ctx, n); return err }},
		{"Create", func(n string) error {
			w, err := fsys.Create(ctx, n, nil)
			if err == nil {
				_ = w.Abort()
			}
			return err
		}},
		{"CreateIfNotExist", func(n string) error {
			w, err := fsys.Create(ctx, n, &fs.CreateOptions{IfNotExist: true})
			if err == nil {
				_ = w.Abort()
			}
			return err
		}},
		{"Remove", func(n string) error { return fsys.Remove(ctx, n) }},
		{"Stat", func(n string) error { _, err := fsys.Stat(ctx, n); return err }},
		{"List", func(n string) error {
			for _, err := range fsys.List(ctx, n) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"ReadFile", func(n string) error { _, err := fs.ReadFile(ctx, fsys, n); return err }},
		{"MkdirAll", func(n string) error { return fs.MkdirAll(ctx, fsys, n) }},
		{"RemoveAll", func(n string) error { return fs.RemoveAll(ctx, fsys, n) }},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			for _, name := range escapingNames {
				err := op.fn(name)
				require.Error(t, err, "%s(%q) must be rejected", op.name, name)
				require.ErrorIs(t, err, fs.ErrInvalidName, "%s(%q)", op.name, name)
				require.ErrorIs(t, err, iofs.ErrInvalid, "%s(%q)", op.name, name)
				var pe *iofs.PathError
				require.ErrorAs(t, err, &pe, "%s(%q)", op.name, name)
			}
		})
	}
	// "." is the root: fine for directories, not for files.
	for _, op := range ops {
		if op.name == "Stat" || op.name == "List" || op.name == "MkdirAll" {
			require.NoError(t, op.fn("."), op.name)
		} else {
			require.ErrorIs(t, op.fn("."), fs.ErrInvalidName, op.name)
		}
	}
	require.Equal(t, "x", string(readFile(t, fsys, "a/inside")), "nothing was touched")
}

func testMkdirAll(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	require.NoError(t, fs.MkdirAll(ctx, fsys, "db.db/table"))
	require.NoError(t, fs.MkdirAll(ctx, fsys, "db.db/table"), "idempotent")
	// Stores with real directories show it now; object stores only once a
	// file exists below it. Wrappers expose MkdirAll either way, so this
	// is checked by behaviour, not by type.
	if fi, err := fsys.Stat(ctx, "db.db/table"); err == nil {
		require.True(t, fi.IsDir)
		require.Equal(t, []string{"table"}, listNames(t, fsys, "db.db"))
	} else {
		requirePathErr(t, err, "db.db/table", iofs.ErrNotExist)
	}
	writeFile(t, fsys, "db.db/table/schema/schema-0", []byte("{}"))
	require.Equal(t, []string{"schema-0"}, listNames(t, fsys, "db.db/table/schema"))
}

func testRemoveAll(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	for _, name := range []string{"t/a", "t/b/c", "t/b/d/e", "t2/keep", "tx", "t.bak/keep"} {
		writeFile(t, fsys, name, []byte(name))
	}
	require.NoError(t, fs.RemoveAll(ctx, fsys, "t"))
	ok, err := fs.Exists(ctx, fsys, "t")
	require.NoError(t, err)
	require.False(t, ok)
	require.Equal(t, []string{"t.bak", "t2", "tx"}, listNames(t, fsys, "."), "siblings sharing the prefix survive")
	require.Equal(t, "t2/keep", string(readFile(t, fsys, "t2/keep")))

	require.NoError(t, fs.RemoveAll(ctx, fsys, "t"), "missing is fine")
	require.NoError(t, fs.RemoveAll(ctx, fsys, "tx"), "a single file")
	require.Equal(t, []string{"t.bak", "t2"}, listNames(t, fsys, "."))
	require.ErrorIs(t, fs.RemoveAll(ctx, fsys, "."), fs.ErrInvalidName, "the root is refused")
}

func testSub(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	writeFile(t, fsys, "outside", []byte("o"))
	sub, err := fs.Sub(fsys, "wh/db.db")
	require.NoError(t, err)

	writeFile(t, sub, "t/snapshot/LATEST", []byte("1"))
	require.Equal(t, "1", string(readFile(t, fsys, "wh/db.db/t/snapshot/LATEST")))
	require.Equal(t, []string{"t"}, listNames(t, sub, "."))

	fi, err := sub.Stat(ctx, ".")
	require.NoError(t, err)
	require.True(t, fi.IsDir)

	// Errors name the file relative to the sub root.
	_, err = sub.Open(ctx, "t/missing")
	requirePathErr(t, err, "t/missing", iofs.ErrNotExist)
	_, err = sub.Open(ctx, "../outside")
	require.ErrorIs(t, err, fs.ErrInvalidName)

	if !o.IfNotExistUnsupported {
		opts := &fs.CreateOptions{IfNotExist: true}
		require.NoError(t, fs.WriteFile(ctx, sub, "t/snapshot/snapshot-1", []byte("a"), opts))
		err = fs.WriteFile(ctx, sub, "t/snapshot/snapshot-1", []byte("b"), opts)
		requirePathErr(t, err, "t/snapshot/snapshot-1", iofs.ErrExist)
	}

	require.NoError(t, fs.RemoveAll(ctx, sub, "t"))
	require.Empty(t, listNames(t, sub, "."))
	require.Equal(t, "o", string(readFile(t, fsys, "outside")))
	require.True(t, slices.Contains(listNames(t, fsys, "."), "outside"))
}

package fs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"slices"
)

// ReadFile reads the whole named file. It uses [ReadFileFS] when fsys
// implements it (one request on object stores) and Open + ReadAt otherwise.
// Java Paimon reads snapshot, schema and hint files this way
// (FileIO.readFileUtf8).
func ReadFile(ctx context.Context, fsys FS, name string) ([]byte, error) {
	if rf, ok := fsys.(ReadFileFS); ok {
		return rf.ReadFile(ctx, name)
	}
	f, err := fsys.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := f.Size()
	if size < 0 || int64(int(size)) != size {
		return nil, PathErr("read", name, fmt.Errorf("fs: file size %d out of range", size))
	}
	buf := make([]byte, size)
	n, err := f.ReadAt(buf, 0)
	if n == len(buf) && (err == nil || errors.Is(err, io.EOF)) {
		return buf, nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		// The file shrank after Open (replaced concurrently): report it
		// instead of returning a silently truncated buffer.
		err = io.ErrUnexpectedEOF
	}
	return nil, PathErr("read", name, err)
}

// WriteFile creates the named file with data, honouring opts like
// [FS.Create]. If writing fails the partial file is aborted, so WriteFile
// never leaves a truncated file behind. With IfNotExist, losing the race
// returns an error satisfying errors.Is(err, io/fs.ErrExist).
func WriteFile(ctx context.Context, fsys FS, name string, data []byte, opts *CreateOptions) error {
	w, err := fsys.Create(ctx, name, opts)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		_ = w.Abort()
		return err
	}
	return w.Close()
}

// Exists reports whether name exists as a file or directory. A missing name
// is (false, nil); any other failure is returned as an error, because
// treating "cannot tell" as "absent" is how commits overwrite each other.
func Exists(ctx context.Context, fsys FS, name string) (bool, error) {
	_, err := fsys.Stat(ctx, name)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, iofs.ErrNotExist):
		return false, nil
	default:
		return false, err
	}
}

// ReadDir lists dir like [FS.List] and returns the entries sorted by name
// (byte order), which is what callers presenting or comparing listings want.
func ReadDir(ctx context.Context, fsys FS, dir string) ([]FileInfo, error) {
	var out []FileInfo
	for fi, err := range fsys.List(ctx, dir) {
		if err != nil {
			return nil, err
		}
		out = append(out, fi)
	}
	slices.SortFunc(out, func(a, b FileInfo) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

// MkdirAll creates dir and its parents on file systems that implement
// [MkdirAllFS] (real directories; fs/blobfs writes a directory marker).
// On others, where a directory exists only through the files below it, it
// validates dir and does nothing. Java Paimon calls FileIO.mkdirs when it
// creates a database directory.
func MkdirAll(ctx context.Context, fsys FS, dir string) error {
	if err := CheckDir("mkdir", dir); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return PathErr("mkdir", dir, err)
	}
	if m, ok := fsys.(MkdirAllFS); ok {
		return m.MkdirAll(ctx, dir)
	}
	return nil
}

// RemoveAll removes name and everything below it (Java Paimon's
// FileIO.delete(path, recursive=true), used to drop tables and databases).
// A missing name is not an error. The root "." is refused: wiping the whole
// file system is never what a table operation means.
//
// It uses [RemoveAllFS] when available and otherwise walks the tree with
// List and Remove.
func RemoveAll(ctx context.Context, fsys FS, name string) error {
	if err := CheckName("removeall", name); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return PathErr("removeall", name, err)
	}
	if r, ok := fsys.(RemoveAllFS); ok {
		return r.RemoveAll(ctx, name)
	}
	return removeTree(ctx, fsys, name)
}

// removeTree is the generic RemoveAll: depth first, files before their
// directory.
func removeTree(ctx context.Context, fsys FS, name string) error {
	fi, err := fsys.Stat(ctx, name)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir {
		return ignoreNotExist(fsys.Remove(ctx, name))
	}
	// Collect first: removing while a listing is in progress is not
	// guaranteed to be safe for every implementation.
	var children []FileInfo
	for c, err := range fsys.List(ctx, name) {
		if err != nil {
			return err
		}
		children = append(children, c)
	}
	for _, c := range children {
		child := Join(name, c.Name)
		if c.IsDir {
			err = removeTree(ctx, fsys, child)
		} else {
			err = ignoreNotExist(fsys.Remove(ctx, child))
		}
		if err != nil {
			return err
		}
	}
	// Real directories must go too; object stores have nothing to remove
	// and report ErrNotExist, which is fine.
	err = fsys.Remove(ctx, name)
	if errors.Is(err, ErrIsDir) {
		return nil
	}
	return ignoreNotExist(err)
}

func ignoreNotExist(err error) error {
	if errors.Is(err, iofs.ErrNotExist) {
		return nil
	}
	return err
}

package localfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/paimon-go/paimon-go/fs"
)

// Options tunes a local file system. A nil *Options means defaults.
type Options struct {
	// NoSync skips fsync of written files and their directories. Writes
	// become much faster but a machine crash may lose files that were
	// already published. Use it only for tests and scratch data.
	NoSync bool
}

// FS is an fs.FS over the operating system's files below a root directory.
// It also implements fs.MkdirAllFS and fs.RemoveAllFS. It holds no open
// resources; Close is a no-op.
type FS struct {
	root   string
	noSync bool
}

var (
	_ fs.MkdirAllFS  = (*FS)(nil)
	_ fs.RemoveAllFS = (*FS)(nil)
)

// New returns a file system rooted at dir. The directory need not exist yet:
// it is created, with any parents, by the first Create or MkdirAll. dir is
// made absolute so that later changes of the working directory do not move
// the file system.
func New(dir string, opts *Options) (*FS, error) {
	if dir == "" {
		return nil, fmt.Errorf("localfs: empty root directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("localfs: root %q: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("localfs: root %q: %w", abs, fs.ErrNotDir)
	}
	f := &FS{root: abs}
	if opts != nil {
		f.noSync = opts.NoSync
	}
	return f, nil
}

// Root returns the absolute directory the file system is rooted at.
func (f *FS) Root() string { return f.root }

// String describes the file system for logs.
func (f *FS) String() string { return "localfs(" + f.root + ")" }

// osPath maps a validated name to an OS path. On systems whose separator
// is not '/', a backslash or colon inside a name would be read as a
// separator or a drive, letting the name escape the root, so such names are
// rejected there.
func (f *FS) osPath(op, name string) (string, error) {
	if filepath.Separator != '/' && strings.ContainsAny(name, `\:`) {
		return "", fs.PathErr(op, name, fmt.Errorf("%w: backslash or colon in name", fs.ErrInvalidName))
	}
	if name == "." {
		return f.root, nil
	}
	return filepath.Join(f.root, filepath.FromSlash(name)), nil
}

// translate turns an OS error into the error contract of package fs: a
// *PathError carrying the caller's name instead of the absolute OS path.
// ENOTDIR on a lookup means a parent is a file, which for callers (and on
// object stores) simply means the name does not exist.
func translate(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var pe *iofs.PathError
	var le *os.LinkError
	var inner error
	switch {
	case errors.As(err, &pe):
		inner = pe.Err
	case errors.As(err, &le):
		inner = le.Err
	default:
		inner = err
	}
	if errors.Is(inner, syscall.ENOTDIR) {
		if op == "create" || op == "mkdir" {
			return fs.PathErr(op, name, fmt.Errorf("%w: %w", fs.ErrNotDir, inner))
		}
		return fs.NotExist(op, name, inner)
	}
	return fs.PathErr(op, name, inner)
}

// Open opens the named file for reading. See fs.FS.
func (f *FS) Open(ctx context.Context, name string) (fs.File, error) {
	const op = "open"
	if err := fs.CheckName(op, name); err != nil {
		return nil, err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return nil, err
	}
	p, err := f.osPath(op, name)
	if err != nil {
		return nil, err
	}
	osf, err := os.Open(p)
	if err != nil {
		return nil, translate(op, name, err)
	}
	fi, err := osf.Stat()
	if err != nil {
		osf.Close()
		return nil, translate(op, name, err)
	}
	if fi.IsDir() {
		osf.Close()
		return nil, fs.PathErr(op, name, fs.ErrIsDir)
	}
	return &file{ctx: ctx, f: osf, name: name, size: fi.Size()}, nil
}

// Stat describes the named file or directory. See fs.FS.
func (f *FS) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	const op = "stat"
	if err := fs.CheckDir(op, name); err != nil {
		return fs.FileInfo{}, err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return fs.FileInfo{}, err
	}
	p, err := f.osPath(op, name)
	if err != nil {
		return fs.FileInfo{}, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return fs.FileInfo{}, translate(op, name, err)
	}
	out := toInfo(fi)
	if name == "." {
		out.Name = "."
	}
	return out, nil
}

func toInfo(fi os.FileInfo) fs.FileInfo {
	out := fs.FileInfo{Name: fi.Name(), ModTime: fi.ModTime(), IsDir: fi.IsDir()}
	if !out.IsDir {
		out.Size = fi.Size()
	}
	return out
}

// listBatch bounds the directory entries read per getdents call so that a
// huge directory (a bucket of data files) streams instead of loading whole.
const listBatch = 256

// List yields the entries of dir. See fs.FS.
func (f *FS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	return func(yield func(fs.FileInfo, error) bool) {
		const op = "list"
		if err := fs.CheckDir(op, dir); err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		p, err := f.osPath(op, dir)
		if err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		if err := fs.CheckContext(ctx, op, dir); err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		d, err := os.Open(p)
		if err != nil {
			err = translate(op, dir, err)
			if errors.Is(err, iofs.ErrNotExist) {
				return // a missing directory lists as empty, as on object stores
			}
			yield(fs.FileInfo{}, err)
			return
		}
		defer d.Close()
		for {
			entries, err := d.ReadDir(listBatch)
			for _, e := range entries {
				fi, ierr := entryInfo(p, e)
				if errors.Is(ierr, iofs.ErrNotExist) {
					continue // removed between readdir and stat
				}
				if ierr != nil {
					yield(fs.FileInfo{}, translate(op, fs.Join(dir, e.Name()), ierr))
					return
				}
				if !yield(fi, nil) {
					return
				}
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				if errors.Is(err, syscall.ENOTDIR) {
					err = fs.ErrNotDir
				}
				yield(fs.FileInfo{}, translate(op, dir, err))
				return
			}
			if err := fs.CheckContext(ctx, op, dir); err != nil {
				yield(fs.FileInfo{}, err)
				return
			}
		}
	}
}

// entryInfo stats a directory entry, following symbolic links so that a
// linked data directory looks like the directory it points to.
func entryInfo(dir string, e os.DirEntry) (fs.FileInfo, error) {
	var fi os.FileInfo
	var err error
	if e.Type()&os.ModeSymlink != 0 {
		fi, err = os.Stat(filepath.Join(dir, e.Name()))
	} else {
		fi, err = e.Info()
	}
	if err != nil {
		return fs.FileInfo{}, err
	}
	out := toInfo(fi)
	out.Name = e.Name()
	return out, nil
}

// Remove deletes the named file (or empty directory). See fs.FS.
func (f *FS) Remove(ctx context.Context, name string) error {
	const op = "remove"
	if err := fs.CheckName(op, name); err != nil {
		return err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return err
	}
	p, err := f.osPath(op, name)
	if err != nil {
		return err
	}
	return translate(op, name, os.Remove(p))
}

// MkdirAll creates dir and any missing parents. See fs.MkdirAllFS.
func (f *FS) MkdirAll(ctx context.Context, dir string) error {
	const op = "mkdir"
	if err := fs.CheckDir(op, dir); err != nil {
		return err
	}
	if err := fs.CheckContext(ctx, op, dir); err != nil {
		return err
	}
	p, err := f.osPath(op, dir)
	if err != nil {
		return err
	}
	return translate(op, dir, os.MkdirAll(p, 0o777))
}

// RemoveAll removes name and everything below it. See fs.RemoveAllFS.
func (f *FS) RemoveAll(ctx context.Context, name string) error {
	const op = "removeall"
	if err := fs.CheckName(op, name); err != nil {
		return err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return err
	}
	p, err := f.osPath(op, name)
	if err != nil {
		return err
	}
	return translate(op, name, os.RemoveAll(p))
}

// Close does nothing: a local file system holds no resources.
func (f *FS) Close() error { return nil }

// file is an open local file. *os.File.ReadAt uses pread(2), which does not
// move a shared offset, so concurrent ReadAt calls are safe.
type file struct {
	ctx  context.Context
	f    *os.File
	name string
	size int64
}

func (r *file) Size() int64 { return r.size }

func (r *file) ReadAt(p []byte, off int64) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, fs.PathErr("read", r.name, err)
	}
	n, err := r.f.ReadAt(p, off)
	if err != nil && err != io.EOF {
		if errors.Is(err, os.ErrClosed) {
			return n, fs.PathErr("read", r.name, fs.ErrClosed)
		}
		return n, translate("read", r.name, err)
	}
	return n, err
}

func (r *file) Close() error {
	if err := r.f.Close(); err != nil {
		if errors.Is(err, os.ErrClosed) {
			return fs.PathErr("close", r.name, fs.ErrClosed)
		}
		return translate("close", r.name, err)
	}
	return nil
}

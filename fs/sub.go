package fs

import (
	"context"
	"errors"
	iofs "io/fs"
	"iter"
	"strings"
)

// Sub returns an FS whose root is dir inside fsys, the way a Paimon table or
// warehouse directory becomes a self-contained file system. Names given to
// the result cannot reach outside dir, and the Path of returned
// *io/fs.PathError values is relative to dir. Optional capabilities of fsys
// ([MkdirAllFS], [RemoveAllFS], [ReadFileFS]) remain available through the
// helpers. Sub(fsys, ".") returns fsys itself.
//
// Closing the result does nothing: fsys keeps ownership of its resources.
func Sub(fsys FS, dir string) (FS, error) {
	if err := CheckDir("sub", dir); err != nil {
		return nil, err
	}
	if dir == "." {
		return fsys, nil
	}
	if s, ok := fsys.(*subFS); ok {
		// Flatten nested subs so error paths are rewritten once.
		return &subFS{parent: s.parent, dir: s.dir + "/" + dir}, nil
	}
	return &subFS{parent: fsys, dir: dir}, nil
}

type subFS struct {
	parent FS
	dir    string
}

func (s *subFS) full(name string) string { return Join(s.dir, name) }

// fixErr rewrites the Path of a *PathError from the parent's name space to
// ours, so that callers only ever see names they passed in.
func (s *subFS) fixErr(err error, name string) error {
	var pe *iofs.PathError
	if err == nil || !errors.As(err, &pe) {
		return err
	}
	if pe.Path == s.dir {
		return &iofs.PathError{Op: pe.Op, Path: ".", Err: pe.Err}
	}
	if rel, ok := strings.CutPrefix(pe.Path, s.dir+"/"); ok {
		return &iofs.PathError{Op: pe.Op, Path: rel, Err: pe.Err}
	}
	return &iofs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
}

func (s *subFS) Open(ctx context.Context, name string) (File, error) {
	if err := CheckName("open", name); err != nil {
		return nil, err
	}
	f, err := s.parent.Open(ctx, s.full(name))
	return f, s.fixErr(err, name)
}

func (s *subFS) Create(ctx context.Context, name string, opts *CreateOptions) (Writer, error) {
	if err := CheckName("create", name); err != nil {
		return nil, err
	}
	w, err := s.parent.Create(ctx, s.full(name), opts)
	if err != nil {
		return nil, s.fixErr(err, name)
	}
	return &subWriter{Writer: w, s: s, name: name}, nil
}

func (s *subFS) Remove(ctx context.Context, name string) error {
	if err := CheckName("remove", name); err != nil {
		return err
	}
	return s.fixErr(s.parent.Remove(ctx, s.full(name)), name)
}

func (s *subFS) Stat(ctx context.Context, name string) (FileInfo, error) {
	if err := CheckDir("stat", name); err != nil {
		return FileInfo{}, err
	}
	fi, err := s.parent.Stat(ctx, s.full(name))
	if err != nil {
		return FileInfo{}, s.fixErr(err, name)
	}
	if name == "." {
		fi.Name = "."
	}
	return fi, nil
}

func (s *subFS) List(ctx context.Context, dir string) iter.Seq2[FileInfo, error] {
	return func(yield func(FileInfo, error) bool) {
		if err := CheckDir("list", dir); err != nil {
			yield(FileInfo{}, err)
			return
		}
		for fi, err := range s.parent.List(ctx, s.full(dir)) {
			if !yield(fi, s.fixErr(err, dir)) || err != nil {
				return
			}
		}
	}
}

// Close does nothing; the parent FS owns the resources.
func (s *subFS) Close() error { return nil }

func (s *subFS) MkdirAll(ctx context.Context, dir string) error {
	if err := CheckDir("mkdir", dir); err != nil {
		return err
	}
	return s.fixErr(MkdirAll(ctx, s.parent, s.full(dir)), dir)
}

func (s *subFS) RemoveAll(ctx context.Context, name string) error {
	if err := CheckName("removeall", name); err != nil {
		return err
	}
	return s.fixErr(RemoveAll(ctx, s.parent, s.full(name)), name)
}

func (s *subFS) ReadFile(ctx context.Context, name string) ([]byte, error) {
	if err := CheckName("read", name); err != nil {
		return nil, err
	}
	b, err := ReadFile(ctx, s.parent, s.full(name))
	return b, s.fixErr(err, name)
}

// subWriter rewrites error paths from Close (where an IfNotExist conflict
// is reported) like every other method does.
type subWriter struct {
	Writer
	s    *subFS
	name string
}

func (w *subWriter) Close() error { return w.s.fixErr(w.Writer.Close(), w.name) }

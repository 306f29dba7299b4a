package memfs

import (
	"bytes"
	"context"

	"github.com/paimon-go/paimon-go/fs"
)

// Create starts writing the named file into a private buffer; Close
// publishes it under the file system's lock, which is what makes
// IfNotExist atomic here. See fs.FS.
func (f *FS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	const op = "create"
	if err := fs.CheckName(op, name); err != nil {
		return nil, err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return nil, err
	}
	w := &writer{ctx: ctx, fsys: f, name: name}
	if opts != nil {
		w.ifNotExist = opts.IfNotExist
	}
	return w, nil
}

type writer struct {
	ctx        context.Context
	fsys       *FS
	name       string
	ifNotExist bool
	buf        bytes.Buffer
	done       bool
}

func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fs.PathErr("write", w.name, fs.ErrClosed)
	}
	return w.buf.Write(p)
}

func (w *writer) Close() error {
	const op = "create"
	if w.done {
		return fs.PathErr(op, w.name, fs.ErrClosed)
	}
	w.done = true
	if err := w.ctx.Err(); err != nil {
		return fs.PathErr(op, w.name, err)
	}
	f := w.fsys
	f.mu.Lock()
	defer f.mu.Unlock()
	parent, last, err := f.parentFor(w.name, true)
	if err != nil {
		return fs.PathErr(op, w.name, err)
	}
	if old := parent.children[last]; old != nil {
		switch {
		case old.dir:
			return fs.PathErr(op, w.name, fs.ErrIsDir)
		case w.ifNotExist:
			return fs.Exist(op, w.name, nil)
		}
	}
	parent.children[last] = &node{data: w.buf.Bytes(), modTime: f.clock()}
	return nil
}

func (w *writer) Abort() error {
	w.done = true
	w.buf = bytes.Buffer{}
	return nil
}

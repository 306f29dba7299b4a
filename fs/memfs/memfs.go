package memfs

import (
	"context"
	"errors"
	"io"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paimon-go/paimon-go/fs"
)

// ErrNotEmpty reports an attempt to Remove a directory that still has
// entries.
var ErrNotEmpty = errors.New("memfs: directory not empty")

// Options tunes an in-memory file system. A nil *Options means defaults.
type Options struct {
	// Clock returns the modification time recorded for new files and
	// directories. Nil means time.Now. Tests that check time-based logic
	// (expiration, orphan cleaning) can supply a fake clock.
	Clock func() time.Time
}

// FS is an in-memory fs.FS, safe for concurrent use. It implements
// fs.MkdirAllFS and fs.RemoveAllFS. The zero value is not usable; call New.
type FS struct {
	mu    sync.RWMutex
	root  *node
	clock func() time.Time
}

var (
	_ fs.MkdirAllFS  = (*FS)(nil)
	_ fs.RemoveAllFS = (*FS)(nil)
)

// node is a file or a directory. A file's data is never modified after it
// is published (a replacement installs a new node), which is what makes
// lock-free reads from open Files safe.
type node struct {
	dir      bool
	children map[string]*node
	data     []byte
	modTime  time.Time
}

// New returns an empty in-memory file system.
func New(opts *Options) *FS {
	f := &FS{clock: time.Now}
	if opts != nil && opts.Clock != nil {
		f.clock = opts.Clock
	}
	f.root = &node{dir: true, children: map[string]*node{}, modTime: f.clock()}
	return f
}

// String describes the file system for logs.
func (f *FS) String() string { return "memfs" }

// walk finds the node for a valid name ("." is the root). It returns nil if
// the name does not exist, including when a parent is a file.
func (f *FS) walk(name string) *node {
	n := f.root
	if name == "." {
		return n
	}
	for elem := range strings.SplitSeq(name, "/") {
		if !n.dir {
			return nil
		}
		n = n.children[elem]
		if n == nil {
			return nil
		}
	}
	return n
}

// parentFor returns the directory that holds name's last element,
// creating missing directories when create is set. It fails with
// fs.ErrNotDir when a parent is a file.
func (f *FS) parentFor(name string, create bool) (*node, string, error) {
	elems := strings.Split(name, "/")
	n := f.root
	for _, elem := range elems[:len(elems)-1] {
		child := n.children[elem]
		switch {
		case child == nil && create:
			child = &node{dir: true, children: map[string]*node{}, modTime: f.clock()}
			n.children[elem] = child
		case child == nil:
			return nil, "", nil
		case !child.dir:
			return nil, "", fs.ErrNotDir
		}
		n = child
	}
	return n, elems[len(elems)-1], nil
}

// Open returns a File reading a snapshot of the named file. See fs.FS.
func (f *FS) Open(ctx context.Context, name string) (fs.File, error) {
	const op = "open"
	if err := fs.CheckName(op, name); err != nil {
		return nil, err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return nil, err
	}
	f.mu.RLock()
	n := f.walk(name)
	f.mu.RUnlock()
	switch {
	case n == nil:
		return nil, fs.NotExist(op, name, nil)
	case n.dir:
		return nil, fs.PathErr(op, name, fs.ErrIsDir)
	}
	return &file{ctx: ctx, name: name, data: n.data}, nil
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
	f.mu.RLock()
	defer f.mu.RUnlock()
	n := f.walk(name)
	if n == nil {
		return fs.FileInfo{}, fs.NotExist(op, name, nil)
	}
	return info(lastElem(name), n), nil
}

func lastElem(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func info(name string, n *node) fs.FileInfo {
	return fs.FileInfo{Name: name, Size: int64(len(n.data)), ModTime: n.modTime, IsDir: n.dir}
}

// List yields the entries of dir in name order. The listing is a snapshot
// taken when iteration starts, so the loop body may modify the FS.
func (f *FS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	return func(yield func(fs.FileInfo, error) bool) {
		const op = "list"
		if err := fs.CheckDir(op, dir); err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		if err := fs.CheckContext(ctx, op, dir); err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		f.mu.RLock()
		n := f.walk(dir)
		if n == nil {
			f.mu.RUnlock()
			return
		}
		if !n.dir {
			f.mu.RUnlock()
			yield(fs.FileInfo{}, fs.PathErr(op, dir, fs.ErrNotDir))
			return
		}
		names := slices.Sorted(maps.Keys(n.children))
		out := make([]fs.FileInfo, len(names))
		for i, name := range names {
			out[i] = info(name, n.children[name])
		}
		f.mu.RUnlock()
		for _, fi := range out {
			if !yield(fi, nil) {
				return
			}
		}
	}
}

// Remove deletes the named file or empty directory. See fs.FS.
func (f *FS) Remove(ctx context.Context, name string) error {
	const op = "remove"
	if err := fs.CheckName(op, name); err != nil {
		return err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	parent, last, err := f.parentFor(name, false)
	if err != nil || parent == nil || parent.children[last] == nil {
		return fs.NotExist(op, name, nil)
	}
	if n := parent.children[last]; n.dir && len(n.children) > 0 {
		return fs.PathErr(op, name, ErrNotEmpty)
	}
	delete(parent.children, last)
	return nil
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
	if dir == "." {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	parent, last, err := f.parentFor(dir, true)
	if err != nil {
		return fs.PathErr(op, dir, err)
	}
	switch n := parent.children[last]; {
	case n == nil:
		parent.children[last] = &node{dir: true, children: map[string]*node{}, modTime: f.clock()}
	case !n.dir:
		return fs.PathErr(op, dir, fs.ErrNotDir)
	}
	return nil
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
	f.mu.Lock()
	defer f.mu.Unlock()
	parent, last, err := f.parentFor(name, false)
	if err == nil && parent != nil {
		delete(parent.children, last)
	}
	return nil
}

// Close does nothing; the content stays available to open Files.
func (f *FS) Close() error { return nil }

// file is an open snapshot of a file's bytes.
type file struct {
	ctx    context.Context
	name   string
	data   []byte
	closed atomic.Bool
}

func (r *file) Size() int64 { return int64(len(r.data)) }

func (r *file) ReadAt(p []byte, off int64) (int, error) {
	if r.closed.Load() {
		return 0, fs.PathErr("read", r.name, fs.ErrClosed)
	}
	if err := r.ctx.Err(); err != nil {
		return 0, fs.PathErr("read", r.name, err)
	}
	if off < 0 {
		return 0, fs.PathErr("read", r.name, errors.New("memfs: negative offset"))
	}
	if len(p) == 0 {
		return 0, nil
	}
	if off >= int64(len(r.data)) {
		return 0, io.EOF
	}
	n := copy(p, r.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (r *file) Close() error {
	if r.closed.Swap(true) {
		return fs.PathErr("close", r.name, fs.ErrClosed)
	}
	return nil
}

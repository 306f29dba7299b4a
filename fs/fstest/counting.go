package fstest

import (
	"cmp"
	"context"
	"iter"
	"slices"
	"sync"

	"github.com/paimon-go/paimon-go/fs"
)

// Op names an FS operation observed by [CountingFS].
type Op string

// Operations counted by CountingFS. OpReadAt counts File.ReadAt calls per
// file name, OpCommit counts Writer.Close calls.
const (
	OpOpen      Op = "open"
	OpReadAt    Op = "readat"
	OpCreate    Op = "create"
	OpCommit    Op = "commit"
	OpRemove    Op = "remove"
	OpStat      Op = "stat"
	OpList      Op = "list"
	OpMkdirAll  Op = "mkdirall"
	OpRemoveAll Op = "removeall"
)

// CountingFS wraps an fs.FS, counting every operation per name and
// optionally injecting failures. Tests use it to prove that a scan opened
// only the files it had to (pruning), or to make a commit fail at a chosen
// point. It is safe for concurrent use.
//
// Whole-file reads through fs.ReadFile are counted as an Open plus ReadAt
// calls: CountingFS deliberately does not implement fs.ReadFileFS, so every
// way of reading a file shows up as an Open.
type CountingFS struct {
	inner fs.FS

	mu     sync.Mutex
	counts map[Op]map[string]int
	fault  func(op Op, name string) error
}

var (
	_ fs.MkdirAllFS  = (*CountingFS)(nil)
	_ fs.RemoveAllFS = (*CountingFS)(nil)
)

// NewCountingFS wraps fsys. Closing the wrapper closes fsys.
func NewCountingFS(fsys fs.FS) *CountingFS {
	return &CountingFS{inner: fsys, counts: map[Op]map[string]int{}}
}

// Count returns how many times op was called with name.
func (c *CountingFS) Count(op Op, name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[op][name]
}

// Total returns how many times op was called, over all names.
func (c *CountingFS) Total(op Op) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.counts[op] {
		n += v
	}
	return n
}

// Names returns the names op was called with, sorted.
func (c *CountingFS) Names(op Op) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.counts[op]))
	for name := range c.counts[op] {
		out = append(out, name)
	}
	slices.SortFunc(out, cmp.Compare)
	return out
}

// Reset forgets all counts (the fault hook stays).
func (c *CountingFS) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts = map[Op]map[string]int{}
}

// SetFault installs a hook consulted before every operation; a non-nil
// result fails the operation with that error (wrapped in an
// *io/fs.PathError) without reaching the wrapped FS. For OpCommit the
// pending file is aborted, so nothing is published. nil removes the hook.
func (c *CountingFS) SetFault(f func(op Op, name string) error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fault = f
}

// note counts an operation and returns the injected fault, if any.
func (c *CountingFS) note(op Op, name string) error {
	c.mu.Lock()
	m := c.counts[op]
	if m == nil {
		m = map[string]int{}
		c.counts[op] = m
	}
	m[name]++
	fault := c.fault
	c.mu.Unlock()
	if fault == nil {
		return nil
	}
	if err := fault(op, name); err != nil {
		return fs.PathErr(string(op), name, err)
	}
	return nil
}

// Open counts and forwards.
func (c *CountingFS) Open(ctx context.Context, name string) (fs.File, error) {
	if err := c.note(OpOpen, name); err != nil {
		return nil, err
	}
	f, err := c.inner.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, c: c, name: name}, nil
}

// Create counts and forwards.
func (c *CountingFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	if err := c.note(OpCreate, name); err != nil {
		return nil, err
	}
	w, err := c.inner.Create(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return &countingWriter{Writer: w, c: c, name: name}, nil
}

// Remove counts and forwards.
func (c *CountingFS) Remove(ctx context.Context, name string) error {
	if err := c.note(OpRemove, name); err != nil {
		return err
	}
	return c.inner.Remove(ctx, name)
}

// Stat counts and forwards.
func (c *CountingFS) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	if err := c.note(OpStat, name); err != nil {
		return fs.FileInfo{}, err
	}
	return c.inner.Stat(ctx, name)
}

// List counts and forwards.
func (c *CountingFS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	return func(yield func(fs.FileInfo, error) bool) {
		if err := c.note(OpList, dir); err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		for fi, err := range c.inner.List(ctx, dir) {
			if !yield(fi, err) {
				return
			}
		}
	}
}

// MkdirAll counts and forwards to fs.MkdirAll on the wrapped FS.
func (c *CountingFS) MkdirAll(ctx context.Context, dir string) error {
	if err := c.note(OpMkdirAll, dir); err != nil {
		return err
	}
	return fs.MkdirAll(ctx, c.inner, dir)
}

// RemoveAll counts and forwards to fs.RemoveAll on the wrapped FS.
func (c *CountingFS) RemoveAll(ctx context.Context, name string) error {
	if err := c.note(OpRemoveAll, name); err != nil {
		return err
	}
	return fs.RemoveAll(ctx, c.inner, name)
}

// Close closes the wrapped FS.
func (c *CountingFS) Close() error { return c.inner.Close() }

type countingFile struct {
	fs.File
	c    *CountingFS
	name string
}

func (f *countingFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.c.note(OpReadAt, f.name); err != nil {
		return 0, err
	}
	return f.File.ReadAt(p, off)
}

type countingWriter struct {
	fs.Writer
	c    *CountingFS
	name string
}

func (w *countingWriter) Close() error {
	if err := w.c.note(OpCommit, w.name); err != nil {
		_ = w.Writer.Abort()
		return err
	}
	return w.Writer.Close()
}

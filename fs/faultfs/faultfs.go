package faultfs

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"

	"github.com/paimon-go/paimon-go/fs"
)

var (
	// ErrInjected is wrapped by the error of a step failed with Fail.
	ErrInjected = errors.New("faultfs: injected fault")
	// ErrCrashed is wrapped by the error of the crash step and of every
	// call after it.
	ErrCrashed = errors.New("faultfs: process crashed")
)

// Op names a kind of step.
type Op string

// The steps FS counts.
const (
	OpOpen      Op = "open"
	OpReadAt    Op = "readat"
	OpCreate    Op = "create"
	OpWrite     Op = "write"
	OpClose     Op = "close" // Writer.Close: the publish
	OpAbort     Op = "abort"
	OpRemove    Op = "remove"
	OpStat      Op = "stat"
	OpList      Op = "list"
	OpMkdirAll  Op = "mkdirall"
	OpRemoveAll Op = "removeall"
)

// Kind is the kind of fault planted at a step.
type Kind int

const (
	// Fail fails one step.
	Fail Kind = iota + 1
	// Crash fails the step and everything after it.
	Crash
)

func (k Kind) String() string {
	switch k {
	case Fail:
		return "fail"
	case Crash:
		return "crash"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Fault is a planned failure.
type Fault struct {
	// Step is the 1-based number of the step that fails.
	Step int
	// Kind is Fail or Crash.
	Kind Kind
	// After lets the step reach the wrapped file system first: it takes
	// effect there, then the caller gets the error.
	After bool
	// Err is returned (wrapped) instead of ErrInjected for Fail; nil means
	// ErrInjected. Crash always reports ErrCrashed.
	Err error
}

func (f Fault) String() string {
	when := "before"
	if f.After {
		when = "after"
	}
	return fmt.Sprintf("%s %s step %d", f.Kind, when, f.Step)
}

// Step is one entry of the log.
type Step struct {
	N    int
	Op   Op
	Name string
	// Fault is "" for a step that went through, else what happened to it:
	// "fail", "crash" (the crash step) or "dead" (after a crash).
	Fault string
}

func (s Step) String() string {
	out := fmt.Sprintf("%d %s %s", s.N, s.Op, s.Name)
	if s.Fault != "" {
		out += " [" + s.Fault + "]"
	}
	return out
}

// FS is the fault-injecting wrapper. It is safe for concurrent use; step
// numbers then follow the order in which calls take its lock.
type FS struct {
	inner fs.FS

	mu      sync.Mutex
	n       int
	faults  map[int]Fault
	crashed bool
	log     []Step
	logging bool
	counts  map[Op]int
}

var (
	_ fs.MkdirAllFS  = (*FS)(nil)
	_ fs.RemoveAllFS = (*FS)(nil)
)

// New wraps inner. Closing the wrapper closes inner.
func New(inner fs.FS) *FS {
	return &FS{inner: inner, faults: map[int]Fault{}, counts: map[Op]int{}}
}

// Inner returns the wrapped file system: what a new process would see.
func (f *FS) Inner() fs.FS { return f.inner }

// Plant schedules a fault. A later Plant for the same step replaces it.
func (f *FS) Plant(fault Fault) {
	if fault.Kind != Fail && fault.Kind != Crash {
		panic(fmt.Sprintf("faultfs: bad fault kind %d", fault.Kind))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[fault.Step] = fault
}

// FailAt fails step n (before it reaches the wrapped file system) with err,
// or with ErrInjected when err is nil.
func (f *FS) FailAt(n int, err error) { f.Plant(Fault{Step: n, Kind: Fail, Err: err}) }

// CrashAt crashes at step n, before it reaches the wrapped file system.
func (f *FS) CrashAt(n int) { f.Plant(Fault{Step: n, Kind: Crash}) }

// SetLogging turns the step log on or off (off by default: counting alone
// is cheaper).
func (f *FS) SetLogging(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logging = on
}

// Steps returns how many steps were taken (faulted ones included).
func (f *FS) Steps() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// Count returns how many steps of op were taken.
func (f *FS) Count(op Op) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[op]
}

// Crashed reports whether a crash fault has struck.
func (f *FS) Crashed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.crashed
}

// Log returns a copy of the step log (empty unless logging is on).
func (f *FS) Log() []Step {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Step(nil), f.log...)
}

// LogString renders the log, one step a line.
func (f *FS) LogString() string {
	var sb strings.Builder
	for _, s := range f.Log() {
		sb.WriteString(s.String())
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Reset forgets the steps, the log and the faults, and revives a crashed
// wrapper.
func (f *FS) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n, f.crashed, f.log = 0, false, nil
	f.faults = map[int]Fault{}
	f.counts = map[Op]int{}
}

// verdict is what step decided for one call.
type verdict struct {
	before error // fail without forwarding
	after  error // forward, then fail
}

// step numbers a call and decides its fate.
func (f *FS) step(op Op, name string) verdict {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	f.counts[op]++
	s := Step{N: f.n, Op: op, Name: name}
	var v verdict
	switch fault, ok := f.faults[f.n]; {
	case f.crashed:
		s.Fault = "dead"
		v.before = fs.PathErr(string(op), name, fmt.Errorf("%w (at an earlier step)", ErrCrashed))
	case ok && fault.Kind == Crash:
		f.crashed = true
		s.Fault = "crash"
		err := fs.PathErr(string(op), name, fmt.Errorf("%w at step %d", ErrCrashed, f.n))
		if fault.After {
			s.Fault = "crash after"
			v.after = err
		} else {
			v.before = err
		}
	case ok:
		cause := fault.Err
		if cause == nil {
			cause = ErrInjected
		} else {
			cause = fmt.Errorf("%w: %w", ErrInjected, cause)
		}
		s.Fault = "fail"
		err := fs.PathErr(string(op), name, fmt.Errorf("%w at step %d", cause, f.n))
		if fault.After {
			s.Fault = "fail after"
			v.after = err
		} else {
			v.before = err
		}
	}
	if f.logging {
		f.log = append(f.log, s)
	}
	return v
}

// Open counts a step and forwards.
func (f *FS) Open(ctx context.Context, name string) (fs.File, error) {
	v := f.step(OpOpen, name)
	if v.before != nil {
		return nil, v.before
	}
	file, err := f.inner.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	if v.after != nil {
		file.Close()
		return nil, v.after
	}
	return &faultFile{File: file, f: f, name: name}, nil
}

// Create counts a step and forwards.
func (f *FS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	v := f.step(OpCreate, name)
	if v.before != nil {
		return nil, v.before
	}
	w, err := f.inner.Create(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	if v.after != nil {
		// The file was being created when the caller lost track of it:
		// leave the inner writer as a crash would, abort it on a mere
		// failure.
		if !f.Crashed() {
			_ = w.Abort()
		}
		return nil, v.after
	}
	return &faultWriter{w: w, f: f, name: name}, nil
}

// Remove counts a step and forwards.
func (f *FS) Remove(ctx context.Context, name string) error {
	v := f.step(OpRemove, name)
	if v.before != nil {
		return v.before
	}
	if err := f.inner.Remove(ctx, name); err != nil {
		return err
	}
	return v.after
}

// Stat counts a step and forwards.
func (f *FS) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	v := f.step(OpStat, name)
	if v.before != nil {
		return fs.FileInfo{}, v.before
	}
	fi, err := f.inner.Stat(ctx, name)
	if err != nil {
		return fs.FileInfo{}, err
	}
	if v.after != nil {
		return fs.FileInfo{}, v.after
	}
	return fi, nil
}

// List counts one step when the iteration starts and forwards.
func (f *FS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	return func(yield func(fs.FileInfo, error) bool) {
		v := f.step(OpList, dir)
		if v.before != nil {
			yield(fs.FileInfo{}, v.before)
			return
		}
		var entries []fs.FileInfo
		for fi, err := range f.inner.List(ctx, dir) {
			if err != nil {
				yield(fs.FileInfo{}, err)
				return
			}
			entries = append(entries, fi)
		}
		if v.after != nil {
			yield(fs.FileInfo{}, v.after)
			return
		}
		for _, fi := range entries {
			if !yield(fi, nil) {
				return
			}
		}
	}
}

// MkdirAll counts a step and forwards to fs.MkdirAll.
func (f *FS) MkdirAll(ctx context.Context, dir string) error {
	v := f.step(OpMkdirAll, dir)
	if v.before != nil {
		return v.before
	}
	if err := fs.MkdirAll(ctx, f.inner, dir); err != nil {
		return err
	}
	return v.after
}

// RemoveAll counts a step and forwards to fs.RemoveAll.
func (f *FS) RemoveAll(ctx context.Context, name string) error {
	v := f.step(OpRemoveAll, name)
	if v.before != nil {
		return v.before
	}
	if err := fs.RemoveAll(ctx, f.inner, name); err != nil {
		return err
	}
	return v.after
}

// Close closes the wrapped file system. It is not a step.
func (f *FS) Close() error { return f.inner.Close() }

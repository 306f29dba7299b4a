package faultfs

import (
	"fmt"

	"github.com/paimon-go/paimon-go/fs"
)

// faultFile counts every ReadAt as a step.
type faultFile struct {
	fs.File
	f    *FS
	name string
}

func (r *faultFile) ReadAt(p []byte, off int64) (int, error) {
	v := r.f.step(OpReadAt, r.name)
	if v.before != nil {
		return 0, v.before
	}
	n, err := r.File.ReadAt(p, off)
	if err != nil {
		return n, err
	}
	if v.after != nil {
		return 0, v.after
	}
	return n, nil
}

// faultWriter counts Write, Close and Abort as steps. After a failed step
// the writer is unusable and the pending file is discarded (aborted on a
// failure, abandoned on a crash), as the fs.Writer contract requires.
type faultWriter struct {
	w    fs.Writer
	f    *FS
	name string
	err  error // sticky failure
	done bool
}

func (w *faultWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, fs.PathErr("write", w.name, fs.ErrClosed)
	}
	if w.err != nil {
		return 0, w.err
	}
	v := w.f.step(OpWrite, w.name)
	if v.before != nil {
		w.err = v.before
		return 0, v.before
	}
	n, err := w.w.Write(p)
	if err != nil {
		w.err = err
		return n, err
	}
	if v.after != nil {
		w.err = v.after
		return 0, v.after
	}
	return n, nil
}

func (w *faultWriter) Close() error {
	if w.done {
		return fs.PathErr("create", w.name, fs.ErrClosed)
	}
	w.done = true
	v := w.f.step(OpClose, w.name)
	if v.before != nil {
		w.discard()
		return v.before
	}
	if w.err != nil {
		w.discard()
		return fmt.Errorf("%w (after an earlier write failed)", w.err)
	}
	if err := w.w.Close(); err != nil {
		return err
	}
	return v.after
}

func (w *faultWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	v := w.f.step(OpAbort, w.name)
	if v.before != nil {
		w.discard()
		return v.before
	}
	if err := w.w.Abort(); err != nil {
		return err
	}
	return v.after
}

// discard drops the pending file without publishing it: a live process
// aborts it, a crashed one leaves it where it is.
func (w *faultWriter) discard() {
	if !w.f.Crashed() {
		_ = w.w.Abort()
	}
}

package mergetree

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/offheap"
)

// DefaultWriteBufferSize is write-buffer-size's default (Java CoreOptions).
const DefaultWriteBufferSize = 256 << 20

// WriterOptions configure a Writer. The embedded Options are used as by
// Read: Schema, Merge, SequenceFields and SequenceDescending are required;
// BatchSize and Allocator size and allocate the batches handed to the file
// writers.
type WriterOptions struct {
	Options
	// FS and Dir are where the bucket's files go.
	FS  fs.FS
	Dir string
	// FirstSequence is the sequence number of the first row written: one
	// past the largest of the bucket's live files (Java restores it from
	// them), 0 for a new bucket.
	FirstSequence int64
	// BufferSize bounds the buffer (write-buffer-size); 0 means
	// DefaultWriteBufferSize. A buffer that would grow past it is flushed
	// as a sorted run first.
	BufferSize int64
	// Changelog also writes every row, as given, into changelog files
	// (changelog-producer = input).
	Changelog bool
	// Pool supplies the buffer's off-heap pages; nil means a pool of the
	// Writer's own.
	Pool *offheap.Pool
	// Names names the data and changelog files (one counter for both, as
	// Java's DataFilePathFactory); nil means a FileNames of the Writer's
	// own.
	Names *datafile.FileNames
	// Now stamps the files' creation time; nil means time.Now.
	Now func() time.Time
	// Workers bounds the goroutines encoding a flushed file's Parquet
	// columns (datafile.Options.Workers): 0 means GOMAXPROCS. Unless it
	// is 1, a flush without changelog files also writes its merged
	// batches on a goroutine of its own while the merge goes on.
	Workers int
}

// Writer writes the rows of one bucket of a primary-key table as level-0
// sorted runs: Java's MergeTreeWriter without compaction (a write-only
// writer). Rows go into a SortBuffer with consecutive sequence numbers; when
// the buffer is full, and at PrepareCommit, it is sorted, each key's
// versions are merged with the table's merge function, and the result is
// written as one sorted run of level-0 data files (rolling at
// target-file-size), plus the raw rows as changelog files when asked.
//
// A Writer is not safe for concurrent use. After an error writing files it
// stays failed: the rows since the last PrepareCommit are lost, and Abort
// removes what it wrote.
type Writer struct {
	opts   WriterOptions
	buf    *SortBuffer
	next   int64
	names  *datafile.FileNames
	data   []manifest.DataFileMeta // written since the last PrepareCommit
	log    []manifest.DataFileMeta
	failed error
}

// NewWriter returns a Writer; it writes no file before the first flush.
func NewWriter(opts *WriterOptions) (*Writer, error) {
	if opts == nil || opts.FS == nil {
		return nil, fmt.Errorf("%w: WriterOptions need an FS", ErrInvalid)
	}
	o := *opts
	if o.BufferSize <= 0 {
		o.BufferSize = DefaultWriteBufferSize
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	buf, err := NewSortBuffer(&o.Options, o.Pool)
	if err != nil {
		return nil, err
	}
	// Refuse unwritable options now rather than at the first flush.
	for _, kv := range o.fileKinds() {
		if err := datafile.ValidateKeyValue(o.Schema, kv); err != nil {
			return nil, err
		}
	}
	w := &Writer{opts: o, buf: buf, next: o.FirstSequence, names: o.Names}
	if w.names == nil {
		w.names = datafile.NewFileNames()
	}
	return w, nil
}

func (o *WriterOptions) fileKinds() []datafile.KeyValue {
	out := []datafile.KeyValue{{Level: 0, Source: manifest.FileSourceAppend}}
	if o.Changelog {
		out = append(out, datafile.KeyValue{Level: 0, Changelog: true, Source: manifest.FileSourceAppend})
	}
	return out
}

// NextSequence is the sequence number the next row gets.
func (w *Writer) NextSequence() int64 { return w.next }

// BufferSize is the number of bytes buffered.
func (w *Writer) BufferSize() int64 { return w.buf.Size() }

// Buffered is the number of rows buffered.
func (w *Writer) Buffered() int { return w.buf.Len() }

// Write buffers rows: cols are the table's fields, kinds their row kinds.
// They get the next sequence numbers in order. The caller keeps ownership
// of cols.
func (w *Writer) Write(ctx context.Context, cols []arrow.Array, kinds []int8) error {
	if w.failed != nil {
		return w.failed
	}
	n := len(kinds)
	if n == 0 {
		return nil
	}
	est := EstimateSize(cols, n)
	if w.buf.Len() > 0 && w.buf.Size()+est > w.opts.BufferSize {
		if err := w.Flush(ctx); err != nil {
			return err
		}
	}
	if est > w.opts.BufferSize && n > 1 {
		// More than a whole buffer: write it in halves.
		half := n / 2
		for _, r := range [][2]int{{0, half}, {half, n}} {
			part := make([]arrow.Array, len(cols))
			for i, c := range cols {
				part[i] = array.NewSlice(c, int64(r[0]), int64(r[1]))
			}
			err := w.Write(ctx, part, kinds[r[0]:r[1]])
			for _, c := range part {
				c.Release()
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := w.buf.Put(cols, kinds, w.next); err != nil {
		return err
	}
	w.next += int64(n)
	return nil
}

// Flush writes the buffered rows as a sorted run (and changelog files)
// and empties the buffer.
func (w *Writer) Flush(ctx context.Context) error {
	if w.failed != nil {
		return w.failed
	}
	if w.buf.Len() == 0 {
		return nil
	}
	err := w.flush(ctx)
	w.buf.Clear()
	if err != nil {
		w.failed = err
	}
	return err
}

func (w *Writer) flush(ctx context.Context) error {
	newWriter := func(kv datafile.KeyValue) (*datafile.Writer, error) {
		return datafile.NewWriter(datafile.Options{
			FS: w.opts.FS, Dir: w.opts.Dir, Schema: w.opts.Schema, Allocator: w.opts.Allocator,
			Now: w.opts.Now, Names: w.names, KeyValue: &kv, Workers: w.opts.Workers,
		})
	}
	kinds := w.opts.fileKinds()
	dw, err := newWriter(kinds[0])
	if err != nil {
		return err
	}
	var cw *datafile.Writer
	var raw func(arrow.RecordBatch) error
	if w.opts.Changelog {
		if cw, err = newWriter(kinds[1]); err != nil {
			_ = dw.Abort(context.WithoutCancel(ctx))
			return err
		}
		raw = func(rec arrow.RecordBatch) error { return cw.Write(ctx, rec) }
	}
	abort := func(err error) error {
		errs := []error{err, dw.Abort(context.WithoutCancel(ctx))}
		if cw != nil {
			errs = append(errs, cw.Abort(context.WithoutCancel(ctx)))
		}
		return errors.Join(errs...)
	}
	merged := func(rec arrow.RecordBatch) error { return dw.Write(ctx, rec) }
	var sink *writeSink
	if raw == nil && w.opts.Workers != 1 {
		// The merge (one goroutine) and the encoding of what it merged
		// overlap: at full scale the merge was a fifth of a primary-key
		// write's CPU, and the encoder's column goroutines waited for it.
		// With a changelog writer the two writers stay on this goroutine,
		// so that their files are named in the order they are opened.
		sink = startWriteSink(merged)
		merged = sink.send
	}
	err = w.buf.Flush(ctx, merged, raw)
	if sink != nil {
		// The sink's goroutine stops using dw before dw is closed or
		// aborted; its error is the cause of a failed send.
		if serr := sink.close(); serr != nil {
			err = serr
		}
	}
	if err != nil {
		return abort(err)
	}
	data, err := dw.Close(ctx)
	if err != nil {
		return abort(err)
	}
	var log []manifest.DataFileMeta
	if cw != nil {
		if log, err = cw.Close(ctx); err != nil {
			return abort(err)
		}
	}
	w.data = append(w.data, data...)
	w.log = append(w.log, log...)
	return nil
}

// PrepareCommit flushes the buffer and returns the data and changelog files
// written since the last call, handing them over: Abort no longer removes
// them.
func (w *Writer) PrepareCommit(ctx context.Context) (data, changelog []manifest.DataFileMeta, err error) {
	if err := w.Flush(ctx); err != nil {
		return nil, nil, err
	}
	data, changelog = w.data, w.log
	w.data, w.log = nil, nil
	return data, changelog, nil
}

// Abort drops the buffered rows and removes the files written since the
// last PrepareCommit (files already gone are not an error). The Writer is
// unusable afterwards.
func (w *Writer) Abort(ctx context.Context) error {
	w.buf.Clear()
	var errs []error
	for _, f := range append(w.data, w.log...) {
		p := fs.Join(w.opts.Dir, f.FileName)
		if err := w.opts.FS.Remove(ctx, p); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("mergetree: remove %s: %w", p, err))
		}
	}
	w.data, w.log = nil, nil
	if w.failed == nil {
		w.failed = fmt.Errorf("%w: the writer of %s was aborted", ErrInvalid, w.opts.Dir)
	}
	return errors.Join(errs...)
}

// Close releases the buffer's memory. Files written since the last
// PrepareCommit are not removed: call Abort for that.
func (w *Writer) Close() { w.buf.Release() }

// writeSink writes batches on a goroutine of its own, one batch queued
// behind the one being written, so that the merge producing them goes on
// meanwhile. After a write fails, send refuses further batches (the
// merge stops) and close reports that failure.
type writeSink struct {
	ch     chan arrow.RecordBatch
	done   chan struct{}
	failed atomic.Bool
	err    error // the first write error; read after done is closed
}

// errSinkFailed stops a merge whose batches can no longer be written;
// writeSink.close returns the write error that caused it.
var errSinkFailed = errors.New("mergetree: the file writer failed")

func startWriteSink(write func(arrow.RecordBatch) error) *writeSink {
	s := &writeSink{ch: make(chan arrow.RecordBatch, 1), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for rec := range s.ch {
			if s.err == nil {
				if s.err = write(rec); s.err != nil {
					s.failed.Store(true)
				}
			}
			rec.Release()
		}
	}()
	return s
}

// send hands rec, which the caller lends (SortBuffer.Flush releases it
// after the call), to the writing goroutine.
func (s *writeSink) send(rec arrow.RecordBatch) error {
	if s.failed.Load() {
		return errSinkFailed
	}
	rec.Retain()
	s.ch <- rec
	return nil
}

// close waits until every batch sent is written or dropped and returns the
// first write error.
func (s *writeSink) close() error {
	close(s.ch)
	<-s.done
	return s.err
}

package mergetree

import (
	"context"
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
)

// Column positions in the batches an OpenFunc yields (ReadFields).
const (
	seqCol    = 0
	kindCol   = 1
	valueCol0 = 2
)

// runItem is one batch of a sorted run with the file it came from.
type runItem struct {
	rec  arrow.RecordBatch
	file *manifest.DataFileMeta
	err  error
}

// runCursor walks the rows of one sorted run, one batch at a time: the
// files of the run are opened one after the other and only the current
// batch is held. It is the Element of Java's SortMergeReaderWithMinHeap.
//
// The current row's columns stay valid until the next call to advance or
// close.
type runCursor struct {
	r    *reader
	idx  int // position of the run in its section; last tie-break
	next func() (runItem, bool)
	stop func()

	file *manifest.DataFileMeta // file of rec, for errors
	rec  arrow.RecordBatch
	row  int
	n    int
	seq  []int64
	kind []int8
	cols []arrow.Array // value columns of rec
	keys []colView     // trimmed primary-key columns
	seqs []colView     // sequence-field columns

	// intKey reports that the current batch's key is one INT or BIGINT
	// column without NULLs (the usual key); key is then the current row's
	// key, kept by advance, so that the heap's comparisons read two
	// cursor fields instead of reaching through the column views into the
	// batch (the heap's comparisons were 13% of the CPU of the bench
	// suite's pk-dedup read; pebble's mergingIter keeps its heap items'
	// current keys at hand for the same reason).
	intKey bool
	key    int64

	prevKey []any // last key seen, with the invariants tag

	// Where rec sits among the output's pending batches, valid while
	// outEpoch is the output's epoch (see output.copyRow).
	outSrc   int32
	outEpoch uint64
}

// openRun prepares the cursor of a sorted run; no file is opened before the
// first load.
func (r *reader) openRun(ctx context.Context, idx int, files []manifest.DataFileMeta) *runCursor {
	seq := func(yield func(runItem) bool) {
		for i := range files {
			f := &files[i]
			for rec, err := range r.open(ctx, f) {
				if !yield(runItem{rec: rec, file: f, err: err}) {
					return
				}
				if err != nil {
					return
				}
			}
		}
	}
	var next func() (runItem, bool)
	var stop func()
	if r.readAhead > 0 {
		next, stop = readAhead(seq, r.readAhead)
	} else {
		next, stop = iter.Pull(iter.Seq[runItem](seq))
	}
	return &runCursor{
		r:    r,
		idx:  idx,
		next: next,
		stop: stop,
		keys: make([]colView, len(r.keyIdx)),
		seqs: make([]colView, len(r.seqIdx)),
	}
}

// close releases the current batch and stops the run's file readers.
func (c *runCursor) close() {
	c.releaseBatch()
	c.stop()
}

func (c *runCursor) releaseBatch() {
	if c.rec != nil {
		c.rec.Release()
		c.rec = nil
	}
	c.n, c.row = 0, 0
	c.intKey = false
}

// load moves to the first row of the run's next non-empty batch. It returns
// false at the end of the run.
func (c *runCursor) load(ctx context.Context) (bool, error) {
	c.releaseBatch()
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		it, ok := c.next()
		if !ok {
			return false, nil
		}
		if it.err != nil {
			if it.rec != nil {
				it.rec.Release()
			}
			return false, it.err
		}
		if it.rec == nil {
			return false, fmt.Errorf("%w: data file %s: reader yielded no batch and no error", ErrCorrupt, it.file.FileName)
		}
		if it.rec.NumRows() == 0 {
			it.rec.Release()
			continue
		}
		if err := c.set(it.rec, it.file); err != nil {
			it.rec.Release()
			return false, err
		}
		return true, nil
	}
}

// set makes rec the current batch after checking it has ReadFields' shape:
// a batch of another shape is a bug of the OpenFunc or a corrupt file, and
// must not make the merge misread or panic.
func (c *runCursor) set(rec arrow.RecordBatch, f *manifest.DataFileMeta) error {
	r := c.r
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: data file %s: %s", ErrCorrupt, f.FileName, fmt.Sprintf(format, args...))
	}
	if int(rec.NumCols()) != len(r.inTypes) {
		return bad("batch has %d columns, want %d", rec.NumCols(), len(r.inTypes))
	}
	for i, t := range r.inTypes {
		if !arrow.TypeEqual(rec.Column(i).DataType(), t) {
			return bad("column %d is %s, want %s", i, rec.Column(i).DataType(), t)
		}
	}
	seqArr, ok1 := rec.Column(seqCol).(*array.Int64)
	kindArr, ok2 := rec.Column(kindCol).(*array.Int8)
	if !ok1 || !ok2 {
		return bad("system columns of unexpected types")
	}
	if seqArr.NullN() > 0 || kindArr.NullN() > 0 {
		return bad("NULL in _SEQUENCE_NUMBER or _VALUE_KIND")
	}
	kinds := kindArr.Int8Values()
	for i, k := range kinds {
		if k < int8(data.Insert) || k > int8(data.Delete) {
			return bad("row %d has _VALUE_KIND %d", i, k)
		}
	}
	c.file, c.rec, c.row, c.n = f, rec, 0, int(rec.NumRows())
	c.outEpoch = 0 // a new batch, not yet among the output's
	c.seq, c.kind = seqArr.Int64Values(), kinds
	c.cols = c.cols[:0]
	for i := valueCol0; i < int(rec.NumCols()); i++ {
		c.cols = append(c.cols, rec.Column(i))
	}
	for k, vi := range r.keyIdx {
		if !c.keys[k].set(c.cols[vi], r.keyCmps[k].kind) {
			return bad("key column %d of unexpected type", vi)
		}
	}
	for k, vi := range r.seqIdx {
		if !c.seqs[k].set(c.cols[vi], r.seqCmps[k].kind) {
			return bad("sequence column %d of unexpected type", vi)
		}
	}
	c.intKey = len(c.keys) == 1 && !c.keys[0].hasNulls && (c.keys[0].i64 != nil || c.keys[0].i32 != nil)
	c.loadKey()
	// The write buffer's batches hold rows in arrival order, not sorted
	// runs: the order check applies to data files only.
	if invariantsEnabled && f != bufferFile {
		if err := c.checkRunOrder(); err != nil {
			// The caller releases rec.
			c.rec, c.n = nil, 0
			return err
		}
	}
	return nil
}

// advance moves to the next row of the run; it returns false at the end.
func (c *runCursor) advance(ctx context.Context) (bool, error) {
	c.row++
	if c.row < c.n {
		c.loadKey()
		return true, nil
	}
	return c.load(ctx)
}

// loadKey caches the current row's key when the batch has an intKey.
func (c *runCursor) loadKey() {
	if !c.intKey {
		return
	}
	if v := c.keys[0].i64; v != nil {
		c.key = v[c.row]
	} else {
		c.key = int64(c.keys[0].i32[c.row])
	}
}

// kindAt returns the kind of a row of the current batch.
func (c *runCursor) kindAt(row int) data.RowKind { return data.RowKind(c.kind[row]) }

// keyValues returns the key of a row of the current batch in the value
// model.
func (c *runCursor) keyValues(row int) ([]any, error) {
	out := make([]any, len(c.r.keyIdx))
	for k, vi := range c.r.keyIdx {
		v, err := parquet.ArrowValue(c.cols[vi], row, c.r.keyTypes[k])
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// values converts the value columns of a row of the current batch into
// dst.
func (c *runCursor) values(row int, dst []any) ([]any, error) {
	dst = dst[:0]
	for k, t := range c.r.valueTypes {
		v, err := parquet.ArrowValue(c.cols[k], row, t)
		if err != nil {
			return nil, fmt.Errorf("data file %s: %w", c.file.FileName, err)
		}
		dst = append(dst, v)
	}
	return dst, nil
}

// checkRunOrder verifies that the keys of the new batch strictly increase,
// continuing from the previous batch of the run: Java's SortedRun promises
// it and the merge relies on it.
func (c *runCursor) checkRunOrder() error {
	for row := 0; row < c.n; row++ {
		key, err := c.keyValues(row)
		if err != nil {
			return err
		}
		if c.prevKey != nil && c.r.keyCmp.Compare(c.prevKey, key) >= 0 {
			return fmt.Errorf("%w: data file %s: row %d: key %v does not follow %v in its sorted run",
				ErrCorrupt, c.file.FileName, row, key, c.prevKey)
		}
		c.prevKey = key
	}
	return nil
}

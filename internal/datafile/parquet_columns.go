package datafile

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// pqFileWriter is what parquetWriter needs of a Parquet file writer:
// pqarrow.FileWriter (one goroutine) or columnFileWriter (several).
type pqFileWriter interface {
	WriteBuffered(rec arrow.RecordBatch) error
	NewBufferedRowGroupChecked() error
	RowGroupTotalBytesWritten() int64
	Close() error
}

// columnFileWriter writes the same Parquet file as pqarrow.FileWriter in
// buffered mode, byte for byte, but encodes and compresses the columns of
// each batch on up to `workers` goroutines: pqarrow encodes a row group's
// columns one after the other on the caller's goroutine, which made one
// core the ceiling of every write (issue 23: pqarrow alone took 8.41 s of
// the 9.75 s write-10m).
//
// It works for flat schemas only (every Arrow field a primitive Parquet
// leaf), where pqarrow's level builder reduces to a rule this file
// restates (defLevels): a NOT NULL column has no definition levels; a
// nullable one has level 1 for each value and 0 for each NULL, and is
// passed as "leaf nullable" unless it holds no NULL. Each column's chunk
// writer (file.BufferedRowGroupWriter.Column) owns its encoder, statistics,
// page buffer and compressor, so different columns can be written at once;
// the row group, the file metadata and the sink are touched only between
// batches, on the caller's goroutine. Because every column sees the same
// values in the same order as with pqarrow, the pages, statistics, footer
// and the sizes the Writer rolls and cuts row groups by are identical
// (TestColumnFileWriterSameBytes).
type columnFileWriter struct {
	wr       *file.Writer
	rgw      file.BufferedRowGroupWriter
	maxRows  int64
	nullable []bool // per column: the Arrow field is nullable
	workers  int
	// ctxs holds one pqarrow write context per worker: a context carries
	// a scratch buffer and must not be shared by goroutines.
	ctxs []context.Context
	// defs holds each column's definition-level scratch; a column is
	// written by one goroutine per batch.
	defs   [][]int16
	closed bool
	// hook, when set, is called once with each column of each batch (the
	// file's value statistics), on a worker, possibly while another
	// worker encodes that column; calls for one column come in order.
	hook func(col int, arr arrow.Array)
}

// flatSchema reports whether every field of sc is one Parquet leaf column,
// which columnFileWriter requires.
func flatSchema(sc *arrow.Schema, leaves int) bool {
	if leaves != sc.NumFields() {
		return false
	}
	for _, f := range sc.Fields() {
		switch f.Type.ID() {
		case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST, arrow.MAP,
			arrow.DICTIONARY, arrow.EXTENSION, arrow.SPARSE_UNION, arrow.DENSE_UNION,
			arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW, arrow.RUN_END_ENCODED:
			return false
		}
	}
	return true
}

// newColumnFileWriter opens the file as pqarrow.NewFileWriter does (same
// Parquet schema, same key-value metadata: the Arrow schema's own, no
// ARROW:schema since arrowProps does not store it).
func newColumnFileWriter(sc *arrow.Schema, w io.Writer, props *pq.WriterProperties, arrowProps pqarrow.ArrowWriterProperties, workers int) (*columnFileWriter, error) {
	pqschema, err := pqarrow.ToParquet(sc, props, arrowProps)
	if err != nil {
		return nil, err
	}
	meta := make(metadata.KeyValueMetadata, 0)
	for i := 0; i < sc.Metadata().Len(); i++ {
		meta.Append(sc.Metadata().Keys()[i], sc.Metadata().Values()[i])
	}
	wr, err := file.NewParquetWriterWithError(w, pqschema.Root(), file.WithWriterProps(props), file.WithWriteMetadata(meta))
	if err != nil {
		return nil, err
	}
	c := &columnFileWriter{
		wr:       wr,
		maxRows:  props.MaxRowGroupLength(),
		nullable: make([]bool, sc.NumFields()),
		workers:  max(1, min(workers, sc.NumFields())),
		defs:     make([][]int16, sc.NumFields()),
	}
	for i, f := range sc.Fields() {
		c.nullable[i] = f.Nullable
	}
	for range c.workers {
		c.ctxs = append(c.ctxs, pqarrow.NewArrowWriteContext(context.Background(), &arrowProps))
	}
	return c, nil
}

// NewBufferedRowGroupChecked closes the current row group and starts a new
// one, as pqarrow's method of that name.
func (c *columnFileWriter) NewBufferedRowGroupChecked() error {
	if c.rgw != nil {
		if err := c.flushLastPages(); err != nil {
			return err
		}
		if err := c.rgw.Close(); err != nil {
			return err
		}
	}
	rgw, err := c.wr.AppendBufferedRowGroupChecked()
	if err != nil {
		return err
	}
	c.rgw = rgw
	return nil
}

// RowGroupTotalBytesWritten is the current row group's flushed pages.
func (c *columnFileWriter) RowGroupTotalBytesWritten() int64 {
	if c.rgw != nil {
		return c.rgw.TotalBytesWritten()
	}
	return 0
}

// WriteBuffered writes rec into the current row group, starting a new one
// wherever the maximum row-group length would be passed, as
// pqarrow.FileWriter.WriteBuffered does.
func (c *columnFileWriter) WriteBuffered(rec arrow.RecordBatch) error {
	if c.closed {
		return fmt.Errorf("WriteBuffered called on already closed FileWriter")
	}
	if int(rec.NumCols()) != len(c.nullable) {
		return fmt.Errorf("batch has %d columns, the file %d", rec.NumCols(), len(c.nullable))
	}
	var cur int
	if c.rgw != nil {
		var err error
		if cur, err = c.rgw.NumRows(); err != nil {
			return err
		}
	} else if err := c.NewBufferedRowGroupChecked(); err != nil {
		return err
	}
	n := rec.NumRows()
	if int64(cur)+n <= c.maxRows {
		return c.writeRange(rec, 0, n, c.hook)
	}
	if c.hook != nil {
		for i, col := range rec.Columns() {
			c.hook(i, col)
		}
	}
	for off, size := int64(0), c.maxRows-int64(cur); ; {
		if err := c.writeRange(rec, off, size, nil); err != nil {
			return err
		}
		if off+size >= n {
			return nil
		}
		if err := c.NewBufferedRowGroupChecked(); err != nil {
			return err
		}
		off += size
		size = min(c.maxRows, n-off)
	}
}

// writeRange writes rows [off, off+size) of every column of rec, the
// columns spread over the workers, largest first.
func (c *columnFileWriter) writeRange(rec arrow.RecordBatch, off, size int64, hook func(int, arrow.Array)) error {
	if size <= 0 {
		return nil
	}
	ncols := int(rec.NumCols())
	whole := off == 0 && size == rec.NumRows()
	errs := make([]error, ncols)
	column := func(i int) arrow.Array {
		if whole {
			return rec.Column(i)
		}
		return array.NewSlice(rec.Column(i), off, off+size)
	}
	// Task k < ncols encodes a column, task k >= ncols passes one to the
	// hook. The hook only reads the column and keeps its own state per
	// column, so a column's statistics are gathered while another worker
	// encodes it: the largest column's encoding bounds each batch, and
	// its statistics (a tenth of it for strings) no longer add to it.
	task := func(worker, k int) {
		i := k % ncols
		arr := column(i)
		if !whole {
			defer arr.Release()
		}
		if k >= ncols {
			hook(i, arr)
			return
		}
		errs[i] = c.writeColumn(c.ctxs[worker], i, arr)
	}
	ntasks := ncols
	if hook != nil {
		ntasks = 2 * ncols
		if whole {
			// The two tasks of a column share its array: NullN counts
			// and caches the NULLs of a slice on first use, so count
			// them here, before either task starts.
			for _, col := range rec.Columns() {
				col.NullN()
			}
		}
	}
	workers := min(c.workers, ncols)
	pick := func(k int) int { return k }
	if workers > 1 {
		// Largest columns first, taken by whichever worker is free: the
		// makespan stays close to the total divided by the workers unless
		// one column dominates. The hook's tasks come last, in the same
		// order.
		order := make([]int, ncols)
		cost := make([]int64, ncols)
		for i := range order {
			order[i], cost[i] = i, arrayBytes(rec.Column(i))
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
		pick = func(k int) int { return order[k%ncols] + k/ncols*ncols }
	}
	forEachTask(workers, ntasks, func(worker, k int) { task(worker, pick(k)) })
	return firstErr(errs)
}

// forEachTask runs task(worker, k) once for each k in [0, n), on up to
// workers goroutines, the caller's among them; each free worker takes the
// next k.
func forEachTask(workers, n int, task func(worker, k int)) {
	if workers <= 1 {
		for k := range n {
			task(0, k)
		}
		return
	}
	var next atomic.Int64
	run := func(worker int) {
		for {
			k := int(next.Add(1) - 1)
			if k >= n {
				return
			}
			task(worker, k)
		}
	}
	var wg sync.WaitGroup
	for worker := 1; worker < workers; worker++ {
		wg.Go(func() { run(worker) })
	}
	run(0)
	wg.Wait()
}

// firstErr is the first non-nil error of errs.
func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeColumn writes one column's values with the definition levels
// pqarrow's level builder would give them.
func (c *columnFileWriter) writeColumn(ctx context.Context, i int, arr arrow.Array) error {
	cw, err := c.rgw.Column(i)
	if err != nil {
		return err
	}
	var defs []int16
	leafNullable := false
	if c.nullable[i] {
		n := arr.Len()
		defs = c.defs[i]
		if cap(defs) < n {
			defs = make([]int16, n, max(n, 2*cap(defs)))
		}
		defs = defs[:n]
		c.defs[i] = defs
		switch nulls := arr.NullN(); {
		case nulls == 0:
			// pqarrow's allPresentTerminalNode: level 1, leaf not nullable.
			for j := range defs {
				defs[j] = 1
			}
		case nulls == n:
			clear(defs)
			leafNullable = true
		default:
			bits, offset := arr.NullBitmapBytes(), arr.Data().Offset()
			for j := range defs {
				if bitutil.BitIsSet(bits, offset+j) {
					defs[j] = 1
				} else {
					defs[j] = 0
				}
			}
			leafNullable = true
		}
	}
	return pqarrow.WriteArrowToColumn(ctx, cw, arr, defs, nil, leafNullable)
}

// Close closes the row group and writes the footer (once).
func (c *columnFileWriter) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	if c.rgw != nil {
		if err := c.flushLastPages(); err != nil {
			_ = c.rgw.Close()
			_ = c.wr.Close()
			return err
		}
		if err := c.rgw.Close(); err != nil {
			return err
		}
	}
	return c.wr.Close()
}

// pageFlusher is the page flush of arrow-go's column chunk writers (the
// typed writers embed it; the ColumnChunkWriter interface does not list
// it).
type pageFlusher interface{ FlushCurrentPage() error }

// flushLastPages compresses the last page of the current row group's
// columns on the workers, before the row group closes: closing it
// (rowGroupWriter.Close) does that column after column on the caller's
// goroutine, and with row groups cut every few MB (the Budget's share) the
// other workers waited for it at every cut (bench/NOTES.md, write-10m). A
// page flushed here is the page Close would have flushed, with the same
// values, statistics and place in the column chunk, so the file does not
// change. Only pages that pageBuffered vouches for are flushed: the others
// are left to Close.
func (c *columnFileWriter) flushLastPages() error {
	n := len(c.nullable)
	workers := min(c.workers, n)
	if c.rgw == nil || workers <= 1 {
		return nil
	}
	errs := make([]error, n)
	forEachTask(workers, n, func(_, i int) {
		cw, err := c.rgw.Column(i)
		if err != nil {
			errs[i] = err
			return
		}
		if f, ok := cw.(pageFlusher); ok && pageBuffered(cw) {
			errs[i] = f.FlushCurrentPage()
		}
	})
	return firstErr(errs)
}

// pageBuffered reports whether cw's current page certainly holds values,
// so that a page flush writes a page and not an empty one (arrow-go does
// not say how many values are buffered). It holds for an encoder without
// a dictionary whose buffer is not empty: such an encoder's buffer is
// empty right after each flush and grows with every value. A dictionary
// encoder's estimate is never 0, and its pages wait for the dictionary
// page Close writes first, so dictionary columns are left to Close, as is
// a page of NULLs alone (nothing in the encoder).
// TestFlushLastPages checks both halves for every flat type.
func pageBuffered(cw file.ColumnChunkWriter) bool {
	enc := cw.CurrentEncoder()
	if _, dict := enc.(interface{ NumEntries() int }); dict {
		return false
	}
	return enc.EstimatedDataEncodedSize() > 0
}

// defaultWorkers is the worker count of Options.Workers 0.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

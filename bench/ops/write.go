package ops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// prepareWrite returns the body of the append write: the rows are generated
// before the clock starts, then written through one TableWriter and
// committed once (go; into bench.write_orc for write-10m-orc), or encoded
// with pqarrow alone into one file per day (raw-pqarrow). It runs once: the second run would append to a table that
// is no longer empty.
func prepareWrite(ctx context.Context, op, impl string, o Options) (timedBody, error) {
	if o.Rows <= 0 {
		return nil, fmt.Errorf("%w: write needs rows", ErrBadOptions)
	}
	if o.Warmup+o.Iters != 1 {
		return nil, fmt.Errorf("%w: %s runs once per process", ErrBadOptions, op)
	}
	if impl != ImplGo && (impl != ImplRaw || op == OpWriteORC) {
		return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, op, impl)
	}
	name := "write"
	if op == OpWriteORC {
		name = "write_orc"
	}
	tbl, err := OpenTable(ctx, o.Warehouse, name)
	if err != nil {
		return nil, err
	}
	sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
	if err != nil {
		return nil, fmt.Errorf("bench: write schema: %w", err)
	}
	recs, err := GenerateAppend(sc, o.Rows)
	if err != nil {
		return nil, err
	}
	if impl == ImplRaw {
		dir := filepath.Join(o.Warehouse, "raw-write")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("bench: raw write: %w", err)
		}
		return timed(func(ctx context.Context) (int64, error) { return WriteParquetByDay(dir, recs) }), nil
	}
	return timed(func(ctx context.Context) (int64, error) { return WriteAndCommit(ctx, tbl, recs, nil) }), nil
}

// prepareWriteStream returns the body of write-stream-10m: WriteStream
// into bench.write with default writer options, generating the rows inside
// the timed loop. It runs once per process (the table must be empty).
func prepareWriteStream(ctx context.Context, impl string, o Options) (timedBody, error) {
	if o.Rows <= 0 {
		return nil, fmt.Errorf("%w: write needs rows", ErrBadOptions)
	}
	if o.Warmup+o.Iters != 1 {
		return nil, fmt.Errorf("%w: %s runs once per process", ErrBadOptions, OpWriteStream)
	}
	if impl != ImplGo {
		return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, OpWriteStream, impl)
	}
	tbl, err := OpenTable(ctx, o.Warehouse, "write")
	if err != nil {
		return nil, err
	}
	return timed(func(ctx context.Context) (int64, error) { return WriteStream(ctx, tbl, o.Rows, nil) }), nil
}

// WriteAndCommit appends recs to tbl through one TableWriter (opts, nil
// for defaults) and one batch commit and returns the rows written.
func WriteAndCommit(ctx context.Context, tbl *paimon.Table, recs []arrow.RecordBatch, opts *paimon.WriterOptions) (int64, error) {
	i := 0
	return writeCommit(ctx, tbl, opts, func() (arrow.RecordBatch, error) {
		if i == len(recs) {
			return nil, nil
		}
		i++
		recs[i-1].Retain()
		return recs[i-1], nil
	})
}

// WriteStream appends the rows rows of write-10m to tbl as they are
// generated, one batch at a time (nothing is materialised beforehand, so
// the process's peak memory is the writer's), and commits once.
func WriteStream(ctx context.Context, tbl *paimon.Table, rows int64, opts *paimon.WriterOptions) (int64, error) {
	sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
	if err != nil {
		return 0, fmt.Errorf("bench: write schema: %w", err)
	}
	from := int64(0)
	return writeCommit(ctx, tbl, opts, func() (arrow.RecordBatch, error) {
		if from >= rows {
			return nil, nil
		}
		// Batches never straddle a day, as GenerateAppend's.
		end := min(rows, from+genBatchRows, dayEnd(from, rows))
		rec, err := AppendBatch(sc, from, end-from, rows)
		from = end
		return rec, err
	})
}

// writeCommit writes the batches next returns (nil at the end; each is
// released after its Write) and commits them once.
func writeCommit(ctx context.Context, tbl *paimon.Table, opts *paimon.WriterOptions, next func() (arrow.RecordBatch, error)) (int64, error) {
	w, err := tbl.NewWriter(opts)
	if err != nil {
		return 0, err
	}
	defer w.Close(ctx)
	var n int64
	for {
		rec, err := next()
		if err != nil {
			return n, err
		}
		if rec == nil {
			break
		}
		err = w.Write(ctx, rec)
		n += rec.NumRows()
		rec.Release()
		if err != nil {
			return n, err
		}
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		return n, err
	}
	c, err := tbl.NewCommit(nil)
	if err != nil {
		return n, err
	}
	if _, err := c.Commit(ctx, paimon.BatchCommitIdentifier, msgs); err != nil {
		return n, err
	}
	return n, nil
}

// commitBody returns the body of the commit benchmark: each iteration writes
// a commitBatch-row file (untimed) and times a fresh TableCommit publishing
// it, as every implementation in the suite does.
func commitBody(tbl *paimon.Table) timedBody {
	next := int64(1_000_000_000)
	return func(ctx context.Context) (int64, time.Duration, error) {
		msgs, err := WriteSmall(ctx, tbl, next)
		if err != nil {
			return 0, 0, err
		}
		next += commitBatch
		start := time.Now()
		if err := CommitOnce(ctx, tbl, msgs); err != nil {
			return 0, 0, err
		}
		return commitBatch, time.Since(start), nil
	}
}

// WriteSmall writes the commitBatch append rows starting at id `from` into
// one data file and returns its commit messages (the untimed half of the
// commit benchmark).
func WriteSmall(ctx context.Context, tbl *paimon.Table, from int64) ([]paimon.CommitMessage, error) {
	sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
	if err != nil {
		return nil, fmt.Errorf("bench: commit schema: %w", err)
	}
	rec, err := AppendBatch(sc, from, commitBatch, 1<<62)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	w, err := tbl.NewWriter(nil)
	if err != nil {
		return nil, err
	}
	defer w.Close(ctx)
	if err := w.Write(ctx, rec); err != nil {
		return nil, err
	}
	return w.PrepareCommit(ctx)
}

// CommitOnce publishes msgs with a fresh TableCommit (the timed half of the
// commit benchmark).
func CommitOnce(ctx context.Context, tbl *paimon.Table, msgs []paimon.CommitMessage) error {
	c, err := tbl.NewCommit(nil)
	if err != nil {
		return err
	}
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	return err
}

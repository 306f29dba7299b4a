package ops

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// The pk-write operation (issue 17): upserts into bench.pk_write, an empty
// primary-key table (k BIGINT, v BIGINT, s STRING, d DOUBLE; bucket = 4,
// write-only) that Java creates. Every implementation writes the same rows,
// defined by PKWriteKey and the value formulas below (PaimonBench.PkRows,
// pybench.py's pk_write_batch), so no random stream has to agree:
//
//	row i: k = PKWriteKey(i), v = i, s = "v-" + decimal(i), d = i / 2
//
// Of each block of ten rows, seven insert new keys and three update keys
// written before: 30% updates, 0.7 * rows distinct keys.
const pkWriteUpdateMul = 2_654_435_761

// PKWriteKey is the key of row i of pk-write.
func PKWriteKey(i int64) int64 {
	block, r := i/10, i%10
	if r < 7 {
		return block*7 + r
	}
	return (i * pkWriteUpdateMul) % (block*7 + 7)
}

// PKWriteBatch builds rows [from, from+n) of pk-write with the arrow schema
// of bench.pk_write.
func PKWriteBatch(sc *arrow.Schema, from, n int64) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	ks, ok0 := b.Field(0).(*array.Int64Builder)
	vs, ok1 := b.Field(1).(*array.Int64Builder)
	ss, ok2 := b.Field(2).(*array.StringBuilder)
	ds, ok3 := b.Field(3).(*array.Float64Builder)
	if !(ok0 && ok1 && ok2 && ok3) || sc.NumFields() != 4 {
		return nil, fmt.Errorf("%w: unexpected pk-write schema %s", ErrBadOptions, sc)
	}
	ks.Reserve(int(n))
	vs.Reserve(int(n))
	ds.Reserve(int(n))
	buf := make([]byte, 0, 24)
	for i := from; i < from+n; i++ {
		ks.UnsafeAppend(PKWriteKey(i))
		vs.UnsafeAppend(i)
		buf = strconv.AppendInt(append(buf[:0], "v-"...), i, 10)
		ss.BinaryBuilder.Append(buf)
		ds.UnsafeAppend(float64(i) / 2)
	}
	return b.NewRecordBatch(), nil
}

// preparePKWrite returns the body of pk-write: one TableWriter upserting the
// rows batch by batch (each batch generated just before it is written, so
// that no implementation holds the whole input and the peak RSS is the
// writer's; generating is timed, for every implementation alike), one
// commit. It runs once: a second run would write into a table that is no
// longer empty.
func preparePKWrite(ctx context.Context, impl string, o Options) (timedBody, error) {
	if o.Rows <= 0 {
		return nil, fmt.Errorf("%w: pk-write needs rows", ErrBadOptions)
	}
	if o.Warmup+o.Iters != 1 {
		return nil, fmt.Errorf("%w: %s runs once per process", ErrBadOptions, OpPKWrite)
	}
	if impl != ImplGo {
		return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, OpPKWrite, impl)
	}
	tbl, err := OpenTable(ctx, o.Warehouse, "pk_write")
	if err != nil {
		return nil, err
	}
	sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
	if err != nil {
		return nil, fmt.Errorf("bench: pk-write schema: %w", err)
	}
	return timed(func(ctx context.Context) (int64, error) { return PKWriteAndCommit(ctx, tbl, sc, o.Rows) }), nil
}

// PKWriteAndCommit upserts the rows rows of pk-write into tbl and commits.
func PKWriteAndCommit(ctx context.Context, tbl *paimon.Table, sc *arrow.Schema, rows int64) (int64, error) {
	w, err := tbl.NewWriter(nil)
	if err != nil {
		return 0, err
	}
	defer w.Close(ctx)
	var n int64
	for from := int64(0); from < rows; from += genBatchRows {
		rec, err := PKWriteBatch(sc, from, min(genBatchRows, rows-from))
		if err != nil {
			return n, err
		}
		err = w.Upsert(ctx, rec)
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

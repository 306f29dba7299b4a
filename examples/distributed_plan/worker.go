package main

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/paimon"
)

// result is what a worker sends back: rows per group value, and what it
// read.
type result struct {
	Worker int
	Splits int
	Rows   int64
	Counts map[string]int64
}

// work reads the encoded splits it receives until the channel closes and
// returns its counts. It opens the table itself: nothing but the job and
// the bytes of the splits crosses from the coordinator.
func work(ctx context.Context, worker int, j job, splits <-chan []byte) (result, error) {
	res := result{Worker: worker, Counts: map[string]int64{}}
	cat, tbl, err := j.open(ctx)
	if err != nil {
		return res, err
	}
	defer cat.Close()
	scan, err := j.scan(tbl)
	if err != nil {
		return res, err
	}
	for b := range splits {
		var split paimon.Split
		if err := split.UnmarshalBinary(b); err != nil {
			return res, err
		}
		for rec, err := range scan.ReadSplits(ctx, split) {
			if err != nil {
				return res, fmt.Errorf("worker %d: split %s: %w", worker, split.BucketPath, err)
			}
			count(res.Counts, rec, j.By != "")
			res.Rows += rec.NumRows()
			rec.Release()
		}
		res.Splits++
	}
	return res, nil
}

// count adds the rows of rec to counts, by the value of its only column
// when grouped, under "" otherwise.
func count(counts map[string]int64, rec arrow.RecordBatch, grouped bool) {
	if !grouped {
		counts[""] += rec.NumRows()
		return
	}
	col := rec.Column(0)
	for i := 0; i < col.Len(); i++ {
		counts[key(col, i)]++
	}
}

// key formats a group value: NULL for nulls, decimals with their scale,
// anything else as Arrow prints it.
func key(col arrow.Array, i int) string {
	if col.IsNull(i) {
		return "NULL"
	}
	if d, ok := col.(*array.Decimal128); ok {
		return d.Value(i).ToString(d.DataType().(*arrow.Decimal128Type).Scale)
	}
	return col.ValueStr(i)
}

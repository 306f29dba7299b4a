package paimon

import (
	"bytes"
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/evolution"
)

// takeArray gathers the rows of arr at idx with Arrow's take kernel.
func takeArray(arr arrow.Array, idx arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	ctx := compute.WithAllocator(context.Background(), mem)
	// The indices are ours, ascending and in range: the kernel's bounds
	// check, a second pass over them per column, is skipped.
	return compute.TakeArrayOpts(ctx, arr, idx, compute.TakeOptions{BoundsCheck: false})
}

// valuesEqual compares two literals of the value model for equality.
func valuesEqual(a, b any) bool {
	switch x := a.(type) {
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case data.Decimal:
		y, ok := b.(data.Decimal)
		return ok && x.Cmp(y) == 0
	case data.Timestamp:
		y, ok := b.(data.Timestamp)
		return ok && x.Compare(y) == 0
	}
	defer func() { _ = recover() }() // uncomparable dynamic types
	return a == b
}

// castStat converts a min/max statistic written under an older type to the
// scan's type; ok is false when Java would not use the statistic for
// pruning after that type change.
func castStat(v any, from, to schema.DataType) (any, bool) {
	if v == nil {
		return nil, true
	}
	return evolution.CastValue(v, from, to)
}

package paimon

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

// rowGroup is the rows of a batch that go to one partition and bucket.
type rowGroup struct {
	key       string // partition row + "/" + bucket
	partKey   string // serialized partition row, unprefixed
	partition []byte // serialized BinaryRow, as manifests store it
	values    []any
	bucket    int32
	rows      []int64 // nil: every row of the batch
}

// take returns the group's rows of rec (rec itself, retained, when the
// group has them all).
func (g *rowGroup) take(rec arrow.RecordBatch, groups int, mem memory.Allocator) (arrow.RecordBatch, error) {
	if groups == 1 {
		rec.Retain()
		return rec, nil
	}
	part, err := takeRows(rec, g.rows, mem)
	if err != nil {
		return nil, fmt.Errorf("paimon: split batch by partition and bucket: %w", err)
	}
	return part, nil
}

// groupRows assigns the rows of rec to their partition and to the bucket
// bucketOf gives (0 when nil), in order of first appearance; each group
// lists its rows in batch order. bucketOf gets the row and its partition's
// key.
func (w *TableWriter) groupRows(rec arrow.RecordBatch, bucketOf func(r int, partKey string) (int32, error)) ([]*rowGroup, error) {
	n := int(rec.NumRows())
	// Keyed by partition and bucket without building a string per row:
	// the key string is made once per group.
	type groupKey struct {
		part   string
		bucket int32
	}
	groups := map[groupKey]*rowGroup{}
	var order []*rowGroup
	partVals := make([]any, len(w.partIdx))
	var buf []byte
	// The common case of an ingester: one partition per batch and no
	// buckets to compute. Look at the first row only.
	rows := n
	if bucketOf == nil {
		constant := true
		for _, c := range w.partIdx {
			constant = constant && constantColumn(rec.Column(c))
		}
		if constant {
			rows = min(n, 1)
		}
	}
	var lastPart []byte
	var lastKey string
	// byBucket caches the groups of lastKey's partition by bucket, so that
	// a batch of one partition spread over buckets looks up no map per
	// row; it is emptied when the partition changes.
	var byBucket []*rowGroup
	for r := 0; r < rows; r++ {
		for j, c := range w.partIdx {
			v, err := parquet.ArrowValueView(rec.Column(c), r, w.partTypes[j])
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrSchemaMismatch, err)
			}
			partVals[j] = v
		}
		row, err := binaryrow.Append(buf[:0], data.Insert, w.partTypes, partVals)
		if err != nil {
			return nil, fmt.Errorf("%w: partition of row %d: %w", ErrInvalidPartition, r, err)
		}
		buf = row
		if lastPart == nil || !bytes.Equal(row, lastPart) {
			lastPart = append(lastPart[:0], row...)
			lastKey = string(row)
			clear(byBucket)
		}
		bucket := int32(0)
		if bucketOf != nil {
			if bucket, err = bucketOf(r, lastKey); err != nil {
				return nil, err
			}
		}
		cached := bucket >= 0 && bucket < maxCachedBucket
		var g *rowGroup
		if cached && int(bucket) < len(byBucket) {
			g = byBucket[bucket]
		}
		if g != nil {
			g.rows = append(g.rows, int64(r))
			continue
		}
		gk := groupKey{lastKey, bucket}
		g, ok := groups[gk]
		if !ok {
			g = &rowGroup{key: lastKey + "/" + strconv.Itoa(int(bucket)), partKey: lastKey,
				partition: binaryrow.MarshalSerialized(row, len(w.partTypes)),
				values:    ownValues(partVals), bucket: bucket}
			groups[gk] = g
			order = append(order, g)
		}
		if cached {
			if int(bucket) >= len(byBucket) {
				byBucket = append(byBucket, make([]*rowGroup, int(bucket)+1-len(byBucket))...)
			}
			byBucket[bucket] = g
		}
		g.rows = append(g.rows, int64(r))
	}
	if rows < n {
		order[0].rows = nil // the whole batch
	}
	return order, nil
}

// constantColumn reports whether every row of arr holds the same value
// (all NULL counts as the same). It knows the array types partition keys
// usually have and answers false for the others, which only sends the batch
// down the row-by-row routing path.
func constantColumn(arr arrow.Array) bool {
	n := arr.Len()
	if n <= 1 {
		return true
	}
	switch nulls := arr.NullN(); {
	case nulls == n:
		return true
	case nulls > 0:
		return false
	}
	switch a := arr.(type) {
	case *array.String:
		first := a.Value(0)
		for i := 1; i < n; i++ {
			if a.Value(i) != first {
				return false
			}
		}
		return true
	case *array.Binary:
		first := a.Value(0)
		for i := 1; i < n; i++ {
			if !bytes.Equal(a.Value(i), first) {
				return false
			}
		}
		return true
	case *array.Int8:
		return allEqual(a.Int8Values())
	case *array.Int16:
		return allEqual(a.Int16Values())
	case *array.Int32:
		return allEqual(a.Int32Values())
	case *array.Int64:
		return allEqual(a.Int64Values())
	case *array.Date32:
		return allEqual(a.Date32Values())
	case *array.Boolean:
		first := a.Value(0)
		for i := 1; i < n; i++ {
			if a.Value(i) != first {
				return false
			}
		}
		return true
	}
	return false
}

func allEqual[T comparable](vals []T) bool {
	for _, v := range vals[1:] {
		if v != vals[0] {
			return false
		}
	}
	return true
}

// ownValues copies vals with their strings and binaries, which may be views
// of a batch (parquet.ArrowValueView) that a group outlives.
func ownValues(vals []any) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case string:
			out[i] = strings.Clone(x)
		case []byte:
			out[i] = append([]byte{}, x...)
		default:
			out[i] = v
		}
	}
	return out
}

// maxCachedBucket bounds the buckets groupRows caches in a slice.
const maxCachedBucket = 4096

// intKeyHashes returns, for every row of rec, the hash of the BinaryRow of
// its key columns idx (of types), which binaryrow.KeyHash gives for the
// row's values, computed without boxing them (binaryrow.IntKey). It
// returns false unless every key column is an integer type (TINYINT,
// SMALLINT, INT, DATE, TIME, BIGINT) in the Arrow type it maps to; such
// keys take the value path.
func intKeyHashes(rec arrow.RecordBatch, idx []int, types []schema.DataType) ([]int32, bool) {
	k, ok := binaryrow.NewIntKey(types)
	if !ok {
		return nil, false
	}
	cols := make([]arrow.Array, len(idx))
	get := make([]func(int) int64, len(idx))
	for j, c := range idx {
		col := rec.Column(c)
		cols[j] = col
		switch a := col.(type) {
		case *array.Int8:
			get[j] = func(r int) int64 { return int64(a.Value(r)) }
		case *array.Int16:
			get[j] = func(r int) int64 { return int64(a.Value(r)) }
		case *array.Int32:
			get[j] = func(r int) int64 { return int64(a.Value(r)) }
		case *array.Date32:
			get[j] = func(r int) int64 { return int64(a.Value(r)) }
		case *array.Time32:
			get[j] = func(r int) int64 { return int64(a.Value(r)) }
		case *array.Int64:
			get[j] = func(r int) int64 { return a.Value(r) }
		default:
			return nil, false
		}
		if !arrow.TypeEqual(col.DataType(), mustArrowType(types[j])) {
			return nil, false
		}
	}
	out := make([]int32, rec.NumRows())
	for r := range out {
		k.Reset()
		for j, col := range cols {
			if col.IsNull(r) {
				k.SetNull(j)
				continue
			}
			k.Set(j, get[j](r))
		}
		out[r] = k.Hash()
	}
	return out, true
}

// intKeyBuckets returns the bucket of each row of rec by its integer key
// (intKeyHashes) for the default bucket function over n buckets, or nil
// when the key or the function needs the value path.
func intKeyBuckets(rec arrow.RecordBatch, idx []int, types []schema.DataType, n int, fn binaryrow.BucketFunction) func(int, string) (int32, error) {
	if fn != binaryrow.BucketDefault {
		return nil
	}
	hashes, ok := intKeyHashes(rec, idx, types)
	if !ok {
		return nil
	}
	return func(r int, _ string) (int32, error) { return int32(binaryrow.DefaultBucket(hashes[r], n)), nil }
}

// mustArrowType is the Arrow type of an integer key type (nil if it has
// none, which never equals a column's type).
func mustArrowType(t schema.DataType) arrow.DataType {
	at, err := schema.ToArrowType(t)
	if err != nil {
		return nil
	}
	return at
}

package mergetree

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// rowRef is a winning row waiting in the output: row of pending batch src,
// with the kind it is output with.
type rowRef struct {
	src  int32
	row  int32
	kind int8
}

// gatherer appends, to dst, column col of the rows refs names among the
// batches srcs, in order. Copying a batch's worth of rows column by column
// (a gather, as Arrow's take kernel does) costs a type switch per column
// instead of an indirect call and two type assertions per cell, and keeps
// each column's values in cache while it is copied.
type gatherer func(dst array.Builder, srcs []arrow.RecordBatch, col int, refs []rowRef)

// valuesArray and valuesBuilder are the fixed-width Arrow arrays and
// builders with a typed slice of values.
type valuesArray[T any] interface {
	arrow.Array
	Values() []T
}

type valuesBuilder[T any] interface {
	array.Builder
	AppendValues([]T, []bool)
}

// newGatherer compiles the gatherer of one Arrow type: a typed one for the
// fixed-width types and strings, cell by cell with the copier for the rest
// (nested types, booleans, large binaries).
func newGatherer(t arrow.DataType, cp copier) gatherer {
	switch t.(type) {
	case *arrow.Int8Type:
		return gatherValues[int8, *array.Int8, *array.Int8Builder]()
	case *arrow.Int16Type:
		return gatherValues[int16, *array.Int16, *array.Int16Builder]()
	case *arrow.Int32Type:
		return gatherValues[int32, *array.Int32, *array.Int32Builder]()
	case *arrow.Int64Type:
		return gatherValues[int64, *array.Int64, *array.Int64Builder]()
	case *arrow.Float32Type:
		return gatherValues[float32, *array.Float32, *array.Float32Builder]()
	case *arrow.Float64Type:
		return gatherValues[float64, *array.Float64, *array.Float64Builder]()
	case *arrow.Date32Type:
		return gatherValues[arrow.Date32, *array.Date32, *array.Date32Builder]()
	case *arrow.Time32Type:
		return gatherValues[arrow.Time32, *array.Time32, *array.Time32Builder]()
	case *arrow.TimestampType:
		return gatherValues[arrow.Timestamp, *array.Timestamp, *array.TimestampBuilder]()
	case *arrow.Decimal128Type:
		return gatherValues[decimal128.Num, *array.Decimal128, *array.Decimal128Builder]()
	case *arrow.StringType:
		return gatherStrings()
	}
	return func(dst array.Builder, srcs []arrow.RecordBatch, col int, refs []rowRef) {
		for _, r := range refs {
			cp(dst, srcs[r.src].Column(col), int(r.row))
		}
	}
}

// gatherValues gathers a fixed-width column through a reused buffer of
// values, appended in one call.
func gatherValues[T any, A valuesArray[T], B valuesBuilder[T]]() gatherer {
	var (
		arrs  []A
		views [][]T
		vals  []T
		valid []bool
	)
	return func(dst array.Builder, srcs []arrow.RecordBatch, col int, refs []rowRef) {
		arrs, views = arrs[:0], views[:0]
		nulls := false
		for _, s := range srcs {
			a := s.Column(col).(A)
			arrs = append(arrs, a)
			views = append(views, a.Values())
			nulls = nulls || a.NullN() > 0
		}
		vals = slices.Grow(vals[:0], len(refs))[:len(refs)]
		if !nulls {
			for i, r := range refs {
				vals[i] = views[r.src][r.row]
			}
			dst.(B).AppendValues(vals, nil)
			return
		}
		valid = slices.Grow(valid[:0], len(refs))[:len(refs)]
		var zero T
		for i, r := range refs {
			if arrs[r.src].IsNull(int(r.row)) {
				vals[i], valid[i] = zero, false
				continue
			}
			vals[i], valid[i] = views[r.src][r.row], true
		}
		dst.(B).AppendValues(vals, valid)
	}
}

// gatherStrings gathers a string column, its data reserved at once.
func gatherStrings() gatherer {
	var arrs []*array.String
	return func(dst array.Builder, srcs []arrow.RecordBatch, col int, refs []rowRef) {
		db := dst.(*array.StringBuilder)
		arrs = arrs[:0]
		for _, s := range srcs {
			arrs = append(arrs, s.Column(col).(*array.String))
		}
		size := 0
		for _, r := range refs {
			size += arrs[r.src].ValueLen(int(r.row))
		}
		db.Reserve(len(refs))
		db.ReserveData(size)
		for _, r := range refs {
			a, row := arrs[r.src], int(r.row)
			if a.IsNull(row) {
				db.AppendNull()
				continue
			}
			db.Append(a.Value(row))
		}
	}
}

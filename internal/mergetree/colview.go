package mergetree

import (
	"bytes"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

// viewKind selects how a colView compares cells: a typed slice for the
// types keys usually have, the value model for the rest.
type viewKind uint8

const (
	viewBool viewKind = iota
	viewInt8
	viewInt16
	viewInt32
	viewInt64
	viewFloat32
	viewFloat64
	viewDate
	viewTime
	viewTimestamp
	viewString
	viewBinary
	viewDecimal
	viewGeneric // ARRAY, VECTOR, ROW: converted with parquet.ArrowValue
)

// kindOf picks the view kind of a comparable Paimon type.
func kindOf(t schema.DataType) viewKind {
	switch t.Root {
	case schema.Boolean:
		return viewBool
	case schema.TinyInt:
		return viewInt8
	case schema.SmallInt:
		return viewInt16
	case schema.Int:
		return viewInt32
	case schema.BigInt:
		return viewInt64
	case schema.Float:
		return viewFloat32
	case schema.Double:
		return viewFloat64
	case schema.Date:
		return viewDate
	case schema.Time:
		return viewTime
	case schema.Timestamp, schema.TimestampLTZ:
		// One Arrow unit per column, so raw values order as instants.
		return viewTimestamp
	case schema.Char, schema.VarChar:
		return viewString
	case schema.Binary, schema.VarBinary:
		return viewBinary
	case schema.Decimal:
		// One scale per column, so unscaled values order as numbers.
		return viewDecimal
	}
	return viewGeneric
}

// colView is one column of the current batch of a run cursor, with its
// values reachable without interface calls. Only the slice of its kind is
// set.
type colView struct {
	arr      arrow.Array
	hasNulls bool
	b        *array.Boolean
	i8       []int8
	i16      []int16
	i32      []int32
	i64      []int64
	f32      []float32
	f64      []float64
	date     []arrow.Date32
	time     []arrow.Time32
	ts       []arrow.Timestamp
	str      *array.String
	bin      *array.Binary
	dec      []decimal128.Num
}

// set points the view at arr, an array of the Arrow type
// schema.ToArrowType gives a column of kind k. It reports false when arr is
// of another Arrow type.
func (v *colView) set(arr arrow.Array, k viewKind) bool {
	*v = colView{arr: arr, hasNulls: arr.NullN() > 0}
	var ok bool
	switch k {
	case viewBool:
		v.b, ok = arr.(*array.Boolean)
	case viewInt8:
		var a *array.Int8
		if a, ok = arr.(*array.Int8); ok {
			v.i8 = a.Int8Values()
		}
	case viewInt16:
		var a *array.Int16
		if a, ok = arr.(*array.Int16); ok {
			v.i16 = a.Int16Values()
		}
	case viewInt32:
		var a *array.Int32
		if a, ok = arr.(*array.Int32); ok {
			v.i32 = a.Int32Values()
		}
	case viewInt64:
		var a *array.Int64
		if a, ok = arr.(*array.Int64); ok {
			v.i64 = a.Int64Values()
		}
	case viewFloat32:
		var a *array.Float32
		if a, ok = arr.(*array.Float32); ok {
			v.f32 = a.Float32Values()
		}
	case viewFloat64:
		var a *array.Float64
		if a, ok = arr.(*array.Float64); ok {
			v.f64 = a.Float64Values()
		}
	case viewDate:
		var a *array.Date32
		if a, ok = arr.(*array.Date32); ok {
			v.date = a.Date32Values()
		}
	case viewTime:
		var a *array.Time32
		if a, ok = arr.(*array.Time32); ok {
			v.time = a.Time32Values()
		}
	case viewTimestamp:
		var a *array.Timestamp
		if a, ok = arr.(*array.Timestamp); ok {
			v.ts = a.TimestampValues()
		}
	case viewString:
		v.str, ok = arr.(*array.String)
	case viewBinary:
		v.bin, ok = arr.(*array.Binary)
	case viewDecimal:
		var a *array.Decimal128
		if a, ok = arr.(*array.Decimal128); ok {
			v.dec = a.Values()
		}
	case viewGeneric:
		ok = true
	}
	return ok
}

// colCmp compares one column of two cursors' batches.
type colCmp struct {
	kind viewKind
	typ  schema.DataType // for viewGeneric
	desc bool
}

// compare orders cell i of x against cell j of y: NULL first whatever the
// direction, values negated when descending (Java's generated comparator).
func (c *colCmp) compare(x *colView, i int, y *colView, j int) int {
	if x.hasNulls || y.hasNulls {
		xn, yn := x.hasNulls && x.arr.IsNull(i), y.hasNulls && y.arr.IsNull(j)
		switch {
		case xn && yn:
			return 0
		case xn:
			return -1
		case yn:
			return 1
		}
	}
	var r int
	switch c.kind {
	case viewBool:
		a, b := x.b.Value(i), y.b.Value(j)
		switch {
		case a == b:
		case a:
			r = 1
		default:
			r = -1
		}
	case viewInt8:
		r = cmpNum(x.i8[i], y.i8[j])
	case viewInt16:
		r = cmpNum(x.i16[i], y.i16[j])
	case viewInt32:
		r = cmpNum(x.i32[i], y.i32[j])
	case viewInt64:
		r = cmpNum(x.i64[i], y.i64[j])
	case viewFloat32:
		r = cmpNum(x.f32[i], y.f32[j])
	case viewFloat64:
		r = cmpNum(x.f64[i], y.f64[j])
	case viewDate:
		r = cmpNum(int32(x.date[i]), int32(y.date[j]))
	case viewTime:
		r = cmpNum(int32(x.time[i]), int32(y.time[j]))
	case viewTimestamp:
		r = cmpNum(int64(x.ts[i]), int64(y.ts[j]))
	case viewString:
		r = strings.Compare(x.str.Value(i), y.str.Value(j))
	case viewBinary:
		r = bytes.Compare(x.bin.Value(i), y.bin.Value(j)) // unsigned, like SortUtil.compareBinary
	case viewDecimal:
		r = x.dec[i].Cmp(y.dec[j])
	default:
		a, errA := parquet.ArrowValueView(x.arr, i, c.typ)
		b, errB := parquet.ArrowValueView(y.arr, j, c.typ)
		if errA != nil || errB != nil {
			// Batches are type-checked when loaded; unreachable.
			return 0
		}
		r = compareValue(&c.typ, a, b)
	}
	if c.desc {
		return -r
	}
	return r
}

package parquet

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// ArrowValue converts cell i of arr, an array of the Arrow type
// schema.ToArrowType(t), into the format/data value model (nil for NULL). It
// is the bridge between columnar batches and row-oriented code such as
// canon.EncodeValue; it is not meant for hot paths. Strings and binaries
// are copies: the value stays valid after the batch is released, whatever
// its allocator does with the memory.
func ArrowValue(arr arrow.Array, i int, t schema.DataType) (any, error) {
	return arrowValue(arr, i, t, true)
}

// ArrowValueView is ArrowValue without the copies: strings and binaries
// (also inside maps, lists and rows) are views of the batch's buffers,
// valid only while the batch is and never to be modified. It is for code
// that uses the value at once, such as hashing a key or encoding it into
// a row, and would otherwise allocate for every cell.
func ArrowValueView(arr arrow.Array, i int, t schema.DataType) (any, error) {
	return arrowValue(arr, i, t, false)
}

// arrowValue is ArrowValue, copying strings and binaries when own is set.
func arrowValue(arr arrow.Array, i int, t schema.DataType, own bool) (any, error) {
	if i < 0 || i >= arr.Len() {
		return nil, fmt.Errorf("parquet: index %d out of range [0, %d)", i, arr.Len())
	}
	if arr.IsNull(i) {
		return nil, nil
	}
	bad := func() (any, error) {
		return nil, fmt.Errorf("%w: Arrow %s does not hold %s", ErrSchema, arr.DataType(), t.Root)
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i), nil
	case *array.Int8:
		return a.Value(i), nil
	case *array.Int16:
		return a.Value(i), nil
	case *array.Int32:
		return a.Value(i), nil
	case *array.Int64:
		return a.Value(i), nil
	case *array.Float32:
		return a.Value(i), nil
	case *array.Float64:
		return a.Value(i), nil
	case *array.Decimal128:
		v := a.Value(i)
		dt := a.DataType().(*arrow.Decimal128Type)
		return data.Decimal{Unscaled: v.BigInt(), Precision: int(dt.Precision), Scale: int(dt.Scale)}, nil
	case *array.String:
		// Value aliases the batch's buffer, which the allocator may reuse
		// once the batch is released.
		if own {
			return strings.Clone(a.Value(i)), nil
		}
		return a.Value(i), nil
	case *array.Binary:
		return ownBytes(a.Value(i), own), nil
	case *array.LargeBinary:
		return ownBytes(a.Value(i), own), nil
	case *array.Date32:
		return int32(a.Value(i)), nil
	case *array.Time32:
		return int32(a.Value(i)), nil
	case *array.Timestamp:
		v := int64(a.Value(i))
		switch a.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			return data.Timestamp{Millis: v * 1000}, nil
		case arrow.Millisecond:
			return data.Timestamp{Millis: v}, nil
		case arrow.Microsecond:
			return data.TimestampFromMicros(v), nil
		}
		return data.TimestampFromNanos(v), nil
	case *array.Map:
		if t.Root != schema.Map && t.Root != schema.Multiset {
			return bad()
		}
		kt, vt := t.Key, t.Value
		if t.Root == schema.Multiset {
			it := schema.IntType().NotNull()
			kt, vt = t.Element, &it
		}
		if kt == nil || vt == nil {
			return bad()
		}
		start, end := a.ValueOffsets(i)
		m := data.Map{}
		for k := int(start); k < int(end); k++ {
			kv, err := arrowValue(a.Keys(), k, *kt, own)
			if err != nil {
				return nil, err
			}
			vv, err := arrowValue(a.Items(), k, *vt, own)
			if err != nil {
				return nil, err
			}
			m.Keys = append(m.Keys, kv)
			m.Values = append(m.Values, vv)
		}
		return m, nil
	case array.ListLike: // LIST and VECTOR (fixed_size_list); MAP is handled above
		if t.Element == nil {
			return bad()
		}
		start, end := a.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for k := int(start); k < int(end); k++ {
			v, err := arrowValue(a.ListValues(), k, *t.Element, own)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case *array.Struct:
		if t.Root == schema.Variant {
			if a.NumField() != 2 {
				return bad()
			}
			val, ok1 := a.Field(0).(*array.Binary)
			md, ok2 := a.Field(1).(*array.Binary)
			if !ok1 || !ok2 {
				return bad()
			}
			return data.Variant{Value: ownBytes(val.Value(i), own), Metadata: ownBytes(md.Value(i), own)}, nil
		}
		if t.Root != schema.Row || len(t.Fields) != a.NumField() {
			return bad()
		}
		out := make([]any, len(t.Fields))
		for k, f := range t.Fields {
			v, err := arrowValue(a.Field(k), i, f.Type, own)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	}
	return bad()
}

// ownBytes returns a copy of b when own is set (never nil, as before: an
// empty value stays distinct from NULL), else b.
func ownBytes(b []byte, own bool) []byte {
	if own {
		return append([]byte{}, b...)
	}
	return b
}

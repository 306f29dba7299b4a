// Package arrowrow appends values of the format/data model to Arrow array
// builders: the row-to-column direction of format/parquet.ArrowValue.
//
// Row-oriented code (merge functions of primary-key tables, test fixtures)
// produces rows as []any in the value model of package data; AppendValue
// turns each value into one cell of the Arrow type schema.ToArrowType gives
// its Paimon type, so the result reads back identically with ArrowValue.
//
// It is a bridge for rows that were computed, not copied: moving cells from
// one Arrow array to another needs no conversion through the value model.
package arrowrow

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// ErrMismatch reports a value whose Go type does not represent its Paimon
// type, or an Arrow builder that is not the one schema.ToArrowType gives for
// that type.
var ErrMismatch = errors.New("arrowrow: value does not match type")

// ErrRange reports a value of the right Go type that the column cannot hold
// exactly: a decimal with too many digits, a timestamp outside the range of
// the column's unit.
var ErrRange = errors.New("arrowrow: value out of range")

// maxDepth bounds the nesting AppendValue follows, as the schema codecs do.
const maxDepth = 64

// AppendValue appends v, a value of Paimon type t in the format/data model
// (nil for NULL), to b, a builder of the Arrow type schema.ToArrowType(t).
// Nothing is appended when an error is returned for a top-level mismatch;
// an error inside a nested value may leave the nested builders partially
// appended, so the caller must discard b.
//
// Accepted Go values, per type:
//
//	BOOLEAN                     bool
//	TINYINT/SMALLINT/INT/BIGINT int8/int16/int32/int64
//	FLOAT, DOUBLE               float32, float64
//	DECIMAL(p, s)               data.Decimal; other scales are rescaled when exact
//	CHAR, VARCHAR               string ([]byte accepted)
//	BINARY, VARBINARY, BLOB     []byte (string accepted)
//	DATE, TIME                  int32
//	TIMESTAMP, TIMESTAMP_LTZ    data.Timestamp
//	ARRAY, VECTOR               []any
//	MAP, MULTISET               data.Map (MULTISET values are int32 counts)
//	ROW                         []any with one value per field
//	VARIANT                     data.Variant
func AppendValue(b array.Builder, t schema.DataType, v any) error {
	// The error paths format *t, never t: a pointer handed to fmt would move
	// this copy of t to the heap on every call, success or not.
	return appendValue(b, &t, v, 0)
}

func appendValue(b array.Builder, t *schema.DataType, v any, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("%w: nesting deeper than %d", ErrMismatch, maxDepth)
	}
	if v == nil {
		b.AppendNull()
		return nil
	}
	var ok bool
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		ok = appendScalar(bb.Append, v)
	case *array.Int8Builder:
		ok = appendScalar(bb.Append, v)
	case *array.Int16Builder:
		ok = appendScalar(bb.Append, v)
	case *array.Int32Builder:
		ok = appendScalar(bb.Append, v)
	case *array.Int64Builder:
		ok = appendScalar(bb.Append, v)
	case *array.Float32Builder:
		ok = appendScalar(bb.Append, v)
	case *array.Float64Builder:
		ok = appendScalar(bb.Append, v)
	case *array.Date32Builder:
		var x int32
		if x, ok = v.(int32); ok {
			bb.Append(arrow.Date32(x))
		}
	case *array.Time32Builder:
		var x int32
		if x, ok = v.(int32); ok {
			bb.Append(arrow.Time32(x))
		}
	case *array.StringBuilder:
		switch x := v.(type) {
		case string:
			bb.Append(x)
			ok = true
		case []byte:
			bb.BinaryBuilder.Append(x)
			ok = true
		}
	case *array.BinaryBuilder: // BINARY/VARBINARY, and BLOB's large_binary
		switch x := v.(type) {
		case []byte:
			bb.Append(x)
			ok = true
		case string:
			bb.AppendString(x)
			ok = true
		}
	case *array.Decimal128Builder:
		var x data.Decimal
		if x, ok = v.(data.Decimal); ok {
			return appendDecimal(bb, x)
		}
	case *array.TimestampBuilder:
		var x data.Timestamp
		if x, ok = v.(data.Timestamp); ok {
			return appendTimestamp(bb, x)
		}
	case *array.MapBuilder: // before ListBuilder's cases: a map is also list-like
		var m data.Map
		if m, ok = v.(data.Map); ok {
			return appendMap(bb, t, m, depth)
		}
	case *array.ListBuilder:
		var xs []any
		if xs, ok = v.([]any); ok && t.Element != nil {
			bb.Append(true)
			for _, e := range xs {
				if err := appendValue(bb.ValueBuilder(), t.Element, e, depth+1); err != nil {
					return err
				}
			}
		}
	case *array.FixedSizeListBuilder:
		var xs []any
		if xs, ok = v.([]any); ok && t.Element != nil {
			if n := bb.Type().(*arrow.FixedSizeListType).Len(); int32(len(xs)) != n {
				return fmt.Errorf("%w: vector of %d elements for %s", ErrMismatch, len(xs), *t)
			}
			bb.Append(true)
			for _, e := range xs {
				if err := appendValue(bb.ValueBuilder(), t.Element, e, depth+1); err != nil {
					return err
				}
			}
		}
	case *array.StructBuilder:
		return appendStruct(bb, t, v, depth)
	default:
		return fmt.Errorf("%w: no Arrow builder %T for %s", ErrMismatch, b, *t)
	}
	if !ok {
		return fmt.Errorf("%w: %T for %s", ErrMismatch, v, *t)
	}
	return nil
}

// appendScalar appends v when its dynamic type is exactly T.
func appendScalar[T any](app func(T), v any) bool {
	x, ok := v.(T)
	if ok {
		app(x)
	}
	return ok
}

// appendDecimal appends d at the column's scale, rescaling only when no
// digit is lost, and refuses values beyond the column's precision (Java
// Decimal.fromBigDecimal returns null there; a merge result must never be
// silently changed).
func appendDecimal(b *array.Decimal128Builder, d data.Decimal) error {
	dt := b.Type().(*arrow.Decimal128Type)
	if d.Unscaled == nil {
		return fmt.Errorf("%w: decimal without unscaled value", ErrMismatch)
	}
	u := d.Unscaled
	switch scale := int(dt.Scale); {
	case d.Scale < scale:
		u = new(big.Int).Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale-d.Scale)), nil))
	case d.Scale > scale:
		q, r := new(big.Int).QuoRem(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale-scale)), nil), new(big.Int))
		if r.Sign() != 0 {
			return fmt.Errorf("%w: decimal %s does not fit scale %d", ErrRange, d, scale)
		}
		u = q
	}
	if u.BitLen() > 127 {
		return fmt.Errorf("%w: decimal %s does not fit DECIMAL(%d, %d)", ErrRange, d, dt.Precision, dt.Scale)
	}
	n := decimal128.FromBigInt(u)
	if !n.FitsInPrecision(dt.Precision) {
		return fmt.Errorf("%w: decimal %s does not fit DECIMAL(%d, %d)", ErrRange, d, dt.Precision, dt.Scale)
	}
	b.Append(n)
	return nil
}

// appendTimestamp appends ts in the column's unit, truncating digits finer
// than the unit (the column's precision already excludes them) and refusing
// instants the unit cannot represent.
func appendTimestamp(b *array.TimestampBuilder, ts data.Timestamp) error {
	unit := b.Type().(*arrow.TimestampType).Unit
	var v int64
	var ok bool
	switch unit {
	case arrow.Second: // never produced by schema.ToArrowType; floor like Java
		v, ok = ts.Millis/1000, true
		if ts.Millis < 0 && ts.Millis%1000 != 0 {
			v--
		}
	case arrow.Millisecond:
		v, ok = ts.Millis, true
	case arrow.Microsecond:
		v, ok = mulAdd(ts.Millis, 1000, int64(ts.NanoOfMilli)/1000)
	default:
		v, ok = mulAdd(ts.Millis, 1_000_000, int64(ts.NanoOfMilli))
	}
	if !ok || ts.NanoOfMilli < 0 || ts.NanoOfMilli > 999_999 {
		return fmt.Errorf("%w: timestamp %d ms + %d ns in unit %s", ErrRange, ts.Millis, ts.NanoOfMilli, unit)
	}
	b.Append(arrow.Timestamp(v))
	return nil
}

// mulAdd returns a*m + c, reporting overflow (m > 0, 0 <= c < m).
func mulAdd(a, m, c int64) (int64, bool) {
	const maxI, minI = int64(^uint64(0) >> 1), -int64(^uint64(0)>>1) - 1
	if a > (maxI-c)/m || a < minI/m {
		return 0, false
	}
	return a*m + c, true
}

func appendMap(b *array.MapBuilder, t *schema.DataType, m data.Map, depth int) error {
	key, val := t.Key, t.Value
	if t.Root == schema.Multiset {
		count := schema.IntType().NotNull()
		key, val = t.Element, &count
	}
	if key == nil || val == nil {
		return fmt.Errorf("%w: map value for %s", ErrMismatch, *t)
	}
	if len(m.Keys) != len(m.Values) {
		return fmt.Errorf("%w: map with %d keys and %d values", ErrMismatch, len(m.Keys), len(m.Values))
	}
	for _, k := range m.Keys {
		if k == nil {
			// Arrow map keys are non-nullable (schema.ToArrowType).
			return fmt.Errorf("%w: NULL map key", ErrMismatch)
		}
	}
	b.Append(true)
	for i := range m.Keys {
		if err := appendValue(b.KeyBuilder(), key, m.Keys[i], depth+1); err != nil {
			return err
		}
		if err := appendValue(b.ItemBuilder(), val, m.Values[i], depth+1); err != nil {
			return err
		}
	}
	return nil
}

func appendStruct(b *array.StructBuilder, t *schema.DataType, v any, depth int) error {
	switch t.Root {
	case schema.Variant:
		x, ok := v.(data.Variant)
		if !ok || b.NumField() != 2 {
			return fmt.Errorf("%w: %T for %s", ErrMismatch, v, *t)
		}
		vb, ok1 := b.FieldBuilder(0).(*array.BinaryBuilder)
		mb, ok2 := b.FieldBuilder(1).(*array.BinaryBuilder)
		if !ok1 || !ok2 {
			return fmt.Errorf("%w: VARIANT builder", ErrMismatch)
		}
		b.Append(true)
		vb.Append(x.Value)
		mb.Append(x.Metadata)
		return nil
	case schema.Row:
		xs, ok := v.([]any)
		if !ok || len(xs) != len(t.Fields) || b.NumField() != len(t.Fields) {
			return fmt.Errorf("%w: %T for %s", ErrMismatch, v, *t)
		}
		b.Append(true)
		for i := range xs {
			if err := appendValue(b.FieldBuilder(i), &t.Fields[i].Type, xs[i], depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%w: struct builder for %s", ErrMismatch, *t)
}

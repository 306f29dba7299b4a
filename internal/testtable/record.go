package testtable

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// BuildRecord builds an Arrow batch of the given columns from rows of
// format/data values (nil is NULL; see package data for the Go type of each
// Paimon type). The batch has the schema schema.ToArrowSchema(fields) and is
// owned by the caller, who must Release it.
func BuildRecord(mem memory.Allocator, fields []schema.DataField, rows [][]any) (arrow.RecordBatch, error) {
	sc, err := schema.ToArrowSchema(fields)
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for r, row := range rows {
		if len(row) != len(fields) {
			return nil, fmt.Errorf("%w: row %d has %d values for %d columns", ErrInvalid, r, len(row), len(fields))
		}
		for c, f := range fields {
			if err := appendValue(b.Field(c), f.Type, row[c]); err != nil {
				return nil, fmt.Errorf("%w: row %d column %s: %w", ErrInvalid, r, f.Name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// appendValue appends one value to a builder of the Arrow type
// schema.ToArrowType(t) gives.
func appendValue(b array.Builder, t schema.DataType, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	bad := fmt.Errorf("value %T does not fit %s", v, t)
	ok := true
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		var x bool
		if x, ok = v.(bool); ok {
			bb.Append(x)
		}
	case *array.Int8Builder:
		var x int8
		if x, ok = v.(int8); ok {
			bb.Append(x)
		}
	case *array.Int16Builder:
		var x int16
		if x, ok = v.(int16); ok {
			bb.Append(x)
		}
	case *array.Int32Builder:
		var x int32
		if x, ok = v.(int32); ok {
			bb.Append(x)
		}
	case *array.Int64Builder:
		var x int64
		if x, ok = v.(int64); ok {
			bb.Append(x)
		}
	case *array.Float32Builder:
		var x float32
		if x, ok = v.(float32); ok {
			bb.Append(x)
		}
	case *array.Float64Builder:
		var x float64
		if x, ok = v.(float64); ok {
			bb.Append(x)
		}
	case *array.Decimal128Builder:
		var x data.Decimal
		if x, ok = v.(data.Decimal); ok {
			if x.Scale != t.Scale || x.Unscaled == nil {
				return fmt.Errorf("decimal %v does not have scale %d", x, t.Scale)
			}
			n := decimal128.FromBigInt(x.Unscaled)
			if !n.FitsInPrecision(int32(t.Precision)) {
				return fmt.Errorf("decimal %v does not fit %s", x, t)
			}
			bb.Append(n)
		}
	case *array.StringBuilder:
		var x string
		if x, ok = v.(string); ok {
			bb.Append(x)
		}
	case *array.BinaryBuilder:
		var x []byte
		if x, ok = v.([]byte); ok {
			bb.Append(x)
		}
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
	case *array.TimestampBuilder:
		var x data.Timestamp
		if x, ok = v.(data.Timestamp); ok {
			switch bb.Type().(*arrow.TimestampType).Unit {
			case arrow.Millisecond:
				bb.Append(arrow.Timestamp(x.Millis))
			case arrow.Microsecond:
				bb.Append(arrow.Timestamp(x.Micros()))
			default:
				bb.Append(arrow.Timestamp(x.Nanos()))
			}
		}
	case *array.ListBuilder:
		var xs []any
		if xs, ok = v.([]any); ok {
			bb.Append(true)
			for _, e := range xs {
				if err := appendValue(bb.ValueBuilder(), *t.Element, e); err != nil {
					return err
				}
			}
		}
	case *array.MapBuilder:
		var m data.Map
		if m, ok = v.(data.Map); ok {
			if len(m.Keys) != len(m.Values) {
				return fmt.Errorf("map with %d keys and %d values", len(m.Keys), len(m.Values))
			}
			key, val := t.Key, t.Value
			if t.Root == schema.Multiset {
				key, val = t.Element, &schema.DataType{Root: schema.Int}
			}
			bb.Append(true)
			for i := range m.Keys {
				if err := appendValue(bb.KeyBuilder(), *key, m.Keys[i]); err != nil {
					return err
				}
				if err := appendValue(bb.ItemBuilder(), *val, m.Values[i]); err != nil {
					return err
				}
			}
		}
	case *array.StructBuilder:
		var xs []any
		if xs, ok = v.([]any); ok {
			if len(xs) != len(t.Fields) {
				return fmt.Errorf("row value with %d fields for %s", len(xs), t)
			}
			bb.Append(true)
			for i, e := range xs {
				if err := appendValue(bb.FieldBuilder(i), t.Fields[i].Type, e); err != nil {
					return err
				}
			}
		}
	default:
		return fmt.Errorf("%w: no Arrow builder for %s", ErrUnsupported, t)
	}
	if !ok {
		return bad
	}
	return nil
}

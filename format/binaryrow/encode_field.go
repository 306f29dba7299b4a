package binaryrow

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Canonical NaN bit patterns Java's BinaryArrayWriter normalises array
// elements to (Float.NaN, Double.NaN). Row slots keep the raw bits.
const (
	canonicalNaN32 = 0x7fc00000
	canonicalNaN64 = 0x7ff8000000000000
)

// field writes the non-NULL value v of type t whose slot (or array element)
// starts at index slot, inside the section starting at base. Fixed-width
// values take their natural width, which is the whole element in an array
// and the low bytes of the zeroed 8-byte slot in a row.
func (e *encoder) field(t *schema.DataType, v any, base, slot int, inArray bool) error {
	le := binary.LittleEndian
	switch t.Root {
	case schema.Boolean:
		b, ok := v.(bool)
		if !ok {
			return mismatch(t, v)
		}
		if b {
			e.buf[slot] = 1
		}
	case schema.TinyInt:
		x, ok := v.(int8)
		if !ok {
			return mismatch(t, v)
		}
		e.buf[slot] = byte(x)
	case schema.SmallInt:
		x, ok := v.(int16)
		if !ok {
			return mismatch(t, v)
		}
		le.PutUint16(e.buf[slot:], uint16(x))
	case schema.Int, schema.Date, schema.Time:
		x, ok := v.(int32)
		if !ok {
			return mismatch(t, v)
		}
		le.PutUint32(e.buf[slot:], uint32(x))
	case schema.BigInt:
		x, ok := v.(int64)
		if !ok {
			return mismatch(t, v)
		}
		e.putU64(slot, uint64(x))
	case schema.Float:
		x, ok := v.(float32)
		if !ok {
			return mismatch(t, v)
		}
		bits := math.Float32bits(x)
		if inArray && x != x {
			bits = canonicalNaN32
		}
		le.PutUint32(e.buf[slot:], bits)
	case schema.Double:
		x, ok := v.(float64)
		if !ok {
			return mismatch(t, v)
		}
		bits := math.Float64bits(x)
		if inArray && x != x {
			bits = canonicalNaN64
		}
		e.putU64(slot, bits)
	case schema.Char, schema.VarChar, schema.Binary, schema.VarBinary, schema.Blob:
		switch x := v.(type) {
		case string:
			return writeBytes(e, slot, base, x)
		case []byte:
			return writeBytes(e, slot, base, x)
		}
		return mismatch(t, v)
	case schema.Decimal:
		d, ok := v.(data.Decimal)
		if !ok {
			return mismatch(t, v)
		}
		return e.decimal(t, d, base, slot)
	case schema.Timestamp, schema.TimestampLTZ:
		ts, ok := v.(data.Timestamp)
		if !ok {
			return mismatch(t, v)
		}
		if isCompactTimestamp(t.Precision) {
			// Java writes only the millis; sub-millisecond digits are
			// dropped, as the column cannot hold them.
			e.putU64(slot, uint64(ts.Millis))
			return nil
		}
		if ts.NanoOfMilli < 0 || ts.NanoOfMilli > 999_999 {
			return fmt.Errorf("%w: nano of millisecond %d", ErrValue, ts.NanoOfMilli)
		}
		at := e.grow(8)
		e.putU64(at, uint64(ts.Millis))
		return e.setOffsetAndSize(slot, base, at, uint32(ts.NanoOfMilli))
	case schema.Array:
		if t.Element == nil {
			return fmt.Errorf("%w: ARRAY without element type", ErrType)
		}
		vals, ok := v.([]any)
		if !ok {
			return mismatch(t, v)
		}
		return e.nested(slot, base, func() error { return e.array(t.Element, vals) })
	case schema.Map:
		if t.Key == nil || t.Value == nil {
			return fmt.Errorf("%w: MAP without key or value type", ErrType)
		}
		m, ok := v.(data.Map)
		if !ok {
			return mismatch(t, v)
		}
		return e.nested(slot, base, func() error { return e.mapData(t.Key, t.Value, m) })
	case schema.Multiset:
		if t.Element == nil {
			return fmt.Errorf("%w: MULTISET without element type", ErrType)
		}
		m, ok := v.(data.Map)
		if !ok {
			return mismatch(t, v)
		}
		return e.nested(slot, base, func() error { return e.mapData(t.Element, &multisetCount, m) })
	case schema.Row:
		vals, ok := v.([]any)
		if !ok {
			return mismatch(t, v)
		}
		types := make([]schema.DataType, len(t.Fields))
		for i := range t.Fields {
			types[i] = t.Fields[i].Type
		}
		// A nested GenericRow is converted with its own kind, which is
		// +I for every row built from plain values.
		return e.nested(slot, base, func() error { return e.row(data.Insert, types, vals) })
	case schema.Variant:
		x, ok := v.(data.Variant)
		if !ok {
			return mismatch(t, v)
		}
		return e.variant(x, base, slot)
	case schema.Vector:
		return e.vector(t, v, base, slot)
	default:
		return fmt.Errorf("%w: %s", ErrType, rootName(t.Root))
	}
	return nil
}

func mismatch(t *schema.DataType, v any) error {
	return fmt.Errorf("%w: %T for %s", ErrValue, v, rootName(t.Root))
}

// writeBytes stores a string or binary: inline in the slot when it has at
// most 7 bytes (0x80|len in the slot's last byte), else in the variable
// part (Java AbstractBinaryWriter.writeString/writeBinary).
func writeBytes[T string | []byte](e *encoder, slot, base int, s T) error {
	if len(s) <= maxInline {
		copy(e.buf[slot:slot+maxInline], s)
		e.buf[slot+7] = 0x80 | byte(len(s))
		return nil
	}
	if len(s) > maxSectionSize {
		return fmt.Errorf("%w: %d-byte value", ErrValue, len(s))
	}
	at := len(e.buf)
	e.buf = append(e.buf, s...)
	e.pad(at)
	return e.setOffsetAndSize(slot, base, at, uint32(len(s)))
}

// decimal stores a DECIMAL: the unscaled int64 in the slot when compact,
// else 16 zeroed bytes in the variable part holding the minimal big-endian
// two's-complement unscaled bytes, with their count in the slot (Java
// AbstractBinaryWriter.writeDecimal).
func (e *encoder) decimal(t *schema.DataType, d data.Decimal, base, slot int) error {
	if err := checkDecimal(d, t); err != nil {
		return err
	}
	if isCompactDecimal(t.Precision) {
		e.putU64(slot, uint64(d.Unscaled.Int64()))
		return nil
	}
	at := e.grow(maxDecimalBytes)
	n, err := putUnscaledBytes(e.buf[at:at+maxDecimalBytes], d.Unscaled)
	if err != nil {
		return err
	}
	return e.setOffsetAndSize(slot, base, at, uint32(n))
}

// variant stores a VARIANT as int32 value length, value bytes, metadata
// bytes, padded (Java AbstractBinaryWriter.writeVariant).
func (e *encoder) variant(x data.Variant, base, slot int) error {
	total := 4 + len(x.Value) + len(x.Metadata)
	if total > maxSectionSize {
		return fmt.Errorf("%w: %d-byte variant", ErrValue, total)
	}
	at := len(e.buf)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(x.Value)))
	e.buf = append(e.buf, x.Value...)
	e.buf = append(e.buf, x.Metadata...)
	e.pad(at)
	return e.setOffsetAndSize(slot, base, at, uint32(total))
}

// vector stores a VECTOR as int32 element count followed by the packed
// little-endian elements, padded; the slot's size counts the 4-byte prefix
// (Java AbstractBinaryWriter.writeVectorToVarLenPart). Vectors have no NULL
// elements.
func (e *encoder) vector(t *schema.DataType, v any, base, slot int) error {
	if t.Element == nil {
		return fmt.Errorf("%w: VECTOR without element type", ErrType)
	}
	es, err := vectorElemSize(t.Element)
	if err != nil {
		return err
	}
	n, ok := vectorLen(v)
	if !ok {
		return mismatch(t, v)
	}
	if t.Length > 0 && n != t.Length {
		return fmt.Errorf("%w: vector of %d elements for VECTOR(%d)", ErrValue, n, t.Length)
	}
	if n > (maxSectionSize-4)/es {
		return fmt.Errorf("%w: vector of %d elements", ErrValue, n)
	}
	at := e.grow(4 + n*es)
	binary.LittleEndian.PutUint32(e.buf[at:], uint32(n))
	if err := putVectorElems(e.buf[at+4:], t.Element, v); err != nil {
		return err
	}
	e.pad(at)
	return e.setOffsetAndSize(slot, base, at, uint32(4+n*es))
}

func vectorLen(v any) (int, bool) {
	switch x := v.(type) {
	case []any:
		return len(x), true
	case []bool:
		return len(x), true
	case []int8:
		return len(x), true
	case []int16:
		return len(x), true
	case []int32:
		return len(x), true
	case []int64:
		return len(x), true
	case []float32:
		return len(x), true
	case []float64:
		return len(x), true
	}
	return 0, false
}

// putVectorElems writes the elements of v at their natural width.
func putVectorElems(dst []byte, elem *schema.DataType, v any) error {
	le := binary.LittleEndian
	switch x := v.(type) {
	case []any:
		es, _ := vectorElemSize(elem)
		for i, ev := range x {
			if ev == nil {
				return fmt.Errorf("%w: NULL vector element %d", ErrValue, i)
			}
			var sc encoder
			sc.buf = dst[i*es : i*es+es : i*es+es]
			// field writes in place at index 0 for fixed-width types.
			if err := sc.field(elem, ev, 0, 0, false); err != nil {
				return fmt.Errorf("vector element %d: %w", i, err)
			}
		}
		return nil
	case []bool:
		if elem.Root == schema.Boolean {
			for i, b := range x {
				if b {
					dst[i] = 1
				}
			}
			return nil
		}
	case []int8:
		if elem.Root == schema.TinyInt {
			for i, b := range x {
				dst[i] = byte(b)
			}
			return nil
		}
	case []int16:
		if elem.Root == schema.SmallInt {
			for i, b := range x {
				le.PutUint16(dst[2*i:], uint16(b))
			}
			return nil
		}
	case []int32:
		if elem.Root == schema.Int {
			for i, b := range x {
				le.PutUint32(dst[4*i:], uint32(b))
			}
			return nil
		}
	case []int64:
		if elem.Root == schema.BigInt {
			for i, b := range x {
				le.PutUint64(dst[8*i:], uint64(b))
			}
			return nil
		}
	case []float32:
		if elem.Root == schema.Float {
			for i, b := range x {
				le.PutUint32(dst[4*i:], math.Float32bits(b))
			}
			return nil
		}
	case []float64:
		if elem.Root == schema.Double {
			for i, b := range x {
				le.PutUint64(dst[8*i:], math.Float64bits(b))
			}
			return nil
		}
	}
	return fmt.Errorf("%w: %T for VECTOR<%s>", ErrValue, v, rootName(elem.Root))
}

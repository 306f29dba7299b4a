package binaryrow

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// A section is the bytes of one BinaryRow, BinaryArray or BinaryMap;
// variable-part offsets in its slots are relative to its first byte. The
// readers below take the section and the index of an 8-byte slot (or
// element) that the caller has already bounds-checked, and check every
// reference they follow against the section.

func slotAt(sec []byte, pos int) uint64 { return binary.LittleEndian.Uint64(sec[pos:]) }

// varRef resolves an (offset<<32 | size) slot to the bytes it points at
// (Java MemorySegmentUtils.readXxx: offset and size are the high and low
// ints of the slot).
func varRef(sec []byte, slot uint64) ([]byte, error) {
	off := slot >> 32
	size := uint64(uint32(slot))
	if int32(size) < 0 {
		return nil, fmt.Errorf("%w: negative length in slot %#x", ErrCorrupt, slot)
	}
	if off > uint64(len(sec)) || size > uint64(len(sec))-off {
		return nil, fmt.Errorf("%w: reference [%d, +%d) outside %d-byte section", ErrCorrupt, off, size, len(sec))
	}
	return sec[off : off+size : off+size], nil
}

// readBytes returns the string/binary of the slot at pos: inline when the
// mark bit is set, else in the variable part (Java
// MemorySegmentUtils.readBinary/readBinaryString).
func readBytes(sec []byte, pos int) ([]byte, error) {
	s := slotAt(sec, pos)
	if s&inlineMark != 0 {
		n := int(s>>56) & 0x7f
		if n > maxInline {
			return nil, fmt.Errorf("%w: inline length %d", ErrCorrupt, n)
		}
		return sec[pos : pos+n : pos+n], nil
	}
	return varRef(sec, s)
}

func readDecimal(sec []byte, pos, precision, scale int) (data.Decimal, error) {
	if isCompactDecimal(precision) {
		u := int64(slotAt(sec, pos))
		if !compactFits(u, precision) {
			return data.Decimal{}, fmt.Errorf("%w: unscaled %d exceeds DECIMAL(%d, %d)", ErrCorrupt, u, precision, scale)
		}
		return data.NewDecimalFromInt64(u, precision, scale), nil
	}
	b, err := varRef(sec, slotAt(sec, pos))
	if err != nil {
		return data.Decimal{}, err
	}
	if len(b) == 0 || len(b) > maxDecimalBytes {
		return data.Decimal{}, fmt.Errorf("%w: %d-byte decimal", ErrCorrupt, len(b))
	}
	u := unscaledFromBytes(b)
	if !bigFits(u, precision) {
		return data.Decimal{}, fmt.Errorf("%w: unscaled %s exceeds DECIMAL(%d, %d)", ErrCorrupt, u, precision, scale)
	}
	return data.Decimal{Unscaled: u, Precision: precision, Scale: scale}, nil
}

func readTimestamp(sec []byte, pos, precision int) (data.Timestamp, error) {
	s := slotAt(sec, pos)
	if isCompactTimestamp(precision) {
		return data.Timestamp{Millis: int64(s)}, nil
	}
	nano := int32(uint32(s))
	if nano < 0 || nano > 999_999 {
		return data.Timestamp{}, fmt.Errorf("%w: nano of millisecond %d", ErrCorrupt, nano)
	}
	// The low int is the nanos, not a size: check the 8 millis bytes.
	b, err := varRef(sec, s&^0xffffffff|8)
	if err != nil {
		return data.Timestamp{}, err
	}
	return data.Timestamp{Millis: int64(binary.LittleEndian.Uint64(b)), NanoOfMilli: nano}, nil
}

func readVariant(sec []byte, pos int) (data.Variant, error) {
	b, err := varRef(sec, slotAt(sec, pos))
	if err != nil {
		return data.Variant{}, err
	}
	if len(b) < 4 {
		return data.Variant{}, fmt.Errorf("%w: %d-byte variant", ErrCorrupt, len(b))
	}
	n := binary.LittleEndian.Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		return data.Variant{}, fmt.Errorf("%w: variant value of %d bytes in %d", ErrCorrupt, n, len(b)-4)
	}
	return data.Variant{
		Value:    append([]byte{}, b[4:4+n]...),
		Metadata: append([]byte{}, b[4+n:]...),
	}, nil
}

func readArray(sec []byte, pos int) (Array, error) {
	b, err := varRef(sec, slotAt(sec, pos))
	if err != nil {
		return Array{}, err
	}
	return newArray(b)
}

func readMap(sec []byte, pos int) (Map, error) {
	b, err := varRef(sec, slotAt(sec, pos))
	if err != nil {
		return Map{}, err
	}
	return newMap(b)
}

func readRow(sec []byte, pos, arity int) (Row, error) {
	b, err := varRef(sec, slotAt(sec, pos))
	if err != nil {
		return Row{}, err
	}
	return newRow(b, arity)
}

// readVector decodes a VECTOR: int32 element count and packed elements
// (Java MemorySegmentUtils.readVectorData).
func readVector(sec []byte, pos int, t *schema.DataType) ([]any, error) {
	if t.Element == nil {
		return nil, fmt.Errorf("%w: VECTOR without element type", ErrType)
	}
	es, err := vectorElemSize(t.Element)
	if err != nil {
		return nil, err
	}
	b, err := varRef(sec, slotAt(sec, pos))
	if err != nil {
		return nil, err
	}
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: %d-byte vector", ErrCorrupt, len(b))
	}
	n := int32(binary.LittleEndian.Uint32(b))
	if n < 0 || int64(n)*int64(es) > int64(len(b)-4) {
		return nil, fmt.Errorf("%w: vector of %d elements in %d bytes", ErrCorrupt, n, len(b)-4)
	}
	if t.Length > 0 && int(n) != t.Length {
		return nil, fmt.Errorf("%w: vector of %d elements for VECTOR(%d)", ErrCorrupt, n, t.Length)
	}
	out := make([]any, n)
	for i := range out {
		out[i], err = readField(b, 4+i*es, t.Element, true)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readField decodes the non-NULL value of type t whose slot (row) or element
// (array, natural width) starts at pos.
func readField(sec []byte, pos int, t *schema.DataType, inArray bool) (any, error) {
	le := binary.LittleEndian
	switch t.Root {
	case schema.Boolean:
		return sec[pos] != 0, nil
	case schema.TinyInt:
		return int8(sec[pos]), nil
	case schema.SmallInt:
		return int16(le.Uint16(sec[pos:])), nil
	case schema.Int, schema.Date, schema.Time:
		return int32(le.Uint32(sec[pos:])), nil
	case schema.BigInt:
		return int64(le.Uint64(sec[pos:])), nil
	case schema.Float:
		return math.Float32frombits(le.Uint32(sec[pos:])), nil
	case schema.Double:
		return math.Float64frombits(le.Uint64(sec[pos:])), nil
	case schema.Char, schema.VarChar:
		b, err := readBytes(sec, pos)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	case schema.Binary, schema.VarBinary, schema.Blob:
		b, err := readBytes(sec, pos)
		if err != nil {
			return nil, err
		}
		return append([]byte{}, b...), nil
	case schema.Decimal:
		return readDecimal(sec, pos, t.Precision, t.Scale)
	case schema.Timestamp, schema.TimestampLTZ:
		return readTimestamp(sec, pos, t.Precision)
	case schema.Array:
		if t.Element == nil {
			return nil, fmt.Errorf("%w: ARRAY without element type", ErrType)
		}
		a, err := readArray(sec, pos)
		if err != nil {
			return nil, err
		}
		return a.Values(t.Element)
	case schema.Map:
		if t.Key == nil || t.Value == nil {
			return nil, fmt.Errorf("%w: MAP without key or value type", ErrType)
		}
		m, err := readMap(sec, pos)
		if err != nil {
			return nil, err
		}
		return m.Data(t.Key, t.Value)
	case schema.Multiset:
		if t.Element == nil {
			return nil, fmt.Errorf("%w: MULTISET without element type", ErrType)
		}
		m, err := readMap(sec, pos)
		if err != nil {
			return nil, err
		}
		return m.Data(t.Element, &multisetCount)
	case schema.Row:
		r, err := readRow(sec, pos, len(t.Fields))
		if err != nil {
			return nil, err
		}
		types := make([]schema.DataType, len(t.Fields))
		for i := range t.Fields {
			types[i] = t.Fields[i].Type
		}
		return r.Values(types)
	case schema.Variant:
		return readVariant(sec, pos)
	case schema.Vector:
		if inArray {
			return nil, fmt.Errorf("%w: VECTOR as array element", ErrType)
		}
		return readVector(sec, pos, t)
	}
	return nil, fmt.Errorf("%w: %s", ErrType, rootName(t.Root))
}

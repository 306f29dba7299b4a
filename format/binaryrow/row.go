package binaryrow

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Row is a read-only view of one BinaryRow's bytes (Java BinaryRow). It
// does not copy the bytes; values returned by its getters (other than Bytes)
// never alias them.
// The zero Row is not valid; build one with NewRow or ParseSerialized.
type Row struct {
	b     []byte
	arity int
	nullW int
}

// NewRow returns a view of b, the complete bytes of a row with arity fields
// (Java BinaryRow.pointTo with sizeInBytes = len(b)). It checks that the
// fixed part fits and that the header byte is a known RowKind; variable-part
// references are checked when read.
func NewRow(b []byte, arity int) (Row, error) {
	r, err := newRow(b, arity)
	if err != nil {
		return Row{}, err
	}
	if b[0] > byte(data.Delete) {
		return Row{}, fmt.Errorf("%w: row kind byte %d", ErrCorrupt, b[0])
	}
	return r, nil
}

// newRow validates the fixed part only; nested rows (Java NestedRow) do not
// have their kind byte checked.
func newRow(b []byte, arity int) (Row, error) {
	if arity < 0 {
		return Row{}, fmt.Errorf("%w: negative arity %d", ErrCorrupt, arity)
	}
	// Each field takes 8 bytes, so a plausible arity is bounded by the
	// length; checking this first keeps the size arithmetic from overflowing.
	if arity > len(b)/8 {
		return Row{}, fmt.Errorf("%w: %d bytes cannot hold %d fields", ErrCorrupt, len(b), arity)
	}
	if fixed := FixedPartSize(arity); len(b) < fixed {
		return Row{}, fmt.Errorf("%w: %d bytes, fixed part of %d fields needs %d", ErrCorrupt, len(b), arity, fixed)
	}
	return Row{b: b, arity: arity, nullW: nullBitsWidth(arity)}, nil
}

// Decode decodes a complete row: its kind and its values typed by types
// (len(types) is the arity).
func Decode(b []byte, types []schema.DataType) (data.RowKind, []any, error) {
	r, err := NewRow(b, len(types))
	if err != nil {
		return 0, nil, err
	}
	vals, err := r.Values(types)
	if err != nil {
		return 0, nil, err
	}
	return r.Kind(), vals, nil
}

// Bytes returns the row's bytes (not a copy).
func (r Row) Bytes() []byte { return r.b }

// Arity returns the number of fields.
func (r Row) Arity() int { return r.arity }

// Kind returns the RowKind in the header byte. NewRow checks it; a nested
// row's kind (NestedRow) is returned unchecked.
func (r Row) Kind() data.RowKind { return data.RowKind(r.b[0]) }

// Hash returns the row's hash code (Java BinaryRow.hashCode); see Hash.
func (r Row) Hash() int32 { return Hash(r.b) }

// AnyNull reports whether any field is NULL (Java BinaryRow.anyNull).
func (r Row) AnyNull() bool {
	for i := 0; i < r.arity; i++ {
		if r.IsNullAt(i) {
			return true
		}
	}
	return false
}

func (r Row) slot(i int) int {
	if i < 0 || i >= r.arity {
		panic(fmt.Sprintf("binaryrow: field index %d out of range [0, %d)", i, r.arity))
	}
	return r.nullW + 8*i
}

// IsNullAt reports whether field i is NULL.
func (r Row) IsNullAt(i int) bool {
	r.slot(i)
	bit := i + headerBits
	return r.b[bit>>3]&(1<<(bit&7)) != 0
}

// Boolean returns field i as a BOOLEAN (any non-zero byte is true, as in
// Java MemorySegment.getBoolean).
func (r Row) Boolean(i int) bool { return r.b[r.slot(i)] != 0 }

// Byte returns field i as a TINYINT.
func (r Row) Byte(i int) int8 { return int8(r.b[r.slot(i)]) }

// Short returns field i as a SMALLINT.
func (r Row) Short(i int) int16 { return int16(binary.LittleEndian.Uint16(r.b[r.slot(i):])) }

// Int returns field i as an INT, DATE or TIME.
func (r Row) Int(i int) int32 { return int32(binary.LittleEndian.Uint32(r.b[r.slot(i):])) }

// Long returns field i as a BIGINT.
func (r Row) Long(i int) int64 { return int64(binary.LittleEndian.Uint64(r.b[r.slot(i):])) }

// Float returns field i as a FLOAT.
func (r Row) Float(i int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(r.b[r.slot(i):]))
}

// Double returns field i as a DOUBLE.
func (r Row) Double(i int) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.slot(i):]))
}

// String returns field i as a CHAR/VARCHAR/STRING (the stored UTF-8 bytes).
func (r Row) String(i int) (string, error) {
	b, err := readBytes(r.b, r.slot(i))
	return string(b), err
}

// Binary returns a copy of field i as a BINARY/VARBINARY/BYTES or BLOB.
func (r Row) Binary(i int) ([]byte, error) {
	b, err := readBytes(r.b, r.slot(i))
	if err != nil {
		return nil, err
	}
	return append([]byte{}, b...), nil
}

// Decimal returns field i as a DECIMAL(precision, scale).
func (r Row) Decimal(i, precision, scale int) (data.Decimal, error) {
	return readDecimal(r.b, r.slot(i), precision, scale)
}

// Timestamp returns field i as a TIMESTAMP(precision) or TIMESTAMP_LTZ.
func (r Row) Timestamp(i, precision int) (data.Timestamp, error) {
	return readTimestamp(r.b, r.slot(i), precision)
}

// Variant returns field i as a VARIANT.
func (r Row) Variant(i int) (data.Variant, error) { return readVariant(r.b, r.slot(i)) }

// Array returns field i as an ARRAY.
func (r Row) Array(i int) (Array, error) { return readArray(r.b, r.slot(i)) }

// Map returns field i as a MAP or MULTISET.
func (r Row) Map(i int) (Map, error) { return readMap(r.b, r.slot(i)) }

// NestedRow returns field i as a ROW with arity fields.
func (r Row) NestedRow(i, arity int) (Row, error) { return readRow(r.b, r.slot(i), arity) }

// Value decodes field i as type t into the data package's value model; a
// NULL field gives nil.
func (r Row) Value(i int, t *schema.DataType) (any, error) {
	if r.IsNullAt(i) {
		return nil, nil
	}
	return readField(r.b, r.slot(i), t, false)
}

// Values decodes every field; len(types) must equal the arity, else the
// error wraps ErrCorrupt (stored rows whose arity disagrees with their
// schema are not what the schema claims).
func (r Row) Values(types []schema.DataType) ([]any, error) {
	if len(types) != r.arity {
		return nil, fmt.Errorf("%w: %d types for a row of %d fields", ErrCorrupt, len(types), r.arity)
	}
	out := make([]any, r.arity)
	for i := range types {
		v, err := r.Value(i, &types[i])
		if err != nil {
			return nil, fmt.Errorf("field %d (%s): %w", i, rootName(types[i].Root), err)
		}
		out[i] = v
	}
	return out, nil
}

package binaryrow

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Encode returns the BinaryRow bytes of values, typed by types, with the
// given row kind in the header byte: the bytes Java BinaryRowWriter produces
// for the same row through RowHelper or a generated projection (including
// the reserved area of NULL non-compact DECIMAL/TIMESTAMP fields). Keys,
// partitions and statistics rows use data.Insert.
//
// A nil interface is NULL; a typed empty value such as []byte(nil) is an
// empty value, not NULL. Errors wrap ErrValue when a value does not match
// its type and ErrType for a type that cannot be encoded.
func Encode(kind data.RowKind, types []schema.DataType, values []any) ([]byte, error) {
	return Append(nil, kind, types, values)
}

// Append appends the BinaryRow bytes of values to dst and returns the
// extended slice; offsets inside the row are relative to its own start. On
// error dst is returned unchanged.
func Append(dst []byte, kind data.RowKind, types []schema.DataType, values []any) ([]byte, error) {
	e := encoder{buf: dst}
	if err := e.row(kind, types, values); err != nil {
		return dst, err
	}
	return e.buf, nil
}

// Writer encodes rows into a reused buffer so that steady-state encoding
// does not allocate (Java reuses a BinaryRowWriter the same way). The zero
// value is ready to use; a Writer is not safe for concurrent use.
type Writer struct {
	buf []byte
}

// Encode is like the package-level Encode, but the returned bytes live in
// the Writer's buffer and are only valid until the next call.
func (w *Writer) Encode(kind data.RowKind, types []schema.DataType, values []any) ([]byte, error) {
	b, err := Append(w.buf[:0], kind, types, values)
	if err != nil {
		return nil, err
	}
	w.buf = b
	return b, nil
}

// writerPool serves the package-level helpers that encode a throw-away key
// row (BucketOf).
var writerPool = sync.Pool{New: func() any { return new(Writer) }}

// encoder appends one row (or nested array/map) to buf. Positions are kept
// as indices because appends may move buf.
type encoder struct {
	buf []byte
}

// grow appends n zero bytes and returns the index of the first one.
func (e *encoder) grow(n int) int {
	at := len(e.buf)
	e.buf = append(e.buf, make([]byte, n)...)
	return at
}

// pad appends zero bytes until the data started at from is a multiple of 8
// long (Java zeroOutPaddingBytes + roundNumberOfBytesToNearestWord).
func (e *encoder) pad(from int) {
	if r := (len(e.buf) - from) & 7; r != 0 {
		e.grow(8 - r)
	}
}

func (e *encoder) putU64(at int, v uint64) { binary.LittleEndian.PutUint64(e.buf[at:], v) }

// setOffsetAndSize points the slot at variable data starting at index at,
// relative to the enclosing section starting at base (Java
// setOffsetAndSize).
func (e *encoder) setOffsetAndSize(slot, base, at int, size uint32) error {
	off := at - base
	if off > maxSectionSize || len(e.buf)-base > maxSectionSize {
		return fmt.Errorf("%w: row larger than 2 GiB", ErrValue)
	}
	e.putU64(slot, uint64(off)<<32|uint64(size))
	return nil
}

// row appends a BinaryRow (Java RowHelper.copyInto / BinaryRowWriter).
func (e *encoder) row(kind data.RowKind, types []schema.DataType, values []any) error {
	if len(types) != len(values) {
		return fmt.Errorf("%w: %d values for %d types", ErrValue, len(values), len(types))
	}
	if kind < data.Insert || kind > data.Delete {
		return fmt.Errorf("%w: row kind %d", ErrValue, int8(kind))
	}
	base := len(e.buf)
	nullW := nullBitsWidth(len(types))
	e.grow(nullW + 8*len(types))
	e.buf[base] = byte(kind)
	for i := range types {
		t := &types[i]
		slot := base + nullW + 8*i
		if values[i] == nil {
			bit := i + headerBits
			e.buf[base+(bit>>3)] |= 1 << (bit & 7)
			if size, ok := reservesNull(t); ok {
				// Java keeps the zeroed area and its offset "for future
				// update"; the bytes end up in hashes and equality.
				at := e.grow(size)
				if err := e.setOffsetAndSize(slot, base, at, 0); err != nil {
					return err
				}
			}
			continue
		}
		if err := e.field(t, values[i], base, slot, false); err != nil {
			return fmt.Errorf("field %d (%s): %w", i, rootName(t.Root), err)
		}
	}
	return nil
}

// array appends a BinaryArray of vals (Java InternalArraySerializer
// .toBinaryArray / BinaryArrayWriter). NULL elements only set their flag:
// arrays do not reserve space for NULL non-compact values.
func (e *encoder) array(elem *schema.DataType, vals []any) error {
	es, err := elemSize(elem)
	if err != nil {
		return err
	}
	n := len(vals)
	if n > maxSectionSize/8 {
		return fmt.Errorf("%w: array of %d elements", ErrValue, n)
	}
	base := len(e.buf)
	hdr := arrayHeaderSize(n)
	e.grow(round8(hdr + es*n))
	binary.LittleEndian.PutUint32(e.buf[base:], uint32(n))
	for i, v := range vals {
		if v == nil {
			e.buf[base+4+(i>>3)] |= 1 << (i & 7)
			continue
		}
		if err := e.field(elem, v, base, base+hdr+es*i, true); err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
	}
	return nil
}

// mapData appends a BinaryMap: the key array's size as int32, the key
// array, the value array (Java BinaryMap.valueOf).
func (e *encoder) mapData(kt, vt *schema.DataType, m data.Map) error {
	if len(m.Keys) != len(m.Values) {
		return fmt.Errorf("%w: map with %d keys and %d values", ErrValue, len(m.Keys), len(m.Values))
	}
	base := e.grow(4)
	if err := e.array(kt, m.Keys); err != nil {
		return fmt.Errorf("map key: %w", err)
	}
	binary.LittleEndian.PutUint32(e.buf[base:], uint32(len(e.buf)-base-4))
	if err := e.array(vt, m.Values); err != nil {
		return fmt.Errorf("map value: %w", err)
	}
	return nil
}

// multisetCount is the value type of a MULTISET's map (Java
// InternalSerializers: MULTISET is MAP<T, INT NOT NULL>).
var multisetCount = schema.DataType{Root: schema.Int}

// nested appends a nested section with fn and points the slot at it.
func (e *encoder) nested(slot, base int, fn func() error) error {
	at := len(e.buf)
	if err := fn(); err != nil {
		return err
	}
	size := len(e.buf) - at
	e.pad(at)
	return e.setOffsetAndSize(slot, base, at, uint32(size))
}

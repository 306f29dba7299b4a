package binaryrow

import (
	"encoding/binary"
	"fmt"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Array is a read-only view of a BinaryArray (Java BinaryArray): int32
// element count, null flags padded to 4 bytes, fixed-width elements padded
// to 8 bytes, then variable-length data. Element widths depend on the
// element type, so the fixed part is checked when elements are read.
type Array struct {
	b   []byte
	n   int
	hdr int
}

func newArray(b []byte) (Array, error) {
	if len(b) < 4 {
		return Array{}, fmt.Errorf("%w: %d-byte array", ErrCorrupt, len(b))
	}
	n := int32(binary.LittleEndian.Uint32(b))
	// Every element needs at least one byte, which bounds n before any
	// size arithmetic.
	if n < 0 || int64(n) > int64(len(b)) {
		return Array{}, fmt.Errorf("%w: array of %d elements in %d bytes", ErrCorrupt, n, len(b))
	}
	hdr := arrayHeaderSize(int(n))
	if hdr > len(b) {
		return Array{}, fmt.Errorf("%w: array header of %d bytes in %d", ErrCorrupt, hdr, len(b))
	}
	return Array{b: b, n: int(n), hdr: hdr}, nil
}

// Len returns the number of elements.
func (a Array) Len() int { return a.n }

// Bytes returns the array's bytes (not a copy).
func (a Array) Bytes() []byte { return a.b }

// IsNullAt reports whether element i is NULL.
func (a Array) IsNullAt(i int) bool {
	if i < 0 || i >= a.n {
		panic(fmt.Sprintf("binaryrow: element index %d out of range [0, %d)", i, a.n))
	}
	return a.b[4+(i>>3)]&(1<<(i&7)) != 0
}

// checkFixed checks that the fixed part holds all elements of width es.
func (a Array) checkFixed(es int) error {
	if int64(a.hdr)+int64(a.n)*int64(es) > int64(len(a.b)) {
		return fmt.Errorf("%w: %d elements of %d bytes in %d-byte array", ErrCorrupt, a.n, es, len(a.b))
	}
	return nil
}

// Value decodes element i as type elem; a NULL element gives nil.
func (a Array) Value(i int, elem *schema.DataType) (any, error) {
	if a.IsNullAt(i) {
		return nil, nil
	}
	es, err := elemSize(elem)
	if err != nil {
		return nil, err
	}
	if err := a.checkFixed(es); err != nil {
		return nil, err
	}
	return readField(a.b, a.hdr+i*es, elem, true)
}

// Values decodes all elements as type elem.
func (a Array) Values(elem *schema.DataType) ([]any, error) {
	es, err := elemSize(elem)
	if err != nil {
		return nil, err
	}
	if err := a.checkFixed(es); err != nil {
		return nil, err
	}
	out := make([]any, a.n)
	for i := range out {
		if a.IsNullAt(i) {
			continue
		}
		if out[i], err = readField(a.b, a.hdr+i*es, elem, true); err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
	}
	return out, nil
}

// Map is a read-only view of a BinaryMap (Java BinaryMap): the int32 size
// of the key array, the key BinaryArray, the value BinaryArray.
type Map struct {
	keys, values Array
}

func newMap(b []byte) (Map, error) {
	if len(b) < 4 {
		return Map{}, fmt.Errorf("%w: %d-byte map", ErrCorrupt, len(b))
	}
	k := int32(binary.LittleEndian.Uint32(b))
	if k < 0 || int64(k) > int64(len(b)-4) {
		return Map{}, fmt.Errorf("%w: map key array of %d bytes in %d", ErrCorrupt, k, len(b)-4)
	}
	keys, err := newArray(b[4 : 4+k : 4+k])
	if err != nil {
		return Map{}, fmt.Errorf("map keys: %w", err)
	}
	values, err := newArray(b[4+k:])
	if err != nil {
		return Map{}, fmt.Errorf("map values: %w", err)
	}
	if keys.n != values.n {
		return Map{}, fmt.Errorf("%w: map with %d keys and %d values", ErrCorrupt, keys.n, values.n)
	}
	return Map{keys: keys, values: values}, nil
}

// Len returns the number of entries.
func (m Map) Len() int { return m.keys.n }

// Keys returns the key array.
func (m Map) Keys() Array { return m.keys }

// Values returns the value array.
func (m Map) Values() Array { return m.values }

// Data decodes the map into the data package model, keeping entry order.
// For a MULTISET pass an INT value type (the counts).
func (m Map) Data(key, value *schema.DataType) (data.Map, error) {
	ks, err := m.keys.Values(key)
	if err != nil {
		return data.Map{}, fmt.Errorf("map keys: %w", err)
	}
	vs, err := m.values.Values(value)
	if err != nil {
		return data.Map{}, fmt.Errorf("map values: %w", err)
	}
	return data.Map{Keys: ks, Values: vs}, nil
}

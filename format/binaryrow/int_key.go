package binaryrow

import (
	"encoding/binary"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// IntKey builds, field by field, the BinaryRow of a key whose fields are all
// integers (TINYINT, SMALLINT, INT, DATE, TIME, BIGINT) and hashes it: the
// same bytes and hash as KeyHash of the values boxed, without boxing them.
// Writers that route every row of a batch by such a key (the common primary
// key) use it per row; other keys go through KeyHash.
type IntKey struct {
	roots []schema.TypeRoot
	nullW int
	buf   []byte
}

// NewIntKey returns an IntKey for a key of types, or false when a field is
// not one of the integer types above.
func NewIntKey(types []schema.DataType) (*IntKey, bool) {
	k := &IntKey{nullW: nullBitsWidth(len(types))}
	for _, t := range types {
		switch t.Root {
		case schema.TinyInt, schema.SmallInt, schema.Int, schema.Date, schema.Time, schema.BigInt:
			k.roots = append(k.roots, t.Root)
		default:
			return nil, false
		}
	}
	k.buf = make([]byte, k.nullW+8*len(types))
	k.Reset()
	return k, true
}

// Reset starts a new key: every field zero and not NULL.
func (k *IntKey) Reset() {
	clear(k.buf)
	k.buf[0] = byte(data.Insert)
}

// Set sets field i to v, which must fit the field's type (it is stored
// truncated to the type's width, as the value model's int8, int16, int32
// or int64 would be).
func (k *IntKey) Set(i int, v int64) {
	slot := k.buf[k.nullW+8*i:]
	switch k.roots[i] {
	case schema.TinyInt:
		slot[0] = byte(v)
	case schema.SmallInt:
		binary.LittleEndian.PutUint16(slot, uint16(v))
	case schema.BigInt:
		binary.LittleEndian.PutUint64(slot, uint64(v))
	default: // INT, DATE, TIME
		binary.LittleEndian.PutUint32(slot, uint32(v))
	}
}

// SetNull makes field i NULL.
func (k *IntKey) SetNull(i int) {
	bit := i + headerBits
	k.buf[bit>>3] |= 1 << (bit & 7)
}

// Hash is the key's hash (Java BinaryRow.hashCode), as KeyHash.
func (k *IntKey) Hash() int32 { return Hash(k.buf) }

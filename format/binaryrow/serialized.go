package binaryrow

import (
	"encoding/binary"
	"fmt"
)

// SerializedPrefixSize is the size of the big-endian arity in front of a
// serialized row.
const SerializedPrefixSize = 4

// MarshalSerialized returns the schemaless serialized form of a row that
// manifests store for partitions, min/max keys and value statistics: the
// arity as a big-endian int32 followed by the (little-endian) row bytes
// (Java SerializationUtils.serializeBinaryRow).
func MarshalSerialized(row []byte, arity int) []byte {
	return AppendSerialized(make([]byte, 0, SerializedPrefixSize+len(row)), row, arity)
}

// AppendSerialized appends the serialized form of row to dst.
func AppendSerialized(dst, row []byte, arity int) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(int32(arity)))
	return append(dst, row...)
}

// ParseSerialized reads the serialized form produced by MarshalSerialized
// (Java SerializationUtils.deserializeBinaryRow). The returned Row aliases
// b.
func ParseSerialized(b []byte) (Row, error) {
	if len(b) < SerializedPrefixSize {
		return Row{}, fmt.Errorf("%w: %d-byte serialized row", ErrCorrupt, len(b))
	}
	arity := int32(binary.BigEndian.Uint32(b))
	r, err := NewRow(b[SerializedPrefixSize:], int(arity))
	if err != nil {
		return Row{}, fmt.Errorf("serialized row: %w", err)
	}
	return r, nil
}

// EmptyRow returns the bytes of the row with no fields (Java
// BinaryRow.EMPTY_ROW): 8 zero bytes. Unpartitioned tables use it as the
// partition.
func EmptyRow() []byte { return make([]byte, FixedPartSize(0)) }

// EmptySerialized returns the serialized form of the empty row: arity 0 and
// 8 zero bytes.
func EmptySerialized() []byte { return make([]byte, SerializedPrefixSize+FixedPartSize(0)) }

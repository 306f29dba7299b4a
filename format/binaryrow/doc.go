// Package binaryrow encodes and decodes Paimon's BinaryRow, the compact
// row format Java Paimon uses for partition values, primary and bucket keys,
// and the min/max statistics stored in manifests (Java
// org.apache.paimon.data.BinaryRow, BinaryRowWriter, BinaryArray,
// BinaryMap). It also computes the BinaryRow hash and the fixed-bucket
// functions derived from it.
//
// # Layout
//
// A row is a fixed part followed by a variable part:
//
//	null bits  ((arity+63+8)/64)*8 bytes; byte 0 is the RowKind, field i's
//	           null flag is bit (i+8) counted LSB-first
//	slots      arity × 8 bytes, little-endian
//	var part   strings/binaries longer than 7 bytes, non-compact DECIMAL
//	           (precision > 18, 16 bytes) and TIMESTAMP (precision > 3,
//	           8 bytes of epoch millis), nested ARRAY/MAP/MULTISET/ROW,
//	           VARIANT and VECTOR values, each padded to 8 bytes
//
// A slot that points into the variable part holds (offset<<32 | length),
// the offset counted from the start of the enclosing row, array or map.
// Strings and binaries of at most 7 bytes are stored in the slot itself with
// 0x80|length in its last byte. Java writes the bytes in the JVM's native
// order through Unsafe, which is little-endian on every platform Paimon
// runs on; this package treats little-endian as the format.
//
// Java reserves the variable area of a NULL non-compact DECIMAL or TIMESTAMP
// and keeps its offset in the slot (RowHelper, AbstractBinaryWriter); Encode
// reproduces that, because those bytes feed the bucket hash.
//
// # Values
//
// Values use the Go model of package data: a nil interface is NULL, INT is
// int32, DECIMAL is data.Decimal, ARRAY is []any and so on (see the data
// package documentation). Two types the data package does not cover are
// mapped here: BLOB is []byte (Java writes a blob's bytes like a BINARY),
// VECTOR is []any of its primitive element values on decode and []any or a
// typed Go slice ([]float32, []int64, ...) on encode.
//
// # Serialized form
//
// Manifests store a row as a 4-byte big-endian arity followed by the row
// bytes (Java SerializationUtils.serializeBinaryRow); see MarshalSerialized
// and ParseSerialized.
//
// # Safety
//
// Decoding never panics on corrupt input: every offset and length read from
// the bytes is bounds-checked and a violation returns an error wrapping
// ErrCorrupt. Getters do panic when called with a field index outside the
// row's arity, like a slice index would.
package binaryrow

// Package variant decodes Paimon's VARIANT binary encoding (the Parquet
// Variant encoding: a metadata dictionary of object keys and a value) and
// renders a value as JSON text exactly as Java Paimon's
// GenericVariant.toJson does, which is what `paimon scan` and the interop
// harness's canon-v1 dumps print for a VARIANT column.
//
// Encoding (Java GenericVariantUtil, parquet-format VariantEncoding.md):
//
//	metadata := header(version 1, sorted flag, offset size) dict_size offsets[dict_size+1] key bytes
//	value    := header byte: basic type (low 2 bits) and type info (high 6 bits), then
//	  primitive    type id in the type info; payload little endian
//	  short string length (< 64) in the type info, UTF-8 bytes
//	  object       sizes of ids/offsets and a large flag; n, field ids[n], offsets[n+1], values
//	  array        offset size and a large flag; n, offsets[n+1], values
//
// Corrupt input never panics: every read is bounds-checked and nesting is
// limited.
package variant

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCorrupt reports bytes that are not a valid variant.
var ErrCorrupt = errors.New("variant: malformed value")

const (
	basicPrimitive = 0
	basicShortStr  = 1
	basicObject    = 2
	basicArray     = 3
)

// Primitive type ids (the type info of a primitive header).
const (
	primNull         = 0
	primTrue         = 1
	primFalse        = 2
	primInt8         = 3
	primInt16        = 4
	primInt32        = 5
	primInt64        = 6
	primDouble       = 7
	primDecimal4     = 8
	primDecimal8     = 9
	primDecimal16    = 10
	primDate         = 11
	primTimestamp    = 12
	primTimestampNTZ = 13
	primFloat        = 14
	primBinary       = 15
	primString       = 16
	primUUID         = 20
)

// maxDepth bounds the nesting of objects and arrays a decoder follows.
const maxDepth = 1000

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// metadata is a decoded metadata dictionary.
type metadata struct {
	b          []byte
	offsetSize int
	size       int
	offsets    int // position of the offsets
	keys       int // position of the key bytes
}

func parseMetadata(b []byte) (*metadata, error) {
	if len(b) < 1 {
		return nil, corrupt("empty metadata")
	}
	if b[0]&0x0f != 1 {
		return nil, corrupt("metadata version %d", b[0]&0x0f)
	}
	m := &metadata{b: b, offsetSize: int(b[0]>>6) + 1}
	size, err := readUint(b, 1, m.offsetSize)
	if err != nil {
		return nil, err
	}
	m.size = size
	m.offsets = 1 + m.offsetSize
	m.keys = m.offsets + (size+1)*m.offsetSize
	if size < 0 || m.keys > len(b) || m.keys < 0 {
		return nil, corrupt("metadata dictionary of %d keys in %d bytes", size, len(b))
	}
	return m, nil
}

func (m *metadata) key(id int) (string, error) {
	if id < 0 || id >= m.size {
		return "", corrupt("key id %d of a dictionary of %d", id, m.size)
	}
	start, err := readUint(m.b, m.offsets+id*m.offsetSize, m.offsetSize)
	if err != nil {
		return "", err
	}
	end, err := readUint(m.b, m.offsets+(id+1)*m.offsetSize, m.offsetSize)
	if err != nil {
		return "", err
	}
	if start > end || m.keys+end > len(m.b) {
		return "", corrupt("key %d out of the dictionary", id)
	}
	return string(m.b[m.keys+start : m.keys+end]), nil
}

// readUint reads an n-byte (1 to 4) little-endian unsigned integer at pos.
func readUint(b []byte, pos, n int) (int, error) {
	if pos < 0 || n < 1 || n > 4 || pos+n > len(b) {
		return 0, corrupt("read of %d bytes at %d of %d", n, pos, len(b))
	}
	v := 0
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | int(b[pos+i])
	}
	return v, nil
}

func need(b []byte, pos, n int) error {
	if pos < 0 || n < 0 || pos+n > len(b) {
		return corrupt("read of %d bytes at %d of %d", n, pos, len(b))
	}
	return nil
}

func le64(b []byte, pos int) int64 { return int64(binary.LittleEndian.Uint64(b[pos:])) }

package binaryrow

import (
	"encoding/binary"
	"math/bits"
)

// hashSeed is Java MurmurHashUtils.DEFAULT_SEED.
const hashSeed = 42

// Hash returns Java BinaryRow.hashCode of the row bytes b:
// MurmurHashUtils.hashBytesByWords with seed 42, i.e. the Murmur3-32 body
// over b read as little-endian 4-byte words, then the finalizer mixed with
// len(b). It covers the header byte, the null flags, the slots and the
// padded variable part. The fixed-bucket default function and the dynamic
// bucket index are built on it.
//
// Rows are always a multiple of 8 bytes long. Java does not define the
// result for other lengths; here trailing bytes past the last full word
// are ignored (as pypaimon does) while len(b) still enters the finalizer.
func Hash(b []byte) int32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	h := uint32(hashSeed)
	for i := 0; i+4 <= len(b); i += 4 {
		k := binary.LittleEndian.Uint32(b[i:])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	h ^= uint32(len(b))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return int32(h)
}

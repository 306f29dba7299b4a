package fileindex

import (
	"fmt"
	"math"

	"github.com/cespare/xxhash/v2"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// bloom is a bloom-filter index (Java BloomFilterFileIndex.Reader over
// BloomFilter64): it answers EQUAL (and IN, as the OR of equalities).
type bloom struct {
	numHash int32
	bits    []byte // Java BloomFilter64.BitSet, bit i in byte i/8 at i%8
	hash    func(any) (uint64, bool)
}

func newBloom(b []byte, t schema.DataType) (Index, error) {
	if len(b) < 5 {
		return nil, fmt.Errorf("%w: bloom filter of %d bytes", ErrCorrupt, len(b))
	}
	h := fastHash(t)
	if h == nil {
		return nil, nil
	}
	// Java adds the sign-extended bytes: (b0 << 24) + (b1 << 16) + ...
	n := int32(int8(b[0]))<<24 + int32(int8(b[1]))<<16 + int32(int8(b[2]))<<8 + int32(int8(b[3]))
	return &bloom{numHash: n, bits: b[4:], hash: h}, nil
}

func (f *bloom) Test(op Op, lits []any) Result {
	switch op {
	case OpEqual:
		if len(lits) != 1 || lits[0] == nil {
			return Remain()
		}
		h, ok := f.hash(lits[0])
		if !ok || f.mayContain(h) {
			return Remain()
		}
		return Skip()
	case OpIn:
		return inByEqual(f, op, lits)
	}
	return Remain()
}

// mayContain is Java BloomFilter64.testHash.
func (f *bloom) mayContain(h uint64) bool {
	numBits := int32(len(f.bits) * 8)
	if numBits <= 0 || len(f.bits) > math.MaxInt32/8 {
		return true
	}
	h1, h2 := int32(h), int32(h>>32)
	for i := int32(1); i <= f.numHash; i++ {
		c := h1 + i*h2
		if c < 0 {
			c = ^c
		}
		pos := c % numBits
		if f.bits[pos>>3]&(1<<(pos&7)) == 0 {
			return false
		}
	}
	return true
}

// fastHash returns the hash of Java's FastHash for values of type t; nil
// for the types Java refuses (boolean, decimal, nested types). The
// function reports false for a literal it cannot hash as Java would.
func fastHash(t schema.DataType) func(any) (uint64, bool) {
	switch t.Root {
	case schema.Char, schema.VarChar:
		return func(v any) (uint64, bool) {
			s, ok := v.(string)
			return xxhash.Sum64String(s), ok
		}
	case schema.Binary, schema.VarBinary:
		return func(v any) (uint64, bool) {
			b, ok := v.([]byte)
			return xxhash.Sum64(b), ok
		}
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Date, schema.Time:
		return func(v any) (uint64, bool) {
			i, ok := asInt64(v)
			return longHash(i), ok
		}
	case schema.Float:
		return func(v any) (uint64, bool) {
			f, ok := v.(float32)
			if !ok || f == 0 || f != f {
				return 0, false // 0.0 = -0.0 and NaN: bit patterns differ from SQL equality
			}
			return longHash(int64(int32(math.Float32bits(f)))), true
		}
	case schema.Double:
		return func(v any) (uint64, bool) {
			f, ok := v.(float64)
			if !ok || f == 0 || f != f {
				return 0, false
			}
			return longHash(int64(math.Float64bits(f))), true
		}
	case schema.Timestamp, schema.TimestampLTZ:
		p := t.Precision
		return func(v any) (uint64, bool) {
			ts, ok := v.(data.Timestamp)
			if !ok {
				return 0, false
			}
			if p <= 3 {
				return longHash(ts.Millis), true
			}
			return longHash(ts.Micros()), true
		}
	}
	return nil
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// longHash is Thomas Wang's 64-bit integer hash as Java
// FastHash.getLongHash computes it (arithmetic shifts).
func longHash(key int64) uint64 {
	key = ^key + key<<21
	key ^= key >> 24
	key = key + key<<3 + key<<8
	key ^= key >> 14
	key = key + key<<2 + key<<4
	key ^= key >> 28
	key += key << 31
	return uint64(key)
}

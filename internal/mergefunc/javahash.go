package mergefunc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// Several Java aggregators collect values in a java.util.HashMap or HashSet
// and return them in its iteration order (collect with distinct, merge_map,
// merge_map_with_keytime, nested_update and nested_partial_update with a
// nested key). That order is part of the result: jmap keeps them in a
// javacompat.HashMap, which replays Java's table layout, and this file
// reproduces the Java objects' hashCode.

// errTreeified is returned when a HashMap bin would turn into a red-black
// tree (8+ colliding entries in a table of 64+ bins): the iteration order of
// such a bin depends on tree rotations that are not reproduced.
var errTreeified = fmt.Errorf("%w: %w", ErrUnsupported, javacompat.ErrTreeified)

// jmap is a javacompat.HashMap whose treeified bins are errTreeified.
type jmap struct{ m javacompat.HashMap }

func newJMap(eq func(a, b any) (bool, error)) *jmap { return &jmap{m: javacompat.HashMap{Equal: eq}} }

func treeErr(err error) error {
	if errors.Is(err, javacompat.ErrTreeified) {
		return errTreeified
	}
	return err
}

func (m *jmap) put(hash int32, key, val any) error { return treeErr(m.m.Put(hash, key, val)) }

func (m *jmap) computeIfAbsent(hash int32, key any, mk func() any) (any, error) {
	v, err := m.m.ComputeIfAbsent(hash, key, mk)
	return v, treeErr(err)
}

func (m *jmap) get(hash int32, key any) (any, bool, error) { return m.m.Get(hash, key) }

func (m *jmap) remove(hash int32, key any) error { return m.m.Remove(hash, key) }

// entries returns the entries in Java's iteration order.
func (m *jmap) entries() []javacompat.HashEntry { return m.m.Entries() }

// hashable reports whether values of t can be hashed and compared exactly
// as Java's boxed element objects: byte[] uses identity, so BINARY and
// VARBINARY cannot; nested and exotic types are not reproduced.
func hashable(t schema.DataType) bool {
	switch t.Root {
	case schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt,
		schema.Float, schema.Double, schema.Decimal, schema.Char, schema.VarChar,
		schema.Date, schema.Time, schema.Timestamp, schema.TimestampLTZ:
		return true
	}
	return false
}

// javaHashCode returns hashCode() of the Java object Paimon's element
// getters return for v: Boolean, Byte, Short, Integer, Long, Float, Double,
// BinaryString, Decimal or Timestamp. NULL hashes to 0 as in HashMap.
func javaHashCode(t schema.DataType, v any) (int32, error) {
	if v == nil {
		return 0, nil
	}
	switch t.Root {
	case schema.Boolean:
		if b, ok := v.(bool); ok {
			if b {
				return 1231, nil
			}
			return 1237, nil
		}
	case schema.TinyInt:
		if x, ok := v.(int8); ok {
			return int32(x), nil
		}
	case schema.SmallInt:
		if x, ok := v.(int16); ok {
			return int32(x), nil
		}
	case schema.Int, schema.Date, schema.Time:
		if x, ok := v.(int32); ok {
			return x, nil
		}
	case schema.BigInt:
		if x, ok := v.(int64); ok {
			return int32(x ^ int64(uint64(x)>>32)), nil
		}
	case schema.Float:
		if x, ok := v.(float32); ok {
			return int32(javaFloatBits(x)), nil
		}
	case schema.Double:
		if x, ok := v.(float64); ok {
			b := javaDoubleBits(x)
			return int32(b ^ b>>32), nil
		}
	case schema.Char, schema.VarChar:
		if s, ok := v.(string); ok {
			return murmurBytes([]byte(s)), nil
		}
	case schema.Decimal:
		if d, ok := v.(data.Decimal); ok && d.Unscaled != nil {
			return bigDecimalHash(d.Unscaled, d.Scale), nil
		}
	case schema.Timestamp, schema.TimestampLTZ:
		if ts, ok := v.(data.Timestamp); ok {
			h := int32(ts.Millis) ^ int32(ts.Millis>>32)
			return 31*h + ts.NanoOfMilli, nil
		}
	default:
		return 0, fmt.Errorf("%w: Java hashCode of %s values", ErrUnsupported, t.Root)
	}
	return 0, badValue(t, v)
}

// javaFloatBits is Float.floatToIntBits: every NaN maps to 0x7fc00000.
func javaFloatBits(f float32) uint32 {
	if f != f {
		return 0x7fc00000
	}
	return math.Float32bits(f)
}

// javaDoubleBits is Double.doubleToLongBits.
func javaDoubleBits(f float64) uint64 {
	if f != f {
		return 0x7ff8000000000000
	}
	return math.Float64bits(f)
}

// murmurBytes is Java MurmurHashUtils.hashBytes (seed 42), the hashCode of a
// BinaryString: 4-byte little-endian words, then the tail bytes one by one
// as signed bytes, then the finalizer mixed with the length.
func murmurBytes(b []byte) int32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	mixK := func(k uint32) uint32 {
		k *= c1
		k = bits.RotateLeft32(k, 15)
		return k * c2
	}
	mixH := func(h, k uint32) uint32 {
		h ^= k
		h = bits.RotateLeft32(h, 13)
		return h*5 + 0xe6546b64
	}
	h := uint32(42)
	n := len(b) - len(b)%4
	for i := 0; i < n; i += 4 {
		h = mixH(h, mixK(binary.LittleEndian.Uint32(b[i:])))
	}
	for _, c := range b[n:] {
		h = mixH(h, mixK(uint32(int32(int8(c)))))
	}
	h ^= uint32(len(b))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return int32(h)
}

// bigDecimalHash is java.math.BigDecimal.hashCode of unscaled×10^-scale, the
// hashCode of a Paimon Decimal (Decimal.hashCode hashes toBigDecimal()).
func bigDecimalHash(unscaled *big.Int, scale int) int32 {
	if unscaled.IsInt64() && unscaled.Int64() != math.MinInt64 {
		c := unscaled.Int64()
		v := c
		if v < 0 {
			v = -v
		}
		hi := int32(uint64(v)>>32) * 31
		temp := int32(int64(hi) + int64(uint64(v)&0xffffffff))
		if c < 0 {
			temp = -temp
		}
		return 31*temp + int32(scale)
	}
	return 31*bigIntegerHash(unscaled) + int32(scale)
}

// bigIntegerHash is java.math.BigInteger.hashCode: the magnitude's 32-bit
// words, most significant first, folded with 31, times the signum.
func bigIntegerHash(x *big.Int) int32 {
	mag := new(big.Int).Abs(x).Bytes()
	for len(mag)%4 != 0 {
		mag = append([]byte{0}, mag...)
	}
	var h int32
	for i := 0; i < len(mag); i += 4 {
		h = 31*h + int32(binary.BigEndian.Uint32(mag[i:]))
	}
	return h * int32(x.Sign())
}

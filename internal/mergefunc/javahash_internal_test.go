package mergefunc

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// Expected values are Java's: String.hashCode, BigDecimal.hashCode and the
// boxed types' hashCode as documented in the JDK.
func TestJavaHashCode(t *testing.T) {
	two64, _ := new(big.Int).SetString("18446744073709551616", 10)
	tests := []struct {
		name string
		t    schema.DataType
		v    any
		want int32
	}{
		{"null", schema.IntType(), nil, 0},
		{"true", schema.BooleanType(), true, 1231},
		{"false", schema.BooleanType(), false, 1237},
		{"byte", schema.TinyIntType(), int8(-3), -3},
		{"short", schema.SmallIntType(), int16(300), 300},
		{"int", schema.IntType(), int32(-7), -7},
		{"date", schema.DateType(), int32(19000), 19000},
		{"long -1", schema.BigIntType(), int64(-1), 0},
		{"long 2^32", schema.BigIntType(), int64(1) << 32, 1},
		{"float 1", schema.FloatType(), float32(1), 1065353216},
		{"float NaN canonical", schema.FloatType(), math.Float32frombits(0x7fc00001), 0x7fc00000},
		{"double 1", schema.DoubleType(), 1.0, 1072693248},
		{"decimal 1.00", schema.DecimalType(5, 2), data.NewDecimalFromInt64(100, 5, 2), 3102},
		{"decimal -1.5", schema.DecimalType(5, 1), data.NewDecimalFromInt64(-15, 5, 1), -464},
		{"decimal 2^64 inflated", schema.DecimalType(38, 0), data.Decimal{Unscaled: two64, Precision: 38, Scale: 0}, 29791},
		{"decimal long min inflated", schema.DecimalType(19, 0), data.NewDecimalFromInt64(math.MinInt64, 19, 0), math.MinInt32},
		{"timestamp", schema.TimestampType(9), data.Timestamp{Millis: 1, NanoOfMilli: 2}, 33},
		{"timestamp negative millis", schema.TimestampType(3), data.Timestamp{Millis: -1}, 0}, // 31 * (low word ^ high word) = 31 * (-1 ^ -1),
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := javaHashCode(tt.t, tt.v)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
	_, err := javaHashCode(schema.BytesType(), []byte{1})
	require.ErrorIs(t, err, ErrUnsupported)
}

func TestMurmurMatchesBinaryRowHash(t *testing.T) {
	// For whole words MurmurHashUtils.hashBytes and hashBytesByWords agree;
	// binaryrow.Hash is checked against Java's BinaryRow.hashCode.
	for _, b := range [][]byte{{}, []byte("abcd"), []byte("0123456789abcdef")} {
		require.Equal(t, binaryrow.Hash(b), murmurBytes(b), "%q", b)
	}
	// Tail bytes are mixed one by one as signed bytes: differs from the
	// word-only hash.
	require.NotEqual(t, binaryrow.Hash([]byte("abcde")), murmurBytes([]byte("abcde")))
}

func TestJavaStringHash(t *testing.T) {
	require.Equal(t, int32(0), javacompat.StringHashCode(""))
	require.Equal(t, int32(99162322), javacompat.StringHashCode("hello"))
	// A supplementary character hashes as its two UTF-16 surrogates.
	require.Equal(t, 31*int32(0xD83D)+int32(0xDE00), javacompat.StringHashCode("\U0001F600"))
}

// TestJMapTreeified checks that a bin whose order Java would take from a
// red-black tree is ErrUnsupported, not a wrong order.
func TestJMapTreeified(t *testing.T) {
	m := newJMap(nil)
	var err error
	for k := int32(0); k < 20 && err == nil; k++ {
		err = m.put(k*64, k*64, nil)
	}
	require.ErrorIs(t, err, ErrUnsupported)
	require.Equal(t, 64, m.m.Capacity())
}

func TestJavaStringCompare(t *testing.T) {
	require.Less(t, javacompat.CompareStrings("a", "b"), 0)
	require.Greater(t, javacompat.CompareStrings("ab", "a"), 0)
	require.Zero(t, javacompat.CompareStrings("é", "é"))
	// U+FF61 is above the surrogate 0xD83D that starts U+1F600.
	require.Greater(t, javacompat.CompareStrings("\uFF61", "\U0001F600"), 0)
}

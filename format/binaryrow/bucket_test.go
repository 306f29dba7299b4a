package binaryrow_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

func TestParseBucketFunction(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want binaryrow.BucketFunction
	}{{"default", binaryrow.BucketDefault}, {"MOD", binaryrow.BucketMod}, {"Hive", binaryrow.BucketHive}} {
		t.Run(tt.in, func(t *testing.T) {
			f, err := binaryrow.ParseBucketFunction(tt.in)
			require.NoError(t, err)
			require.Equal(t, tt.want, f)
		})
	}
	_, err := binaryrow.ParseBucketFunction("murmur")
	require.Error(t, err)
}

func TestDefaultBucketJavaRemainder(t *testing.T) {
	tests := []struct {
		hash    int32
		n, want int
	}{
		{-1, 4, 1}, {-7, 4, 3}, {7, 4, 3}, {math.MinInt32, 3, 2}, {math.MinInt32, 1 << 30, 0},
		{math.MaxInt32, 10, 7}, {0, 1, 0},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, binaryrow.DefaultBucket(tt.hash, tt.n), "hash %d n %d", tt.hash, tt.n)
	}
}

// TestModBucket mirrors Java ModBucketFunctionTest.
func TestModBucket(t *testing.T) {
	tests := []struct {
		name string
		typ  schema.DataType
		v    any
		want int
	}{
		{"int 1", tInt(), int32(1), 1},
		{"int 7", tInt(), int32(7), 2},
		{"int -2", tInt(), int32(-2), 3},
		{"bigint 8", tBigInt(), int64(8), 3},
		{"bigint 0", tBigInt(), int64(0), 0},
		{"bigint -3", tBigInt(), int64(-3), 2},
		{"bigint min", tBigInt(), int64(math.MinInt64), 2},
		{"null", tInt(), nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := binaryrow.BucketOf(types(tt.typ), vals(tt.v), 5, binaryrow.BucketMod)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)

			row, err := binaryrow.Encode(data.Insert, types(tt.typ), vals(tt.v))
			require.NoError(t, err)
			r, err := binaryrow.NewRow(row, 1)
			require.NoError(t, err)
			got, err = binaryrow.BucketOfRow(r, types(tt.typ), 5, binaryrow.BucketMod)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
	_, err := binaryrow.BucketOf(types(tInt(), tBigInt()), vals(int32(1), int64(1)), 5, binaryrow.BucketMod)
	require.ErrorIs(t, err, binaryrow.ErrType)
	_, err = binaryrow.BucketOf(types(tString()), vals("x"), 5, binaryrow.BucketMod)
	require.ErrorIs(t, err, binaryrow.ErrType)
	_, err = binaryrow.BucketOf(types(tInt()), vals(int64(1)), 5, binaryrow.BucketMod)
	require.ErrorIs(t, err, binaryrow.ErrValue)
	_, err = binaryrow.BucketOf(types(tInt()), vals(int32(1)), 0, binaryrow.BucketDefault)
	require.ErrorIs(t, err, binaryrow.ErrValue)
}

// javaStringHash is Java String.hashCode for ASCII, equal to
// HiveHasher.hashBytes of its bytes.
func javaStringHash(s string) int32 {
	var h int32
	for _, c := range []byte(s) {
		h = 31*h + int32(c)
	}
	return h
}

func TestHiveHash(t *testing.T) {
	tests := []struct {
		name string
		typ  schema.DataType
		v    any
		want int32
	}{
		{"null", tInt(), nil, 0},
		{"true", tOf(schema.Boolean), true, 1},
		{"false", tOf(schema.Boolean), false, 0},
		{"tinyint", tOf(schema.TinyInt), int8(-3), -3},
		{"smallint", tOf(schema.SmallInt), int16(300), 300},
		{"int", tInt(), int32(-7), -7},
		{"date", tOf(schema.Date), int32(19000), 19000},
		{"time", tOf(schema.Time), int32(1000), 1000},
		{"bigint -1", tBigInt(), int64(-1), 0},
		{"bigint 2^32", tBigInt(), int64(1) << 32, 1},
		{"bigint 5", tBigInt(), int64(5), 5},
		{"float 1", tOf(schema.Float), float32(1), 0x3f800000},
		{"float -0", tOf(schema.Float), float32(math.Copysign(0, -1)), 0},
		{"float NaN", tOf(schema.Float), math.Float32frombits(0x7fc00001), 0x7fc00000},
		{"double 1", tOf(schema.Double), 1.0, 0x3ff00000},
		{"double -0", tOf(schema.Double), math.Copysign(0, -1), 0},
		{"double NaN", tOf(schema.Double), math.Float64frombits(0x7ff8000000000001), 0x7ff80000},
		{"string hello", tString(), "hello", 99162322},
		{"string signed bytes", tString(), "é", 31*int32(int8(-61)) + int32(int8(-87))},
		{"bytes", tBytes(), []byte{1, 2, 3}, 1026},
		{"bytes negative", tBytes(), []byte{0xff}, -1},
		// BigDecimal hashCode after Hive normalisation.
		{"decimal 12.3400", tDecimal(10, 4), dec("123400", 10, 4), 31*1234 + 2},
		{"decimal -12.34", tDecimal(10, 2), dec("-1234", 10, 2), 31*-1234 + 2},
		{"decimal zero", tDecimal(10, 2), dec("0", 10, 2), 0},
		{"decimal 100", tDecimal(10, 0), dec("100", 10, 0), 3100},
		{"decimal 100.00", tDecimal(10, 2), dec("10000", 10, 2), 3100},
		{"decimal 2^40", tDecimal(18, 0), dec("1099511627776", 18, 0), 31 * (31 * 256)},
		// 10^37+1 = 0x0785EE10_D5DA46D9_00F436A0_00000001: BigInteger.hashCode
		// over those magnitude words.
		{
			"decimal 38 digits", tDecimal(38, 0), dec("10000000000000000000000000000000000001", 38, 0),
			31 * bigIntegerHashWords(1, 0x0785EE10, 0xD5DA46D9, 0x00F436A0, 0x00000001),
		},
		{
			"decimal -38 digits scale 2", tDecimal(38, 2), dec("-10000000000000000000000000000000000001", 38, 2),
			31*bigIntegerHashWords(-1, 0x0785EE10, 0xD5DA46D9, 0x00F436A0, 0x00000001) + 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := binaryrow.HiveHash(types(tt.typ), vals(tt.v))
			require.NoError(t, err)
			require.Equal(t, tt.want, h)
		})
	}
}

// bigIntegerHashWords computes Java BigInteger.hashCode from magnitude words.
func bigIntegerHashWords(signum int32, words ...uint32) int32 {
	var h int32
	for _, w := range words {
		h = 31*h + int32(w)
	}
	return h * signum
}

// TestHiveBucketJava mirrors Java HiveBucketFunctionTest.
func TestHiveBucketJava(t *testing.T) {
	ts := types(tInt(), tString(), tBytes(), tDecimal(10, 4))
	vs := vals(int32(7), "hello", []byte{1, 2, 3}, dec("123400", 10, 4))
	want := 31*(31*(31*int32(7)+javaStringHash("hello"))+1026) + (31*1234 + 2)
	require.Equal(t, int32(805989529), want) // cross-checked by hand
	h, err := binaryrow.HiveHash(ts, vs)
	require.NoError(t, err)
	require.Equal(t, want, h)
	b, err := binaryrow.BucketOf(ts, vs, 8, binaryrow.BucketHive)
	require.NoError(t, err)
	require.Equal(t, int(want&math.MaxInt32)%8, b)

	row, err := binaryrow.Encode(data.Insert, ts, vs)
	require.NoError(t, err)
	r, err := binaryrow.NewRow(row, len(ts))
	require.NoError(t, err)
	b2, err := binaryrow.BucketOfRow(r, ts, 8, binaryrow.BucketHive)
	require.NoError(t, err)
	require.Equal(t, b, b2)

	// With nulls: bucket 0.
	b, err = binaryrow.BucketOf(types(tInt(), tString()), vals(nil, nil), 4, binaryrow.BucketHive)
	require.NoError(t, err)
	require.Zero(t, b)

	// TIMESTAMP: NULL is fine, a value is unsupported.
	b, err = binaryrow.BucketOf(types(tTimestamp(6)), vals(nil), 4, binaryrow.BucketHive)
	require.NoError(t, err)
	require.Zero(t, b)
	_, err = binaryrow.BucketOf(types(tTimestamp(6)), vals(data.Timestamp{Millis: 1}), 4, binaryrow.BucketHive)
	require.ErrorIs(t, err, binaryrow.ErrType)
	_, err = binaryrow.BucketOf(types(tOf(schema.Blob)), vals([]byte{1}), 4, binaryrow.BucketHive)
	require.ErrorIs(t, err, binaryrow.ErrType)
}

func TestHiveBucketNegativeHash(t *testing.T) {
	// "polygenelubricants".hashCode() is Integer.MIN_VALUE in Java; the
	// bucket masks the sign bit.
	h, err := binaryrow.HiveHash(types(tString()), vals("polygenelubricants"))
	require.NoError(t, err)
	require.Equal(t, int32(math.MinInt32), h) // a famous Java hashCode
	require.Equal(t, 0, binaryrow.HiveBucket(h, 7))
	require.Equal(t, 3, binaryrow.HiveBucket(-1, 4)) // 0x7fffffff % 4
}

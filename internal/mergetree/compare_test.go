package mergetree_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// TestKeyComparator pins the orders of Java's generated RecordComparator
// (GenerateUtils.generateCompare, BinaryString.compareTo,
// SortUtil.compareBinary, Decimal.compareTo, Timestamp.compareTo).
func TestKeyComparator(t *testing.T) {
	nan32, nan64 := float32(math.NaN()), math.NaN()
	row := schema.RowType(schema.NewField(1, "a", schema.IntType()), schema.NewField(2, "b", schema.StringType()))
	tests := []struct {
		name string
		typ  schema.DataType
		a, b any
		want int
	}{
		{"null first", schema.IntType(), nil, int32(math.MinInt32), -1},
		{"null equal null", schema.StringType(), nil, nil, 0},
		{"bool", schema.BooleanType(), false, true, -1},
		{"tinyint", schema.TinyIntType(), int8(-1), int8(1), -1},
		{"smallint", schema.SmallIntType(), int16(7), int16(7), 0},
		{"int", schema.IntType(), int32(math.MaxInt32), int32(math.MinInt32), 1},
		{"bigint", schema.BigIntType(), int64(math.MinInt64), int64(0), -1},
		{"float NaN equals", schema.FloatType(), nan32, float32(1), 0},
		{"float -0 equals 0", schema.FloatType(), float32(math.Copysign(0, -1)), float32(0), 0},
		{"double NaN equals", schema.DoubleType(), float64(-1), nan64, 0},
		{"double", schema.DoubleType(), -1.5, 2.5, -1},
		{"string unsigned bytes", schema.StringType(), "z", "é", -1},
		{"string prefix first", schema.StringType(), "ab", "abc", -1},
		{"string empty first", schema.StringType(), "", "\x00", -1},
		{"char", schema.CharType(2), "b ", "a ", 1},
		{"binary unsigned", schema.BytesType(), []byte{0x7f}, []byte{0x80}, -1},
		{"binary prefix", schema.BinaryType(3), []byte{1, 2}, []byte{1, 2, 0}, -1},
		{"decimal", schema.DecimalType(5, 2), data.NewDecimalFromInt64(-150, 5, 2), data.NewDecimalFromInt64(100, 5, 2), -1},
		{"decimal wide", schema.DecimalType(30, 0),
			data.Decimal{Unscaled: new(big.Int).Lsh(big.NewInt(1), 90), Precision: 30},
			data.Decimal{Unscaled: new(big.Int).Lsh(big.NewInt(1), 89), Precision: 30}, 1},
		{"date", schema.DateType(), int32(-1), int32(0), -1},
		{"time", schema.TimeType(3), int32(1000), int32(999), 1},
		{"timestamp nanos", schema.TimestampType(9), data.Timestamp{Millis: 5, NanoOfMilli: 2}, data.Timestamp{Millis: 5, NanoOfMilli: 1}, 1},
		{"timestamp_ltz", schema.TimestampLTZType(3), data.Timestamp{Millis: -5}, data.Timestamp{Millis: 5}, -1},
		{"array null element first", schema.ArrayType(schema.IntType()), []any{nil}, []any{int32(0)}, -1},
		{"array prefix", schema.ArrayType(schema.IntType()), []any{int32(1)}, []any{int32(1), int32(0)}, -1},
		{"row", row, []any{int32(1), "b"}, []any{int32(1), "a"}, 1},
		{"row null field first", row, []any{int32(1), nil}, []any{int32(1), ""}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := mergetree.NewKeyComparator([]schema.DataType{tt.typ})
			require.NoError(t, err)
			require.Equal(t, tt.want, sign(c.Compare([]any{tt.a}, []any{tt.b})))
			require.Equal(t, -tt.want, sign(c.Compare([]any{tt.b}, []any{tt.a})))
		})
	}
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func TestKeyComparatorComposite(t *testing.T) {
	c, err := mergetree.NewKeyComparator([]schema.DataType{schema.IntType(), schema.StringType()})
	require.NoError(t, err)
	require.Negative(t, c.Compare([]any{int32(1), "z"}, []any{int32(2), "a"}))
	require.Positive(t, c.Compare([]any{int32(1), "b"}, []any{int32(1), "a"}))
	require.Zero(t, c.Compare([]any{int32(1), "a"}, []any{int32(1), "a"}))
	require.Len(t, c.Types(), 2)
}

func TestKeyComparatorUnsupported(t *testing.T) {
	for _, typ := range []schema.DataType{
		schema.MapType(schema.IntType().NotNull(), schema.IntType()),
		schema.MultisetType(schema.IntType()),
		schema.VariantType(),
		schema.BlobType(),
		schema.ArrayType(schema.MapType(schema.IntType().NotNull(), schema.IntType())),
	} {
		t.Run(typ.String(), func(t *testing.T) {
			_, err := mergetree.NewKeyComparator([]schema.DataType{typ})
			require.ErrorIs(t, err, mergetree.ErrUnsupported)
		})
	}
}

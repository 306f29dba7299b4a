package arrowrow_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

func newBuilder(t *testing.T, mem memory.Allocator, typ schema.DataType) array.Builder {
	t.Helper()
	at, err := schema.ToArrowType(typ)
	require.NoError(t, err)
	return array.NewBuilder(mem, at)
}

// canonJSON renders a value with the interop canonical form, which compares
// decimals, timestamps and maps by value.
func canonJSON(t *testing.T, typ schema.DataType, v any) string {
	t.Helper()
	j, err := canon.EncodeValue(typ, v)
	require.NoError(t, err)
	b, err := json.Marshal(j)
	require.NoError(t, err)
	return string(b)
}

func TestAppendValueRoundTrip(t *testing.T) {
	row := schema.RowType(schema.NewField(10, "a", schema.IntType()), schema.NewField(11, "b", schema.StringType()))
	tests := []struct {
		name   string
		typ    schema.DataType
		values []any
	}{
		{"boolean", schema.BooleanType(), []any{true, false, nil}},
		{"tinyint", schema.TinyIntType(), []any{int8(-128), int8(127), nil}},
		{"smallint", schema.SmallIntType(), []any{int16(-3), nil}},
		{"int", schema.IntType(), []any{int32(1), int32(-1 << 31), nil}},
		{"bigint", schema.BigIntType(), []any{int64(1 << 62), nil}},
		{"float", schema.FloatType(), []any{float32(1.5), nil}},
		{"double", schema.DoubleType(), []any{-2.25, nil}},
		{"decimal compact", schema.DecimalType(10, 2), []any{data.NewDecimalFromInt64(-12345, 10, 2), nil}},
		{"decimal wide", schema.DecimalType(38, 10), []any{data.Decimal{Unscaled: new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil), Precision: 38, Scale: 10}}},
		{"string", schema.StringType(), []any{"", "héllo", nil}},
		{"char", schema.CharType(3), []any{"abc"}},
		{"binary", schema.BytesType(), []any{[]byte{0, 0xff}, []byte{}, nil}},
		{"blob", schema.BlobType(), []any{[]byte("blob")}},
		{"date", schema.DateType(), []any{int32(-1), int32(19000)}},
		{"time", schema.TimeType(3), []any{int32(86399999)}},
		{"timestamp3", schema.TimestampType(3), []any{data.Timestamp{Millis: -1}}},
		{"timestamp6", schema.TimestampType(6), []any{data.TimestampFromMicros(-1234567)}},
		{"timestamp9", schema.TimestampType(9), []any{data.TimestampFromNanos(1234567891)}},
		{"timestamp_ltz", schema.TimestampLTZType(6), []any{data.TimestampFromMicros(99)}},
		{"array", schema.ArrayType(schema.IntType()), []any{[]any{int32(1), nil, int32(3)}, []any{}, nil}},
		{"nested array", schema.ArrayType(schema.ArrayType(schema.StringType())), []any{[]any{[]any{"x"}, nil}}},
		{"map", schema.MapType(schema.StringType().NotNull(), schema.BigIntType()), []any{data.Map{Keys: []any{"k"}, Values: []any{nil}}, nil}},
		{"multiset", schema.MultisetType(schema.StringType()), []any{data.Map{Keys: []any{"a", "b"}, Values: []any{int32(2), int32(1)}}}},
		{"row", row, []any{[]any{int32(1), "x"}, []any{nil, nil}, nil}},
		{"variant", schema.VariantType(), []any{data.Variant{Value: []byte{1}, Metadata: []byte{2, 3}}}},
		{"vector", schema.VectorType(2, schema.FloatType().NotNull()), []any{[]any{float32(1), float32(2)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			b := newBuilder(t, mem, tt.typ)
			defer b.Release()
			for _, v := range tt.values {
				require.NoError(t, arrowrow.AppendValue(b, tt.typ, v))
			}
			arr := b.NewArray()
			defer arr.Release()
			require.Equal(t, len(tt.values), arr.Len())
			for i, want := range tt.values {
				got, err := parquet.ArrowValue(arr, i, tt.typ)
				require.NoError(t, err)
				switch tt.typ.Root {
				case schema.Blob, schema.Variant, schema.Vector: // not in canon-v1
					require.Equal(t, want, got, "row %d", i)
				default:
					require.Equal(t, canonJSON(t, tt.typ, want), canonJSON(t, tt.typ, got), "row %d", i)
				}
			}
		})
	}
}

func TestAppendValueRescalesDecimal(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	typ := schema.DecimalType(6, 3)
	b := newBuilder(t, mem, typ)
	defer b.Release()
	require.NoError(t, arrowrow.AppendValue(b, typ, data.NewDecimalFromInt64(15, 3, 1)))   // 1.5 -> 1.500
	require.NoError(t, arrowrow.AppendValue(b, typ, data.NewDecimalFromInt64(2500, 6, 4))) // 0.2500 -> 0.250
	arr := b.NewArray()
	defer arr.Release()
	for i, want := range []string{"1.500", "0.250"} {
		v, err := parquet.ArrowValue(arr, i, typ)
		require.NoError(t, err)
		require.Equal(t, want, v.(data.Decimal).String())
	}
}

func TestAppendValueErrors(t *testing.T) {
	tests := []struct {
		name string
		typ  schema.DataType
		v    any
		want error
	}{
		{"int for bigint", schema.BigIntType(), int32(1), arrowrow.ErrMismatch},
		{"string for int", schema.IntType(), "1", arrowrow.ErrMismatch},
		{"decimal too wide", schema.DecimalType(4, 2), data.NewDecimalFromInt64(123456, 10, 2), arrowrow.ErrRange},
		{"decimal loses digits", schema.DecimalType(4, 1), data.NewDecimalFromInt64(125, 4, 2), arrowrow.ErrRange},
		{"decimal nil", schema.DecimalType(4, 1), data.Decimal{}, arrowrow.ErrMismatch},
		{"timestamp overflow", schema.TimestampType(9), data.Timestamp{Millis: 1 << 62}, arrowrow.ErrRange},
		{"row arity", schema.RowType(schema.NewField(1, "a", schema.IntType())), []any{int32(1), int32(2)}, arrowrow.ErrMismatch},
		{"map lengths", schema.MapType(schema.IntType().NotNull(), schema.IntType()), data.Map{Keys: []any{int32(1)}}, arrowrow.ErrMismatch},
		{"map null key", schema.MapType(schema.IntType().NotNull(), schema.IntType()), data.Map{Keys: []any{nil}, Values: []any{nil}}, arrowrow.ErrMismatch},
		{"vector length", schema.VectorType(3, schema.FloatType()), []any{float32(1)}, arrowrow.ErrMismatch},
		{"array element", schema.ArrayType(schema.IntType()), []any{"x"}, arrowrow.ErrMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			b := newBuilder(t, mem, tt.typ)
			defer b.Release()
			require.ErrorIs(t, arrowrow.AppendValue(b, tt.typ, tt.v), tt.want)
		})
	}
}

// TestAppendValueNoAlloc checks that appending a value allocates nothing
// beyond the builder's own growth: callers such as evolution's casts append
// every cell of a column through AppendValue.
func TestAppendValueNoAlloc(t *testing.T) {
	tests := []struct {
		name string
		typ  schema.DataType
		v    any
	}{
		{"int", schema.IntType(), any(int32(1 << 20))},
		{"string", schema.StringType(), any("abc")},
		{"timestamp", schema.TimestampType(9), any(data.Timestamp{Millis: 1, NanoOfMilli: 2})},
		{"multiset", schema.MultisetType(schema.StringType()), any(data.Map{Keys: []any{"a"}, Values: []any{int32(2)}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const runs = 100
			b := newBuilder(t, memcheck.New(), tt.typ)
			defer b.Release()
			b.Reserve(runs + 1)
			// Grow the nested builders once, before counting.
			require.NoError(t, arrowrow.AppendValue(b, tt.typ, tt.v))
			allocs := testing.AllocsPerRun(runs, func() {
				if err := arrowrow.AppendValue(b, tt.typ, tt.v); err != nil {
					t.Fatal(err)
				}
			})
			require.Zero(t, allocs)
		})
	}
}

package mergetree

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// TestColCmpMatchesKeyComparator checks that comparing Arrow cells (the hot
// path) orders exactly like KeyComparator on the value model, for every
// comparable type, with NULLs, in both directions.
func TestColCmpMatchesKeyComparator(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(xs ...any) func() any { return func() any { return xs[r.IntN(len(xs))] } }
	row := schema.RowType(schema.NewField(1, "a", schema.IntType()), schema.NewField(2, "b", schema.StringType()))
	tests := []struct {
		typ schema.DataType
		gen func() any
	}{
		{schema.BooleanType(), pick(true, false)},
		{schema.TinyIntType(), pick(int8(-128), int8(0), int8(127))},
		{schema.SmallIntType(), pick(int16(-1), int16(0), int16(300))},
		{schema.IntType(), pick(int32(math.MinInt32), int32(0), int32(5))},
		{schema.BigIntType(), pick(int64(math.MinInt64), int64(-1), int64(math.MaxInt64))},
		{schema.FloatType(), pick(float32(-1), float32(0), float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(2.5))},
		{schema.DoubleType(), pick(-1.0, 0.0, math.Inf(-1), 1e300)},
		{schema.DateType(), pick(int32(-3), int32(0), int32(20000))},
		{schema.TimeType(3), pick(int32(0), int32(1), int32(86399999))},
		{schema.TimestampType(3), pick(data.Timestamp{Millis: -1}, data.Timestamp{Millis: 1})},
		{schema.TimestampType(9), pick(data.Timestamp{Millis: 1, NanoOfMilli: 1}, data.Timestamp{Millis: 1}, data.Timestamp{Millis: -1, NanoOfMilli: 999999})},
		{schema.TimestampLTZType(6), pick(data.TimestampFromMicros(-1), data.TimestampFromMicros(1))},
		{schema.StringType(), pick("", "a", "ab", "é", "z", "\u007f")},
		{schema.BytesType(), pick([]byte{}, []byte{0}, []byte{0x80}, []byte{0x7f, 1})},
		{schema.DecimalType(5, 2), pick(data.NewDecimalFromInt64(-100, 5, 2), data.NewDecimalFromInt64(5, 5, 2))},
		{schema.DecimalType(38, 4), pick(data.Decimal{Unscaled: new(big.Int).Lsh(big.NewInt(-1), 100), Precision: 38, Scale: 4}, data.NewDecimalFromInt64(7, 38, 4))},
		{schema.ArrayType(schema.IntType()), pick([]any{}, []any{int32(1)}, []any{nil}, []any{int32(1), int32(2)})},
		{row, pick([]any{int32(1), "a"}, []any{nil, "b"}, []any{int32(1), nil})},
	}
	for _, tt := range tests {
		for _, desc := range []bool{false, true} {
			t.Run(tt.typ.String(), func(t *testing.T) {
				mem := memcheck.New()
				defer mem.AssertSize(t, 0)
				var vals []any
				for range 40 {
					if r.IntN(5) == 0 {
						vals = append(vals, nil)
					} else {
						vals = append(vals, tt.gen())
					}
				}
				at, err := schema.ToArrowType(tt.typ)
				require.NoError(t, err)
				b := array.NewBuilder(mem, at)
				for _, v := range vals {
					require.NoError(t, arrowrow.AppendValue(b, tt.typ, v))
				}
				arr := b.NewArray()
				b.Release()
				defer arr.Release()

				kc, err := newSeqComparator([]schema.DataType{tt.typ}, desc)
				require.NoError(t, err)
				cc := colCmp{kind: kindOf(tt.typ), typ: tt.typ, desc: desc}
				var v colView
				require.True(t, v.set(arr, cc.kind))
				for i := range vals {
					for j := range vals {
						want := kc.Compare([]any{vals[i]}, []any{vals[j]})
						got := cc.compare(&v, i, &v, j)
						require.Equal(t, sgn(want), sgn(got), "%v vs %v (desc %v)", vals[i], vals[j], desc)
					}
				}
			})
		}
	}
}

func sgn(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func TestColViewRejectsOtherTypes(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	b := array.NewInt32Builder(mem)
	b.Append(1)
	arr := b.NewArray()
	b.Release()
	defer arr.Release()
	var v colView
	for _, k := range []viewKind{viewBool, viewInt8, viewInt16, viewInt64, viewFloat32, viewFloat64,
		viewDate, viewTime, viewTimestamp, viewString, viewBinary, viewDecimal} {
		require.False(t, v.set(arr, k), "kind %d", k)
	}
	require.True(t, v.set(arr, viewInt32))
}

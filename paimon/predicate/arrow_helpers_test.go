package predicate_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

// filterFields covers every filterable type (with every timestamp unit)
// plus nested columns that a filter must carry along.
var filterFields = []schema.DataField{
	schema.NewField(0, "bo", schema.BooleanType()),
	schema.NewField(1, "ti", schema.TinyIntType()),
	schema.NewField(2, "si", schema.SmallIntType()),
	schema.NewField(3, "in", schema.IntType()),
	schema.NewField(4, "bi", schema.BigIntType()),
	schema.NewField(5, "fl", schema.FloatType()),
	schema.NewField(6, "do", schema.DoubleType()),
	schema.NewField(7, "de", schema.DecimalType(5, 2)),
	schema.NewField(8, "dw", schema.DecimalType(38, 10)),
	schema.NewField(9, "ch", schema.CharType(3)),
	schema.NewField(10, "st", schema.StringType()),
	schema.NewField(11, "by", schema.BytesType()),
	schema.NewField(12, "da", schema.DateType()),
	schema.NewField(13, "tm", schema.TimeType(3)),
	schema.NewField(14, "t0", schema.TimestampType(0)),
	schema.NewField(15, "t3", schema.TimestampType(3)),
	schema.NewField(16, "t6", schema.TimestampType(6)),
	schema.NewField(17, "t9", schema.TimestampType(9)),
	schema.NewField(18, "l3", schema.TimestampLTZType(3)),
	schema.NewField(19, "l9", schema.TimestampLTZType(9)),
	schema.NewField(20, "ar", schema.ArrayType(schema.IntType())),
	schema.NewField(21, "mp", schema.MapType(schema.StringType().NotNull(), schema.IntType())),
	schema.NewField(22, "ro", schema.RowType(
		schema.NewField(23, "a", schema.IntType()),
		schema.NewField(24, "b", schema.StringType()))),
	schema.NewField(25, "nn", schema.BigIntType().NotNull()),
}

// filterable lists the indexes of filterFields a predicate may test.
func filterable() []int {
	var out []int
	for i, f := range filterFields {
		if !f.Type.IsNested() {
			out = append(out, i)
		}
	}
	return out
}

var (
	strDomain   = []string{"", "a", "ab", "abc", "b", "é", "éa", "z", "a'b"}
	bytesDomain = [][]byte{{}, {0x00}, {0x01}, {0x7f}, {0x80}, {0xff}, {0x01, 0x80}, {0x01, 0x00}}
	bigUnscaled = func() []*big.Int {
		huge, _ := new(big.Int).SetString("99999999999999999999999999999999999999", 10)
		out := []*big.Int{huge, new(big.Int).Neg(huge)}
		for _, v := range []int64{-1 << 62, -25, -1, 0, 1, 25, 1 << 62} {
			out = append(out, big.NewInt(v))
		}
		// values around 2^64 exercise the high word
		two64 := new(big.Int).Lsh(big.NewInt(1), 64)
		out = append(out, two64, new(big.Int).Sub(two64, big.NewInt(1)), new(big.Int).Neg(two64))
		return out
	}()
	floatDomain = []float64{math.Inf(-1), -1, math.Copysign(0, -1), 0, 0.5, 1, math.Inf(1), math.NaN()}
)

// tsValue draws a timestamp that a column of precision p can hold.
func tsValue(r *rand.Rand, p int) data.Timestamp {
	ts := data.Timestamp{Millis: int64(r.IntN(5) - 2)}
	switch {
	case p > 6:
		ts.NanoOfMilli = []int32{0, 1, 1000, 500_000, 999_999}[r.IntN(5)]
	case p > 3:
		ts.NanoOfMilli = int32(r.IntN(3)) * 1000
	}
	return ts
}

// randCell draws a small-domain value of t (so equalities happen), or nil.
func randCell(r *rand.Rand, t schema.DataType) any {
	if t.Nullable && r.IntN(6) == 0 {
		return nil
	}
	switch t.Root {
	case schema.Boolean:
		return r.IntN(2) == 0
	case schema.TinyInt:
		return int8(r.IntN(7) - 3)
	case schema.SmallInt:
		return int16(r.IntN(7) - 3)
	case schema.Int:
		return int32(r.IntN(7) - 3)
	case schema.BigInt:
		return int64(r.IntN(7) - 3)
	case schema.Float:
		return float32(floatDomain[r.IntN(len(floatDomain))])
	case schema.Double:
		return floatDomain[r.IntN(len(floatDomain))]
	case schema.Decimal:
		if t.Precision > 18 {
			return data.Decimal{Unscaled: new(big.Int).Set(bigUnscaled[r.IntN(len(bigUnscaled))]), Precision: t.Precision, Scale: t.Scale}
		}
		return data.NewDecimalFromInt64(int64(r.IntN(9)-4)*25, t.Precision, t.Scale)
	case schema.Char, schema.VarChar:
		return strDomain[r.IntN(len(strDomain))]
	case schema.Binary, schema.VarBinary:
		return append([]byte{}, bytesDomain[r.IntN(len(bytesDomain))]...)
	case schema.Date:
		return int32(r.IntN(7) - 3)
	case schema.Time:
		return int32(r.IntN(5))
	case schema.Timestamp, schema.TimestampLTZ:
		return tsValue(r, t.Precision)
	case schema.Array:
		out := make([]any, r.IntN(3))
		for i := range out {
			out[i] = randCell(r, *t.Element)
		}
		return out
	case schema.Map:
		m := data.Map{}
		for i := r.IntN(3); i > 0; i-- {
			m.Keys = append(m.Keys, randCell(r, *t.Key))
			m.Values = append(m.Values, randCell(r, *t.Value))
		}
		return m
	case schema.Row:
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			out[i] = randCell(r, f.Type)
		}
		return out
	}
	panic("no generator for " + t.Root.String())
}

// randLiteral draws a literal for a predicate on t, in a form Bind accepts:
// mostly from the column domain, sometimes between or beyond its values.
func randLiteral(r *rand.Rand, t schema.DataType) any {
	if r.IntN(15) == 0 {
		return nil
	}
	switch t.Root {
	case schema.Timestamp, schema.TimestampLTZ:
		switch r.IntN(6) {
		case 0: // finer than the column's unit
			return data.Timestamp{Millis: int64(r.IntN(5) - 2), NanoOfMilli: []int32{1, 999, 1000, 999_999}[r.IntN(4)]}
		case 1: // beyond the int64 range of a nanosecond column
			return data.Timestamp{Millis: []int64{math.MaxInt64 / 1000, math.MinInt64 / 1000, 1 << 50, -(1 << 50)}[r.IntN(4)]}
		}
		return tsValue(r, 9)
	case schema.Decimal:
		d := randCell(r, t.Copy(false)).(data.Decimal)
		if r.IntN(3) == 0 {
			return d.String() // decimal literals may be strings
		}
		return d
	}
	return randCell(r, t.Copy(false))
}

// buildBatch builds an Arrow batch of fields from rows of data values.
func buildBatch(t testing.TB, mem memory.Allocator, fields []schema.DataField, rows [][]any) arrow.RecordBatch {
	t.Helper()
	sc, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for _, row := range rows {
		for c := range fields {
			appendCell(t, b.Field(c), row[c])
		}
	}
	return b.NewRecordBatch()
}

func appendCell(t testing.TB, b array.Builder, v any) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		bb.Append(v.(bool))
	case *array.Int8Builder:
		bb.Append(v.(int8))
	case *array.Int16Builder:
		bb.Append(v.(int16))
	case *array.Int32Builder:
		bb.Append(v.(int32))
	case *array.Int64Builder:
		bb.Append(v.(int64))
	case *array.Float32Builder:
		bb.Append(v.(float32))
	case *array.Float64Builder:
		bb.Append(v.(float64))
	case *array.Decimal128Builder:
		bb.Append(decimal128.FromBigInt(v.(data.Decimal).Unscaled))
	case *array.StringBuilder:
		bb.Append(v.(string))
	case *array.BinaryBuilder:
		bb.Append(v.([]byte))
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v.(int32)))
	case *array.Time32Builder:
		bb.Append(arrow.Time32(v.(int32)))
	case *array.TimestampBuilder:
		ts := v.(data.Timestamp)
		switch bb.Type().(*arrow.TimestampType).Unit {
		case arrow.Millisecond:
			bb.Append(arrow.Timestamp(ts.Millis))
		case arrow.Microsecond:
			bb.Append(arrow.Timestamp(ts.Micros()))
		default:
			bb.Append(arrow.Timestamp(ts.Nanos()))
		}
	case *array.MapBuilder:
		m := v.(data.Map)
		bb.Append(true)
		for i := range m.Keys {
			appendCell(t, bb.KeyBuilder(), m.Keys[i])
			appendCell(t, bb.ItemBuilder(), m.Values[i])
		}
	case *array.ListBuilder:
		bb.Append(true)
		for _, e := range v.([]any) {
			appendCell(t, bb.ValueBuilder(), e)
		}
	case *array.StructBuilder:
		bb.Append(true)
		for i, e := range v.([]any) {
			appendCell(t, bb.FieldBuilder(i), e)
		}
	default:
		t.Fatalf("no appender for %T", b)
	}
}

// rowOf reads row i of rec back into data values, the reference input of
// Test.
func rowOf(t testing.TB, rec arrow.RecordBatch, fields []schema.DataField, i int) []any {
	out := make([]any, len(fields))
	for c, f := range fields {
		v, err := parquet.ArrowValue(rec.Column(c), i, f.Type)
		if err != nil {
			t.Fatalf("column %d row %d: %v", c, i, err)
		}
		out[c] = v
	}
	return out
}

// sameValue compares data values exactly, NaN equal to itself.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case data.Decimal:
		y, ok := b.(data.Decimal)
		return ok && x.Scale == y.Scale && x.Cmp(y) == 0
	case []byte:
		y, ok := b.([]byte)
		return ok && string(x) == string(y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case data.Map:
		y, ok := b.(data.Map)
		return ok && sameValue(x.Keys, y.Keys) && sameValue(x.Values, y.Values)
	}
	return a == b
}

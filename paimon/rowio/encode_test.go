package rowio

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

func TestEncodeValue(t *testing.T) {
	mapType := schema.MapType(schema.StringType().NotNull(), schema.IntType())
	rowType := schema.RowType(schema.NewField(1, "z", schema.IntType()), schema.NewField(2, "a", schema.DoubleType()))
	m := data.Map{Keys: []any{"b", "a"}, Values: []any{int32(2), nil}}
	tests := []struct {
		name      string
		typ       schema.DataType
		value     any
		canon     string // JSON of the canonStyle value
		text      string // cellText
		textIsNil bool
	}{
		{"null", schema.IntType(), nil, "null", "", true},
		{"int", schema.IntType(), int32(-7), "-7", "-7", false},
		{"double", schema.DoubleType(), 1.5, `"f64:3ff8000000000000"`, "1.5", false},
		{"float nan", schema.FloatType(), float32(math.NaN()), `"f32:nan"`, "NaN", false},
		{"double -inf", schema.DoubleType(), math.Inf(-1), `"f64:fff0000000000000"`, "-Infinity", false},
		{"double -0", schema.DoubleType(), math.Copysign(0, -1), `"f64:8000000000000000"`, "-0", false},
		{"decimal", schema.DecimalType(5, 2), data.Decimal{Unscaled: big.NewInt(-50), Precision: 5, Scale: 2}, `"-0.50"`, "-0.50", false},
		{"binary", schema.BytesType(), []byte{0xca, 0xfe}, `"cafe"`, "cafe", false},
		{"string with html", schema.StringType(), "<a&b>", `"<a&b>"`, "<a&b>", false},
		{"date", schema.DateType(), int32(19782), `"2024-02-29"`, "2024-02-29", false},
		{"timestamp ltz", schema.TimestampLTZType(9), data.Timestamp{Millis: 0, NanoOfMilli: 1}, `"1970-01-01T00:00:00.000000001Z"`, "1970-01-01T00:00:00.000000001Z", false},
		{"timestamp(3)", schema.TimestampType(3), data.Timestamp{Millis: 1709210096789}, `"2024-02-29T12:34:56.789000000"`, "2024-02-29T12:34:56.789", false},
		{"timestamp(0)", schema.TimestampType(0), data.Timestamp{Millis: 1709210096000}, `"2024-02-29T12:34:56.000000000"`, "2024-02-29T12:34:56", false},
		{"timestamp(0) holding millis", schema.TimestampType(0), data.Timestamp{Millis: 1709210096500}, `"2024-02-29T12:34:56.500000000"`, "2024-02-29T12:34:56.500", false},
		{"timestamp(6)", schema.TimestampType(6), data.Timestamp{Millis: 1709210096001, NanoOfMilli: 2000}, `"2024-02-29T12:34:56.001002000"`, "2024-02-29T12:34:56.001002", false},
		{"timestamp ltz(3)", schema.TimestampLTZType(3), data.Timestamp{Millis: 1709210096789}, `"2024-02-29T12:34:56.789000000Z"`, "2024-02-29T12:34:56.789Z", false},
		{"time(0)", schema.TimeType(0), int32(45296000), `"12:34:56.000"`, "12:34:56", false},
		{"time(3)", schema.TimeType(3), int32(45296007), `"12:34:56.007"`, "12:34:56.007", false},
		{"map sorted in canon only", mapType, m, `[["a",null],["b",2]]`, `[["b",2],["a",null]]`, false},
		{"row keeps field order", rowType, []any{int32(1), 0.5}, `{"z":1,"a":"f64:3fe0000000000000"}`, `{"z":1,"a":0.5}`, false},
		{"array of double", schema.ArrayType(schema.DoubleType()), []any{2.0, nil}, `["f64:4000000000000000",null]`, `[2,null]`, false},
		{"multiset", schema.MultisetType(schema.StringType()), data.Map{Keys: []any{"x"}, Values: []any{int32(3)}}, `[["x",3]]`, `[["x",3]]`, false},
		// {"a":[1,"x"]}: an object of one key, an array of an int8 and a short string.
		{"variant", schema.VariantType(), data.Variant{Value: []byte{0x02, 1, 0, 0, 8, 0x03, 2, 0, 2, 4, 0x0c, 1, 0x05, 'x'}, Metadata: []byte{0x01, 1, 0, 1, 'a'}},
			`"{\"a\":[1,\"x\"]}"`, `{"value":"020100000803020002040c010578","metadata":"0101000161"}`, false},
		{"blob", schema.BlobType(), []byte{0}, `"00"`, "00", false},
		{"vector", schema.VectorType(2, schema.FloatType()), []any{float32(1), float32(0.5)}, `["f32:3f800000","f32:3f000000"]`, `[1,0.5]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := EncodeJSON(tt.typ, tt.value, Canon)
			require.NoError(t, err)
			b, err := MarshalJSON(v)
			require.NoError(t, err)
			require.Equal(t, tt.canon, string(b))

			s, ok, err := CellText(tt.typ, tt.value)
			require.NoError(t, err)
			require.Equal(t, !tt.textIsNil, ok)
			require.Equal(t, tt.text, s)
			if ok && !tt.typ.IsNested() && tt.typ.Root != schema.Variant && !strings.Contains(tt.name, "holding") {
				back, err := ParseText(tt.typ, s) // Text is lossless
				require.NoError(t, err)
				require.Equal(t, fmt.Sprint(tt.value), fmt.Sprint(back))
			}
		})
	}
}

func TestEncodeValueMismatch(t *testing.T) {
	for _, st := range []Style{Canon, Text} {
		_, err := EncodeJSON(schema.IntType(), "x", st)
		require.ErrorIs(t, err, ErrValue)
		_, err = EncodeJSON(schema.ArrayType(schema.IntType()), "x", st)
		require.ErrorIs(t, err, ErrValue)
		_, err = EncodeJSON(schema.MapType(schema.IntType(), schema.IntType()), []any{1}, st)
		require.ErrorIs(t, err, ErrValue)
	}
}

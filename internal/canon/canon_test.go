package canon_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
)

func typ(root schema.TypeRoot) schema.DataType { return schema.DataType{Root: root, Nullable: true} }

func TestEncodeDecodeValue(t *testing.T) {
	intT := typ(schema.Int)
	strT := typ(schema.VarChar)
	bigDec, _ := new(big.Int).SetString("-12345678901234567890123456789012345678", 10)
	tests := []struct {
		name string
		t    schema.DataType
		v    any
		want string // canonical JSON of the encoded value
	}{
		{"null", intT, nil, `null`},
		{"bool", typ(schema.Boolean), true, `true`},
		{"tinyint", typ(schema.TinyInt), int8(-128), `-128`},
		{"smallint", typ(schema.SmallInt), int16(32767), `32767`},
		{"int", intT, int32(-7), `-7`},
		{"bigint exact", typ(schema.BigInt), int64(math.MaxInt64), `9223372036854775807`},
		{"float", typ(schema.Float), float32(1.5), `"f32:3fc00000"`},
		{"float -0", typ(schema.Float), float32(math.Copysign(0, -1)), `"f32:80000000"`},
		{"double", typ(schema.Double), 0.1, `"f64:3fb999999999999a"`},
		{"decimal", schema.DataType{Root: schema.Decimal, Precision: 10, Scale: 2}, data.NewDecimalFromInt64(-50, 10, 2), `"-0.50"`},
		{"decimal scale 0", schema.DataType{Root: schema.Decimal, Precision: 5, Scale: 0}, data.NewDecimalFromInt64(12, 5, 0), `"12"`},
		{"decimal 38", schema.DataType{Root: schema.Decimal, Precision: 38, Scale: 10}, data.Decimal{Unscaled: bigDec, Precision: 38, Scale: 10}, `"-1234567890123456789012345678.9012345678"`},
		{"string", strT, "héllo \"x\" <&>", `"héllo \"x\" <&>"`},
		{"binary", typ(schema.VarBinary), []byte{0, 0xab}, `"00ab"`},
		{"binary empty", typ(schema.VarBinary), []byte{}, `""`},
		{"date", typ(schema.Date), int32(19857), `"2024-05-14"`},
		{"date negative", typ(schema.Date), int32(-1), `"1969-12-31"`},
		{"date far future", typ(schema.Date), int32(2_932_896), `"9999-12-31"`},
		{"date far past", typ(schema.Date), int32(-719_162), `"0001-01-01"`},
		{"time", typ(schema.Time), int32(3_723_004), `"01:02:03.004"`},
		{"timestamp", schema.DataType{Root: schema.Timestamp, Precision: 9}, data.Timestamp{Millis: 1715680800123, NanoOfMilli: 456789}, `"2024-05-14T10:00:00.123456789"`},
		{"timestamp negative", schema.DataType{Root: schema.Timestamp, Precision: 3}, data.Timestamp{Millis: -1}, `"1969-12-31T23:59:59.999000000"`},
		{"timestamp ltz", schema.DataType{Root: schema.TimestampLTZ, Precision: 6}, data.Timestamp{Millis: 0, NanoOfMilli: 1000}, `"1970-01-01T00:00:00.000001000Z"`},
		{"array", schema.DataType{Root: schema.Array, Element: &intT}, []any{int32(1), nil}, `[1,null]`},
		{"map sorted by key", schema.DataType{Root: schema.Map, Key: &strT, Value: &intT}, data.Map{Keys: []any{"b", "a"}, Values: []any{int32(2), int32(1)}}, `[["a",1],["b",2]]`},
		{"multiset", schema.DataType{Root: schema.Multiset, Element: &strT}, data.Map{Keys: []any{"x"}, Values: []any{int32(3)}}, `[["x",3]]`},
		{"row", schema.DataType{Root: schema.Row, Fields: []schema.DataField{{ID: 1, Name: "x", Type: intT}, {ID: 2, Name: "y", Type: strT}}}, []any{int32(1), nil}, `{"x":1,"y":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc, err := canon.EncodeValue(tt.t, tt.v)
			require.NoError(t, err)
			b, err := json.Marshal(enc)
			require.NoError(t, err)
			got, err := canon.Canonicalize(b)
			require.NoError(t, err)
			want, err := canon.Canonicalize([]byte(tt.want))
			require.NoError(t, err)
			require.Equal(t, want, got)

			// Decoding the canonical form and encoding again is the identity.
			dec := json.NewDecoder(strings.NewReader(got))
			dec.UseNumber()
			var j any
			require.NoError(t, dec.Decode(&j))
			back, err := canon.DecodeValue(tt.t, j)
			require.NoError(t, err)
			enc2, err := canon.EncodeValue(tt.t, back)
			require.NoError(t, err)
			b2, err := json.Marshal(enc2)
			require.NoError(t, err)
			got2, err := canon.Canonicalize(b2)
			require.NoError(t, err)
			require.Equal(t, got, got2)
		})
	}
}

func TestNaNCollapses(t *testing.T) {
	v, err := canon.EncodeValue(typ(schema.Double), math.Float64frombits(0x7ff8000000000001))
	require.NoError(t, err)
	require.Equal(t, "f64:nan", v)
}

func TestDecodeRejectsMismatches(t *testing.T) {
	for _, tc := range []struct {
		t schema.DataType
		j any
	}{
		{typ(schema.Int), "1"},
		{typ(schema.TinyInt), json.Number("300")},
		{typ(schema.Float), "f32:zz"},
		{schema.DataType{Root: schema.Decimal, Precision: 5, Scale: 1}, "1.25"},
		{typ(schema.Date), "2024-13-01"},
		{schema.DataType{Root: schema.TimestampLTZ, Precision: 3}, "2024-01-01T00:00:00.000"},
		{typ(schema.VarBinary), "xyz"},
	} {
		_, err := canon.DecodeValue(tc.t, tc.j)
		require.ErrorIs(t, err, canon.ErrValue, "%v %v", tc.t.Root, tc.j)
	}
}

func TestCompare(t *testing.T) {
	a, err := canon.ReadLines(strings.NewReader("{\"b\":1,\"a\":\"x\"}\n{\"a\":\"y\",\"b\":2}\n"))
	require.NoError(t, err)
	b, err := canon.ReadLines(strings.NewReader("{\"a\":\"y\",\"b\":2}\n\n{\"a\":\"x\",\"b\":1}\n"))
	require.NoError(t, err)
	require.Empty(t, canon.Compare(a, b))
	c, err := canon.ReadLines(strings.NewReader("{\"a\":\"y\",\"b\":2}\n{\"a\":\"y\",\"b\":2}\n"))
	require.NoError(t, err)
	diff := canon.Compare(a, c)
	require.Contains(t, diff, "1 missing, 1 unexpected")
}

func TestRowRoundTrip(t *testing.T) {
	fields := []schema.DataField{{ID: 0, Name: "id", Type: typ(schema.BigInt)}, {ID: 1, Name: "s", Type: typ(schema.VarChar)}}
	line, err := canon.EncodeRow(fields, []any{int64(1), "a"})
	require.NoError(t, err)
	vals, err := canon.DecodeRow(fields, line)
	require.NoError(t, err)
	require.Equal(t, []any{int64(1), "a"}, vals)
}

package binaryrow_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// allScalarTypes lists one type per scalar root, with a sample value.
func allScalarTypes() ([]schema.DataType, []any) {
	return types(
			tOf(schema.Boolean), tOf(schema.TinyInt), tOf(schema.SmallInt), tInt(), tBigInt(),
			tOf(schema.Float), tOf(schema.Double), tDecimal(10, 2), tDecimal(38, 10),
			schema.DataType{Root: schema.Char, Length: 3}, tString(),
			schema.DataType{Root: schema.Binary, Length: 2}, tBytes(),
			tOf(schema.Date), tOf(schema.Time), tTimestamp(3), tTimestamp(9), tLTZ(0), tLTZ(6),
			tOf(schema.Variant), tOf(schema.Blob),
		), vals(
			true, int8(-7), int16(-300), int32(-70000), int64(-1)<<40,
			float32(1.5), -2.25, dec("-12345", 10, 2), dec("-12345678901234567890123456789", 38, 10),
			"abc", "a longer string value", []byte{1, 2}, []byte("eight by"),
			int32(19000), int32(86399999), data.Timestamp{Millis: 1700000000123},
			data.Timestamp{Millis: -1, NanoOfMilli: 999999}, data.Timestamp{Millis: 5}, data.Timestamp{Millis: 6, NanoOfMilli: 1000},
			data.Variant{Value: []byte{0x0c, 0x01}, Metadata: []byte{0x01, 0x00, 0x00}}, []byte("blob bytes here"),
		)
}

func roundTrip(t *testing.T, kind data.RowKind, ts []schema.DataType, vs []any) []byte {
	t.Helper()
	row, err := binaryrow.Encode(kind, ts, vs)
	require.NoError(t, err)
	require.Zero(t, len(row)%8, "row size must be a multiple of 8")
	gotKind, got, err := binaryrow.Decode(row, ts)
	require.NoError(t, err)
	require.Equal(t, kind, gotKind)
	requireSameValues(t, vs, got)

	// The serialized form round-trips too.
	r, err := binaryrow.ParseSerialized(binaryrow.MarshalSerialized(row, len(ts)))
	require.NoError(t, err)
	require.Equal(t, row, r.Bytes())

	// A reused Writer gives the same bytes.
	var w binaryrow.Writer
	for range 2 {
		b, err := w.Encode(kind, ts, vs)
		require.NoError(t, err)
		require.Equal(t, row, b)
	}
	return row
}

func TestRoundTripScalars(t *testing.T) {
	ts, vs := allScalarTypes()
	for i := range ts {
		t.Run(binaryrowRootName(ts[i]), func(t *testing.T) {
			roundTrip(t, data.Insert, ts[i:i+1], vs[i:i+1])
			// NULL of every type.
			roundTrip(t, data.Insert, ts[i:i+1], vals(nil))
			// Inside a wider row, surrounded by other fields.
			roundTrip(t, data.UpdateAfter, types(tString(), ts[i], tInt()), vals("0123456789", vs[i], int32(3)))
		})
	}
	t.Run("all", func(t *testing.T) {
		for _, k := range []data.RowKind{data.Insert, data.UpdateBefore, data.UpdateAfter, data.Delete} {
			roundTrip(t, k, ts, vs)
		}
		roundTrip(t, data.Insert, ts, make([]any, len(ts)))
	})
}

func binaryrowRootName(t schema.DataType) string {
	names := map[schema.TypeRoot]string{
		schema.Boolean: "BOOLEAN", schema.TinyInt: "TINYINT", schema.SmallInt: "SMALLINT", schema.Int: "INT",
		schema.BigInt: "BIGINT", schema.Float: "FLOAT", schema.Double: "DOUBLE", schema.Decimal: "DECIMAL",
		schema.Char: "CHAR", schema.VarChar: "VARCHAR", schema.Binary: "BINARY", schema.VarBinary: "VARBINARY",
		schema.Date: "DATE", schema.Time: "TIME", schema.Timestamp: "TIMESTAMP", schema.TimestampLTZ: "LTZ",
		schema.Array: "ARRAY", schema.Multiset: "MULTISET", schema.Map: "MAP", schema.Row: "ROW",
		schema.Variant: "VARIANT", schema.Blob: "BLOB", schema.Vector: "VECTOR",
	}
	return names[t.Root]
}

func TestRoundTripBoundaries(t *testing.T) {
	tests := []struct {
		name string
		typ  schema.DataType
		v    any
		row  string // "" = not checked
	}{
		{"empty string", tString(), "", "0000000000000000 0000000000000080"},
		{"empty binary", tBytes(), []byte{}, "0000000000000000 0000000000000080"},
		{"7-byte string inline", tString(), "abcdefg", "0000000000000000 6162636465666787"},
		{"8-byte string var", tString(), "abcdefgh", "0000000000000000 0800000010000000 6162636465666768"},
		{"9-byte string padded", tString(), "abcdefghi", "0000000000000000 0900000010000000 6162636465666768 6900000000000000"},
		{"7-byte binary inline", tBytes(), []byte{1, 2, 3, 4, 5, 6, 7}, "0000000000000000 0102030405060787"},
		{"8-byte binary var", tBytes(), []byte{1, 2, 3, 4, 5, 6, 7, 8}, "0000000000000000 0800000010000000 0102030405060708"},
		{"utf8 string", tString(), "héllo wörld ✓", ""},
		{"TINYINT -1", tOf(schema.TinyInt), int8(-1), "0000000000000000 ff00000000000000"},
		{"SMALLINT -2", tOf(schema.SmallInt), int16(-2), "0000000000000000 feff000000000000"},
		{"BOOLEAN true", tOf(schema.Boolean), true, "0000000000000000 0100000000000000"},
		{"DOUBLE 1.0", tOf(schema.Double), 1.0, "0000000000000000 000000000000f03f"},
		{"FLOAT NaN raw bits kept", tOf(schema.Float), math.Float32frombits(0x7fc00001), "0000000000000000 0100c07f00000000"},
		{"DECIMAL(18,0) max", tDecimal(18, 0), dec("999999999999999999", 18, 0), ""},
		{"DECIMAL(18,0) min", tDecimal(18, 0), dec("-999999999999999999", 18, 0), ""},
		{"DECIMAL(10,2) -0.01", tDecimal(10, 2), dec("-1", 10, 2), "0000000000000000 ffffffffffffffff"},
		{"DECIMAL(38,0) zero", tDecimal(38, 0), dec("0", 38, 0), "0000000000000000 0100000010000000 00000000000000000000000000000000"},
		{"DECIMAL(38,0) 128", tDecimal(38, 0), dec("128", 38, 0), "0000000000000000 0200000010000000 00800000000000000000000000000000"},
		{"DECIMAL(38,0) -128", tDecimal(38, 0), dec("-128", 38, 0), "0000000000000000 0100000010000000 80000000000000000000000000000000"},
		{"DECIMAL(38,0) -129", tDecimal(38, 0), dec("-129", 38, 0), "0000000000000000 0200000010000000 ff7f0000000000000000000000000000"},
		{"DECIMAL(38,2) max", tDecimal(38, 2), dec(strings.Repeat("9", 38), 38, 2), ""},
		{"DECIMAL(38,2) min", tDecimal(38, 2), dec("-"+strings.Repeat("9", 38), 38, 2), ""},
		{"DECIMAL(19,4) negative", tDecimal(19, 4), dec("-1234567890123456789", 19, 4), ""},
		{"TIMESTAMP(9) negative millis", tTimestamp(9), data.Timestamp{Millis: -86400001, NanoOfMilli: 123456}, ""},
		{
			"TIMESTAMP(6) layout", tTimestamp(6), data.Timestamp{Millis: 1, NanoOfMilli: 2000},
			"0000000000000000 d007000010000000 0100000000000000",
		},
		{"TIMESTAMP(3) negative", tTimestamp(3), data.Timestamp{Millis: -5}, "0000000000000000 fbffffffffffffff"},
		{"TIME max", tOf(schema.Time), int32(86399999), ""},
		{"DATE negative", tOf(schema.Date), int32(-719162), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := roundTrip(t, data.Insert, types(tt.typ), vals(tt.v))
			if tt.row != "" {
				require.Equal(t, unhex(t, tt.row), row)
			}
		})
	}
}

func TestCompactTimestampDropsNanos(t *testing.T) {
	row, err := binaryrow.Encode(data.Insert, types(tTimestamp(3)), vals(data.Timestamp{Millis: 7, NanoOfMilli: 500}))
	require.NoError(t, err)
	_, got, err := binaryrow.Decode(row, types(tTimestamp(3)))
	require.NoError(t, err)
	require.Equal(t, vals(data.Timestamp{Millis: 7}), got)
}

func TestRoundTripNested(t *testing.T) {
	inner := tRow(tInt(), tString(), tDecimal(38, 4), tTimestamp(9))
	tests := []struct {
		name string
		typ  schema.DataType
		v    any
	}{
		{"ARRAY<INT>", tArray(tInt()), vals(int32(1), nil, int32(-3))},
		{"ARRAY<INT> empty", tArray(tInt()), vals()},
		{"ARRAY<BOOLEAN>", tArray(tOf(schema.Boolean)), vals(true, false, nil, true)},
		{"ARRAY<TINYINT>", tArray(tOf(schema.TinyInt)), vals(int8(1), int8(-1))},
		{"ARRAY<SMALLINT>", tArray(tOf(schema.SmallInt)), vals(int16(1), nil, int16(-1))},
		{"ARRAY<BIGINT>", tArray(tBigInt()), vals(int64(1), nil)},
		{"ARRAY<FLOAT>", tArray(tOf(schema.Float)), vals(float32(1.5), nil)},
		{"ARRAY<DOUBLE>", tArray(tOf(schema.Double)), vals(2.5)},
		{"ARRAY<STRING>", tArray(tString()), vals("a", nil, "", "longer than seven", "1234567")},
		{"ARRAY<BYTES>", tArray(tBytes()), vals([]byte{1}, []byte("0123456789"))},
		{"ARRAY<DECIMAL(38,2)>", tArray(tDecimal(38, 2)), vals(dec("-1", 38, 2), nil, dec("123456789012345678901234567890", 38, 2))},
		{"ARRAY<DECIMAL(9,2)>", tArray(tDecimal(9, 2)), vals(dec("-1", 9, 2), nil)},
		{"ARRAY<TIMESTAMP(9)>", tArray(tTimestamp(9)), vals(data.Timestamp{Millis: -1, NanoOfMilli: 1}, nil)},
		{"ARRAY<TIMESTAMP(3)>", tArray(tTimestamp(3)), vals(data.Timestamp{Millis: 3}, nil)},
		{"ARRAY<DATE>", tArray(tOf(schema.Date)), vals(int32(1), nil)},
		{"ARRAY<VARIANT>", tArray(tOf(schema.Variant)), vals(data.Variant{Value: []byte{0}, Metadata: []byte{1, 0, 0}}, nil)},
		{"ARRAY<ARRAY<STRING>>", tArray(tArray(tString())), vals(vals("x", "yyyyyyyyyy"), nil, vals())},
		{"ARRAY<ROW>", tArray(inner), vals(vals(int32(1), "s", nil, nil), nil)},
		{"ARRAY of 40 INTs", tArray(tInt()), func() []any {
			out := make([]any, 40)
			for i := range out {
				if i%3 != 0 {
					out[i] = int32(i)
				}
			}
			return out
		}()},
		{"MAP<STRING,INT>", tMap(tString(), tInt()), data.Map{Keys: vals("a", "bbbbbbbbbb"), Values: vals(int32(1), nil)}},
		{"MAP empty", tMap(tString(), tInt()), data.Map{Keys: vals(), Values: vals()}},
		{"MAP<INT,ARRAY<DECIMAL(20,1)>>", tMap(tInt(), tArray(tDecimal(20, 1))), data.Map{
			Keys: vals(int32(7)), Values: vals(vals(dec("-5", 20, 1), nil)),
		}},
		{"MULTISET<STRING>", tMultiset(tString()), data.Map{Keys: vals("x", "yyyyyyyyy"), Values: vals(int32(2), int32(1))}},
		{"ROW", inner, vals(int32(5), "nested string!", dec("-99", 38, 4), data.Timestamp{Millis: 9, NanoOfMilli: 9})},
		{"ROW all null (trap inside)", inner, vals(nil, nil, nil, nil)},
		{"ROW<ROW<ARRAY>>", tRow(tRow(tArray(tString()))), vals(vals(vals("deep", nil)))},
		{"ROW empty", tRow(), vals()},
		{"VECTOR<FLOAT>", tVector(tOf(schema.Float), 3), vals(float32(1), float32(2), float32(-3.5))},
		{"VECTOR<BIGINT>", tVector(tBigInt(), 1), vals(int64(-9))},
		{"VECTOR<TINYINT>", tVector(tOf(schema.TinyInt), 5), vals(int8(1), int8(2), int8(3), int8(4), int8(5))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			roundTrip(t, data.Insert, types(tt.typ), vals(tt.v))
			roundTrip(t, data.Insert, types(tInt(), tt.typ, tString(), tt.typ), vals(int32(1), tt.v, "after the nested value", nil))
		})
	}
}

// TestNestedLayout pins the nested byte layouts against hand-derived Java
// bytes (BinaryArrayWriter, BinaryMap.valueOf, nested BinaryRow).
func TestNestedLayout(t *testing.T) {
	tests := []struct {
		name string
		typ  schema.DataType
		v    any
		want string
	}{
		{
			// array: count 2, null bits (4 bytes; element 1 null), two 4-byte
			// ints, fixed part 16 bytes.
			"ARRAY<INT>", tArray(tInt()), vals(int32(7), nil),
			"0000000000000000 1000000010000000 02000000 02000000 07000000 00000000",
		},
		{
			// array of one inline string: 8 + 8 = 16 bytes.
			"ARRAY<STRING>", tArray(tString()), vals("hi"),
			"0000000000000000 1000000010000000 01000000 00000000 6869000000000082",
		},
		{
			// map: key array size 16, key array (one INT 1), value array
			// (one inline string "v"); 36 bytes, padded to 40.
			"MAP<INT,STRING>", tMap(tInt(), tString()), data.Map{Keys: vals(int32(1)), Values: vals("v")},
			"0000000000000000 2400000010000000 10000000 01000000 00000000 01000000 00000000 01000000 00000000 7600000000000081 00000000",
		},
		{
			// nested row (INT 3): 16 bytes.
			"ROW<INT>", tRow(tInt()), vals(int32(3)),
			"0000000000000000 1000000010000000 0000000000000000 0300000000000000",
		},
		{
			// variant: int32 len 2 + value 2 + metadata 3 = 9 bytes, padded to 16.
			"VARIANT", tOf(schema.Variant), data.Variant{Value: []byte{0xaa, 0xbb}, Metadata: []byte{1, 2, 3}},
			"0000000000000000 0900000010000000 02000000 aabb 010203 00000000000000",
		},
		{
			// vector: int32 count + 2 floats = 12 bytes, padded to 16.
			"VECTOR<FLOAT>", tVector(tOf(schema.Float), 2), vals(float32(1), float32(2)),
			"0000000000000000 0c00000010000000 02000000 0000803f 00000040 00000000",
		},
		{
			// array of non-compact decimal: NULL elements do not reserve.
			"ARRAY<DECIMAL(20,0)>", tArray(tDecimal(20, 0)), vals(nil, dec("1", 20, 0)),
			"0000000000000000 2800000010000000 02000000 01000000 0000000000000000 0100000018000000 01000000000000000000000000000000",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row, err := binaryrow.Encode(data.Insert, types(tt.typ), vals(tt.v))
			require.NoError(t, err)
			require.Equal(t, unhex(t, tt.want), row)
		})
	}
}

func TestArrayNaNCanonicalized(t *testing.T) {
	odd32 := math.Float32frombits(0x7fc00001)
	odd64 := math.Float64frombits(0x7ff8000000000001)
	row, err := binaryrow.Encode(data.Insert, types(tArray(tOf(schema.Float)), tArray(tOf(schema.Double))),
		vals(vals(odd32), vals(odd64)))
	require.NoError(t, err)
	_, got, err := binaryrow.Decode(row, types(tArray(tOf(schema.Float)), tArray(tOf(schema.Double))))
	require.NoError(t, err)
	require.Equal(t, uint32(0x7fc00000), math.Float32bits(got[0].([]any)[0].(float32)))
	require.Equal(t, uint64(0x7ff8000000000000), math.Float64bits(got[1].([]any)[0].(float64)))
}

func TestTypedGetters(t *testing.T) {
	ts, vs := allScalarTypes()
	ts = append(ts, tArray(tInt()), tMap(tString(), tInt()), tRow(tInt(), tString()))
	vs = append(vs, vals(int32(1), nil), data.Map{Keys: vals("k"), Values: vals(int32(2))}, vals(int32(3), "x"))
	row, err := binaryrow.Encode(data.Delete, ts, vs)
	require.NoError(t, err)
	r, err := binaryrow.NewRow(row, len(ts))
	require.NoError(t, err)
	require.Equal(t, data.Delete, r.Kind())
	require.False(t, r.AnyNull())
	require.True(t, r.Boolean(0))
	require.Equal(t, int8(-7), r.Byte(1))
	require.Equal(t, int16(-300), r.Short(2))
	require.Equal(t, int32(-70000), r.Int(3))
	require.Equal(t, int64(-1)<<40, r.Long(4))
	require.Equal(t, float32(1.5), r.Float(5))
	require.Equal(t, -2.25, r.Double(6))
	d, err := r.Decimal(8, 38, 10)
	require.NoError(t, err)
	require.Equal(t, "-1234567890123456789.0123456789", d.String())
	s, err := r.String(10)
	require.NoError(t, err)
	require.Equal(t, "a longer string value", s)
	b, err := r.Binary(11)
	require.NoError(t, err)
	require.Equal(t, []byte{1, 2}, b)
	ts9, err := r.Timestamp(16, 9)
	require.NoError(t, err)
	require.Equal(t, data.Timestamp{Millis: -1, NanoOfMilli: 999999}, ts9)
	v, err := r.Variant(19)
	require.NoError(t, err)
	require.Equal(t, vs[19], v)

	a, err := r.Array(21)
	require.NoError(t, err)
	require.Equal(t, 2, a.Len())
	require.True(t, a.IsNullAt(1))
	e0, err := a.Value(0, &ts[3])
	require.NoError(t, err)
	require.Equal(t, int32(1), e0)

	m, err := r.Map(22)
	require.NoError(t, err)
	require.Equal(t, 1, m.Len())
	md, err := m.Data(ts[22].Key, ts[22].Value)
	require.NoError(t, err)
	require.Equal(t, vs[22], md)

	nr, err := r.NestedRow(23, 2)
	require.NoError(t, err)
	require.Equal(t, int32(3), nr.Int(0))

	require.Panics(t, func() { r.Int(len(ts)) })
}

func TestEncodeErrors(t *testing.T) {
	tests := []struct {
		name  string
		types []schema.DataType
		vals  []any
		err   error
	}{
		{"wrong Go type", types(tInt()), vals(int64(1)), binaryrow.ErrValue},
		{"arity mismatch", types(tInt()), vals(), binaryrow.ErrValue},
		{"decimal scale mismatch", types(tDecimal(10, 2)), vals(dec("1", 10, 3)), binaryrow.ErrValue},
		{"decimal too many digits", types(tDecimal(3, 0)), vals(dec("1000", 3, 0)), binaryrow.ErrValue},
		{"decimal 39 digits", types(tDecimal(38, 0)), vals(dec(strings.Repeat("9", 39), 38, 0)), binaryrow.ErrValue},
		{"nil decimal", types(tDecimal(10, 0)), vals(data.Decimal{Scale: 0}), binaryrow.ErrValue},
		{"bad nanos", types(tTimestamp(6)), vals(data.Timestamp{NanoOfMilli: 1_000_000}), binaryrow.ErrValue},
		{"negative nanos", types(tTimestamp(6)), vals(data.Timestamp{NanoOfMilli: -1}), binaryrow.ErrValue},
		{"map length mismatch", types(tMap(tInt(), tInt())), vals(data.Map{Keys: vals(int32(1))}), binaryrow.ErrValue},
		{"array without element", types(tOf(schema.Array)), vals(vals()), binaryrow.ErrType},
		{"invalid root", types(tOf(schema.InvalidRoot)), vals(int32(1)), binaryrow.ErrType},
		{"vector length", types(tVector(tOf(schema.Float), 2)), vals([]float32{1}), binaryrow.ErrValue},
		{"vector null element", types(tVector(tOf(schema.Float), 1)), vals(vals(nil)), binaryrow.ErrValue},
		{"vector bad element type", types(tVector(tString(), 1)), vals(vals("x")), binaryrow.ErrType},
		{"nested wrong type", types(tArray(tInt())), vals(vals("x")), binaryrow.ErrValue},
		{"row arity", types(tRow(tInt())), vals(vals()), binaryrow.ErrValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := binaryrow.Encode(data.Insert, tt.types, tt.vals)
			require.ErrorIs(t, err, tt.err)
		})
	}
	_, err := binaryrow.Encode(data.RowKind(9), nil, nil)
	require.ErrorIs(t, err, binaryrow.ErrValue)

	// Append leaves dst unchanged on error.
	dst := []byte{1, 2, 3}
	out, err := binaryrow.Append(dst, data.Insert, types(tInt()), vals("x"))
	require.Error(t, err)
	require.Equal(t, []byte{1, 2, 3}, out)
}

func TestVectorTypedSlices(t *testing.T) {
	tests := []struct {
		elem schema.DataType
		in   any
		want []any
	}{
		{tOf(schema.Boolean), []bool{true, false}, vals(true, false)},
		{tOf(schema.TinyInt), []int8{-1, 2}, vals(int8(-1), int8(2))},
		{tOf(schema.SmallInt), []int16{-1, 2}, vals(int16(-1), int16(2))},
		{tInt(), []int32{-1, 2}, vals(int32(-1), int32(2))},
		{tBigInt(), []int64{-1, 2}, vals(int64(-1), int64(2))},
		{tOf(schema.Float), []float32{-1, 2}, vals(float32(-1), float32(2))},
		{tOf(schema.Double), []float64{-1, 2}, vals(float64(-1), float64(2))},
	}
	for _, tt := range tests {
		t.Run(binaryrowRootName(tt.elem), func(t *testing.T) {
			typ := tVector(tt.elem, 2)
			row, err := binaryrow.Encode(data.Insert, types(typ), vals(tt.in))
			require.NoError(t, err)
			viaAny, err := binaryrow.Encode(data.Insert, types(typ), vals(tt.want))
			require.NoError(t, err)
			require.Equal(t, viaAny, row)
			_, got, err := binaryrow.Decode(row, types(typ))
			require.NoError(t, err)
			require.Equal(t, vals(tt.want), got)
		})
	}
}

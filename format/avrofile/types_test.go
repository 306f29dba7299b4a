package avrofile_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// norm makes values comparable with require.Equal: decimals become their
// text, recursively.
func norm(v any) any {
	switch v := v.(type) {
	case data.Decimal:
		return "dec:" + v.String()
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = norm(e)
		}
		return out
	case data.Map:
		return data.Map{Keys: norm(v.Keys).([]any), Values: norm(v.Values).([]any)}
	}
	return v
}

func ptr(t schema.DataType) *schema.DataType { return &t }

func arrayOf(e schema.DataType) schema.DataType {
	return schema.DataType{Root: schema.Array, Nullable: true, Element: ptr(e)}
}

func mapOf(k, v schema.DataType) schema.DataType {
	return schema.DataType{Root: schema.Map, Nullable: true, Key: ptr(k), Value: ptr(v)}
}

func multisetOf(e schema.DataType) schema.DataType {
	return schema.DataType{Root: schema.Multiset, Nullable: true, Element: ptr(e)}
}

func rowOf(fields ...schema.DataField) schema.DataType {
	return schema.DataType{Root: schema.Row, Nullable: true, Fields: fields}
}

func typ(root schema.TypeRoot) schema.DataType { return schema.DataType{Root: root, Nullable: true} }

func tsType(root schema.TypeRoot, p int) schema.DataType {
	return schema.DataType{Root: root, Nullable: true, Precision: p}
}

func decType(p, s int) schema.DataType {
	return schema.DataType{Root: schema.Decimal, Nullable: true, Precision: p, Scale: s}
}

func dec(unscaled string, p, s int) any {
	n, _ := new(big.Int).SetString(unscaled, 10)
	return norm(data.Decimal{Unscaled: n, Precision: p, Scale: s})
}

// twosComplement is the big-endian two's complement of n in size bytes.
func twosComplement(n string, size int) []byte {
	v, _ := new(big.Int).SetString(n, 10)
	if v.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(size*8)))
	}
	return v.FillBytes(make([]byte, size))
}

// TestTypes writes one column per case, as Java's AvroSchemaConverter (or
// another writer) lays it out, and checks the values read back.
func TestTypes(t *testing.T) {
	vs := schema.StringType()
	tests := []struct {
		name   string
		avro   string // the field's Avro type (JSON)
		typ    schema.DataType
		encode func(e *enc) int // encodes the rows, returns their count
		want   []any
	}{
		{"boolean", `"boolean"`, typ(schema.Boolean).NotNull(),
			func(e *enc) int { e.boolean(true).boolean(false); return 2 },
			[]any{true, false}},
		{"nullable int", `["null","int"]`, typ(schema.Int),
			func(e *enc) int { e.long(1).long(5).long(0).long(1).long(-7); return 3 },
			[]any{int32(5), nil, int32(-7)}},
		{"nullable int, null second", `["int","null"]`, typ(schema.Int),
			func(e *enc) int { e.long(0).long(math.MaxInt32).long(1); return 2 },
			[]any{int32(math.MaxInt32), nil}},
		{"tinyint", `["null","int"]`, typ(schema.TinyInt),
			func(e *enc) int { e.long(1).long(-128).long(1).long(127); return 2 },
			[]any{int8(-128), int8(127)}},
		{"smallint", `"int"`, typ(schema.SmallInt),
			func(e *enc) int { e.long(-32768).long(32767); return 2 },
			[]any{int16(-32768), int16(32767)}},
		{"bigint", `["null","long"]`, typ(schema.BigInt),
			func(e *enc) int { e.long(1).long(math.MinInt64).long(1).long(math.MaxInt64); return 2 },
			[]any{int64(math.MinInt64), int64(math.MaxInt64)}},
		{"bigint from int", `"int"`, typ(schema.BigInt),
			func(e *enc) int { e.long(-3); return 1 },
			[]any{int64(-3)}},
		{"float", `"float"`, typ(schema.Float),
			func(e *enc) int { e.float(1.5).float(float32(math.Inf(-1))); return 2 },
			[]any{float32(1.5), float32(math.Inf(-1))}},
		{"double", `"double"`, typ(schema.Double),
			func(e *enc) int { e.double(-2.25); return 1 },
			[]any{-2.25}},
		{"double from float", `"float"`, typ(schema.Double),
			func(e *enc) int { e.float(0.5); return 1 },
			[]any{0.5}},
		{"double from long", `"long"`, typ(schema.Double),
			func(e *enc) int { e.long(7); return 1 },
			[]any{7.0}},
		{"decimal bytes", `["null",{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}]`, decType(5, 2),
			func(e *enc) int {
				e.long(1).bytes([]byte{0x30, 0x39}) // 12345
				e.long(1).bytes([]byte{0xff})       // -1
				e.long(1).bytes(twosComplement("-99999", 3))
				return 3
			},
			[]any{dec("12345", 5, 2), dec("-1", 5, 2), dec("-99999", 5, 2)}},
		{"decimal 38 digits", `{"type":"bytes","logicalType":"decimal","precision":38,"scale":10}`, decType(38, 10),
			func(e *enc) int {
				e.bytes(twosComplement("99999999999999999999999999999999999999", 16))
				e.bytes(twosComplement("-99999999999999999999999999999999999999", 17)) // sign-extended
				return 2
			},
			[]any{dec("99999999999999999999999999999999999999", 38, 10), dec("-99999999999999999999999999999999999999", 38, 10)}},
		{"decimal fixed", `{"type":"fixed","name":"f","size":9,"logicalType":"decimal","precision":20,"scale":5}`, decType(20, 5),
			func(e *enc) int { e.raw(twosComplement("-12345678901234567890", 9)...); return 1 },
			[]any{dec("-12345678901234567890", 20, 5)}},
		{"varchar", `["null","string"]`, schema.DataType{Root: schema.VarChar, Nullable: true, Length: 10},
			func(e *enc) int { e.long(1).str("héllo").long(1).str("").long(0); return 3 },
			[]any{"héllo", "", nil}},
		{"string from bytes", `"bytes"`, vs,
			func(e *enc) int { e.bytes([]byte("x")); return 1 },
			[]any{"x"}},
		{"varbinary", `["null","bytes"]`, schema.DataType{Root: schema.VarBinary, Nullable: true, Length: 8},
			func(e *enc) int { e.long(1).bytes([]byte{0, 1, 0xff}).long(1).bytes(nil); return 2 },
			[]any{[]byte{0, 1, 0xff}, []byte{}}},
		{"binary from fixed", `{"type":"fixed","name":"b4","size":4}`, schema.DataType{Root: schema.Binary, Nullable: true, Length: 4},
			func(e *enc) int { e.raw(1, 2, 3, 4); return 1 },
			[]any{[]byte{1, 2, 3, 4}}},
		{"blob", `"bytes"`, typ(schema.Blob),
			func(e *enc) int { e.bytes([]byte("blob")); return 1 },
			[]any{[]byte("blob")}},
		{"date", `["null",{"type":"int","logicalType":"date"}]`, typ(schema.Date),
			func(e *enc) int { e.long(1).long(19782).long(1).long(-1); return 2 },
			[]any{int32(19782), int32(-1)}},
		{"time-millis", `{"type":"int","logicalType":"time-millis"}`, tsType(schema.Time, 3),
			func(e *enc) int { e.long(86399999); return 1 },
			[]any{int32(86399999)}},
		{"time-micros", `{"type":"long","logicalType":"time-micros"}`, tsType(schema.Time, 3),
			func(e *enc) int { e.long(1_234_567); return 1 },
			[]any{int32(1234)}},
		{"timestamp-millis", `["null",{"type":"long","logicalType":"timestamp-millis"}]`, tsType(schema.Timestamp, 3),
			func(e *enc) int { e.long(1).long(-1).long(1).long(1709210096789); return 2 },
			[]any{data.Timestamp{Millis: -1}, data.Timestamp{Millis: 1709210096789}}},
		{"timestamp(0) as millis", `{"type":"long","logicalType":"timestamp-millis"}`, tsType(schema.Timestamp, 0),
			func(e *enc) int { e.long(-1000); return 1 },
			[]any{data.Timestamp{Millis: -1000}}},
		{"timestamp-micros", `{"type":"long","logicalType":"timestamp-micros"}`, tsType(schema.Timestamp, 6),
			func(e *enc) int { e.long(-1); return 1 },
			[]any{data.TimestampFromMicros(-1)}},
		{"timestamp-millis as micros", `{"type":"long","logicalType":"timestamp-millis"}`, tsType(schema.Timestamp, 6),
			func(e *enc) int { e.long(-5); return 1 },
			[]any{data.Timestamp{Millis: -5}}},
		{"timestamp-micros as millis (floored)", `{"type":"long","logicalType":"timestamp-micros"}`, tsType(schema.Timestamp, 3),
			func(e *enc) int { e.long(-1); return 1 },
			[]any{data.Timestamp{Millis: -1}}},
		{"timestamp-micros as nanos", `{"type":"long","logicalType":"timestamp-micros"}`, tsType(schema.Timestamp, 9),
			func(e *enc) int { e.long(1_000_001); return 1 },
			[]any{data.TimestampFromNanos(1_000_001_000)}},
		{"timestamp-nanos", `{"type":"long","logicalType":"timestamp-nanos"}`, tsType(schema.Timestamp, 9),
			func(e *enc) int { e.long(-1); return 1 },
			[]any{data.TimestampFromNanos(-1)}},
		{"local-timestamp-micros", `["null",{"type":"long","logicalType":"local-timestamp-micros"}]`, tsType(schema.TimestampLTZ, 6),
			func(e *enc) int { e.long(1).long(123456789); return 1 },
			[]any{data.TimestampFromMicros(123456789)}},
		{"array", `["null",{"type":"array","items":["null","int"]}]`, arrayOf(typ(schema.Int)),
			func(e *enc) int {
				e.long(1).long(3).long(1).long(1).long(0).long(1).long(3).long(0) // [1, null, 3]
				e.long(1).long(0)                                                 // []
				e.long(0)                                                         // null
				return 3
			},
			[]any{[]any{int32(1), nil, int32(3)}, []any{}, nil}},
		{"array in sized blocks", `{"type":"array","items":"string"}`, arrayOf(vs),
			func(e *enc) int {
				e.long(-2).long(4).str("a").str("b").long(1).str("c").long(0)
				return 1
			},
			[]any{[]any{"a", "b", "c"}}},
		{"vector", `{"type":"array","items":"float"}`,
			schema.DataType{Root: schema.Vector, Nullable: true, Length: 2, Element: ptr(typ(schema.Float).NotNull())},
			func(e *enc) int { e.long(2).float(1).float(2).long(0); return 1 },
			[]any{[]any{float32(1), float32(2)}}},
		{"map", `["null",{"type":"map","values":["null","int"]}]`, mapOf(vs.NotNull(), typ(schema.Int)),
			func(e *enc) int {
				e.long(1).long(2).str("k1").long(1).long(1).str("k2").long(0).long(0)
				e.long(1).long(0)
				return 2
			},
			[]any{data.Map{Keys: []any{"k1", "k2"}, Values: []any{int32(1), nil}}, data.Map{Keys: []any{}, Values: []any{}}}},
		{"map with int keys", `{"type":"array","logicalType":"map","items":{"type":"record","name":"kv","fields":[` +
			`{"name":"key","type":"int"},{"name":"value","type":["null",{"type":"array","items":["null","string"]}]}]}}`,
			mapOf(typ(schema.Int).NotNull(), arrayOf(vs)),
			func(e *enc) int {
				e.long(2).long(1).long(1).long(1).long(1).str("x").long(0) // 1 -> ["x"]
				e.long(2).long(0).long(0)                                  // 2 -> null
				return 1
			},
			[]any{data.Map{Keys: []any{int32(1), int32(2)}, Values: []any{[]any{"x"}, nil}}}},
		{"map with value before key", `{"type":"array","items":{"type":"record","name":"kv","fields":[` +
			`{"name":"value","type":"long"},{"name":"key","type":"int"}]}}`,
			mapOf(typ(schema.Int).NotNull(), typ(schema.BigInt)),
			func(e *enc) int { e.long(1).long(99).long(7).long(0); return 1 },
			[]any{data.Map{Keys: []any{int32(7)}, Values: []any{int64(99)}}}},
		{"multiset of strings", `{"type":"map","values":["null","int"]}`, multisetOf(vs.NotNull()),
			func(e *enc) int { e.long(1).str("m").long(1).long(2).long(0); return 1 },
			[]any{data.Map{Keys: []any{"m"}, Values: []any{int32(2)}}}},
		{"multiset of ints", `{"type":"array","items":{"type":"record","name":"kv","fields":[` +
			`{"name":"key","type":"int"},{"name":"value","type":["null","int"]}]}}`, multisetOf(typ(schema.Int).NotNull()),
			func(e *enc) int { e.long(1).long(5).long(1).long(3).long(0); return 1 },
			[]any{data.Map{Keys: []any{int32(5)}, Values: []any{int32(3)}}}},
		{"row", `["null",{"type":"record","name":"r","fields":[{"name":"y","type":["null","string"]},` +
			`{"name":"skipped","type":{"type":"map","values":"double"}},{"name":"x","type":"int"}]}]`,
			rowOf(schema.DataField{ID: 1, Name: "x", Type: typ(schema.Int).NotNull()}, schema.DataField{ID: 2, Name: "y", Type: vs}),
			func(e *enc) int {
				e.long(1).long(1).str("why").long(1).str("k").double(1).long(0).long(42)
				e.long(0)
				e.long(1).long(0).long(-1).long(10).str("a").double(1).long(0).long(-1)
				return 3
			},
			[]any{[]any{int32(42), "why"}, nil, []any{int32(-1), nil}}},
		{"array of rows", `{"type":"array","items":["null",{"type":"record","name":"r","fields":[{"name":"a","type":["null","long"]}]}]}`,
			arrayOf(rowOf(schema.DataField{ID: 1, Name: "a", Type: typ(schema.BigInt)})),
			func(e *enc) int { e.long(3).long(1).long(1).long(9).long(0).long(1).long(0).long(0); return 1 },
			[]any{[]any{[]any{int64(9)}, nil, []any{nil}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e enc
			n := tc.encode(&e)
			require.Len(t, tc.want, n)
			fields := []schema.DataField{{ID: 0, Name: "c", Type: tc.typ}}
			for _, codec := range []string{"", "deflate", "snappy", "zstandard"} {
				file := container(t, recordSchema(`{"name":"c","type":`+tc.avro+`}`), codec, block{int64(n), e.b})
				for _, batch := range []int{0, 1} {
					rows, err := readValues(t, file, fields, batch)
					require.NoError(t, err, "codec %q", codec)
					require.Len(t, rows, n)
					for i, row := range rows {
						require.Equal(t, norm(tc.want[i]), norm(row[0]), "row %d", i)
					}
				}
			}
		})
	}
}

// TestTypeMismatch requests types the writer's schema cannot provide.
func TestTypeMismatch(t *testing.T) {
	tests := []struct {
		name string
		avro string
		typ  schema.DataType
	}{
		{"int as string", `"int"`, schema.StringType()},
		{"long as int", `"long"`, typ(schema.Int)},
		{"plain long as timestamp", `"long"`, tsType(schema.Timestamp, 6)},
		{"timestamp as bigint", `{"type":"long","logicalType":"timestamp-millis"}`, typ(schema.BigInt)},
		{"decimal scale", `{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}`, decType(5, 3)},
		{"map with string keys as int keys", `{"type":"map","values":"int"}`, mapOf(typ(schema.Int).NotNull(), typ(schema.Int))},
		{"array-map without value", `{"type":"array","items":{"type":"record","name":"kv","fields":[{"name":"key","type":"int"}]}}`,
			mapOf(typ(schema.Int).NotNull(), typ(schema.Int))},
		{"row missing nested field", `{"type":"record","name":"r","fields":[{"name":"x","type":"int"}]}`,
			rowOf(schema.DataField{ID: 1, Name: "y", Type: typ(schema.Int)})},
		{"variant", `{"type":"record","name":"v","fields":[{"name":"value","type":"bytes"},{"name":"metadata","type":"bytes"}]}`,
			typ(schema.Variant)},
		{"union branch mismatch", `["null","int","string"]`, typ(schema.Int)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := container(t, recordSchema(`{"name":"c","type":`+tc.avro+`}`), "")
			_, err := readValues(t, file, []schema.DataField{{Name: "c", Type: tc.typ}}, 0)
			require.ErrorIs(t, err, avrofile.ErrSchema)
			require.NotErrorIs(t, err, avrofile.ErrCorrupt)
			require.Contains(t, err.Error(), "test.avro")
		})
	}
}

// TestBadValues feeds well-formed files whose values are invalid.
func TestBadValues(t *testing.T) {
	tests := []struct {
		name    string
		avro    string
		typ     schema.DataType
		data    []byte
		wantErr error
	}{
		{"tinyint out of range", `"int"`, typ(schema.TinyInt), new(enc).long(128).b, avrofile.ErrCorrupt},
		{"int out of range", `"int"`, typ(schema.Int), new(enc).long(math.MaxInt32 + 1).b, avrofile.ErrCorrupt},
		{"bad boolean", `"boolean"`, typ(schema.Boolean), []byte{2}, avrofile.ErrCorrupt},
		{"union index", `["null","int"]`, typ(schema.Int), new(enc).long(2).b, avrofile.ErrCorrupt},
		{"empty decimal", `{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}`, decType(5, 2), new(enc).bytes(nil).b, avrofile.ErrCorrupt},
		{"decimal overflow", `{"type":"bytes","logicalType":"decimal","precision":38,"scale":2}`, decType(38, 2),
			new(enc).bytes(append([]byte{1}, make([]byte, 16)...)).b, avrofile.ErrCorrupt},
		{"string too long", `"string"`, schema.StringType(), new(enc).long(10).raw('a').b, avrofile.ErrCorrupt},
		{"negative length", `"string"`, schema.StringType(), new(enc).long(-1).b, avrofile.ErrCorrupt},
		{"truncated varint", `"long"`, typ(schema.BigInt), []byte{0x80}, avrofile.ErrCorrupt},
		{"overlong varint", `"long"`, typ(schema.BigInt), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, avrofile.ErrCorrupt},
		{"vector length", `{"type":"array","items":"float"}`,
			schema.DataType{Root: schema.Vector, Nullable: true, Length: 2, Element: ptr(typ(schema.Float))},
			new(enc).long(1).float(1).long(0).b, avrofile.ErrCorrupt},
		{"huge array count", `{"type":"array","items":"null"}`, arrayOf(typ(schema.Int)), new(enc).long(1 << 40).b, avrofile.ErrCorrupt},
		{"null map key", `{"type":"array","items":{"type":"record","name":"kv","fields":[` +
			`{"name":"key","type":["null","int"]},{"name":"value","type":"int"}]}}`, mapOf(typ(schema.Int).NotNull(), typ(schema.Int)),
			new(enc).long(1).long(0).long(1).long(0).b, avrofile.ErrCorrupt},
		{"timestamp overflow", `{"type":"long","logicalType":"timestamp-millis"}`, tsType(schema.Timestamp, 9),
			new(enc).long(math.MaxInt64 / 100).b, avrofile.ErrSchema},
		{"trailing bytes", `"int"`, typ(schema.Int), []byte{2, 2}, avrofile.ErrCorrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := container(t, recordSchema(`{"name":"c","type":`+tc.avro+`}`), "", block{1, tc.data})
			_, err := readValues(t, file, []schema.DataField{{Name: "c", Type: tc.typ}}, 0)
			require.ErrorIs(t, err, tc.wantErr)
			require.Contains(t, err.Error(), "test.avro")
		})
	}
}

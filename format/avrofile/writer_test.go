package avrofile_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// jsonBatch builds a batch with the Arrow types of fields from JSON rows.
func jsonBatch(t testing.TB, mem memory.Allocator, fields []schema.DataField, rows string) arrow.RecordBatch {
	t.Helper()
	s, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	rec, _, err := array.RecordFromJSON(mem, s, strings.NewReader(rows))
	require.NoError(t, err)
	return rec
}

// writeFile writes recs to a new file and returns its bytes.
func writeFile(t testing.TB, fields []schema.DataField, opts *avrofile.WriterOptions, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := avrofile.NewWriter(&buf, fields, opts)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	require.Equal(t, int64(buf.Len()), w.BytesWritten())
	return buf.Bytes()
}

// requireSameRows reads file with our reader and checks that it holds
// exactly the rows of want, column by column.
func requireSameRows(t testing.TB, file []byte, fields []schema.DataField, want arrow.RecordBatch) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	got := readBatches(t, mem, file, fields, int(want.NumRows())+1)
	defer func() {
		for _, b := range got {
			b.Release()
		}
	}()
	if want.NumRows() == 0 {
		require.Empty(t, got)
		return
	}
	require.Len(t, got, 1)
	require.Equal(t, want.NumRows(), got[0].NumRows())
	for c, f := range fields {
		require.True(t, array.Equal(want.Column(c), got[0].Column(c)),
			"column %s\nwant %s\n got %s", f.Name, want.Column(c), got[0].Column(c))
	}
}

func allTypesFields() []schema.DataField {
	nn := func(t schema.DataType) schema.DataType { return t.NotNull() }
	str, i := schema.StringType(), schema.IntType()
	return []schema.DataField{
		field("id", nn(i)),
		field("c_bool", schema.BooleanType()),
		field("c_tiny", schema.TinyIntType()),
		field("c_small", schema.SmallIntType()),
		field("c_int", i),
		field("c_big", schema.BigIntType()),
		field("c_float", schema.FloatType()),
		field("c_double", schema.DoubleType()),
		field("c_dec5", schema.DecimalType(5, 2)),
		field("c_dec18", schema.DecimalType(18, 4)),
		field("c_dec38", schema.DecimalType(38, 10)),
		field("c_char", schema.CharType(3)),
		field("c_varchar", schema.VarCharType(10)),
		field("c_string", str),
		field("c_binary", schema.BinaryType(4)),
		field("c_varbinary", schema.VarBinaryType(8)),
		field("c_bytes", schema.BytesType()),
		field("c_blob", schema.BlobType()),
		field("c_date", schema.DateType()),
		field("c_time", schema.TimeType(3)),
		field("c_ts0", schema.TimestampType(0)),
		field("c_ts3", schema.TimestampType(3)),
		field("c_ts6", schema.TimestampType(6)),
		field("c_ltz3", schema.TimestampLTZType(3)),
		field("c_ltz6", schema.TimestampLTZType(6)),
		field("c_arr", schema.ArrayType(i)),
		field("c_arr_nn", nn(schema.ArrayType(nn(str)))),
		field("c_vec", schema.VectorType(3, schema.FloatType())),
		field("c_map", schema.MapType(nn(str), i)),
		field("c_map_int", schema.MapType(nn(i), schema.ArrayType(str))),
		field("c_map_row", schema.MapType(nn(schema.BigIntType()), row(field("a", i), field("b", nn(str))))),
		field("c_ms", schema.MultisetType(nn(str))),
		field("c_ms_int", schema.MultisetType(nn(i))),
		field("c_row", row(field("x", i), field("y", str), field("z", row(field("d", schema.DecimalType(20, 5)), field("t", schema.TimestampType(6)))))),
		field("c_row_nn_child", row(field("x", nn(i)))),
		field("c_arr_row", schema.ArrayType(row(field("a", schema.BigIntType()), field("b", schema.DoubleType())))),
		field("c_nn_str", nn(str)),
	}
}

// allTypesRows exercises every type: extremes, empties, nulls at every
// level (including NOT NULL children of null rows, which Arrow fills with
// nulls and which must not be written).
const allTypesRows = `[
{"id":1,"c_bool":true,"c_tiny":-128,"c_small":32767,"c_int":-2147483648,"c_big":9223372036854775807,
 "c_float":-1.5,"c_double":1e300,"c_dec5":"-999.99","c_dec18":"99999999999999.9999",
 "c_dec38":"-9999999999999999999999999999.9999999999","c_char":"abc","c_varchar":"héllo",
 "c_string":"","c_binary":"AAECAw==","c_varbinary":"","c_bytes":"/w==","c_blob":"QkxPQg==",
 "c_date":-719162,"c_time":86399999,"c_ts0":-62135596800000,"c_ts3":1700000000123,
 "c_ts6":-1,"c_ltz3":0,"c_ltz6":253402300799999999,
 "c_arr":[1,null,-3],"c_arr_nn":["a",""],"c_vec":[1,2,3],
 "c_map":[{"key":"a","value":1},{"key":"","value":null}],
 "c_map_int":[{"key":-1,"value":["x",null]},{"key":2,"value":null}],
 "c_map_row":[{"key":7,"value":{"a":null,"b":"q"}},{"key":8,"value":null}],
 "c_ms":[{"key":"a","value":2}],"c_ms_int":[{"key":5,"value":1},{"key":-5,"value":3}],
 "c_row":{"x":1,"y":"y","z":{"d":"-123456789012345.12345","t":1}},
 "c_row_nn_child":{"x":0},
 "c_arr_row":[{"a":1,"b":0.5},null,{"a":null,"b":null}],"c_nn_str":"first"},
{"id":2,"c_bool":null,"c_tiny":null,"c_small":null,"c_int":null,"c_big":null,"c_float":null,
 "c_double":null,"c_dec5":null,"c_dec18":null,"c_dec38":null,"c_char":null,"c_varchar":null,
 "c_string":null,"c_binary":null,"c_varbinary":null,"c_bytes":null,"c_blob":null,"c_date":null,
 "c_time":null,"c_ts0":null,"c_ts3":null,"c_ts6":null,"c_ltz3":null,"c_ltz6":null,"c_arr":null,
 "c_arr_nn":[],"c_vec":null,"c_map":null,"c_map_int":null,"c_map_row":null,"c_ms":null,
 "c_ms_int":null,"c_row":null,"c_row_nn_child":null,"c_arr_row":null,"c_nn_str":""},
{"id":3,"c_bool":false,"c_tiny":127,"c_small":-32768,"c_int":2147483647,"c_big":-9223372036854775808,
 "c_float":0,"c_double":-0.0,"c_dec5":"0.00","c_dec18":"-0.0001","c_dec38":"0",
 "c_char":"","c_varchar":"x","c_string":"日本語","c_binary":"","c_varbinary":"AQ==","c_bytes":"",
 "c_blob":"","c_date":0,"c_time":0,"c_ts0":0,"c_ts3":-1,"c_ts6":1700000000123456,"c_ltz3":-1,
 "c_ltz6":1,"c_arr":[],"c_arr_nn":["z"],"c_vec":[null,0,-1],"c_map":[],"c_map_int":[],
 "c_map_row":[],"c_ms":[],"c_ms_int":[],"c_row":{"x":null,"y":null,"z":null},
 "c_row_nn_child":{"x":-7},"c_arr_row":[],"c_nn_str":"third"}
]`

// TestWriterRoundTrip writes every Paimon type with every codec, from
// whole and sliced batches, and reads the rows back with our reader.
func TestWriterRoundTrip(t *testing.T) {
	fields := allTypesFields()
	for _, compression := range []string{"", "zstd", "zstandard", "snappy", "deflate", "null"} {
		t.Run("codec="+compression, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			rec := jsonBatch(t, mem, fields, allTypesRows)
			defer rec.Release()
			file := writeFile(t, fields, &avrofile.WriterOptions{Compression: compression}, rec)
			requireSameRows(t, file, fields, rec)

			// Batches sliced out of a larger one: every array
			// carries an offset, nested ones included.
			for _, r := range [][2]int64{{1, 3}, {2, 3}, {0, 1}, {1, 1}} {
				s := rec.NewSlice(r[0], r[1])
				file := writeFile(t, fields, &avrofile.WriterOptions{Compression: compression}, s)
				requireSameRows(t, file, fields, s)
				s.Release()
			}
		})
	}
}

// TestWriterSeveralBatches writes one file from several batches.
func TestWriterSeveralBatches(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := allTypesFields()
	rec := jsonBatch(t, mem, fields, allTypesRows)
	defer rec.Release()
	a, b := rec.NewSlice(0, 1), rec.NewSlice(1, 3)
	defer a.Release()
	defer b.Release()
	file := writeFile(t, fields, nil, a, b)
	requireSameRows(t, file, fields, rec)
	whole := writeFile(t, fields, &avrofile.WriterOptions{Compression: "null"}, rec)
	split := writeFile(t, fields, &avrofile.WriterOptions{Compression: "null"}, a, b)
	require.Equal(t, readParts(t, whole).data, readParts(t, split).data)
	require.Equal(t, readParts(t, whole).counts, readParts(t, split).counts)
}

// TestWriterRowBytes checks the Avro binary encoding of single values
// against bytes built by hand from Java's FieldWriterFactory and Avro's
// BinaryEncoder.
func TestWriterRowBytes(t *testing.T) {
	nn := func(t schema.DataType) schema.DataType { return t.NotNull() }
	dec := nn(schema.DecimalType(38, 0))
	hexBytes := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			panic(err)
		}
		return b
	}
	tests := []struct {
		name  string
		typ   schema.DataType
		value string // JSON
		want  *enc
	}{
		// BigInteger.toByteArray: the fewest bytes that keep the sign.
		{"decimal 0", dec, `"0"`, new(enc).bytes([]byte{0})},
		{"decimal 1", dec, `"1"`, new(enc).bytes([]byte{1})},
		{"decimal -1", dec, `"-1"`, new(enc).bytes([]byte{0xff})},
		{"decimal 127", dec, `"127"`, new(enc).bytes([]byte{0x7f})},
		{"decimal 128", dec, `"128"`, new(enc).bytes([]byte{0, 0x80})},
		{"decimal -128", dec, `"-128"`, new(enc).bytes([]byte{0x80})},
		{"decimal -129", dec, `"-129"`, new(enc).bytes([]byte{0xff, 0x7f})},
		{"decimal 65535", dec, `"65535"`, new(enc).bytes([]byte{0, 0xff, 0xff})},
		{"decimal max", dec, `"99999999999999999999999999999999999999"`, new(enc).bytes(hexBytes("4b3b4ca85a86c47a098a223fffffffff"))},
		{"decimal min", dec, `"-99999999999999999999999999999999999999"`, new(enc).bytes(hexBytes("b4c4b357a5793b85f675ddc000000001"))},
		{"decimal scaled", nn(schema.DecimalType(5, 2)), `"1.00"`, new(enc).bytes([]byte{100})},
		// Unions: index 0 for null, 1 then the value.
		{"null int", schema.IntType(), `null`, new(enc).long(0)},
		{"nullable int", schema.IntType(), `-3`, new(enc).long(1).long(-3)},
		{"tinyint zig-zag", nn(schema.TinyIntType()), `-128`, new(enc).long(-128)},
		{"bigint", nn(schema.BigIntType()), `-9223372036854775808`, new(enc).long(-9223372036854775808)},
		{"float", nn(schema.FloatType()), `1.5`, new(enc).float(1.5)},
		{"double", schema.DoubleType(), `-2.25`, new(enc).long(1).double(-2.25)},
		{"boolean", nn(schema.BooleanType()), `true`, new(enc).boolean(true)},
		{"string", nn(schema.StringType()), `"héllo"`, new(enc).str("héllo")},
		{"date", nn(schema.DateType()), `-1`, new(enc).long(-1)},
		{"time", nn(schema.TimeType(0)), `1000`, new(enc).long(1000)},
		{"timestamp millis", nn(schema.TimestampType(3)), `1700000000123`, new(enc).long(1700000000123)},
		{"timestamp micros", nn(schema.TimestampLTZType(6)), `-5`, new(enc).long(-5)},
		// Arrays and maps: one block with a positive count, then 0; an
		// empty one is just the 0.
		{"empty array", nn(schema.ArrayType(nn(schema.IntType()))), `[]`, new(enc).long(0)},
		{"array", nn(schema.ArrayType(schema.IntType())), `[5,null]`, new(enc).long(2).long(1).long(5).long(0).long(0)},
		{"vector", nn(schema.VectorType(2, nn(schema.IntType()))), `[5,6]`, new(enc).long(2).long(5).long(6).long(0)},
		{"empty map", nn(schema.MapType(nn(schema.StringType()), schema.IntType())), `[]`, new(enc).long(0)},
		{"string map", nn(schema.MapType(nn(schema.StringType()), schema.IntType())), `[{"key":"k","value":null},{"key":"l","value":2}]`,
			new(enc).long(2).str("k").long(0).str("l").long(1).long(2).long(0)},
		{"array map", nn(schema.MapType(nn(schema.IntType()), nn(schema.StringType()))), `[{"key":3,"value":"v"}]`,
			new(enc).long(1).long(3).str("v").long(0)},
		{"array map with nullable key type", nn(schema.MapType(schema.IntType(), nn(schema.StringType()))), `[{"key":3,"value":"v"}]`,
			new(enc).long(1).long(1).long(3).str("v").long(0)},
		{"multiset", nn(schema.MultisetType(nn(schema.StringType()))), `[{"key":"a","value":4}]`,
			new(enc).long(1).str("a").long(1).long(4).long(0)},
		{"int multiset", nn(schema.MultisetType(nn(schema.IntType()))), `[{"key":-1,"value":4}]`,
			new(enc).long(1).long(-1).long(1).long(4).long(0)},
		{"row", schema.RowType(field("x", schema.IntType()), field("y", schema.StringType().NotNull())), `{"x":null,"y":"s"}`,
			new(enc).long(1).long(0).str("s")},
		{"null row", schema.RowType(field("x", schema.IntType().NotNull())), `null`, new(enc).long(0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			fields := []schema.DataField{field("v", tc.typ)}
			rec := jsonBatch(t, mem, fields, `[{"v":`+tc.value+`}]`)
			defer rec.Release()
			file := writeFile(t, fields, &avrofile.WriterOptions{Compression: "null"}, rec)
			p := readParts(t, file)
			require.Equal(t, []int64{1}, p.counts)
			require.Equal(t, tc.want.b, p.data)
			requireSameRows(t, file, fields, rec)
		})
	}
}

// TestWriterCodecs checks how file.compression picks the codec (Java
// AvroFileFormat.createCodecFactory and Avro's CodecFactory.fromString,
// which is case-sensitive and knows no "none" or "lz4").
func TestWriterCodecs(t *testing.T) {
	tests := []struct {
		compression string
		want        string // codec in the header; "" for ErrUnsupportedCodec
	}{
		{"", "zstandard"},
		{"zstd", "zstandard"},
		{"ZSTD", "zstandard"},
		{"Zstd", "zstandard"},
		{"zstandard", "zstandard"},
		{"snappy", "snappy"},
		{"deflate", "deflate"},
		{"null", "null"},
		{"none", ""},
		{"lz4", ""},
		{"gzip", ""},
		{"SNAPPY", ""},
		{"Null", ""},
		{"zstandard ", ""},
		{"bzip2", ""}, // Avro knows it; not implemented
		{"xz", ""},
	}
	fields := []schema.DataField{field("s", schema.StringType())}
	for _, tc := range tests {
		t.Run(tc.compression, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := avrofile.NewWriter(&buf, fields, &avrofile.WriterOptions{Compression: tc.compression, ZstdLevel: 9})
			if tc.want == "" {
				require.ErrorIs(t, err, avrofile.ErrUnsupportedCodec)
				require.Zero(t, buf.Len())
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, w.Codec())
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			rec := jsonBatch(t, mem, fields, `[{"s":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},{"s":null}]`)
			defer rec.Release()
			require.NoError(t, w.Write(rec))
			require.NoError(t, w.Close())
			p := readParts(t, buf.Bytes())
			require.Equal(t, tc.want, p.codec)
			require.Equal(t, []int64{2}, p.counts)
			requireSameRows(t, buf.Bytes(), fields, rec)
		})
	}
}

// TestWriterZstdLevel checks that file.compression.zstd-level reaches the
// encoder for "zstd", and that "zstandard" ignores it (Avro's own level).
func TestWriterZstdLevel(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := []schema.DataField{field("s", schema.StringType().NotNull())}
	var rows strings.Builder
	rows.WriteString("[")
	for i := range 3000 {
		if i > 0 {
			rows.WriteString(",")
		}
		rows.WriteString(`{"s":"row ` + strings.Repeat(string(rune('a'+i%26)), i%17) + `"}`)
	}
	rows.WriteString("]")
	rec := jsonBatch(t, mem, fields, rows.String())
	defer rec.Release()
	size := func(compression string, level int) int {
		return len(writeFile(t, fields, &avrofile.WriterOptions{Compression: compression, ZstdLevel: level}, rec))
	}
	fast, best := size("zstd", 1), size("zstd", 19)
	require.NotEqual(t, fast, best)
	require.Equal(t, fast, size("zstd", 0), "level 0 means Java's default 1")
	require.Equal(t, size("zstandard", 0), size("zstandard", 19), "zstandard uses Avro's level")
}

// TestWriterBlocks checks that blocks are cut as Java's DataFileWriter
// cuts them: after the row that makes the block reach 64000 bytes.
func TestWriterBlocks(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := []schema.DataField{field("id", schema.BigIntType().NotNull()), field("s", schema.StringType())}
	var rows strings.Builder
	rows.WriteString("[")
	const n = 5000
	for i := range n {
		if i > 0 {
			rows.WriteString(",")
		}
		rows.WriteString(`{"id":` + itoa(i) + `,"s":"` + strings.Repeat("x", i%50) + `"}`)
	}
	rows.WriteString("]")
	rec := jsonBatch(t, mem, fields, rows.String())
	defer rec.Release()

	var buf bytes.Buffer
	w, err := avrofile.NewWriter(&buf, fields, &avrofile.WriterOptions{Compression: "null"})
	require.NoError(t, err)
	header := w.BytesWritten()
	require.Equal(t, int64(buf.Len()), header)
	var sizes []int64
	for i := int64(0); i < n; i += 100 {
		s := rec.NewSlice(i, i+100)
		require.NoError(t, w.Write(s))
		s.Release()
		require.Equal(t, int64(buf.Len()), w.BytesWritten())
		sizes = append(sizes, w.BytesWritten())
	}
	require.Less(t, sizes[0], int64(64000), "a partial block stays buffered")
	require.NoError(t, w.Close())
	require.Equal(t, int64(buf.Len()), w.BytesWritten())

	p := readParts(t, buf.Bytes())
	require.Greater(t, len(p.counts), 2)
	var total int64
	at := 0
	for b, count := range p.counts {
		// Sizes of each row in this block.
		size := 0
		var last int
		for r := total; r < total+count; r++ {
			last = rowSize(int(r))
			size += last
		}
		if b < len(p.counts)-1 {
			require.GreaterOrEqual(t, size, 64000, "block %d", b)
			require.Less(t, size-last, 64000, "block %d was full one row earlier", b)
		}
		at += size
		total += count
	}
	require.Equal(t, int64(n), total)
	require.Equal(t, len(p.data), at)
	requireSameRows(t, buf.Bytes(), fields, rec)
}

// rowSize is the encoded size of row i of TestWriterBlocks.
func rowSize(i int) int {
	e := new(enc).long(int64(i)).long(1).str(strings.Repeat("x", i%50))
	return len(e.b)
}

func itoa(i int) string {
	var e []byte
	if i == 0 {
		return "0"
	}
	for ; i > 0; i /= 10 {
		e = append([]byte{byte('0' + i%10)}, e...)
	}
	return string(e)
}

// TestWriterNameReference writes a schema in which Avro refers to an equal
// record by name, and reads it back.
func TestWriterNameReference(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	i := schema.IntType()
	fields := []schema.DataField{
		field("a_b", row(field("x", i))),
		field("a", row(field("b", row(field("x", i))))),
	}
	rec := jsonBatch(t, mem, fields, `[{"a_b":{"x":1},"a":{"b":{"x":2}}},{"a_b":null,"a":{"b":null}}]`)
	defer rec.Release()
	file := writeFile(t, fields, nil, rec)
	require.Contains(t, readParts(t, file).schema, `"type":["null","record_a_b"]`)
	requireSameRows(t, file, fields, rec)
}

func TestWriterEmptyFile(t *testing.T) {
	fields := allTypesFields()
	file := writeFile(t, fields, nil)
	p := readParts(t, file)
	require.Empty(t, p.counts)
	require.Equal(t, "zstandard", p.codec)
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	empty := jsonBatch(t, mem, fields, `[]`)
	defer empty.Release()
	requireSameRows(t, writeFile(t, fields, nil, empty), fields, empty)
}

// TestWriterRejectsBatches checks batches that do not fit the columns.
func TestWriterRejectsBatches(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	i := schema.IntType()
	tests := []struct {
		name    string
		fields  []schema.DataField // the writer's
		batch   []schema.DataField // the batch's Arrow types
		rows    string
		written int64 // rows written before the error
	}{
		{"missing column", []schema.DataField{field("a", i), field("b", i)}, []schema.DataField{field("a", i)}, `[{"a":1}]`, 0},
		{"int64 for INT", []schema.DataField{field("a", i)}, []schema.DataField{field("a", schema.BigIntType())}, `[{"a":1}]`, 0},
		{"seconds for TIMESTAMP(3)", []schema.DataField{field("a", schema.TimestampType(3))}, []schema.DataField{field("a", schema.TimestampType(6))}, `[{"a":1}]`, 0},
		{"decimal scale", []schema.DataField{field("a", schema.DecimalType(10, 2))}, []schema.DataField{field("a", schema.DecimalType(10, 3))}, `[{"a":"1"}]`, 0},
		{"vector length", []schema.DataField{field("a", schema.VectorType(2, i))}, []schema.DataField{field("a", schema.VectorType(3, i))}, `[{"a":[1,2,3]}]`, 0},
		{"nested type", []schema.DataField{field("a", row(field("x", i)))}, []schema.DataField{field("a", row(field("x", schema.StringType())))}, `[{"a":{"x":"s"}}]`, 0},
		{"string map key", []schema.DataField{field("a", schema.MapType(schema.StringType().NotNull(), i))}, []schema.DataField{field("a", schema.MapType(i.NotNull(), i))}, `[{"a":[]}]`, 0},
		// Java's RowWriter: "expected not null but found null value".
		{"null in NOT NULL", []schema.DataField{field("a", i.NotNull())}, []schema.DataField{field("a", i)}, `[{"a":1},{"a":2},{"a":null},{"a":4}]`, 2},
		{"null in NOT NULL element", []schema.DataField{field("a", schema.ArrayType(i.NotNull()))}, []schema.DataField{field("a", schema.ArrayType(i))}, `[{"a":[1]},{"a":[null]}]`, 1},
		{"null in NOT NULL row field", []schema.DataField{field("a", row(field("x", i.NotNull())))}, []schema.DataField{field("a", row(field("x", i)))}, `[{"a":null},{"a":{"x":null}}]`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := jsonBatch(t, mem, tc.batch, tc.rows)
			defer rec.Release()
			var buf bytes.Buffer
			w, err := avrofile.NewWriter(&buf, tc.fields, &avrofile.WriterOptions{Compression: "null"})
			require.NoError(t, err)
			require.ErrorIs(t, w.Write(rec), avrofile.ErrInvalidBatch)
			require.NoError(t, w.Close(), "the writer stays usable")
			var rows int64
			for _, c := range readParts(t, buf.Bytes()).counts {
				rows += c
			}
			require.Equal(t, tc.written, rows)
		})
	}
}

type failingWriter struct {
	budget int
	err    error
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.budget {
		n := f.budget
		f.budget = 0
		return n, f.err
	}
	f.budget -= len(p)
	return len(p), nil
}

// TestWriterIOErrors checks that errors of the io.Writer are returned and
// stick.
func TestWriterIOErrors(t *testing.T) {
	boom := errors.New("boom")
	fields := []schema.DataField{field("s", schema.StringType())}
	_, err := avrofile.NewWriter(&failingWriter{budget: 10, err: boom}, fields, nil)
	require.ErrorIs(t, err, boom)

	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	rec := jsonBatch(t, mem, fields, `[{"s":"`+strings.Repeat("y", 70000)+`"}]`)
	defer rec.Release()
	fw := &failingWriter{budget: 1000, err: boom}
	w, err := avrofile.NewWriter(fw, fields, &avrofile.WriterOptions{Compression: "null"})
	require.NoError(t, err)
	require.ErrorIs(t, w.Write(rec), boom, "a full block is written at once")
	require.ErrorIs(t, w.Write(rec), boom)
	require.ErrorIs(t, w.Close(), boom)
	require.NoError(t, w.Close(), "Close is idempotent")
	require.ErrorIs(t, w.Write(rec), avrofile.ErrWriterClosed)
}

// TestWriterMalformedArrow feeds a list whose offsets run past its child:
// the row is rejected, nothing panics.
func TestWriterMalformedArrow(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := []schema.DataField{field("a", schema.ArrayType(schema.IntType()).NotNull())}
	good := jsonBatch(t, mem, fields, `[{"a":[1,2]}]`)
	defer good.Release()
	list := good.Column(0).Data()
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 50}))
	bad := array.NewData(list.DataType(), 1, []*memory.Buffer{nil, offsets}, list.Children(), 0, 0)
	defer bad.Release()
	col := array.MakeFromData(bad)
	defer col.Release()
	s, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	rec := array.NewRecordBatch(s, []arrow.Array{col}, 1)
	defer rec.Release()

	var buf bytes.Buffer
	w, err := avrofile.NewWriter(&buf, fields, &avrofile.WriterOptions{Compression: "null"})
	require.NoError(t, err)
	require.NoError(t, w.Write(good))
	require.ErrorIs(t, w.Write(rec), avrofile.ErrInvalidBatch)
	require.NoError(t, w.Write(good))
	require.NoError(t, w.Close())
	p := readParts(t, buf.Bytes())
	require.Equal(t, []int64{2}, p.counts)
	row := new(enc).long(2).long(1).long(1).long(1).long(2).long(0).b
	require.Equal(t, append(append([]byte(nil), row...), row...), p.data)
}

package evolution_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/evolution"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

func f(id int, name string, t schema.DataType) schema.DataField { return schema.NewField(id, name, t) }

// batch builds a record of the given fields from JSON rows.
func batch(t *testing.T, mem memory.Allocator, fields []schema.DataField, rows string) arrow.RecordBatch {
	t.Helper()
	sc, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	rec, _, err := array.RecordFromJSON(mem, sc, strings.NewReader(rows))
	require.NoError(t, err)
	return rec
}

// rowsJSON renders a record as a JSON array of row objects, re-encoded so
// that key order and spacing do not matter.
func rowsJSON(t *testing.T, rec arrow.RecordBatch) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, array.RecordToJSON(rec, &buf))
	var out []any
	dec := json.NewDecoder(&buf)
	for dec.More() {
		var row any
		require.NoError(t, dec.Decode(&row))
		out = append(out, row)
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}

func canonJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func apply(t *testing.T, mem memory.Allocator, m *evolution.Mapping, rows string) string {
	t.Helper()
	in := batch(t, mem, m.FileFields(), rows)
	defer in.Release()
	out, err := m.Apply(in, mem)
	require.NoError(t, err)
	defer out.Release()
	require.True(t, out.Schema().Equal(m.Schema()), "schema %s", out.Schema())
	return rowsJSON(t, out)
}

func TestIdentity(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := []schema.DataField{f(0, "id", schema.IntType().NotNull()), f(1, "s", schema.StringType())}
	m, err := evolution.New(fields, fields)
	require.NoError(t, err)
	require.True(t, m.Identity())
	require.Equal(t, fields, m.FileFields())
	in := batch(t, mem, fields, `[{"id": 1, "s": "a"}]`)
	defer in.Release()
	out, err := m.Apply(in, mem)
	require.NoError(t, err)
	require.True(t, out == in, "identity returns its input")
	out.Release()

	// A projection in another order is not the identity.
	m, err = evolution.New([]schema.DataField{fields[1], fields[0]}, fields)
	require.NoError(t, err)
	require.False(t, m.Identity())
	require.Equal(t, fields, m.FileFields(), "file order")
	require.JSONEq(t, `[{"s": "a", "id": 1}]`, apply(t, mem, m, `[{"id": 1, "s": "a"}]`))
}

// TestTopLevelEvolution covers the Java rules on a flat schema: match by id,
// NULL for added fields, dropped fields not read, renamed fields keep data,
// widened types cast.
func TestTopLevelEvolution(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	file := []schema.DataField{
		f(0, "id", schema.IntType().NotNull()),
		f(1, "a", schema.IntType()),
		f(2, "b", schema.StringType()),
		f(3, "f", schema.FloatType()),
		f(4, "gone", schema.StringType()),
	}
	table := []schema.DataField{
		f(0, "id", schema.IntType().NotNull()),
		f(2, "b_renamed", schema.StringType()),
		f(1, "a", schema.BigIntType()),
		f(3, "f", schema.DoubleType()),
		f(5, "c", schema.StringType()),
		f(6, "gone", schema.IntType()), // same name, new field
	}
	m, err := evolution.New(table, file)
	require.NoError(t, err)
	require.False(t, m.Identity())
	require.Equal(t, file[:4], m.FileFields())
	got := apply(t, mem, m, `[
		{"id": 1, "a": 10, "b": "one", "f": 1.5},
		{"id": 2, "a": null, "b": null, "f": 0.1},
		{"id": 3, "a": -7, "b": "three", "f": null}
	]`)
	require.Equal(t, canonJSON(t, `[
		{"id": 1, "b_renamed": "one", "a": 10, "f": 1.5, "c": null, "gone": null},
		{"id": 2, "b_renamed": null, "a": null, "f": 0.10000000149011612, "c": null, "gone": null},
		{"id": 3, "b_renamed": "three", "a": -7, "f": null, "c": null, "gone": null}
	]`), got)
}

func TestNestedRowEvolution(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fileRow := schema.RowType(
		f(10, "x", schema.IntType()),
		f(11, "y", schema.StringType()),
		f(12, "z", schema.DoubleType()),
	)
	file := []schema.DataField{
		f(0, "id", schema.IntType().NotNull()),
		f(1, "r", fileRow),
		f(2, "only_dropped", schema.RowType(f(20, "p", schema.IntType()))),
	}
	table := []schema.DataField{
		f(0, "id", schema.IntType().NotNull()),
		f(1, "r", schema.RowType(
			f(11, "y_renamed", schema.StringType()),
			f(10, "x", schema.BigIntType()),
			f(13, "w", schema.IntType()),
		)),
		f(2, "only_dropped", schema.RowType(f(21, "q", schema.IntType()))),
	}
	m, err := evolution.New(table, file)
	require.NoError(t, err)
	// Nested fields are pruned to the requested ones, in the table's order,
	// with the file's names and types; a ROW with nothing left is not read.
	want := []schema.DataField{
		f(0, "id", schema.IntType().NotNull()),
		f(1, "r", schema.RowType(f(11, "y", schema.StringType()), f(10, "x", schema.IntType()))),
	}
	require.Equal(t, want, m.FileFields())
	got := apply(t, mem, m, `[
		{"id": 1, "r": {"y": "a", "x": 1}},
		{"id": 2, "r": null},
		{"id": 3, "r": {"y": null, "x": 2147483647}}
	]`)
	require.Equal(t, canonJSON(t, `[
		{"id": 1, "r": {"y_renamed": "a", "x": 1, "w": null}, "only_dropped": null},
		{"id": 2, "r": null, "only_dropped": null},
		{"id": 3, "r": {"y_renamed": null, "x": 2147483647, "w": null}, "only_dropped": null}
	]`), got)
}

func TestArrayAndMapEvolution(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	file := []schema.DataField{
		f(1, "arr", schema.ArrayType(schema.IntType())),
		f(2, "m", schema.MapType(schema.StringType().NotNull(), schema.IntType())),
		f(3, "rows", schema.ArrayType(schema.RowType(f(10, "a", schema.IntType()), f(11, "b", schema.StringType())))),
		f(4, "mrow", schema.MapType(schema.IntType().NotNull(), schema.RowType(f(20, "v", schema.SmallIntType())))),
	}
	table := []schema.DataField{
		f(1, "arr", schema.ArrayType(schema.BigIntType())),
		f(2, "m", schema.MapType(schema.StringType().NotNull(), schema.StringType())),
		f(3, "rows", schema.ArrayType(schema.RowType(f(11, "b2", schema.StringType()), f(12, "c", schema.IntType())))),
		f(4, "mrow", schema.MapType(schema.IntType().NotNull(), schema.RowType(f(20, "v", schema.DoubleType())))),
	}
	m, err := evolution.New(table, file)
	require.NoError(t, err)
	require.Equal(t, schema.ArrayType(schema.RowType(f(11, "b", schema.StringType()))), m.FileFields()[2].Type)
	got := apply(t, mem, m, `[
		{"arr": [1, null, 3], "m": [{"key": "k", "value": 5}, {"key": "n", "value": null}],
		 "rows": [{"b": "x"}, null], "mrow": [{"key": 1, "value": {"v": 7}}]},
		{"arr": null, "m": null, "rows": [], "mrow": null},
		{"arr": [], "m": [], "rows": null, "mrow": [{"key": 2, "value": null}]}
	]`)
	require.Equal(t, canonJSON(t, `[
		{"arr": [1, null, 3], "m": [{"key": "k", "value": "5"}, {"key": "n", "value": null}],
		 "rows": [{"b2": "x", "c": null}, null], "mrow": [{"key": 1, "value": {"v": 7}}]},
		{"arr": null, "m": null, "rows": [], "mrow": null},
		{"arr": [], "m": [], "rows": null, "mrow": [{"key": 2, "value": null}]}
	]`), got)
}

func TestCastToStringOfNested(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	file := []schema.DataField{
		f(1, "arr", schema.ArrayType(schema.DoubleType())),
		f(2, "r", schema.RowType(f(10, "a", schema.IntType()), f(11, "d", schema.DateType()))),
	}
	table := []schema.DataField{f(1, "arr", schema.StringType()), f(2, "r", schema.StringType())}
	m, err := evolution.New(table, file)
	require.NoError(t, err)
	got := apply(t, mem, m, `[
		{"arr": [1.5, null, 10000000], "r": {"a": 1, "d": 19787}},
		{"arr": null, "r": {"a": null, "d": null}}
	]`)
	require.Equal(t, canonJSON(t, `[
		{"arr": "[1.5, null, 1.0E7]", "r": "{1, 2024-03-05}"},
		{"arr": null, "r": "{null, null}"}
	]`), got)
}

func TestAtomicCastsThroughArrow(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	cases := []struct {
		name     string
		from, to schema.DataType
		in, want string
	}{
		{"int to smallint", schema.IntType(), schema.SmallIntType(), `[100000, null, -5]`, `[-31072, null, -5]`},
		{"double to float", schema.DoubleType(), schema.FloatType(), `[0.5, 1e40]`, `[0.5, "+Inf"]`},
		{"decimal widen", schema.DecimalType(10, 2), schema.DecimalType(20, 2), `["1.10", "-2.20"]`, `["1.1", "-2.2"]`},
		{"decimal scale up", schema.DecimalType(10, 2), schema.DecimalType(12, 4), `["1.10", "-2.25", null]`, `["1.1", "-2.25", null]`},
		{"decimal narrow overflows to null", schema.DecimalType(10, 2), schema.DecimalType(4, 1), `["123.45", "1234.5"]`, `["123.5", null]`},
		{"int to string", schema.IntType(), schema.StringType(), `[7, null]`, `["7", null]`},
		{"string to char", schema.StringType(), schema.CharType(3), `["a", "abcd"]`, `["a  ", "abc"]`},
		{"string to bigint", schema.StringType(), schema.BigIntType(), `["-12", "12.9"]`, `[-12, 12]`},
		{"timestamp precision", schema.TimestampType(6), schema.TimestampType(3), `["2024-03-05T10:20:30.123456"]`, `["2024-03-05T10:20:30.123"]`},
		{"date to timestamp", schema.DateType(), schema.TimestampType(6), `["2024-03-05"]`, `["2024-03-05T00:00:00"]`},
		{"string to date", schema.StringType(), schema.DateType(), `["2024-03-05 10:00:00"]`, `["2024-03-05"]`},
		{"binary to varbinary", schema.BinaryType(4), schema.VarBinaryType(2), `["YWJjZA=="]`, `["YWI="]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := evolution.New([]schema.DataField{f(1, "v", c.to)}, []schema.DataField{f(1, "v", c.from)})
			require.NoError(t, err)
			var in []map[string]any
			var raw []any
			require.NoError(t, json.Unmarshal([]byte(c.in), &raw))
			for _, v := range raw {
				in = append(in, map[string]any{"v": v})
			}
			rows, err := json.Marshal(in)
			require.NoError(t, err)
			got := apply(t, mem, m, string(rows))
			var want []map[string]any
			require.NoError(t, json.Unmarshal([]byte(c.want), &raw))
			for _, v := range raw {
				want = append(want, map[string]any{"v": v})
			}
			wb, err := json.Marshal(want)
			require.NoError(t, err)
			require.Equal(t, string(wb), got)
		})
	}
}

func TestSlicedInput(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	file := []schema.DataField{
		f(1, "r", schema.RowType(f(10, "x", schema.IntType()))),
		f(2, "l", schema.ArrayType(schema.IntType())),
	}
	table := []schema.DataField{
		f(1, "r", schema.RowType(f(10, "x", schema.BigIntType()), f(11, "n", schema.IntType()))),
		f(2, "l", schema.ArrayType(schema.BigIntType())),
	}
	m, err := evolution.New(table, file)
	require.NoError(t, err)
	in := batch(t, mem, file, `[
		{"r": {"x": 1}, "l": [1]}, {"r": null, "l": null}, {"r": {"x": 3}, "l": [3, 4]}, {"r": null, "l": [5]}
	]`)
	defer in.Release()
	sl := in.NewSlice(1, 4)
	defer sl.Release()
	out, err := m.Apply(sl, mem)
	require.NoError(t, err)
	defer out.Release()
	require.Equal(t, canonJSON(t, `[
		{"r": null, "l": null}, {"r": {"x": 3, "n": null}, "l": [3, 4]}, {"r": null, "l": [5]}
	]`), rowsJSON(t, out))
}

func TestErrors(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	incompatible := []struct {
		name        string
		file, table schema.DataType
	}{
		{"no rule", schema.FloatType(), schema.BooleanType()},
		{"map key", schema.MapType(schema.IntType().NotNull(), schema.IntType()), schema.MapType(schema.BigIntType().NotNull(), schema.IntType())},
		{"multiset element", schema.MultisetType(schema.IntType()), schema.MultisetType(schema.BigIntType())},
		{"nested", schema.RowType(f(10, "a", schema.DateType())), schema.RowType(f(10, "a", schema.IntType()))},
		{"row to string to row", schema.StringType(), schema.RowType(f(10, "a", schema.IntType()))},
		{"timestamp to varchar(n)", schema.TimestampType(3), schema.VarCharType(30)},
	}
	for _, c := range incompatible {
		t.Run(c.name, func(t *testing.T) {
			_, err := evolution.New([]schema.DataField{f(1, "v", c.table)}, []schema.DataField{f(1, "v", c.file)})
			require.ErrorIs(t, err, evolution.ErrIncompatible)
		})
	}

	m, err := evolution.New([]schema.DataField{f(1, "v", schema.IntType())}, []schema.DataField{f(1, "v", schema.StringType())})
	require.NoError(t, err)
	in := batch(t, mem, m.FileFields(), `[{"v": "1"}, {"v": "x"}]`)
	defer in.Release()
	_, err = m.Apply(in, mem)
	require.ErrorIs(t, err, evolution.ErrCast)
	require.ErrorContains(t, err, `field "v"`)

	// A TIMESTAMP(9) column is Arrow nanoseconds, which end in 2262: a
	// later instant is refused rather than wrapped around (as the Parquet
	// reader refuses such INT96 values).
	ns, err := evolution.New([]schema.DataField{f(1, "v", schema.TimestampType(9))}, []schema.DataField{f(1, "v", schema.StringType())})
	require.NoError(t, err)
	late := batch(t, mem, ns.FileFields(), `[{"v": "2300-01-01 00:00:00"}]`)
	defer late.Release()
	_, err = ns.Apply(late, mem)
	require.ErrorIs(t, err, evolution.ErrCast)

	wrong := batch(t, mem, []schema.DataField{f(1, "v", schema.IntType())}, `[{"v": 1}]`)
	defer wrong.Release()
	_, err = m.Apply(wrong, mem)
	require.ErrorIs(t, err, evolution.ErrBatch)
}

func TestLocationOption(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	m, err := evolution.NewWithOptions(
		[]schema.DataField{f(1, "v", schema.TimestampLTZType(3))},
		[]schema.DataField{f(1, "v", schema.TimestampType(3))},
		&evolution.Options{Location: shanghai})
	require.NoError(t, err)
	got := apply(t, mem, m, `[{"v": "2024-03-05T10:00:00"}]`)
	require.Equal(t, canonJSON(t, `[{"v": "2024-03-05T02:00:00Z"}]`), got)
}

func TestCastValue(t *testing.T) {
	cases := []struct {
		name     string
		v        any
		from, to schema.DataType
		want     any
		ok       bool
	}{
		{"same type", int32(5), schema.IntType(), schema.IntType().NotNull(), int32(5), true},
		{"same string", "a", schema.StringType().NotNull(), schema.StringType(), "a", true},
		{"int to bigint", int32(-5), schema.IntType(), schema.BigIntType(), int64(-5), true},
		{"tinyint to smallint", int8(3), schema.TinyIntType(), schema.SmallIntType(), int16(3), true},
		{"smallint to int", int16(3), schema.SmallIntType(), schema.IntType(), int32(3), true},
		{"nil bound", nil, schema.IntType(), schema.BigIntType(), nil, true},
		{"bigint to int unsafe", int64(3), schema.BigIntType(), schema.IntType(), nil, false},
		{"int to tinyint unsafe", int32(3), schema.IntType(), schema.TinyIntType(), nil, false},
		{"float to double unsafe", float32(1), schema.FloatType(), schema.DoubleType(), nil, false},
		{"decimal widen unsafe", nil, schema.DecimalType(10, 2), schema.DecimalType(20, 2), nil, false},
		{"string to int unsafe", "9", schema.StringType(), schema.IntType(), nil, false},
		{"char length unsafe", "a", schema.CharType(1), schema.CharType(2), nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := evolution.CastValue(c.v, c.from, c.to)
			require.Equal(t, c.ok, ok)
			require.Equal(t, c.want, got)
		})
	}
}

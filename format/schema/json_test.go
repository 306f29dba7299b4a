package schema_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

type compositeGolden struct {
	SQL    string `json:"sql"`
	JSON   string `json:"json"`
	Pretty string `json:"pretty"`
}

// TestCompositeTypesMatchJava replays composite_types.golden.jsonl: types
// built by Java, with their asSQLString, compact JSON and pretty JSON.
func TestCompositeTypesMatchJava(t *testing.T) {
	for _, g := range readJSONL[compositeGolden](t, "composite_types.golden.jsonl") {
		t.Run(g.SQL, func(t *testing.T) {
			var dt schema.DataType
			require.NoError(t, json.Unmarshal([]byte(g.JSON), &dt))
			require.Equal(t, g.SQL, dt.String())
			got, err := json.Marshal(dt)
			require.NoError(t, err)
			require.Equal(t, g.JSON, string(got))
			require.Equal(t, g.Pretty, string(schema.PrettyTypeJSON(dt)))

			// And back through the JSON once more.
			var again schema.DataType
			require.NoError(t, json.Unmarshal(got, &again))
			require.True(t, dt.Equal(again))
		})
	}
}

func TestTypeJSONRoundTripAllTypes(t *testing.T) {
	row := schema.RowType(
		schema.NewField(0, "a", schema.IntType().NotNull()),
		schema.NewField(1, "b", schema.RowType(schema.NewField(2, "c", schema.StringType())).NotNull()).
			WithDescription("nested").WithDefaultValue("x"),
	)
	tests := []schema.DataType{
		schema.BooleanType(), schema.TinyIntType(), schema.SmallIntType(), schema.IntType(),
		schema.BigIntType().NotNull(), schema.FloatType(), schema.DoubleType(),
		schema.DecimalType(38, 18), schema.CharType(3), schema.VarCharType(7), schema.StringType(),
		schema.BinaryType(2), schema.VarBinaryType(9), schema.BytesType(), schema.DateType(),
		schema.TimeType(3), schema.TimestampType(0), schema.TimestampLTZType(9).NotNull(),
		schema.VariantType(), schema.BlobType(),
		schema.ArrayType(schema.IntType()),
		schema.MultisetType(schema.TimestampType(6)).NotNull(),
		schema.MapType(schema.StringType().NotNull(), schema.ArrayType(row)),
		schema.VectorType(16, schema.FloatType().NotNull()),
		row,
		row.NotNull(),
	}
	for _, dt := range tests {
		t.Run(dt.String(), func(t *testing.T) {
			b, err := json.Marshal(dt)
			require.NoError(t, err)
			var back schema.DataType
			require.NoError(t, json.Unmarshal(b, &back))
			require.True(t, dt.Equal(back), "%s vs %s", dt, back)
			b2, err := json.Marshal(back)
			require.NoError(t, err)
			require.Equal(t, string(b), string(b2))
		})
	}
}

func TestRustNestedRowFixture(t *testing.T) {
	raw := readTestdata(t, "highly_complex_nested_row_type.json")
	var dt schema.DataType
	require.NoError(t, json.Unmarshal(raw, &dt))
	require.Equal(t, schema.Row, dt.Root)
	require.Equal(t, []string{"outer_row1", "outer_row2", "outer_map", "outer_array", "outer_multiset"}, dt.FieldNames())

	outerMap, ok := dt.FieldByName("outer_map")
	require.True(t, ok)
	require.Equal(t, 2, outerMap.ID)
	require.Equal(t, schema.Map, outerMap.Type.Root)
	require.Equal(t, "VARCHAR(30)", outerMap.Type.Key.String())

	multiset, ok := dt.FieldByID(4)
	require.True(t, ok)
	require.Equal(t, "MULTISET<ROW<`deep_inner_decimal` DECIMAL(10, 2), `deep_inner_varbinary` VARBINARY(128)>>",
		multiset.Type.String())

	// The fixture is Java's compact JSON: re-encoding reproduces it.
	got, err := json.Marshal(dt)
	require.NoError(t, err)
	require.Equal(t, string(bytes.TrimSpace(raw)), string(got))
}

func TestTypeJSONMissingFieldIDs(t *testing.T) {
	// Java assigns missing ids in order of appearance (DataTypeJsonParserTest).
	var dt schema.DataType
	require.NoError(t, json.Unmarshal([]byte(`{"type":"ROW","fields":[{"name":"field1","type":"INT"},`+
		`{"name":"field2","type":{"type":"ROW","fields":[{"name":"s1","type":"INT"},{"name":"s2","type":"STRING"}]}}]}`), &dt))
	want := schema.RowType(
		schema.NewField(0, "field1", schema.IntType()),
		schema.NewField(1, "field2", schema.RowType(
			schema.NewField(2, "s1", schema.IntType()),
			schema.NewField(3, "s2", schema.StringType()),
		)),
	)
	require.True(t, want.Equal(dt), "got %s", dt)

	err := json.Unmarshal([]byte(`{"type":"ROW","fields":[{"name":"field1","type":"INT"},{"id":1,"name":"field2","type":"STRING"}]}`), &dt)
	require.ErrorIs(t, err, schema.ErrCorrupt)
	require.ErrorContains(t, err, "partial field ids")

	// A DataField on its own needs its id, as do the fields nested in it.
	var f schema.DataField
	require.ErrorContains(t, json.Unmarshal([]byte(`{"name":"a","type":"INT"}`), &f), "without \"id\"")
	require.ErrorContains(t, json.Unmarshal([]byte(`{"id":0,"name":"a","type":{"type":"ROW","fields":[{"name":"b","type":"INT"}]}}`), &f), "without \"id\"")
}

func TestFieldJSON(t *testing.T) {
	f := schema.NewField(7, "price", schema.DecimalType(10, 2).NotNull()).
		WithDescription("in \"EUR\"").WithDefaultValue("0")
	b, err := json.Marshal(f)
	require.NoError(t, err)
	require.Equal(t, `{"id":7,"name":"price","type":"DECIMAL(10, 2) NOT NULL","description":"in \"EUR\"","defaultValue":"0"}`, string(b))
	var back schema.DataField
	require.NoError(t, json.Unmarshal(b, &back))
	require.True(t, f.Equal(back))
	require.Equal(t, "`price` DECIMAL(10, 2) NOT NULL COMMENT 'in \"EUR\"' DEFAULT 0", f.String())
}

func TestTypeJSONErrors(t *testing.T) {
	tests := []struct{ name, in, msg string }{
		{"number", `5`, "string or an object"},
		{"unknown composite", `{"type":"STRUCT","fields":[]}`, "unknown composite"},
		{"no type member", `{"element":"INT"}`, `without "type"`},
		{"array without element", `{"type":"ARRAY"}`, `without "element"`},
		{"map without value", `{"type":"MAP","key":"INT"}`, `without "value"`},
		{"vector without length", `{"type":"VECTOR","element":"INT"}`, `without "length"`},
		{"vector of strings", `{"type":"VECTOR","element":"STRING","length":2}`, "invalid element type"},
		{"row fields not array", `{"type":"ROW","fields":{}}`, "expected an array"},
		{"duplicate names", `{"type":"ROW","fields":[{"id":0,"name":"a","type":"INT"},{"id":1,"name":"a","type":"INT"}]}`, "not unique"},
		{"blank name", `{"type":"ROW","fields":[{"id":0,"name":" ","type":"INT"}]}`, "non-whitespace"},
		{"composite string", `"ARRAY<INT>"`, "must be a JSON object"},
		{"bad atomic", `"DECIMAL(99, 2)"`, "precision 99"},
		{"id not int", `{"type":"ROW","fields":[{"id":"0","name":"a","type":"INT"}]}`, "expected an integer"},
		{"id too big", `{"type":"ROW","fields":[{"id":4294967296,"name":"a","type":"INT"}]}`, "32-bit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dt schema.DataType
			err := json.Unmarshal([]byte(tt.in), &dt)
			require.ErrorIs(t, err, schema.ErrCorrupt)
			require.ErrorContains(t, err, tt.msg)
		})
	}
}

func TestMarshalInvalidType(t *testing.T) {
	_, err := json.Marshal(schema.DecimalType(50, 0))
	require.ErrorIs(t, err, schema.ErrInvalidType)
	_, err = json.Marshal(schema.DataType{})
	require.ErrorIs(t, err, schema.ErrInvalidType)
}

func TestUnmarshalNullIsNoop(t *testing.T) {
	var v struct {
		T schema.DataType    `json:"t"`
		F schema.DataField   `json:"f"`
		S *schema.Schema     `json:"s"`
		X schema.TableSchema `json:"x"`
	}
	v.T = schema.IntType()
	require.NoError(t, json.Unmarshal([]byte(`{"t":null,"f":null,"s":null,"x":null}`), &v))
	require.Equal(t, "INT", v.T.String())
	require.Nil(t, v.S)
}

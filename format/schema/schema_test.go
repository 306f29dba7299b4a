package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

// TestSchemaNormalizeMatchesJava builds the Schema GenSchemaFixtures gives
// Java's constructor (keys as options, nullable key columns) and expects the
// normalized JSON Java wrote.
func TestSchemaNormalizeMatchesJava(t *testing.T) {
	comment := "c"
	in := &schema.Schema{
		Fields: []schema.DataField{
			schema.NewField(0, "id", schema.IntType()),
			schema.NewField(1, "dt", schema.StringType()),
			schema.NewField(2, "payload", schema.RowType(schema.NewField(3, "x", schema.DoubleType()))).WithDescription("desc"),
		},
		Options: map[string]string{"primary-key": "id, dt", "partition": "dt", "bucket": "2"},
		Comment: &comment,
	}
	n, err := in.Normalized()
	require.NoError(t, err)
	require.Equal(t, []string{"id", "dt"}, n.PrimaryKeys)
	require.Equal(t, []string{"dt"}, n.PartitionKeys)
	require.Equal(t, map[string]string{"bucket": "2"}, n.Options)
	require.True(t, in.Fields[0].Type.Nullable, "the input is not modified")
	got, err := n.Encode()
	require.NoError(t, err)
	want := readTestdata(t, "java_create_schema.json")
	require.Equal(t, string(want), string(got))

	// Decoding Java's output and encoding it again is the identity.
	d, err := schema.DecodeSchema(want)
	require.NoError(t, err)
	got, err = d.Encode()
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

func TestSchemaBuilderMatchesJava(t *testing.T) {
	s, err := schema.NewSchemaBuilder().
		Column("a", schema.IntType()).
		Column("b", schema.RowType(
			schema.NewField(0, "x", schema.IntType()),
			schema.NewField(0, "y", schema.RowType(schema.NewField(0, "p", schema.IntType()))),
		)).
		Column("c", schema.MapType(schema.IntType(), schema.RowType(schema.NewField(0, "q", schema.IntType())))).
		PrimaryKey("a").
		Build()
	require.NoError(t, err)
	got, err := s.Encode()
	require.NoError(t, err)
	require.Equal(t, string(readTestdata(t, "java_built_schema.json")), string(got))

	ts, err := schema.NewTableSchema(0, s, 5)
	require.NoError(t, err)
	require.Equal(t, 6, ts.HighestFieldID)
	got, err = ts.Encode()
	require.NoError(t, err)
	require.Equal(t, string(readTestdata(t, "java_built_table_schema.json")), string(got))
}

func TestSchemaBuilderOptions(t *testing.T) {
	b := schema.NewSchemaBuilder()
	require.Equal(t, -1, b.HighestFieldID())
	s, err := b.ColumnWithDescription("k", schema.StringType(), "key").
		Column("p", schema.DateType()).
		PartitionKeys("p").
		PrimaryKey("k", "p").
		Option("bucket", "3").
		Options(map[string]string{"file.format": "parquet"}).
		Comment("t").
		Build()
	require.NoError(t, err)
	require.Equal(t, 1, b.HighestFieldID())
	require.Equal(t, "key", *s.Fields[0].Description)
	require.False(t, s.Fields[0].Type.Nullable)
	require.False(t, s.Fields[1].Type.Nullable)
	require.Equal(t, "t", *s.Comment)
	require.False(t, s.RowType().Nullable)

	ts, err := schema.NewTableSchema(0, s, 1)
	require.NoError(t, err)
	require.Equal(t, []string{"k"}, ts.TrimmedPrimaryKeys())
}

func TestSchemaErrors(t *testing.T) {
	tests := []struct {
		name string
		s    schema.Schema
		msg  string
	}{
		{"pk twice", schema.Schema{
			Fields:      []schema.DataField{schema.NewField(0, "a", schema.IntType())},
			PrimaryKeys: []string{"a"}, Options: map[string]string{"primary-key": "a"},
		}, "both as an option"},
		{"partition twice", schema.Schema{
			Fields:        []schema.DataField{schema.NewField(0, "a", schema.IntType())},
			PartitionKeys: []string{"a"}, Options: map[string]string{"partition": "a"},
		}, "both as an option"},
		{"duplicate column", schema.Schema{Fields: []schema.DataField{
			schema.NewField(0, "a", schema.IntType()), schema.NewField(1, "a", schema.IntType()),
		}}, "not unique"},
		{"unknown partition", schema.Schema{
			Fields:        []schema.DataField{schema.NewField(0, "a", schema.IntType())},
			PartitionKeys: []string{"b"},
		}, "not a column"},
		{"duplicate pk", schema.Schema{
			Fields:      []schema.DataField{schema.NewField(0, "a", schema.IntType())},
			PrimaryKeys: []string{"a", "a"},
		}, "listed twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.s.Normalized()
			require.ErrorContains(t, err, tt.msg)
		})
	}
	_, err := schema.NewTableSchema(0, &schema.Schema{Fields: []schema.DataField{
		schema.NewField(0, "a", schema.IntType()),
		schema.NewField(0, "b", schema.IntType()),
	}}, 0)
	require.ErrorIs(t, err, schema.ErrInvalidSchema)
	require.ErrorContains(t, err, "duplicated")
}

func TestDecodeSchemaLenient(t *testing.T) {
	// Plan files may leave out empty lists and options.
	s, err := schema.DecodeSchema([]byte(`{"fields":[{"id":0,"name":"a","type":"DECIMAL(10, 2)"}],"options":{"bucket":1}}`))
	require.NoError(t, err)
	require.Empty(t, s.PrimaryKeys)
	require.Equal(t, "1", s.Options["bucket"])
	compact, err := json.Marshal(s)
	require.NoError(t, err)
	require.Equal(t, `{"fields":[{"id":0,"name":"a","type":"DECIMAL(10, 2)"}],"partitionKeys":[],"primaryKeys":[],"options":{"bucket":"1"}}`, string(compact))
	var back schema.Schema
	require.NoError(t, json.Unmarshal(compact, &back))
	require.Equal(t, s, &back)

	// Without ids the fields are numbered as SchemaBuilder numbers them.
	s, err = schema.DecodeSchema([]byte(`{"fields":[{"name":"a","type":"INT"},{"name":"b","type":"STRING"}]}`))
	require.NoError(t, err)
	require.Equal(t, []int{0, 1}, []int{s.Fields[0].ID, s.Fields[1].ID})

	for _, bad := range []string{`{}`, `{"fields":{}}`, `{"fields":[{"id":0,"name":"a","type":"INT"},{"name":"b","type":"INT"}]}`,
		`{"fields":[],"primaryKeys":["x"]}`, `[`, `{"fields":[{"id":0,"name":"a","type":"NOPE"}]}`} {
		_, err := schema.DecodeSchema([]byte(bad))
		require.ErrorIs(t, err, schema.ErrInvalidSchema, bad)
	}
}

func TestHighestFieldID(t *testing.T) {
	id, err := schema.HighestFieldID(nil)
	require.NoError(t, err)
	require.Equal(t, -1, id)
	id, err = schema.HighestFieldID([]schema.DataField{
		schema.NewField(0, "a", schema.ArrayType(schema.RowType(schema.NewField(7, "x", schema.IntType())))),
		schema.NewField(schema.SystemFieldIDStart+3, "_KEY_a", schema.IntType()),
	})
	require.NoError(t, err)
	require.Equal(t, 7, id)
}

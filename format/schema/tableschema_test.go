package schema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

// TestDecodeEncodeByteForByte decodes schema files written by Java (or shown
// in the docs) and re-encodes them to the identical bytes.
func TestDecodeEncodeByteForByte(t *testing.T) {
	for _, name := range []string{
		"docs_schema_digest.json",      // paimon-format.md §3.2
		"docs_schema.json",             // docs/content/concepts/spec/schema.md
		"java_schema_all_types.json",   // GenSchemaFixtures: every type, options in a set order
		"java_schema_empty.json",       // no fields, options or comment
		"java_built_table_schema.json", // from Schema.Builder
		"java_schema_v1_reencoded.json",
		"java_schema_v2_reencoded.json",
	} {
		t.Run(name, func(t *testing.T) {
			raw := readTestdata(t, name)
			s, err := schema.Decode(raw)
			require.NoError(t, err)
			got, err := s.Encode()
			require.NoError(t, err)
			require.Equal(t, string(raw), string(got))
		})
	}
}

func TestDecodeDocsExample(t *testing.T) {
	s, err := schema.Decode(readTestdata(t, "docs_schema_digest.json"))
	require.NoError(t, err)
	require.Equal(t, 3, s.Version)
	require.Equal(t, int64(0), s.ID)
	require.Len(t, s.Fields, 2)
	require.Equal(t, "BIGINT NOT NULL", s.Fields[0].Type.String())
	require.Equal(t, 1, s.HighestFieldID)
	require.Empty(t, s.PartitionKeys)
	require.Equal(t, []string{"order_id"}, s.PrimaryKeys)
	require.Equal(t, map[string]string{"bucket": "5"}, s.Options)
	require.NotNil(t, s.Comment)
	require.Equal(t, "", *s.Comment)
	require.Equal(t, int64(1720496663041), s.TimeMillis)
	n, err := s.Bucket()
	require.NoError(t, err)
	require.Equal(t, 5, n)
	require.Equal(t, []string{"order_id"}, s.BucketKeys())
}

func TestDecodeCompatibilityRules(t *testing.T) {
	tests := []struct {
		name        string
		file        string
		version     int
		options     map[string]string
		timeMillis  int64
		javaEncoded string
	}{
		{"v1: no version, no bucket, no format", "schema_v1.json", 1,
			map[string]string{"bucket": "1", "file.format": "orc"}, 0, "java_schema_v1_reencoded.json"},
		{"v2: keeps bucket, adds orc", "schema_v2.json", 2,
			map[string]string{"bucket": "-1", "file.format": "orc"}, 1700000000000, "java_schema_v2_reencoded.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Decode(readTestdata(t, tt.file))
			require.NoError(t, err)
			require.Equal(t, tt.version, s.Version)
			require.Equal(t, tt.options, s.Options)
			require.Equal(t, tt.timeMillis, s.TimeMillis)
			require.Nil(t, s.Comment)
			got, err := s.Encode()
			require.NoError(t, err)
			require.Equal(t, string(readTestdata(t, tt.javaEncoded)), string(got))
		})
	}

	// Version 3 gets no defaults.
	s, err := schema.Decode([]byte(`{"version":3,"id":1,"fields":[],"highestFieldId":-1,"partitionKeys":[],"primaryKeys":[],"options":{}}`))
	require.NoError(t, err)
	require.Empty(t, s.Options)
	b, err := s.Bucket()
	require.NoError(t, err)
	require.Equal(t, -1, b)
}

func TestEncodeOptionsOrder(t *testing.T) {
	s, err := schema.Decode([]byte(`{"version":3,"id":1,"fields":[],"highestFieldId":-1,"partitionKeys":[],"primaryKeys":[],` +
		`"options":{"z":"1","a":2,"m":true}}`))
	require.NoError(t, err)
	require.Equal(t, map[string]string{"z": "1", "a": "2", "m": "true"}, s.Options)
	s.Options["c"] = "new"
	s.Options["b"] = "new"
	delete(s.Options, "a")
	out, err := s.Encode()
	require.NoError(t, err)
	// Decoded order first, then new keys sorted.
	require.Contains(t, string(out), `"options" : {
    "z" : "1",
    "m" : "true",
    "b" : "new",
    "c" : "new"
  },`)
}

func TestTableSchemaJSONMarshal(t *testing.T) {
	s, err := schema.Decode(readTestdata(t, "docs_schema_digest.json"))
	require.NoError(t, err)
	compact, err := json.Marshal(s)
	require.NoError(t, err)
	require.Equal(t, `{"version":3,"id":0,"fields":[{"id":0,"name":"order_id","type":"BIGINT NOT NULL"},`+
		`{"id":1,"name":"order_name","type":"STRING"}],"highestFieldId":1,"partitionKeys":[],"primaryKeys":["order_id"],`+
		`"options":{"bucket":"5"},"comment":"","timeMillis":1720496663041}`, string(compact))
	var back schema.TableSchema
	require.NoError(t, json.Unmarshal(compact, &back))
	require.Equal(t, s.Fields, back.Fields)
}

func TestDecodeErrors(t *testing.T) {
	base := map[string]string{
		"version": `3`, "id": `0`, "fields": `[{"id":0,"name":"a","type":"INT NOT NULL"},{"id":1,"name":"p","type":"STRING"}]`,
		"highestFieldId": `1`, "partitionKeys": `[]`, "primaryKeys": `[]`, "options": `{}`,
	}
	build := func(over map[string]string) []byte {
		var parts []string
		for _, k := range []string{"version", "id", "fields", "highestFieldId", "partitionKeys", "primaryKeys", "options", "comment", "timeMillis"} {
			v, ok := over[k]
			if !ok {
				v, ok = base[k]
			}
			if ok && v != "-" {
				parts = append(parts, `"`+k+`":`+v)
			}
		}
		return []byte("{" + strings.Join(parts, ",") + "}")
	}
	tests := []struct {
		name string
		over map[string]string
		msg  string
	}{
		{"missing id", map[string]string{"id": "-"}, `missing "id"`},
		{"missing fields", map[string]string{"fields": "-"}, `missing "fields"`},
		{"missing highestFieldId", map[string]string{"highestFieldId": "-"}, `missing "highestFieldId"`},
		{"missing partitionKeys", map[string]string{"partitionKeys": "-"}, `missing "partitionKeys"`},
		{"missing options", map[string]string{"options": "-"}, `missing "options"`},
		{"fields not array", map[string]string{"fields": `{}`}, "expected an array"},
		{"version string", map[string]string{"version": `"3"`}, "expected an integer"},
		{"bad type", map[string]string{"fields": `[{"id":0,"name":"a","type":"INTEGRAL"}]`}, "unknown type"},
		{"option object", map[string]string{"options": `{"a":{}}`}, `option "a"`},
		{"duplicate column", map[string]string{"fields": `[{"id":0,"name":"a","type":"INT"},{"id":1,"name":"a","type":"INT"}]`}, "not unique"},
		{"pk not a column", map[string]string{"primaryKeys": `["zz"]`}, "not a column"},
		{"pk only partition", map[string]string{"primaryKeys": `["p"]`, "partitionKeys": `["p"]`}, "same as the partition keys"},
		{"bucket not int", map[string]string{"options": `{"bucket":"x"}`}, "not an integer"},
		{"bucket key unknown", map[string]string{"options": `{"bucket":"2","bucket-key":"zz"}`}, "bucket key \"zz\""},
		{"bucket key in partition", map[string]string{"partitionKeys": `["p"]`, "options": `{"bucket":"2","bucket-key":"p"}`}, "partition key"},
		{"bucket key outside pk", map[string]string{"primaryKeys": `["a"]`, "options": `{"bucket":"2","bucket-key":"p"}`}, "part of the primary key"},
		{"comment number", map[string]string{"comment": `5`}, "expected a string"},
		// Field ids must be unique at every depth (F4 of RELIABILITY.md).
		{"duplicate field id", map[string]string{"fields": `[{"id":0,"name":"a","type":"INT"},{"id":0,"name":"b","type":"INT"}]`}, "field id 0 is duplicated"},
		{"nested id repeats a column's", map[string]string{"fields": `[{"id":0,"name":"a","type":"INT"},` +
			`{"id":1,"name":"r","type":{"type":"ROW","fields":[{"id":0,"name":"x","type":"INT"}]}}]`, "highestFieldId": `1`}, "field id 0 is duplicated"},
		{"ids repeated inside a row", map[string]string{"fields": `[{"id":2,"name":"r","type":{"type":"ROW","fields":[` +
			`{"id":0,"name":"x","type":"INT"},{"id":0,"name":"y","type":"INT"}]}}]`, "highestFieldId": `2`}, "field id 0 is duplicated"},
		{"ids repeated across array and map rows", map[string]string{"fields": `[` +
			`{"id":1,"name":"l","type":{"type":"ARRAY","element":{"type":"ROW","fields":[{"id":0,"name":"x","type":"INT"}]}}},` +
			`{"id":3,"name":"m","type":{"type":"MAP","key":"INT NOT NULL","value":{"type":"ROW","fields":[{"id":0,"name":"y","type":"INT"}]}}}]`,
			"highestFieldId": `3`}, "field id 0 is duplicated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.Decode(build(tt.over))
			require.ErrorIs(t, err, schema.ErrCorrupt)
			require.ErrorContains(t, err, tt.msg)
		})
	}
	for _, bad := range []string{``, `{`, `[]`, `null`, `{"id":0}garbage`, "\xff"} {
		_, err := schema.Decode([]byte(bad))
		require.ErrorIs(t, err, schema.ErrCorrupt, "%q", bad)
	}
	// The base document itself is fine, and nulls count as absent.
	_, err := schema.Decode(build(map[string]string{"comment": "null", "timeMillis": "null"}))
	require.NoError(t, err)
}

func TestTableSchemaHelpers(t *testing.T) {
	s, err := schema.Decode(readTestdata(t, "java_schema_all_types.json"))
	require.NoError(t, err)
	require.Equal(t, []string{"c2"}, s.PartitionKeys)
	require.Equal(t, []string{"c0", "c1"}, s.TrimmedPrimaryKeys())
	require.Equal(t, []string{"c1"}, s.BucketKeys()) // bucket-key option wins
	require.Equal(t, "c1", s.BucketKeyFields()[0].Name)
	require.Equal(t, "c2", s.PartitionFields()[0].Name)
	require.Len(t, s.PrimaryKeyFields(), 3)
	require.Len(t, s.TrimmedPrimaryKeyFields(), 2)
	require.False(t, s.CrossPartitionUpdate())
	require.Equal(t, 20, s.FieldIndex("arr"))
	require.Equal(t, 22, s.FieldIndexByID(22))
	f, ok := s.FieldByName("r")
	require.True(t, ok)
	require.Equal(t, 22, f.ID)
	_, ok = s.FieldByID(30) // nested ids are not top-level columns
	require.False(t, ok)
	rt := s.RowType()
	require.True(t, rt.Nullable)
	require.Len(t, rt.Fields, len(s.Fields))
	require.Equal(t, "an array", *s.Fields[20].Description)
	require.Equal(t, "null", *s.Fields[24].DefaultValue)
	n, err := s.Bucket()
	require.NoError(t, err)
	require.Equal(t, 4, n)

	c := s.Clone()
	c.Options["bucket"] = "8"
	c.Fields[0].Name = "renamed"
	require.Equal(t, "4", s.Options["bucket"])
	require.Equal(t, "c0", s.Fields[0].Name)

	// Cross-partition update: the primary key does not cover the partition key.
	x := &schema.TableSchema{
		Fields: []schema.DataField{
			schema.NewField(0, "k", schema.IntType().NotNull()),
			schema.NewField(1, "p", schema.IntType()),
		},
		PartitionKeys: []string{"p"}, PrimaryKeys: []string{"k"}, Options: map[string]string{},
	}
	require.NoError(t, x.Validate())
	require.True(t, x.CrossPartitionUpdate())
	require.Equal(t, []string{"k"}, x.BucketKeys())

	// Java's split keeps spaces and drops trailing empty parts.
	x.PrimaryKeys = nil
	x.Options["bucket-key"] = "k,"
	require.Equal(t, []string{"k"}, x.BucketKeys())
	x.Options["bucket-key"] = "  "
	require.Empty(t, x.BucketKeys())
}

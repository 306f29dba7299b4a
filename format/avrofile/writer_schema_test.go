package avrofile_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/avro"
)

func field(name string, t schema.DataType) schema.DataField {
	return schema.DataField{Name: name, Type: t}
}

func row(fields ...schema.DataField) schema.DataType { return schema.RowType(fields...) }

// TestWriterSchemaJSON checks the header schema against what Java's
// AvroSchemaConverter.convertToSchema(...).toString() produces (derived
// from Java 1.4.2's source: record names, union order, defaults, logical
// types and key order). TestWriterMatchesJavaFiles checks the same against
// real Java files for the types those files hold.
func TestWriterSchemaJSON(t *testing.T) {
	str := schema.StringType()
	i := schema.IntType()
	nn := func(t schema.DataType) schema.DataType { return t.NotNull() }
	tests := []struct {
		name   string
		fields []schema.DataField
		want   []string // the fields of the top-level record
		// nonASCII marks names the names are valid for Java's Avro
		// (Character.isLetter) but not for the library behind
		// avro.ParseNode, which accepts ASCII names only.
		nonASCII bool
	}{
		{"primitives", []schema.DataField{
			field("b", nn(schema.BooleanType())),
			field("t", schema.TinyIntType()),
			field("s", nn(schema.SmallIntType())),
			field("l", nn(schema.BigIntType())),
			field("f", schema.FloatType()),
			field("d", nn(schema.DoubleType())),
			field("c", nn(schema.CharType(2))),
			field("bin", nn(schema.BinaryType(2))),
			field("blob", schema.BlobType()),
		}, []string{
			`{"name":"b","type":"boolean"}`,
			`{"name":"t","type":["null","int"],"default":null}`,
			`{"name":"s","type":"int"}`,
			`{"name":"l","type":"long"}`,
			`{"name":"f","type":["null","float"],"default":null}`,
			`{"name":"d","type":"double"}`,
			`{"name":"c","type":"string"}`,
			`{"name":"bin","type":"bytes"}`,
			`{"name":"blob","type":["null","bytes"],"default":null}`,
		}, false},
		{"logical types", []schema.DataField{
			field("dec", nn(schema.DecimalType(38, 0))),
			field("dt", nn(schema.DateType())),
			field("tm0", schema.TimeType(0)),
			field("ts0", nn(schema.TimestampType(0))),
			field("ts4", nn(schema.TimestampType(4))),
			field("ltz1", nn(schema.TimestampLTZType(1))),
			field("ltz6", schema.TimestampLTZType(6)),
		}, []string{
			`{"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":38,"scale":0}}`,
			`{"name":"dt","type":{"type":"int","logicalType":"date"}}`,
			`{"name":"tm0","type":["null",{"type":"int","logicalType":"time-millis"}],"default":null}`,
			`{"name":"ts0","type":{"type":"long","logicalType":"timestamp-millis"}}`,
			`{"name":"ts4","type":{"type":"long","logicalType":"timestamp-micros"}}`,
			`{"name":"ltz1","type":{"type":"long","logicalType":"local-timestamp-millis"}}`,
			`{"name":"ltz6","type":["null",{"type":"long","logicalType":"local-timestamp-micros"}],"default":null}`,
		}, false},
		{"arrays and vectors keep the row name", []schema.DataField{
			field("a", nn(schema.ArrayType(nn(i)))),
			field("ar", schema.ArrayType(row(field("x", i)))),
			field("v", nn(schema.VectorType(3, nn(schema.FloatType())))),
		}, []string{
			`{"name":"a","type":{"type":"array","items":"int"}}`,
			`{"name":"ar","type":["null",{"type":"array","items":["null",{"type":"record","name":"record_ar","fields":[{"name":"x","type":["null","int"],"default":null}]}]}],"default":null}`,
			`{"name":"v","type":{"type":"array","items":"float"}}`,
		}, false},
		{"string keys make Avro maps", []schema.DataField{
			field("m", nn(schema.MapType(nn(str), i))),
			field("mc", schema.MapType(nn(schema.CharType(3)), nn(row(field("x", nn(i)))))),
			field("ms", nn(schema.MultisetType(nn(schema.VarCharType(5))))),
		}, []string{
			`{"name":"m","type":{"type":"map","values":["null","int"]}}`,
			`{"name":"mc","type":["null",{"type":"map","values":{"type":"record","name":"record_mc","fields":[{"name":"x","type":"int"}]}}],"default":null}`,
			`{"name":"ms","type":{"type":"map","values":["null","int"]}}`,
		}, false},
		{"other keys make arrays of entry records", []schema.DataField{
			field("m", nn(schema.MapType(nn(i), nn(str)))),
			field("mn", schema.MapType(i, schema.ArrayType(str))),
			field("mr", nn(schema.MapType(nn(row(field("k", i))), row(field("v", i))))),
			field("ms", nn(schema.MultisetType(nn(schema.BigIntType())))),
		}, []string{
			`{"name":"m","type":{"type":"array","items":{"type":"record","name":"record_m","fields":[{"name":"key","type":"int"},{"name":"value","type":"string"}]},"logicalType":"map"}}`,
			// A nullable key gets no default; a nullable value does.
			`{"name":"mn","type":["null",{"type":"array","items":{"type":"record","name":"record_mn","fields":[{"name":"key","type":["null","int"]},{"name":"value","type":["null",{"type":"array","items":["null","string"]}],"default":null}]},"logicalType":"map"}],"default":null}`,
			`{"name":"mr","type":{"type":"array","items":{"type":"record","name":"record_mr","fields":[{"name":"key","type":{"type":"record","name":"record_mr_key","fields":[{"name":"k","type":["null","int"],"default":null}]}},{"name":"value","type":["null",{"type":"record","name":"record_mr_value","fields":[{"name":"v","type":["null","int"],"default":null}]}],"default":null}]},"logicalType":"map"}}`,
			`{"name":"ms","type":{"type":"array","items":{"type":"record","name":"record_ms","fields":[{"name":"key","type":"long"},{"name":"value","type":["null","int"],"default":null}]},"logicalType":"map"}}`,
		}, false},
		{"nested rows", []schema.DataField{
			field("r", nn(row(field("x", nn(i)), field("y", row(field("z", str)))))),
		}, []string{
			`{"name":"r","type":{"type":"record","name":"record_r","fields":[{"name":"x","type":"int"},{"name":"y","type":["null",{"type":"record","name":"record_r_y","fields":[{"name":"z","type":["null","string"],"default":null}]}],"default":null}]}}`,
		}, false},
		{"an equal record met again is a name reference", []schema.DataField{
			field("a_b", row(field("x", i))),
			field("a", row(field("b", row(field("x", i))))),
		}, []string{
			`{"name":"a_b","type":["null",{"type":"record","name":"record_a_b","fields":[{"name":"x","type":["null","int"],"default":null}]}],"default":null}`,
			`{"name":"a","type":["null",{"type":"record","name":"record_a","fields":[{"name":"b","type":["null","record_a_b"],"default":null}]}],"default":null}`,
		}, false},
		{"Avro names may hold non-ASCII letters", []schema.DataField{
			field("größe", nn(i)),
			field("_x1", nn(i)),
		}, []string{
			`{"name":"größe","type":"int"}`,
			`{"name":"_x1","type":"int"}`,
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := avrofile.NewWriter(&buf, tc.fields, &avrofile.WriterOptions{Compression: "null"})
			require.NoError(t, err)
			require.NoError(t, w.Close())
			require.Equal(t, recordSchema(tc.want...), w.Schema())
			require.True(t, bytes.Contains(buf.Bytes(), []byte(w.Schema())), "header holds the schema")
			_, err = avro.ParseNode(w.Schema())
			if tc.nonASCII {
				require.Error(t, err, "the reader learnt non-ASCII names: drop nonASCII")
				return
			}
			require.NoError(t, err, "not a valid Avro schema")
			require.Equal(t, w.Schema(), readParts(t, buf.Bytes()).schema)
		})
	}
}

// TestWriterSchemaRejects lists the columns Java cannot write as Avro.
func TestWriterSchemaRejects(t *testing.T) {
	i := schema.IntType()
	tests := []struct {
		name   string
		fields []schema.DataField
	}{
		{"TIME(4)", []schema.DataField{field("t", schema.TimeType(4))}},
		{"TIMESTAMP(7)", []schema.DataField{field("t", schema.TimestampType(7))}},
		{"TIMESTAMP_LTZ(9) nested", []schema.DataField{field("t", schema.ArrayType(schema.TimestampLTZType(9)))}},
		{"VARIANT", []schema.DataField{field("v", schema.VariantType())}},
		{"dash in name", []schema.DataField{field("a-b", i)}},
		{"space in name", []schema.DataField{field("a b", i)}},
		{"leading digit", []schema.DataField{field("1a", i)}},
		{"dot in name", []schema.DataField{field("a.b", i)}},
		{"outside the BMP", []schema.DataField{field("a\U0001D400", i)}},
		{"bad nested name", []schema.DataField{field("r", row(field("$x", i)))}},
		{"duplicate names", []schema.DataField{field("a", i), field("a", i)}},
		{"derived record names clash", []schema.DataField{
			field("a_b", row(field("x", i))),
			field("a", row(field("b", row(field("x", schema.BigIntType()))))),
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := avrofile.NewWriter(&buf, tc.fields, nil)
			require.ErrorIs(t, err, avrofile.ErrUnsupportedSchema)
			require.Zero(t, buf.Len(), "nothing written")
		})
	}
}

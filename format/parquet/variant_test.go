package parquet_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

func idField(name string, id int, typ arrow.DataType, nullable bool) arrow.Field {
	return arrow.Field{Name: name, Type: typ, Nullable: nullable,
		Metadata: arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{strconv.Itoa(id)})}
}

// TestVariantShreddedLayout reads VARIANT groups laid out as Java's
// shredding writer lays them out (PaimonShreddingUtils.variantShreddingSchema:
// metadata id 0, value id 1, typed_value id 2). Without typed_value the
// value and metadata come out by name, not swapped by their ids; with
// typed_value the value is rebuilt from it; a typed_value type Java's
// reader refuses (unannotated BINARY) is refused as unsupported (never
// corrupt), before any row.
func TestVariantShreddedLayout(t *testing.T) {
	md := []byte{0x01, 0x00, 0x00} // empty dictionary
	val := []byte{0x0c, 0x2a}      // int8 42
	field := []schema.DataField{{ID: 7, Name: "v", Type: schema.VariantType()}}

	unshreddedInShreddedLayout := arrow.NewSchema([]arrow.Field{idField("v", 7, arrow.StructOf(
		idField("metadata", 0, arrow.BinaryTypes.Binary, false),
		idField("value", 1, arrow.BinaryTypes.Binary, true),
	), false)}, nil)
	file := writeArrow(t, unshreddedInShreddedLayout, func(b *array.RecordBuilder) {
		sb := b.Field(0).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.BinaryBuilder).Append(md)
		sb.FieldBuilder(1).(*array.BinaryBuilder).Append(val)
	})
	rows, err := readAll(t, file, field, nil)
	require.NoError(t, err)
	require.Equal(t, [][]any{{data.Variant{Value: val, Metadata: md}}}, rows)

	shredded := arrow.NewSchema([]arrow.Field{idField("v", 7, arrow.StructOf(
		idField("metadata", 0, arrow.BinaryTypes.Binary, false),
		idField("value", 1, arrow.BinaryTypes.Binary, true),
		idField("typed_value", 2, arrow.PrimitiveTypes.Int32, true),
	), false)}, nil)
	file = writeArrow(t, shredded, func(b *array.RecordBuilder) {
		sb := b.Field(0).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.BinaryBuilder).Append(md)
		sb.FieldBuilder(1).(*array.BinaryBuilder).AppendNull()
		sb.FieldBuilder(2).(*array.Int32Builder).Append(42)
	})
	rows, err = readAll(t, file, field, nil)
	require.NoError(t, err)
	require.Equal(t, [][]any{{data.Variant{Value: val, Metadata: md}}}, rows)

	binaryTyped := arrow.NewSchema([]arrow.Field{idField("v", 7, arrow.StructOf(
		idField("metadata", 0, arrow.BinaryTypes.Binary, false),
		idField("value", 1, arrow.BinaryTypes.Binary, true),
		idField("typed_value", 2, arrow.BinaryTypes.Binary, true),
	), false)}, nil)
	file = writeArrow(t, binaryTyped, func(b *array.RecordBuilder) {
		sb := b.Field(0).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.BinaryBuilder).Append(md)
		sb.FieldBuilder(1).(*array.BinaryBuilder).AppendNull()
		sb.FieldBuilder(2).(*array.BinaryBuilder).Append([]byte{1})
	})
	rows, err = readAll(t, file, field, nil)
	require.ErrorIs(t, err, parquet.ErrUnsupported)
	require.ErrorIs(t, err, errors.ErrUnsupported)
	require.NotErrorIs(t, err, parquet.ErrCorrupt)
	require.Contains(t, err.Error(), "shredded VARIANT column v")
	require.Empty(t, rows)

	// Java's own unshredded layout (value id 0, metadata id 1) still reads.
	plain := arrow.NewSchema([]arrow.Field{idField("v", 7, arrow.StructOf(
		idField("value", 0, arrow.BinaryTypes.Binary, false),
		idField("metadata", 1, arrow.BinaryTypes.Binary, false),
	), false)}, nil)
	file = writeArrow(t, plain, func(b *array.RecordBuilder) {
		sb := b.Field(0).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.BinaryBuilder).Append(val)
		sb.FieldBuilder(1).(*array.BinaryBuilder).Append(md)
	})
	rows, err = readAll(t, file, field, nil)
	require.NoError(t, err)
	require.Equal(t, [][]any{{data.Variant{Value: val, Metadata: md}}}, rows)
}

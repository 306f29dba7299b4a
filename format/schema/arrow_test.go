package schema_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

func TestToArrowType(t *testing.T) {
	tests := []struct {
		paimon schema.DataType
		want   string // arrow's String() of the type
	}{
		{schema.BooleanType(), "bool"},
		{schema.TinyIntType(), "int8"},
		{schema.SmallIntType(), "int16"},
		{schema.IntType(), "int32"},
		{schema.BigIntType(), "int64"},
		{schema.FloatType(), "float32"},
		{schema.DoubleType(), "float64"},
		{schema.DecimalType(38, 10), "decimal(38, 10)"},
		{schema.CharType(3), "utf8"},
		{schema.VarCharType(30), "utf8"},
		{schema.StringType(), "utf8"},
		{schema.BinaryType(16), "binary"},
		{schema.BytesType(), "binary"},
		{schema.BlobType(), "large_binary"},
		{schema.DateType(), "date32"},
		{schema.TimeType(0), "time32[ms]"},
		{schema.TimeType(9), "time32[ms]"},
		{schema.TimestampType(0), "timestamp[ms]"},
		{schema.TimestampType(3), "timestamp[ms]"},
		{schema.TimestampType(4), "timestamp[us]"},
		{schema.TimestampType(6), "timestamp[us]"},
		{schema.TimestampType(7), "timestamp[ns]"},
		{schema.TimestampType(9), "timestamp[ns]"},
		{schema.TimestampLTZType(3), "timestamp[ms, tz=UTC]"},
		{schema.TimestampLTZType(6), "timestamp[us, tz=UTC]"},
		{schema.TimestampLTZType(9), "timestamp[ns, tz=UTC]"},
		{schema.ArrayType(schema.IntType()), "list<element: int32, nullable>"},
		{schema.ArrayType(schema.IntType().NotNull()), "list<element: int32>"},
		{schema.MapType(schema.StringType(), schema.IntType().NotNull()), "map<utf8, int32, items_non_nullable>"},
		{schema.MultisetType(schema.StringType()), "map<utf8, int32, items_non_nullable>"},
		{schema.VariantType(), "struct<value: binary, metadata: binary>"},
		{schema.VectorType(3, schema.FloatType()), "fixed_size_list<element: float32, nullable>[3]"},
		{schema.RowType(
			schema.NewField(1, "a", schema.IntType().NotNull()),
			schema.NewField(2, "b", schema.StringType()),
		), "struct<a: int32, b: utf8 nullable>"},
	}
	for _, tt := range tests {
		t.Run(tt.paimon.String(), func(t *testing.T) {
			at, err := schema.ToArrowType(tt.paimon)
			require.NoError(t, err)
			require.Equal(t, tt.want, at.String())
		})
	}
	_, err := schema.ToArrowType(schema.DecimalType(0, 0))
	require.ErrorIs(t, err, schema.ErrInvalidType)
}

func fieldID(t *testing.T, f arrow.Field) string {
	t.Helper()
	v, ok := f.Metadata.GetValue(schema.ParquetFieldIDKey)
	require.True(t, ok, "field %q has no id", f.Name)
	return v
}

// TestToArrowFieldIDs checks the Parquet field ids against Java's
// ParquetSchemaConverter + SpecialFields formulas.
func TestToArrowFieldIDs(t *testing.T) {
	// 5: ARRAY<MAP<STRING, ROW<x (9) ARRAY<INT>>>>
	inner := schema.RowType(schema.NewField(9, "x", schema.ArrayType(schema.IntType())))
	f := schema.NewField(5, "col", schema.ArrayType(schema.MapType(schema.StringType(), inner)).NotNull())
	af, err := schema.ToArrowField(f)
	require.NoError(t, err)
	require.Equal(t, "col", af.Name)
	require.False(t, af.Nullable)
	require.Equal(t, "5", fieldID(t, af))

	list := af.Type.(*arrow.ListType)
	elem := list.ElemField()
	require.Equal(t, "element", elem.Name)
	require.Equal(t, "536876032", fieldID(t, elem)) // MAX/4 + 5*1024 + 1

	m := elem.Type.(*arrow.MapType)
	require.Equal(t, "536865789", fieldID(t, m.KeyField()))  // MAX/4 - 5*1024 - 2
	require.Equal(t, "536876033", fieldID(t, m.ItemField())) // MAX/4 + 5*1024 + 2
	require.False(t, m.KeyField().Nullable)
	require.True(t, m.ItemField().Nullable)

	st := m.ItemType().(*arrow.StructType)
	x := st.Field(0)
	require.Equal(t, "9", fieldID(t, x))
	// Below a ROW field the depth restarts from that field's own id.
	require.Equal(t, "536880128", fieldID(t, x.Type.(*arrow.ListType).ElemField())) // MAX/4 + 9*1024 + 1

	// Java's int arithmetic wraps; so does ours.
	big, err := schema.ToArrowField(schema.NewField(1<<21, "big", schema.ArrayType(schema.IntType())))
	require.NoError(t, err)
	require.Equal(t, "-1610612736", fieldID(t, big.Type.(*arrow.ListType).ElemField()))

	// VARIANT's children are ids 0 and 1, required.
	v, err := schema.ToArrowField(schema.NewField(3, "v", schema.VariantType()))
	require.NoError(t, err)
	vs := v.Type.(*arrow.StructType)
	require.Equal(t, "0", fieldID(t, vs.Field(0)))
	require.Equal(t, "1", fieldID(t, vs.Field(1)))
	require.False(t, vs.Field(0).Nullable)

	// Multiset: key forced NOT NULL, count INT NOT NULL.
	ms, err := schema.ToArrowField(schema.NewField(2, "ms", schema.MultisetType(schema.IntType())))
	require.NoError(t, err)
	mm := ms.Type.(*arrow.MapType)
	require.False(t, mm.KeyField().Nullable)
	require.False(t, mm.ItemField().Nullable)
	require.Equal(t, arrow.INT32, mm.ItemType().ID())

	// ToArrowType has no column id, so list elements carry none.
	at, err := schema.ToArrowType(schema.ArrayType(schema.IntType()))
	require.NoError(t, err)
	_, ok := at.(*arrow.ListType).ElemField().Metadata.GetValue(schema.ParquetFieldIDKey)
	require.False(t, ok)
}

func TestToArrowSchema(t *testing.T) {
	s, err := schema.Decode(readTestdata(t, "java_schema_all_types.json"))
	require.NoError(t, err)
	as, err := schema.ToArrowSchema(s.Fields)
	require.NoError(t, err)
	require.Equal(t, len(s.Fields), as.NumFields())
	for i, f := range s.Fields {
		af := as.Field(i)
		require.Equal(t, f.Name, af.Name)
		require.Equal(t, f.Type.Nullable, af.Nullable)
	}
	_, err = schema.ToArrowSchema([]schema.DataField{schema.NewField(0, "bad", schema.CharType(0))})
	require.ErrorContains(t, err, `field "bad"`)
}

func TestFromArrowType(t *testing.T) {
	tests := []struct {
		arrow arrow.DataType
		want  string
	}{
		{arrow.FixedWidthTypes.Boolean, "BOOLEAN"},
		{arrow.PrimitiveTypes.Int8, "TINYINT"},
		{arrow.PrimitiveTypes.Int16, "SMALLINT"},
		{arrow.PrimitiveTypes.Int32, "INT"},
		{arrow.PrimitiveTypes.Int64, "BIGINT"},
		{arrow.PrimitiveTypes.Float32, "FLOAT"},
		{arrow.PrimitiveTypes.Float64, "DOUBLE"},
		{arrow.BinaryTypes.String, "STRING"},
		{arrow.BinaryTypes.LargeString, "STRING"},
		{arrow.BinaryTypes.StringView, "STRING"},
		{arrow.BinaryTypes.Binary, "BYTES"},
		{arrow.BinaryTypes.BinaryView, "BYTES"},
		{arrow.BinaryTypes.LargeBinary, "BLOB"},
		{&arrow.FixedSizeBinaryType{ByteWidth: 16}, "BINARY(16)"},
		{&arrow.Decimal128Type{Precision: 12, Scale: 3}, "DECIMAL(12, 3)"},
		{&arrow.Decimal64Type{Precision: 5, Scale: 0}, "DECIMAL(5, 0)"},
		{&arrow.Decimal256Type{Precision: 38, Scale: 2}, "DECIMAL(38, 2)"},
		{arrow.FixedWidthTypes.Date32, "DATE"},
		{arrow.FixedWidthTypes.Time32s, "TIME(0)"},
		{arrow.FixedWidthTypes.Time32ms, "TIME(3)"},
		{arrow.FixedWidthTypes.Time64us, "TIME(6)"},
		{arrow.FixedWidthTypes.Time64ns, "TIME(9)"},
		{&arrow.TimestampType{Unit: arrow.Second}, "TIMESTAMP(0)"},
		{&arrow.TimestampType{Unit: arrow.Millisecond}, "TIMESTAMP(3)"},
		{&arrow.TimestampType{Unit: arrow.Microsecond}, "TIMESTAMP(6)"},
		{&arrow.TimestampType{Unit: arrow.Nanosecond}, "TIMESTAMP(9)"},
		{&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Paris"}, "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
		{arrow.ListOf(arrow.PrimitiveTypes.Int32), "ARRAY<INT>"},
		{arrow.LargeListOfNonNullable(arrow.PrimitiveTypes.Int32), "ARRAY<INT NOT NULL>"},
		{arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), "VECTOR<FLOAT, 4>"},
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), "MAP<STRING NOT NULL, BIGINT>"},
		{arrow.StructOf(
			arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary},
			arrow.Field{Name: "metadata", Type: arrow.BinaryTypes.Binary},
		), "VARIANT"},
		{arrow.StructOf(
			arrow.Field{Name: "metadata", Type: arrow.BinaryTypes.Binary},
			arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary},
		), "ROW<`metadata` BYTES NOT NULL, `value` BYTES NOT NULL>"},
		{arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), "ROW<`a` INT>"},
		{&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, "STRING"},
	}
	for _, tt := range tests {
		t.Run(tt.arrow.String(), func(t *testing.T) {
			got, err := schema.FromArrowType(tt.arrow, true)
			require.NoError(t, err)
			require.Equal(t, tt.want, got.String())
			nn, err := schema.FromArrowType(tt.arrow, false)
			require.NoError(t, err)
			require.False(t, nn.Nullable)
		})
	}

	for _, bad := range []arrow.DataType{
		arrow.PrimitiveTypes.Uint8, arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Date64,
		arrow.FixedWidthTypes.Duration_ms, arrow.Null, &arrow.Decimal256Type{Precision: 60, Scale: 2},
		arrow.FixedSizeListOf(2, arrow.BinaryTypes.String), arrow.ListOf(arrow.PrimitiveTypes.Uint64),
	} {
		_, err := schema.FromArrowType(bad, true)
		require.Error(t, err, bad.String())
	}
	_, err := schema.FromArrowType(nil, true)
	require.ErrorIs(t, err, schema.ErrUnsupported)
}

// TestArrowRoundTrip: FromArrowSchema inverts ToArrowSchema for types whose
// Arrow form is not lossy.
func TestArrowRoundTrip(t *testing.T) {
	s, err := schema.NewSchemaBuilder().
		Column("b", schema.BooleanType().NotNull()).
		Column("i8", schema.TinyIntType()).
		Column("i16", schema.SmallIntType()).
		Column("i32", schema.IntType()).
		Column("i64", schema.BigIntType()).
		Column("f32", schema.FloatType()).
		Column("f64", schema.DoubleType()).
		Column("dec", schema.DecimalType(20, 4)).
		Column("s", schema.StringType()).
		Column("bin", schema.BytesType()).
		Column("blob", schema.BlobType()).
		Column("d", schema.DateType()).
		Column("t", schema.TimeType(3)).
		Column("ts3", schema.TimestampType(3)).
		Column("ts6", schema.TimestampType(6)).
		Column("ts9", schema.TimestampType(9)).
		Column("ltz", schema.TimestampLTZType(6).NotNull()).
		Column("v", schema.VariantType()).
		Column("arr", schema.ArrayType(schema.ArrayType(schema.StringType().NotNull()))).
		Column("m", schema.MapType(schema.StringType().NotNull(), schema.RowType(
			schema.NewField(0, "x", schema.IntType()),
			schema.NewField(0, "y", schema.RowType(schema.NewField(0, "z", schema.DoubleType()))),
		))).
		Column("vec", schema.VectorType(8, schema.FloatType().NotNull())).
		Build()
	require.NoError(t, err)
	as, err := schema.ToArrowSchema(s.Fields)
	require.NoError(t, err)
	back, err := schema.FromArrowSchema(as)
	require.NoError(t, err)
	require.Len(t, back, len(s.Fields))
	for i := range s.Fields {
		require.True(t, s.Fields[i].Equal(back[i]), "%s vs %s", s.Fields[i], back[i])
	}
}

func TestFromArrowSchemaAssignsIDs(t *testing.T) {
	as := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "y", Type: arrow.StructOf(arrow.Field{Name: "p", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
		), Nullable: true},
		{Name: "c", Type: arrow.BinaryTypes.String},
	}, nil)
	fields, err := schema.FromArrowSchema(as)
	require.NoError(t, err)
	// Java's Schema.Builder numbering: a=0, b=1, x=2, p=3, y=4, c=5.
	require.Equal(t, 0, fields[0].ID)
	require.Equal(t, 1, fields[1].ID)
	require.Equal(t, 2, fields[1].Type.Fields[0].ID)
	require.Equal(t, 4, fields[1].Type.Fields[1].ID)
	require.Equal(t, 3, fields[1].Type.Fields[1].Type.Fields[0].ID)
	require.Equal(t, 5, fields[2].ID)
	require.False(t, fields[2].Type.Nullable)
	highest, err := schema.HighestFieldID(fields)
	require.NoError(t, err)
	require.Equal(t, 5, highest)

	_, err = schema.FromArrowSchema(arrow.NewSchema([]arrow.Field{{Name: "u", Type: arrow.PrimitiveTypes.Uint32}}, nil))
	require.ErrorIs(t, err, schema.ErrUnsupported)
	require.ErrorContains(t, err, `field "u"`)
}

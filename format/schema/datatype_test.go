package schema_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

func TestDataTypeString(t *testing.T) {
	tests := []struct {
		t    schema.DataType
		want string
	}{
		{schema.DecimalType(10, 2).NotNull(), "DECIMAL(10, 2) NOT NULL"},
		{schema.VarCharType(20), "VARCHAR(20)"},
		{schema.StringType(), "STRING"},
		{schema.BytesType().NotNull(), "BYTES NOT NULL"},
		{schema.TimestampLTZType(3), "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
		{schema.TimeType(0), "TIME(0)"},
		{schema.ArrayType(schema.IntType()), "ARRAY<INT>"},
		{schema.MapType(schema.StringType().NotNull(), schema.IntType()).NotNull(), "MAP<STRING NOT NULL, INT> NOT NULL"},
		{schema.VectorType(3, schema.FloatType()), "VECTOR<FLOAT, 3>"},
		{schema.RowType(schema.NewField(0, "a`b", schema.IntType()).WithDescription("")), "ROW<`a``b` INT>"},
		{schema.DataType{}, "INVALID NOT NULL"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			require.Equal(t, tt.want, tt.t.String())
		})
	}
}

func TestDataTypeEquality(t *testing.T) {
	a := schema.ArrayType(schema.IntType())
	require.True(t, a.Equal(schema.ArrayType(schema.IntType())))
	require.False(t, a.Equal(a.NotNull()))
	require.True(t, a.EqualIgnoreNullable(a.NotNull()))
	// Like Java, only the outer nullability is relaxed.
	require.False(t, a.EqualIgnoreNullable(schema.ArrayType(schema.IntType().NotNull())))

	r1 := schema.RowType(schema.NewField(0, "x", schema.IntType()))
	r2 := schema.RowType(schema.NewField(5, "x", schema.IntType()))
	require.False(t, r1.Equal(r2))
	require.True(t, r1.EqualIgnoreFieldIDs(r2))
	require.False(t, r1.Equal(schema.RowType(schema.NewField(0, "x", schema.IntType()).WithDescription("d"))))

	// Parameters that do not apply to the root are ignored.
	require.True(t, schema.IntType().Equal(schema.DataType{Root: schema.Int, Nullable: true, Length: 9}))
	require.False(t, schema.CharType(2).Equal(schema.VarCharType(2)))
}

func TestDataTypeCopyIsDeep(t *testing.T) {
	orig := schema.MapType(schema.StringType(), schema.RowType(schema.NewField(0, "x", schema.IntType()).WithDescription("d")))
	c := orig.NotNull()
	require.False(t, c.Nullable)
	require.True(t, orig.Nullable)
	c.Key.Length = 5
	c.Value.Fields[0].Name = "y"
	*c.Value.Fields[0].Description = "changed"
	require.Equal(t, "MAP<STRING, ROW<`x` INT COMMENT 'd'>>", orig.String())
}

func TestTypeRoot(t *testing.T) {
	require.Equal(t, "TIMESTAMP_LTZ", schema.TimestampLTZ.String())
	require.Equal(t, "TypeRoot(99)", schema.TypeRoot(99).String())
	for _, r := range []schema.TypeRoot{schema.Array, schema.Multiset, schema.Map, schema.Row, schema.Vector} {
		require.True(t, r.IsNested(), r.String())
	}
	require.False(t, schema.Variant.IsNested())
	require.True(t, schema.Decimal.IsNumeric())
	require.False(t, schema.Decimal.IsIntegerNumeric())
	require.True(t, schema.RowType().IsNested())
	require.False(t, schema.InvalidRoot.IsValid())
	require.True(t, schema.Vector.IsValid())
}

func TestRowFieldLookup(t *testing.T) {
	r := schema.RowType(
		schema.NewField(3, "a", schema.IntType()),
		schema.NewField(9, "b", schema.StringType()),
	)
	require.Equal(t, []string{"a", "b"}, r.FieldNames())
	require.Equal(t, 1, r.FieldIndex("b"))
	require.Equal(t, -1, r.FieldIndex("z"))
	require.Equal(t, 0, r.FieldIndexByID(3))
	f, ok := r.FieldByID(9)
	require.True(t, ok)
	require.Equal(t, "b", f.Name)
	_, ok = r.FieldByName("z")
	require.False(t, ok)
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		t    schema.DataType
		msg  string
	}{
		{"ok", schema.MapType(schema.IntType(), schema.ArrayType(schema.DecimalType(38, 38))), ""},
		{"zero value", schema.DataType{}, "unknown type root"},
		{"varchar 0", schema.VarCharType(0), "length 0"},
		{"decimal scale", schema.DecimalType(3, 4), "scale 4"},
		{"time precision", schema.TimeType(-1), "precision -1"},
		{"array nil element", schema.DataType{Root: schema.Array}, "missing element"},
		{"map nil value", schema.DataType{Root: schema.Map, Key: &schema.DataType{Root: schema.Int}}, "missing key or value"},
		{"vector length", schema.VectorType(0, schema.IntType()), "length 0"},
		{"nested bad", schema.ArrayType(schema.RowType(schema.NewField(0, "a", schema.CharType(0)))), "length 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.t.Validate()
			if tt.msg == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, schema.ErrInvalidType)
			require.ErrorContains(t, err, tt.msg)
		})
	}
}

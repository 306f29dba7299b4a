package paimon

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

func le32(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
func le64(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

func TestSelectRowGroups(t *testing.T) {
	fields := []schema.DataField{
		schema.NewField(0, "id", schema.BigIntType()),
		schema.NewField(1, "name", schema.StringType()),
		schema.NewField(2, "n", schema.IntType()),
		schema.NewField(3, "x", schema.DoubleType()),
	}
	group := func(rows int64, idLo, idHi int64, nameLo, nameHi string, nNulls int64) parquet.RowGroupInfo {
		return parquet.RowGroupInfo{NumRows: rows, Columns: []parquet.ColumnChunkInfo{
			{Path: "id", HasNullCount: true, HasMinMax: true, Min: le64(idLo), Max: le64(idHi)},
			{Path: "name", HasNullCount: true, HasMinMax: true, Min: []byte(nameLo), Max: []byte(nameHi)},
			{Path: "n", HasNullCount: true, NullCount: nNulls, HasMinMax: nNulls < rows, Min: le32(1), Max: le32(9)},
			{Path: "x", HasNullCount: true, HasMinMax: true, Min: le64(0), Max: le64(0)},
		}}
	}
	groups := []parquet.RowGroupInfo{
		group(10, 0, 9, "a", "c", 0),
		group(10, 10, 19, "d", "f", 10),
		group(10, 20, 29, "g", "k", 3),
	}
	for _, tc := range []struct {
		name   string
		filter *predicate.Predicate
		want   []int
	}{
		{"range on int64", predicate.GreaterOrEqual("id", int64(15)), []int{1, 2}},
		{"equality", predicate.Equal("id", int64(5)), []int{0}},
		{"string range", predicate.LessThan("name", "d"), []int{0}},
		{"starts with", predicate.StartsWith("name", "h"), []int{2}},
		{"is null uses null counts", predicate.IsNull("n"), []int{1, 2}},
		{"is not null", predicate.IsNotNull("n"), []int{0, 2}},
		{"or", predicate.Or(predicate.Equal("id", int64(1)), predicate.Equal("name", "k")), []int{0, 2}},
		{"doubles are never used", predicate.GreaterThan("x", 1.0), []int{0, 1, 2}},
		{"nothing matches", predicate.Equal("id", int64(100)), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := predicate.Bind(tc.filter, fields)
			require.NoError(t, err)
			st := &scanState{readFields: fields, residual: res}
			got, pruned := st.selectRowGroups(groups, fields)
			require.Equal(t, tc.want, got)
			require.Equal(t, len(tc.want) < len(groups), pruned)
		})
	}

	t.Run("evolved type is not used", func(t *testing.T) {
		res, err := predicate.Bind(predicate.Equal("id", int64(100)), fields)
		require.NoError(t, err)
		st := &scanState{readFields: fields, residual: res}
		fileFields := append([]schema.DataField(nil), fields...)
		fileFields[0] = schema.NewField(0, "id", schema.IntType()) // the file still has INT
		got, pruned := st.selectRowGroups(groups, fileFields)
		require.Equal(t, []int{0, 1, 2}, got)
		require.False(t, pruned)
	})
}

func TestPlainStat(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		t    schema.DataType
		want any
		ok   bool
	}{
		{[]byte{1}, schema.BooleanType(), true, true},
		{le32(-3), schema.TinyIntType(), int8(-3), true},
		{le32(300), schema.TinyIntType(), nil, false},
		{le32(-30000), schema.SmallIntType(), int16(-30000), true},
		{le32(19783), schema.DateType(), int32(19783), true},
		{le64(-1), schema.BigIntType(), int64(-1), true},
		{[]byte{1, 2}, schema.IntType(), nil, false},
		{[]byte("héllo"), schema.StringType(), "héllo", true},
		{le64(0), schema.DoubleType(), nil, false},
	} {
		got, ok := plainStat(tc.b, tc.t)
		require.Equal(t, tc.ok, ok, "%s", tc.t)
		require.Equal(t, tc.want, got, "%s", tc.t)
	}
}

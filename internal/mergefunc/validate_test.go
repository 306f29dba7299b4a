package mergefunc_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

func TestNewFactoryValidation(t *testing.T) {
	agg := func(kv ...string) map[string]string {
		o := map[string]string{"merge-engine": "aggregation"}
		for i := 0; i < len(kv); i += 2 {
			o[kv[i]] = kv[i+1]
		}
		return o
	}
	pu := func(kv ...string) map[string]string {
		o := agg(kv...)
		o["merge-engine"] = "partial-update"
		return o
	}
	one := func(opts map[string]string, t schema.DataType) *schema.TableSchema { return tbl(opts, fld("v", t)) }
	grouped := func(opts map[string]string) *schema.TableSchema {
		return tbl(opts, fld("a", schema.IntType()), fld("g", schema.IntType()), fld("b", schema.IntType()), fld("h", schema.IntType()))
	}
	noPK := tbl(nil, fld("v", schema.IntType()))
	noPK.PrimaryKeys = nil
	crossPartition := tbl(map[string]string{"sequence.field": "v"}, fld("v", schema.IntType()), fld("p", schema.IntType()))
	crossPartition.PartitionKeys = []string{"p"}
	rowVal := schema.RowType(fld("x", schema.StringType()), fld("t", schema.IntType()))
	tests := []struct {
		name string
		ts   *schema.TableSchema
		err  error
		msg  string
	}{
		{"nil schema", nil, mergefunc.ErrInvalid, "nil table schema"},
		{"no primary key", noPK, mergefunc.ErrInvalid, "no primary key"},
		{"unknown engine", one(map[string]string{"merge-engine": "latest"}, schema.IntType()), mergefunc.ErrInvalid, "merge-engine"},
		{"bad boolean", one(map[string]string{"ignore-delete": "yes"}, schema.IntType()), mergefunc.ErrInvalid, "'ignore-delete'"},
		{"bad fallback boolean", one(map[string]string{"first-row.ignore-delete": "1"}, schema.IntType()), mergefunc.ErrInvalid, "'first-row.ignore-delete'"},
		{"fields option for unknown field", one(map[string]string{"fields.w.aggregate-function": "sum"}, schema.IntType()), mergefunc.ErrInvalid, "field w can not be found"},
		{"fields option without field", one(map[string]string{"fields": "x"}, schema.IntType()), mergefunc.ErrInvalid, "names no field"},
		{"sum on string", one(agg("fields.v.aggregate-function", "sum"), schema.StringType()), mergefunc.ErrInvalid, "'NumericType'"},
		{"product on boolean", one(agg("fields.v.aggregate-function", "product"), schema.BooleanType()), mergefunc.ErrInvalid, "'NumericType'"},
		{"bool_and on int", one(agg("fields.v.aggregate-function", "bool_and"), schema.IntType()), mergefunc.ErrInvalid, "'BooleanType'"},
		{"listagg on bounded varchar", one(agg("fields.v.aggregate-function", "listagg"), schema.VarCharType(10)), mergefunc.ErrInvalid, "unbounded VARCHAR"},
		{"listagg on char", one(agg("fields.v.aggregate-function", "listagg"), schema.CharType(10)), mergefunc.ErrInvalid, "'VarCharType'"},
		{"collect on int", one(agg("fields.v.aggregate-function", "collect"), schema.IntType()), mergefunc.ErrInvalid, "'Array'"},
		{"merge_map on multiset", one(agg("fields.v.aggregate-function", "merge_map"), schema.MultisetType(schema.IntType())), mergefunc.ErrInvalid, "'MAP'"},
		{"rbm32 on binary", one(agg("fields.v.aggregate-function", "rbm32"), schema.BinaryType(8)), mergefunc.ErrInvalid, "'VarBinaryType'"},
		{"theta_sketch on string", one(agg("fields.v.aggregate-function", "theta_sketch"), schema.StringType()), mergefunc.ErrInvalid, "'VarBinaryType'"},
		{"nested_update on array of int", one(agg("fields.v.aggregate-function", "nested_update"), arr(schema.IntType())), mergefunc.ErrInvalid, "'Array<Row>'"},
		{"nested_partial_update without key", one(agg("fields.v.aggregate-function", "nested_partial_update"), arr(rowVal)), mergefunc.ErrInvalid, "nested-key"},
		{"nested key not a field", one(agg("fields.v.aggregate-function", "nested_update", "fields.v.nested-key", "zz"), arr(rowVal)), mergefunc.ErrInvalid, "nested key zz"},
		{"bad count-limit", one(agg("fields.v.aggregate-function", "nested_update", "fields.v.count-limit", "many"), arr(rowVal)), mergefunc.ErrInvalid, "count-limit"},
		{"2.0 nested option", one(agg("fields.v.aggregate-function", "nested_update", "fields.v.nested-key-null-strategy", "IGNORE"), arr(rowVal)),
			mergefunc.ErrUnsupported, "Java 2.0.0"},
		{"keytime on non-row values", one(agg("fields.v.aggregate-function", "merge_map_with_keytime"), schema.MapType(schema.IntType(), schema.IntType())),
			mergefunc.ErrInvalid, "must be ROW"},
		{"keytime missing ts-field", one(agg("fields.v.aggregate-function", "merge_map_with_keytime", "fields.v.ts-field", "zz"), schema.MapType(schema.IntType(), rowVal)),
			mergefunc.ErrInvalid, "timestamp field 'zz'"},
		{"keytime non-string ts-field", one(agg("fields.v.aggregate-function", "merge_map_with_keytime"), schema.MapType(schema.IntType(), rowVal)),
			mergefunc.ErrUnsupported, "read by Java as a string"},
		{"unknown function", one(agg("fields.v.aggregate-function", "median"), schema.IntType()), mergefunc.ErrUnsupported, "median"},
		{"unknown function is invalid too", one(agg("fields.v.aggregate-function", "median"), schema.IntType()), mergefunc.ErrInvalid, "median"},
		{"unknown function on the key", one(agg("fields.id.aggregate-function", "median"), schema.IntType()), mergefunc.ErrInvalid, "median"},
		{"unknown default function", one(agg("fields.default-aggregate-function", "median"), schema.IntType()), mergefunc.ErrInvalid, "median"},
		{"ignore-retract with remove-record-on-delete", one(agg("fields.v.ignore-retract", "true", "aggregation.remove-record-on-delete", "true"), schema.IntType()),
			mergefunc.ErrInvalid, "conflicting"},
		{"partial-update aggregate without group", one(pu("fields.v.aggregate-function", "sum"), schema.IntType()), mergefunc.ErrInvalid, "must use sequence group"},
		{"partial-update default aggregate without group", one(pu("fields.default-aggregate-function", "max"), schema.IntType()), mergefunc.ErrInvalid, "must use sequence group"},
		{"partial-update ignore-delete and remove-record-on-delete", one(pu("ignore-delete", "true", "partial-update.remove-record-on-delete", "true"), schema.IntType()),
			mergefunc.ErrInvalid, "conflicting"},
		{"partial-update ignore-delete and remove-on-sequence-group", grouped(pu("fields.g.sequence-group", "a", "ignore-delete", "true", "partial-update.remove-record-on-sequence-group", "g")),
			mergefunc.ErrInvalid, "conflicting"},
		{"partial-update remove-record-on-delete with groups", grouped(pu("fields.g.sequence-group", "a", "partial-update.remove-record-on-delete", "true")),
			mergefunc.ErrInvalid, "conflicting"},
		{"remove-on-sequence-group names a non-sequence field", grouped(pu("fields.g.sequence-group", "a", "partial-update.remove-record-on-sequence-group", "a")),
			mergefunc.ErrInvalid, "must be part of sequence groups"},
		{"field in two groups", grouped(pu("fields.g.sequence-group", "a", "fields.h.sequence-group", "a,b")), mergefunc.ErrInvalid, "defined repeatedly"},
		{"group protects unknown field", grouped(pu("fields.g.sequence-group", "a,zz")), mergefunc.ErrInvalid, "field zz can not be found"},
		{"group on array sequence field", tbl(pu("fields.g.sequence-group", "a"), fld("a", schema.IntType()), fld("g", arr(schema.IntType()))),
			mergefunc.ErrUnsupported, "sequence group field g"},
		{"unknown sequence field", one(map[string]string{"sequence.field": "v, w"}, schema.IntType()), mergefunc.ErrInvalid, "'w' can not be found"},
		{"repeated sequence field", one(map[string]string{"sequence.field": "v,v"}, schema.IntType()), mergefunc.ErrInvalid, "defined repeatedly"},
		{"aggregate on sequence field", one(agg("sequence.field", "v", "fields.v.aggregate-function", "sum"), schema.IntType()), mergefunc.ErrInvalid, "aggregation on sequence field"},
		{"first-row with sequence field", one(map[string]string{"merge-engine": "first-row", "sequence.field": "v"}, schema.IntType()), mergefunc.ErrInvalid, "FIRST_ROW"},
		{"cross partition sequence field", crossPartition, mergefunc.ErrInvalid, "cross partition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mergefunc.NewFactory(tt.ts)
			require.ErrorIs(t, err, tt.err)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestNewFactoryAccepts(t *testing.T) {
	tests := []struct {
		name string
		opts map[string]string
	}{
		{"engine case-insensitive", map[string]string{"merge-engine": "Partial-Update"}},
		{"boolean case-insensitive", map[string]string{"ignore-delete": "TRUE"}},
		{"default function option name", map[string]string{"merge-engine": "aggregation", "fields.default-aggregate-function": "max"}},
		// The key's configured function is not used (the key keeps its value)
		// but must exist.
		{"function on key", map[string]string{"merge-engine": "aggregation", "fields.id.aggregate-function": "sum"}},
		{"sequence field on dedup", map[string]string{"sequence.field": " v ", "sequence.field.sort-order": "DESCENDING"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mergefunc.NewFactory(tbl(tt.opts, fld("v", schema.IntType())))
			require.NoError(t, err)
		})
	}
}

func TestSequenceOrder(t *testing.T) {
	ts := func(opts map[string]string) *schema.TableSchema {
		return tbl(opts, fld("v", schema.StringType()), fld("s1", schema.IntType()), fld("s2", schema.DoubleType()))
	}
	idx, err := mergefunc.SequenceFields(ts(map[string]string{"sequence.field": "s2 ,s1"}))
	require.NoError(t, err)
	require.Equal(t, []int{3, 2}, idx)
	idx, err = mergefunc.SequenceFields(ts(nil))
	require.NoError(t, err)
	require.Nil(t, idx)
	_, err = mergefunc.SequenceDescending(ts(map[string]string{"sequence.field.sort-order": "down"}))
	require.ErrorIs(t, err, mergefunc.ErrInvalid)

	r := func(seq int64, s1, s2 any) *mergefunc.Row {
		return &mergefunc.Row{Seq: seq, Kind: data.Insert, Values: []any{int32(1), "x", s1, s2}}
	}
	tests := []struct {
		name string
		opts map[string]string
		a, b *mergefunc.Row
		want int
	}{
		{"no sequence field: by seq", nil, r(1, int32(9), nil), r(2, int32(1), nil), -1},
		{"ascending", map[string]string{"sequence.field": "s1"}, r(1, int32(9), nil), r(2, int32(1), nil), 1},
		{"tie falls back to seq", map[string]string{"sequence.field": "s1"}, r(2, int32(1), nil), r(1, int32(1), nil), 1},
		{"null first", map[string]string{"sequence.field": "s1"}, r(2, nil, nil), r(1, int32(1), nil), -1},
		{"descending", map[string]string{"sequence.field": "s1", "sequence.field.sort-order": "descending"}, r(1, int32(9), nil), r(2, int32(1), nil), -1},
		{"descending keeps null first", map[string]string{"sequence.field": "s1", "sequence.field.sort-order": "descending"}, r(2, nil, nil), r(1, int32(1), nil), -1},
		{"second field", map[string]string{"sequence.field": "s1,s2"}, r(1, int32(1), 2.5), r(2, int32(1), 1.5), 1},
		{"NaN ties", map[string]string{"sequence.field": "s2"}, r(2, nil, nanValue()), r(1, nil, 1.0), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmp, err := mergefunc.VersionOrder(ts(tt.opts))
			require.NoError(t, err)
			got, err := cmp(tt.a, tt.b)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

package mergefunc_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

// TestValueEqualiser: changelog-producer.row-deduplicate's equality skips
// the ignored fields, treats NULL as equal only to NULL, and refuses the
// fields whose Java comparison is not reproduced (FLOAT/DOUBLE differ
// between 1.4.2 and 2.0.0; MAP goes through java.util.Map).
func TestValueEqualiser(t *testing.T) {
	fields := []schema.DataField{
		{ID: 0, Name: "k", Type: schema.IntType()},
		{ID: 1, Name: "s", Type: schema.StringType()},
		{ID: 2, Name: "d", Type: schema.DoubleType()},
	}
	_, err := mergefunc.ValueEqualiser(fields, nil)
	require.ErrorIs(t, err, mergefunc.ErrUnsupported)
	eq, err := mergefunc.ValueEqualiser(fields, []string{"d"})
	require.NoError(t, err)
	for _, c := range []struct {
		a, b []any
		want bool
	}{
		{[]any{int32(1), "x", 1.0}, []any{int32(1), "x", 2.0}, true},
		{[]any{int32(1), "x", 1.0}, []any{int32(1), "y", 1.0}, false},
		{[]any{int32(1), nil, 1.0}, []any{int32(1), nil, 1.0}, true},
		{[]any{int32(1), nil, 1.0}, []any{int32(1), "", 1.0}, false},
	} {
		got, err := eq(c.a, c.b)
		require.NoError(t, err)
		require.Equal(t, c.want, got, "%v %v", c.a, c.b)
	}
	m := schema.MapType(schema.IntType(), schema.IntType())
	_, err = mergefunc.ValueEqualiser([]schema.DataField{{ID: 0, Name: "m", Type: m}}, nil)
	require.ErrorIs(t, err, mergefunc.ErrUnsupported)
}

// TestNewEngine: the raw engine runs on a lone version (Java's
// LookupMergeFunction), where the Factory's Functions pass it unchanged
// (ReducerMergeFunctionWrapper); first-row has none, deduplicate's skips
// retractions under ignore-delete even alone.
func TestNewEngine(t *testing.T) {
	ts := &schema.TableSchema{Fields: []schema.DataField{
		{ID: 0, Name: "k", Type: schema.IntType().NotNull()},
		{ID: 1, Name: "v", Type: schema.BigIntType()},
	}, PrimaryKeys: []string{"k"}, Options: map[string]string{"merge-engine": "aggregation", "fields.v.aggregate-function": "sum"}}
	f, err := mergefunc.NewFactory(ts)
	require.NoError(t, err)
	eng, ok := mergefunc.NewEngine(f)
	require.True(t, ok)
	eng.Reset()
	require.NoError(t, eng.Add(&mergefunc.Row{Seq: 3, Kind: data.UpdateAfter, Values: []any{int32(1), int64(5)}}))
	res, err := eng.Result()
	require.NoError(t, err)
	require.Equal(t, data.Insert, res.Kind)
	require.Equal(t, int64(3), res.Seq)
	fn := f.New()
	require.NoError(t, fn.Add(&mergefunc.Row{Seq: 3, Kind: data.UpdateAfter, Values: []any{int32(1), int64(5)}}))
	res, err = fn.Result()
	require.NoError(t, err)
	require.Equal(t, data.UpdateAfter, res.Kind)
	ts.Options = map[string]string{"merge-engine": "first-row"}
	f, err = mergefunc.NewFactory(ts)
	require.NoError(t, err)
	_, ok = mergefunc.NewEngine(f)
	require.False(t, ok)
	ts.Options = map[string]string{"ignore-delete": "true"}
	f, err = mergefunc.NewFactory(ts)
	require.NoError(t, err)
	eng, ok = mergefunc.NewEngine(f)
	require.True(t, ok)
	eng.Reset()
	require.NoError(t, eng.Add(&mergefunc.Row{Seq: 3, Kind: data.Delete, Values: []any{int32(1), int64(5)}}))
	res, err = eng.Result()
	require.NoError(t, err)
	require.Nil(t, res)
}

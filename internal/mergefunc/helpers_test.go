package mergefunc_test

import (
	"math"
	"math/big"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

// tbl builds a table schema whose first field is the primary key "id" (INT
// NOT NULL) followed by the given fields.
func tbl(opts map[string]string, fields ...schema.DataField) *schema.TableSchema {
	all := []schema.DataField{schema.NewField(0, "id", schema.IntType().NotNull())}
	for i, f := range fields {
		f.ID = i + 1
		all = append(all, f)
	}
	return &schema.TableSchema{Fields: all, PrimaryKeys: []string{"id"}, Options: opts, HighestFieldID: len(all) - 1}
}

func fld(name string, t schema.DataType) schema.DataField { return schema.NewField(0, name, t) }

// v builds a version of key 1: sequence number, kind, then the values of the
// fields after the key.
func v(seq int64, kind data.RowKind, vals ...any) mergefunc.Row {
	return mergefunc.Row{Seq: seq, Kind: kind, Values: append([]any{int32(1)}, vals...)}
}

func ins(seq int64, vals ...any) mergefunc.Row { return v(seq, data.Insert, vals...) }
func del(seq int64, vals ...any) mergefunc.Row { return v(seq, data.Delete, vals...) }
func ub(seq int64, vals ...any) mergefunc.Row  { return v(seq, data.UpdateBefore, vals...) }

// merge runs the versions through a fresh Function of the table.
func merge(t *testing.T, ts *schema.TableSchema, rows ...mergefunc.Row) (*mergefunc.Row, error) {
	t.Helper()
	f, err := mergefunc.NewFactory(ts)
	require.NoError(t, err)
	return mergeWith(f.New(), rows...)
}

func mergeWith(fn mergefunc.Function, rows ...mergefunc.Row) (*mergefunc.Row, error) {
	fn.Reset()
	for i := range rows {
		if err := fn.Add(&rows[i]); err != nil {
			return nil, err
		}
	}
	return fn.Result()
}

// want is an expected merge outcome: a row (kind and the values after the
// key), no row, or an error.
type want struct {
	kind   data.RowKind
	vals   []any
	none   bool
	err    error
	errMsg string
}

func row(kind data.RowKind, vals ...any) want { return want{kind: kind, vals: vals} }
func fails(err error, msg string) want        { return want{err: err, errMsg: msg} }

func (w want) check(t *testing.T, got *mergefunc.Row, err error) {
	t.Helper()
	if w.err != nil {
		require.ErrorIs(t, err, w.err)
		require.Contains(t, err.Error(), w.errMsg)
		return
	}
	require.NoError(t, err)
	if w.none {
		require.Nil(t, got)
		return
	}
	require.NotNil(t, got)
	require.Equal(t, w.kind, got.Kind, "row kind")
	require.True(t, sameValue(w.vals, got.Values[1:]), "want %#v\ngot  %#v", w.vals, got.Values[1:])
}

// sameValue is deep equality with floats compared by bits (NaN equals NaN,
// -0.0 differs from 0.0) and decimals by unscaled value, precision and
// scale.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case data.Decimal:
		y, ok := b.(data.Decimal)
		return ok && x.Precision == y.Precision && x.Scale == y.Scale && x.Unscaled.Cmp(y.Unscaled) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case data.Map:
		y, ok := b.(data.Map)
		return ok && sameValue(x.Keys, y.Keys) && sameValue(x.Values, y.Values)
	}
	return reflect.DeepEqual(a, b)
}

// nestedKeyOrder returns the expected result of a nested aggregator keyed
// by the given element fields: the rows in the iteration order of a Java
// HashMap of 16 bins keyed by the key BinaryRow (binaryrow.Hash is
// verified against Java's BinaryRow.hashCode), in insertion order within a
// bin, or reversed when filled with computeIfAbsent.
func nestedKeyOrder(t *testing.T, et schema.DataType, keyIdx []int, prepend bool, rows []any) want {
	t.Helper()
	var types []schema.DataType
	for _, i := range keyIdx {
		types = append(types, et.Fields[i].Type)
	}
	bins := make([][]any, 16)
	for _, r := range rows {
		vals := make([]any, len(keyIdx))
		for j, i := range keyIdx {
			vals[j] = r.([]any)[i]
		}
		b, err := binaryrow.Encode(data.Insert, types, vals)
		require.NoError(t, err)
		h := binaryrow.Hash(b)
		bin := (h ^ int32(uint32(h)>>16)) & 15
		if prepend {
			bins[bin] = append([]any{r}, bins[bin]...)
		} else {
			bins[bin] = append(bins[bin], r)
		}
	}
	var out []any
	for _, b := range bins {
		out = append(out, b...)
	}
	return row(data.Insert, out)
}

func dec(unscaled int64, p, s int) data.Decimal { return data.NewDecimalFromInt64(unscaled, p, s) }

func bigDec(unscaled string, p, s int) data.Decimal {
	u, ok := new(big.Int).SetString(unscaled, 10)
	if !ok {
		panic(unscaled)
	}
	return data.Decimal{Unscaled: u, Precision: p, Scale: s}
}

func arr(t schema.DataType) schema.DataType { return schema.ArrayType(t) }

func nanValue() float64 { return math.NaN() }

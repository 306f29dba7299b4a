package binaryrow_test

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

func tOf(root schema.TypeRoot) schema.DataType { return schema.DataType{Root: root, Nullable: true} }

func tArray(e schema.DataType) schema.DataType {
	return schema.DataType{Root: schema.Array, Nullable: true, Element: &e}
}

func tMultiset(e schema.DataType) schema.DataType {
	return schema.DataType{Root: schema.Multiset, Nullable: true, Element: &e}
}

func tMap(k, v schema.DataType) schema.DataType {
	return schema.DataType{Root: schema.Map, Nullable: true, Key: &k, Value: &v}
}

func tRow(fs ...schema.DataType) schema.DataType {
	t := schema.DataType{Root: schema.Row, Nullable: true}
	for i, f := range fs {
		t.Fields = append(t.Fields, schema.DataField{ID: i, Name: fmt.Sprintf("f%d", i), Type: f})
	}
	return t
}

func tVector(e schema.DataType, n int) schema.DataType {
	return schema.DataType{Root: schema.Vector, Nullable: true, Element: &e, Length: n}
}

func dec(s string, p, scale int) data.Decimal {
	u, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return data.Decimal{Unscaled: u, Precision: p, Scale: scale}
}

// canon maps a value to a form require.Equal compares by value: decimals
// become strings (big.Int internals differ between equal numbers) and
// floats become their bits (NaN != NaN).
func canon(v any) any {
	switch x := v.(type) {
	case data.Decimal:
		return fmt.Sprintf("dec(%s,%d)", x.Unscaled, x.Scale)
	case float32:
		return fmt.Sprintf("f32(%#x)", math.Float32bits(x))
	case float64:
		return fmt.Sprintf("f64(%#x)", math.Float64bits(x))
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = canon(x[i])
		}
		return out
	case data.Map:
		return data.Map{Keys: canon(x.Keys).([]any), Values: canon(x.Values).([]any)}
	case []byte:
		if x == nil {
			return []byte{}
		}
	case data.Variant:
		if x.Value == nil {
			x.Value = []byte{}
		}
		if x.Metadata == nil {
			x.Metadata = []byte{}
		}
		return x
	}
	return v
}

func requireSameValues(t *testing.T, want, got []any, msgAndArgs ...any) {
	t.Helper()
	if want == nil {
		want = []any{}
	}
	require.Equal(t, canon(want), canon(got), msgAndArgs...)
}

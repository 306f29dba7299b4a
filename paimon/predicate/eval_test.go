package predicate_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	p "github.com/paimon-go/paimon-go/paimon/predicate"
)

// row builds a row of testFields with the given values set.
func row(kv map[int]any) []any {
	r := make([]any, 15)
	for k, v := range kv {
		r[k] = v
	}
	return r
}

func TestEvalRows(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name string
		pred *p.Predicate
		rows []map[int]any
		want []bool
	}{
		{"equal", p.Equal("i", 5), []map[int]any{{2: int32(5)}, {2: int32(4)}, {}}, []bool{true, false, false}},
		{"not equal", p.NotEqual("i", 5), []map[int]any{{2: int32(5)}, {2: int32(4)}, {}}, []bool{false, true, false}},
		{"less", p.LessThan("i", 5), []map[int]any{{2: int32(4)}, {2: int32(5)}, {}}, []bool{true, false, false}},
		{"less eq", p.LessOrEqual("i", 5), []map[int]any{{2: int32(5)}, {2: int32(6)}, {}}, []bool{true, false, false}},
		{"greater", p.GreaterThan("i", 5), []map[int]any{{2: int32(6)}, {2: int32(5)}, {}}, []bool{true, false, false}},
		{"greater eq", p.GreaterOrEqual("i", 5), []map[int]any{{2: int32(5)}, {2: int32(4)}, {}}, []bool{true, false, false}},
		{"in", p.In("i", 1, nil, 3), []map[int]any{{2: int32(3)}, {2: int32(2)}, {}}, []bool{true, false, false}},
		{"not in", p.NotIn("i", 1, 3), []map[int]any{{2: int32(3)}, {2: int32(2)}, {}}, []bool{false, true, false}},
		{"not in with null", p.NotIn("i", 1, nil), []map[int]any{{2: int32(2)}}, []bool{false}},
		{"in empty", p.In("i"), []map[int]any{{2: int32(2)}}, []bool{false}},
		{"not in empty", p.NotIn("i"), []map[int]any{{2: int32(2)}, {}}, []bool{true, false}},
		{"is null", p.IsNull("i"), []map[int]any{{2: int32(3)}, {}}, []bool{false, true}},
		{"is not null", p.IsNotNull("i"), []map[int]any{{2: int32(3)}, {}}, []bool{true, false}},
		{"starts with", p.StartsWith("dt", "2026-"), []map[int]any{{0: "2026-08"}, {0: "2025"}, {0: "2026"}, {}},
			[]bool{true, false, false, false}},
		{"starts with empty", p.StartsWith("dt", ""), []map[int]any{{0: ""}, {}}, []bool{true, false}},
		{"null literal", p.Equal("i", nil), []map[int]any{{2: int32(3)}, {}}, []bool{false, false}},
		{"not equal null literal", p.NotEqual("i", nil), []map[int]any{{2: int32(3)}}, []bool{false}},
		{"and", p.And(p.GreaterThan("i", 1), p.LessThan("i", 5)), []map[int]any{{2: int32(3)}, {2: int32(5)}, {}},
			[]bool{true, false, false}},
		{"or", p.Or(p.Equal("i", 1), p.IsNull("i")), []map[int]any{{2: int32(1)}, {2: int32(2)}, {}},
			[]bool{true, false, true}},
		// NOT is Java's negate: NOT (i = 1) is i != 1, false on NULL.
		{"not", p.Not(p.Equal("i", 1)), []map[int]any{{2: int32(1)}, {2: int32(2)}, {}}, []bool{false, true, false}},
		{"not not", p.Not(p.Not(p.Equal("i", 1))), []map[int]any{{2: int32(1)}, {}}, []bool{true, false}},
		{"not and", p.Not(p.And(p.Equal("i", 1), p.IsNotNull("dt"))),
			[]map[int]any{{2: int32(1), 0: "x"}, {2: int32(1)}, {2: int32(2), 0: "x"}, {}}, []bool{false, true, true, true}},
		{"not in negated", p.Not(p.In("i", 1)), []map[int]any{{2: int32(1)}, {2: int32(2)}, {}}, []bool{false, true, false}},
		{"not is null", p.Not(p.IsNull("i")), []map[int]any{{2: int32(1)}, {}}, []bool{true, false}},
		{"not less", p.Not(p.LessThan("i", 3)), []map[int]any{{2: int32(3)}, {2: int32(2)}}, []bool{true, false}},
		{"not greater", p.Not(p.GreaterThan("i", 3)), []map[int]any{{2: int32(3)}, {2: int32(4)}}, []bool{true, false}},
		{"string unsigned utf8", p.LessThan("dt", "z"), []map[int]any{{0: "é"}, {0: "a"}}, []bool{false, true}},
		{"bytes signed", p.LessThan("b", []byte{0x01}), []map[int]any{{5: []byte{0x80}}, {5: []byte{0x02}}, {5: []byte{}}},
			[]bool{true, false, true}},
		{"decimal by value", p.Equal("d", "1.5"), []map[int]any{{3: data.NewDecimalFromInt64(15000, 12, 4)}, {3: data.NewDecimalFromInt64(151, 10, 2)}},
			[]bool{true, false}},
		{"timestamp", p.GreaterThan("ts", data.Timestamp{Millis: 10, NanoOfMilli: 5}),
			[]map[int]any{{6: data.Timestamp{Millis: 10, NanoOfMilli: 6}}, {6: data.Timestamp{Millis: 10, NanoOfMilli: 5}}, {6: data.Timestamp{Millis: 9, NanoOfMilli: 999_999}}},
			[]bool{true, false, false}},
		{"double java order", p.Equal("f", 0.0), []map[int]any{{4: 0.0}, {4: negZero}}, []bool{true, false}},
		{"double nan greatest", p.GreaterThan("f", math.Inf(1)), []map[int]any{{4: math.NaN()}, {4: math.Inf(1)}}, []bool{true, false}},
		{"nan equals nan", p.Equal("f", math.NaN()), []map[int]any{{4: math.NaN()}}, []bool{true}},
		{"float", p.LessThan("r", 0.5), []map[int]any{{11: float32(0.25)}, {11: float32(0.5)}}, []bool{true, false}},
		{"bool", p.LessThan("ok", true), []map[int]any{{8: false}, {8: true}}, []bool{true, false}},
		{"wrong go type in row", p.Equal("i", 1), []map[int]any{{2: int64(1)}}, []bool{false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustBind(t, tt.pred)
			for i, r := range tt.rows {
				require.Equal(t, tt.want[i], b.Test(row(r)), "row %d: %v", i, r)
			}
		})
	}
	// A short row reads missing values as NULL.
	require.True(t, mustBind(t, p.IsNull("c")).Test(nil))
}

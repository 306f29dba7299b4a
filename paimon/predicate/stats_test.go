package predicate_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	p "github.com/paimon-go/paimon-go/paimon/predicate"
)

// st is one statistics summary of column i (index 2, INT).
type st struct {
	rows     int64
	min, max any
	nulls    *int64
}

func (s st) test(b *p.Bound) bool {
	mins, maxs := make([]any, 15), make([]any, 15)
	ncs := make([]*int64, 15)
	mins[2], maxs[2], ncs[2] = s.min, s.max, s.nulls
	return b.TestStats(s.rows, mins, maxs, ncs)
}

func TestEvalStats(t *testing.T) {
	known := func(lo, hi int32, nulls int64) st { return st{10, lo, hi, i64(nulls)} }
	unknownMinMax := st{10, nil, nil, i64(2)}
	unknownAll := st{10, nil, nil, nil}
	noNullCount := st{10, int32(3), int32(7), nil}
	allNull := st{10, nil, nil, i64(10)}
	empty := st{0, nil, nil, i64(0)}
	tests := []struct {
		name  string
		pred  *p.Predicate
		stats []st
		want  []bool
	}{
		{"equal", p.Equal("i", 5), []st{known(3, 7, 0), known(5, 5, 0), known(6, 7, 0), known(1, 4, 0), unknownMinMax, unknownAll, noNullCount, allNull, empty},
			[]bool{true, true, false, false, true, true, true, false, false}},
		{"equal at edges", p.Equal("i", 3), []st{known(3, 7, 0), known(1, 3, 0)}, []bool{true, true}},
		{"not equal", p.NotEqual("i", 5), []st{known(5, 5, 0), known(5, 5, 3), known(5, 6, 0), known(4, 5, 0), unknownAll, allNull},
			[]bool{false, false, true, true, true, false}},
		{"less", p.LessThan("i", 5), []st{known(5, 9, 0), known(4, 9, 0), unknownMinMax, allNull}, []bool{false, true, true, false}},
		{"less eq", p.LessOrEqual("i", 5), []st{known(5, 9, 0), known(6, 9, 0), allNull}, []bool{true, false, false}},
		{"greater", p.GreaterThan("i", 5), []st{known(1, 5, 0), known(1, 6, 0), allNull}, []bool{false, true, false}},
		{"greater eq", p.GreaterOrEqual("i", 5), []st{known(1, 5, 0), known(1, 4, 0), noNullCount}, []bool{true, false, true}},
		{"in", p.In("i", 1, nil, 9), []st{known(3, 7, 0), known(1, 2, 0), known(8, 9, 0), unknownAll, allNull},
			[]bool{false, true, true, true, false}},
		{"in only null", p.In("i", nil), []st{known(3, 7, 0)}, []bool{false}},
		{"not in", p.NotIn("i", 5, 6), []st{known(5, 5, 0), known(6, 6, 4), known(5, 6, 0), unknownAll, allNull},
			[]bool{false, false, true, true, false}},
		{"not in null", p.NotIn("i", 1, nil), []st{known(3, 7, 0)}, []bool{false}},
		{"is null", p.IsNull("i"), []st{known(3, 7, 0), known(3, 7, 1), unknownMinMax, noNullCount, allNull, empty},
			[]bool{false, true, true, true, true, false}},
		{"is not null", p.IsNotNull("i"), []st{known(3, 7, 0), known(3, 7, 9), unknownMinMax, noNullCount, allNull, empty},
			[]bool{true, true, true, true, false, false}},
		{"null literal", p.Equal("i", nil), []st{known(3, 7, 0), noNullCount}, []bool{false, false}},
		{"and", p.And(p.GreaterThan("i", 5), p.LessThan("i", 7)), []st{known(1, 5, 0), known(1, 6, 0), known(7, 9, 0)}, []bool{false, true, false}},
		{"or", p.Or(p.Equal("i", 1), p.IsNull("i")), []st{known(3, 7, 0), known(3, 7, 1), known(1, 7, 0)}, []bool{false, true, true}},
		{"wrong stats type", p.Equal("i", 1), []st{{10, int64(5), int64(6), i64(0)}}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustBind(t, tt.pred)
			for i, s := range tt.stats {
				require.Equal(t, tt.want[i], s.test(b), "stats %d: %+v", i, s)
			}
		})
	}
}

func TestStartsWithStats(t *testing.T) {
	b := mustBind(t, p.StartsWith("dt", "ab"))
	tests := []struct {
		min, max string
		want     bool
	}{
		{"aa", "az", true},
		{"ab", "ab", true},
		{"abc", "abz", true},
		{"a", "ab", true},
		{"aa", "aaz", false},
		{"ac", "zz", false},
		{"a", "aazz", false},
		{"aa", "b", true},
	}
	for _, tt := range tests {
		t.Run(tt.min+"-"+tt.max, func(t *testing.T) {
			got := b.TestStats(5, []any{tt.min}, []any{tt.max}, []*int64{i64(0)})
			require.Equal(t, tt.want, got)
		})
	}
	require.True(t, b.TestStats(5, nil, nil, nil), "unknown stats")
	require.False(t, b.TestStats(5, nil, nil, []*int64{i64(5)}), "all null")
}

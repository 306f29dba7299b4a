package predicate_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	p "github.com/paimon-go/paimon-go/paimon/predicate"
)

func TestString(t *testing.T) {
	tests := []struct {
		name      string
		pred      *p.Predicate
		unbound   string
		bound     string
		bindError bool
	}{
		{"and", p.And(p.Equal("dt", "2026-08-01"), p.GreaterThan("amount", 100)),
			"dt = '2026-08-01' AND amount > 100", "dt = '2026-08-01' AND amount > 100", false},
		{"nested", p.And(p.Or(p.IsNull("i"), p.In("i", 1, 2)), p.NotIn("dt", "a", "b'c")),
			"(i IS NULL OR i IN (1, 2)) AND dt NOT IN ('a', 'b''c')",
			"(i IS NULL OR i IN (1, 2)) AND dt NOT IN ('a', 'b''c')", false},
		{"not", p.Not(p.And(p.LessThan("i", 3), p.IsNotNull("dt"))),
			"NOT (i < 3 AND dt IS NOT NULL)", "i >= 3 OR dt IS NULL", false},
		{"startswith", p.StartsWith("dt", "2026"), "dt STARTS WITH '2026'", "dt STARTS WITH '2026'", false},
		{"decimal", p.LessOrEqual("d", "1.5"), "d <= '1.5'", "d <= 1.50", false},
		{"date", p.GreaterOrEqual("day", 1), "day >= 1", "day >= '1970-01-02'", false},
		{"bytes", p.NotEqual("b", []byte{0xab}), "b != X'ab'", "b != X'ab'", false},
		{"null literal", p.In("i", nil, 1), "i IN (NULL, 1)", "i IN (NULL, 1)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.unbound, tt.pred.String())
			require.Equal(t, tt.bound, mustBind(t, tt.pred).String())
		})
	}
}

func TestKindString(t *testing.T) {
	require.Equal(t, "IS NOT NULL", p.KindIsNotNull.String())
	require.Equal(t, "STARTS WITH", p.KindStartsWith.String())
	require.True(t, p.KindIn.IsLeaf())
	require.False(t, p.KindOr.IsLeaf())
}

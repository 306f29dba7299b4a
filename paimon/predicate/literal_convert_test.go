package predicate_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	p "github.com/paimon-go/paimon-go/paimon/predicate"
)

// TestLooseLiterals: numbers convert to any numeric column when exact, and
// ISO-8601 text to DATE, TIME and TIMESTAMP columns.
func TestLooseLiterals(t *testing.T) {
	tests := []struct {
		name string
		pred *p.Predicate
		want any
	}{
		{"int64 to DOUBLE", p.GreaterThan("f", int64(100)), 100.0},
		{"int to FLOAT", p.Equal("r", 3), float32(3)},
		{"whole float to INT", p.Equal("i", 2.0), int32(2)},
		{"float to BIGINT", p.Equal("amount", float32(7)), int64(7)},
		{"float to DECIMAL", p.Equal("d", 1.5), data.Decimal{Unscaled: big.NewInt(150), Precision: 10, Scale: 2}},
		{"int to DECIMAL", p.Equal("d", int64(3)), data.Decimal{Unscaled: big.NewInt(300), Precision: 10, Scale: 2}},
		{"text to DATE", p.Equal("day", "1970-01-02"), int32(1)},
		{"text to TIME", p.Equal("tm", "00:00:01.5"), int32(1500)},
		{"text to TIMESTAMP", p.Equal("ts", "1970-01-01T00:00:01.000002"), data.Timestamp{Millis: 1000, NanoOfMilli: 2000}},
		{"text with space to TIMESTAMP", p.Equal("ts", "1970-01-01 00:00:02"), data.Timestamp{Millis: 2000}},
		{"zoned text to TIMESTAMP_LTZ", p.Equal("ltz", "1970-01-01T01:00:00+01:00"), data.Timestamp{Millis: 0}},
		{"wall-clock text to TIMESTAMP_LTZ is UTC", p.Equal("ltz", "1970-01-01 00:00:03"), data.Timestamp{Millis: 3000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := p.Bind(tt.pred, testFields)
			require.NoError(t, err)
			lits := b.Literals()
			require.Len(t, lits, 1)
			if d, ok := tt.want.(data.Decimal); ok {
				got := lits[0].(data.Decimal)
				require.Equal(t, 0, d.Unscaled.Cmp(got.Unscaled), "%v", got)
				require.Equal(t, d.Scale, got.Scale)
				return
			}
			require.Equal(t, tt.want, lits[0])
		})
	}
	for _, bad := range []*p.Predicate{
		p.Equal("i", 2.5),                        // not whole
		p.Equal("tiny", 300.0),                   // out of range
		p.Equal("f", int64(1)<<53+1),             // not exact as DOUBLE
		p.Equal("ts", "1970-01-01T00:00:00Z"),    // TIMESTAMP has no zone
		p.Equal("tm", "12:00:00.0001"),           // TIME holds milliseconds
		p.Equal("day", time.Now().Format("Jan")), // not ISO
	} {
		_, err := p.Bind(bad, testFields)
		require.ErrorIs(t, err, p.ErrTypeMismatch, "%v", bad)
	}
}

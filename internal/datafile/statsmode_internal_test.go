package datafile

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		n        int
		min, max string
		ok       bool
	}{
		{"short", "abc", 5, "abc", "abc", true},
		{"exact", "abcde", 5, "abcde", "abcde", true},
		{"ascii", "abcdef", 3, "abc", "abd", true},
		{"multi-byte", "ééé", 2, "éé", "éê", true},
		{"supplementary", "a😀b", 2, "a😀", "a😁", true},
		{"max code point walks back", "a\U0010FFFFz", 2, "a\U0010FFFF", "b", true},
		{"all max code points", "\U0010FFFF\U0010FFFFz", 2, "\U0010FFFF\U0010FFFF", "", false},
		{"surrogate quirk", "a\uD7FFz", 2, "a\uD7FF", "a?", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.min, truncateMin(tt.in, tt.n))
			got, ok := truncateMax(tt.in, tt.n)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.max, got)
		})
	}
}

func TestConvert(t *testing.T) {
	n := int64(2)
	long := strings.Repeat("\U0010FFFF", 3)
	tests := []struct {
		name string
		mode statsMode
		in   colStats
		want colStats
	}{
		{"none", statsMode{kind: modeNone}, colStats{1, 2, &n}, colStats{}},
		{"counts", statsMode{kind: modeCounts}, colStats{1, 2, &n}, colStats{nullCount: &n}},
		{"full", statsMode{kind: modeFull}, colStats{"x", "y", &n}, colStats{"x", "y", &n}},
		{"truncate keeps numbers", statsMode{kind: modeTruncate, length: 1}, colStats{int64(10), int64(20), &n}, colStats{int64(10), int64(20), &n}},
		{"truncate fails", statsMode{kind: modeTruncate, length: 2}, colStats{"a", long, &n}, colStats{nullCount: &n}},
		{"only nulls", statsMode{kind: modeTruncate, length: 2}, colStats{nil, nil, &n}, colStats{nullCount: &n}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.mode.convert(tt.in))
		})
	}
}

func TestJavaFloatCompare(t *testing.T) {
	negZero := math.Copysign(0, -1)
	order := []float64{math.Inf(-1), -1, negZero, 0, 1, math.Inf(1), math.NaN()}
	for i, a := range order {
		for j, b := range order {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			require.Equal(t, want, javaFloatCompare(a, b), "%v vs %v", a, b)
		}
	}
	require.Zero(t, javaFloatCompare(math.NaN(), math.Float64frombits(0x7ff0000000000001)))
}

func TestParseStatsMode(t *testing.T) {
	for in, want := range map[string]statsMode{
		"none": {kind: modeNone}, "Counts": {kind: modeCounts}, "FULL": {kind: modeFull},
		"truncate(16)": {kind: modeTruncate, length: 16}, "TRUNCATE(1)": {kind: modeTruncate, length: 1},
	} {
		got, err := parseStatsMode(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "truncate(0)", "truncate(-1)", "truncate", "some"} {
		_, err := parseStatsMode(in)
		require.ErrorIs(t, err, ErrInvalid, in)
	}
}

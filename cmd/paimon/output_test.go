package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseTime(t *testing.T) {
	loc := time.FixedZone("X", 2*3600)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"1700000000000", time.UnixMilli(1700000000000)},
		{"2024-05-01T12:00:00Z", time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)},
		{"2024-05-01T12:00:00.5+01:00", time.Date(2024, 5, 1, 11, 0, 0, 500_000_000, time.UTC)},
		{"2024-05-01 12:00:00", time.Date(2024, 5, 1, 12, 0, 0, 0, loc)},
		{"2024-05-01T12:00:00.123", time.Date(2024, 5, 1, 12, 0, 0, 123_000_000, loc)},
		{"2024-05-01 12:00", time.Date(2024, 5, 1, 12, 0, 0, 0, loc)},
		{" 2024-05-01 ", time.Date(2024, 5, 1, 0, 0, 0, 0, loc)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseTime(tt.in, loc)
			require.NoError(t, err)
			require.True(t, tt.want.Equal(got), "got %s want %s", got, tt.want)
		})
	}
	for _, bad := range []string{"", "yesterday", "2024-13-01", "12:00"} {
		_, err := parseTime(bad, loc)
		require.Error(t, err, bad)
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"1700000000000", "2024-05-01T12:00:00Z", "2024-05-01 12:00:00.5", "2024-05-01", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parseTime(s, time.UTC)
	})
}

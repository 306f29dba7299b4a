package paimon

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

func TestPartitionPath(t *testing.T) {
	ts := &schema.TableSchema{
		Fields: []schema.DataField{
			schema.NewField(0, "dt", schema.DateType()),
			schema.NewField(1, "k/v", schema.StringType()),
			schema.NewField(2, "ts", schema.TimestampType(3)),
		},
		PartitionKeys: []string{"dt", "k/v", "ts"},
		Options:       map[string]string{},
	}
	p, err := newPartitionPather(ts)
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		values []any
		legacy bool
		want   string
	}{
		{"legacy date is the day number", []any{int32(19783), "a", data.Timestamp{Millis: 0}}, true, "dt=19783/k%2Fv=a/ts=1970-01-01T00%3A00/"},
		{"escaping", []any{int32(0), "x=y:z%#'\"*?\\{}[]^\x01", data.Timestamp{Millis: 1500}}, true, "dt=0/k%2Fv=x%3Dy%3Az%25%23%27%22%2A%3F%5C%7B%7D%5B%5D%5E%01/ts=1970-01-01T00%3A00%3A01.500/"},
		{"nulls and blanks use the default name", []any{nil, " ", nil}, true, "dt=__DEFAULT_PARTITION__/k%2Fv=__DEFAULT_PARTITION__/ts=__DEFAULT_PARTITION__/"},
		{"non-legacy casts to string", []any{int32(19783), "a", data.Timestamp{Millis: 1500}}, false, "dt=2024-03-01/k%2Fv=a/ts=1970-01-01 00%3A00%3A01.500/"},
		{"utf-8 is kept", []any{int32(1), "✓ ok", data.Timestamp{Millis: 0, NanoOfMilli: 1000}}, true, "dt=1/k%2Fv=✓ ok/ts=1970-01-01T00%3A00%3A00.000001/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.legacy = tc.legacy
			got, err := p.path(tc.values)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestParseMemorySize(t *testing.T) {
	for s, want := range map[string]int64{"128 mb": 128 << 20, "4MB": 4 << 20, "1": 1, "2k": 2048, "1 gb": 1 << 30, "3b": 3} {
		got, err := ParseMemorySize(s)
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	for _, s := range []string{"", "mb", "1 zb", "99999999999999999999"} {
		_, err := ParseMemorySize(s)
		require.Error(t, err, s)
	}
}

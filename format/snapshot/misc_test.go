package snapshot_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/snapshot"
)

func TestConsumer(t *testing.T) {
	c := snapshot.Consumer{NextSnapshot: 5}
	require.Equal(t, "{\n  \"nextSnapshot\" : 5\n}", string(c.Encode()))

	tests := []struct {
		in   string
		want int64
	}{
		{`{"nextSnapshot" : 5}`, 5},
		{"{\n  \"nextSnapshot\" : 9223372036854775807\n}", math.MaxInt64},
		{`{"nextSnapshot":12,"other":[1]}`, 12},
		{`{}`, 0},
		{`{"nextSnapshot":null}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := snapshot.DecodeConsumer([]byte(tt.in))
			require.NoError(t, err)
			require.Equal(t, tt.want, got.NextSnapshot)
		})
	}
	for _, bad := range []string{``, `{`, `[]`, `{"nextSnapshot":"x"}`, `{"nextSnapshot":1.5}`} {
		t.Run("corrupt "+bad, func(t *testing.T) {
			_, err := snapshot.DecodeConsumer([]byte(bad))
			require.ErrorIs(t, err, snapshot.ErrCorrupt)
		})
	}
}

func TestHint(t *testing.T) {
	require.Equal(t, "42", string(snapshot.FormatHint(42)))
	require.Equal(t, "9223372036854775807", string(snapshot.FormatHint(math.MaxInt64)))
	require.Equal(t, "EARLIEST", snapshot.EarliestHint)
	require.Equal(t, "LATEST", snapshot.LatestHint)

	tests := []struct {
		in   string
		want int64
	}{
		{"42", 42},
		{"1", 1},
		{"42\n", 42},
		{" \t42\r\n", 42},
		{"-1", -1},
		{"+7", 7},
		{"9223372036854775807", math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := snapshot.ParseHint([]byte(tt.in))
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
	for _, bad := range []string{"", " ", "4 2", "0x10", "1.0", "abc", "9223372036854775808", "\x00"} {
		t.Run("corrupt "+bad, func(t *testing.T) {
			_, err := snapshot.ParseHint([]byte(bad))
			require.ErrorIs(t, err, snapshot.ErrCorrupt)
		})
	}
}

const statisticsJSON = `{
  "snapshotId" : 3,
  "schemaId" : 1,
  "mergedRecordCount" : 100,
  "mergedRecordSize" : 4096,
  "colStats" : {
    "name" : {
      "colId" : 1,
      "distinctCount" : 10,
      "min" : "a",
      "max" : "z",
      "nullCount" : 0,
      "avgLen" : 5,
      "maxLen" : 12
    },
    "id" : {
      "colId" : 0,
      "nullCount" : 2
    }
  }
}`

func TestStatistics(t *testing.T) {
	s, err := snapshot.DecodeStatistics([]byte(statisticsJSON))
	require.NoError(t, err)
	require.Equal(t, int64(3), s.SnapshotID)
	require.Equal(t, int64(1), s.SchemaID)
	require.Equal(t, int64(100), *s.MergedRecordCount)
	require.Equal(t, int64(4096), *s.MergedRecordSize)
	require.Equal(t, &snapshot.ColStats{
		ColID: 1, DistinctCount: ptr[int64](10), Min: ptr("a"), Max: ptr("z"),
		NullCount: ptr[int64](0), AvgLen: ptr[int64](5), MaxLen: ptr[int64](12),
	}, s.ColStats["name"])
	require.Equal(t, &snapshot.ColStats{ColID: 0, NullCount: ptr[int64](2)}, s.ColStats["id"])
	require.Equal(t, statisticsJSON, string(s.Encode()), "column order survives a round trip")

	t.Run("minimal", func(t *testing.T) {
		s := snapshot.Statistics{SnapshotID: 1}
		require.Equal(t, "{\n  \"snapshotId\" : 1,\n  \"schemaId\" : 0,\n  \"colStats\" : null\n}", string(s.Encode()))
		s.ColStats = map[string]*snapshot.ColStats{}
		require.Equal(t, "{\n  \"snapshotId\" : 1,\n  \"schemaId\" : 0,\n  \"colStats\" : { }\n}", string(s.Encode()))
		s.ColStats["x"] = nil
		require.Equal(t, "{\n  \"snapshotId\" : 1,\n  \"schemaId\" : 0,\n  \"colStats\" : {\n    \"x\" : null\n  }\n}", string(s.Encode()))
		got, err := snapshot.DecodeStatistics(s.Encode())
		require.NoError(t, err)
		require.Equal(t, s, *got)
	})
	t.Run("coerced min max", func(t *testing.T) {
		s, err := snapshot.DecodeStatistics([]byte(`{"snapshotId":1,"colStats":{"c":{"colId":2,"min":-5,"max":1.5e3,"x":1}}}`))
		require.NoError(t, err)
		require.Equal(t, "-5", *s.ColStats["c"].Min)
		require.Equal(t, "1.5e3", *s.ColStats["c"].Max)
	})
	for _, bad := range []string{``, `[]`, `{"snapshotId":"a"}`, `{"colStats":[]}`, `{"colStats":{"c":1}}`,
		`{"colStats":{"c":{"colId":2147483648}}}`, `{"colStats":{"c":{"min":[]}}}`, `{"colStats":{"c":{"min":{}}}}`} {
		t.Run("corrupt "+bad, func(t *testing.T) {
			_, err := snapshot.DecodeStatistics([]byte(bad))
			require.ErrorIs(t, err, snapshot.ErrCorrupt)
		})
	}
}

package snapshot_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/snapshot"
)

func addTestdataSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		require.NoError(f, err)
		f.Add(b)
	}
	full := fullSnapshot()
	f.Add(full.Encode())
	f.Add([]byte(`{"id":3,"commitIdentifier":"42","logOffsets":{"0":17}}`))
	f.Add([]byte(`{"version":3,"tagCreateTime":[2024,1,2,3,4],"tagTimeRetained":1e-05}`))
	f.Add([]byte(`{"version":3,"tagCreateTime":"2024-02-29T10:20:30.5","tagTimeRetained":-0.5}`))
	f.Add([]byte(`{"properties":{"b":"1","a":null}}`))
}

// FuzzDecodeSnapshot checks that Decode never panics and that encoding is a
// fixed point: whatever decodes re-encodes to bytes that decode to the same
// snapshot and encode identically.
func FuzzDecodeSnapshot(f *testing.F) {
	addTestdataSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := snapshot.Decode(data)
		if err != nil {
			return
		}
		enc := s.Encode()
		s2, err := snapshot.Decode(enc)
		require.NoError(t, err, "%s", enc)
		require.Equal(t, string(enc), string(s2.Encode()))
	})
}

// FuzzDecodeTag is FuzzDecodeSnapshot for tag files.
func FuzzDecodeTag(f *testing.F) {
	addTestdataSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		tag, err := snapshot.DecodeTag(data)
		if err != nil {
			return
		}
		enc := tag.Encode()
		tag2, err := snapshot.DecodeTag(enc)
		require.NoError(t, err, "%s", enc)
		require.Equal(t, string(enc), string(tag2.Encode()))
		if tag.CreateTime != nil {
			require.True(t, tag.CreateTime.Equal(*tag2.CreateTime))
		}
		if tag.TimeRetained != nil {
			require.Equal(t, *tag.TimeRetained, *tag2.TimeRetained)
		}
	})
}

// FuzzParseHint checks ParseHint never panics and FormatHint inverts it.
func FuzzParseHint(f *testing.F) {
	for _, s := range []string{"1", "42", "9223372036854775807", "-3", " 7\n", "", "x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		id, err := snapshot.ParseHint(data)
		if err != nil {
			require.ErrorIs(t, err, snapshot.ErrCorrupt)
			return
		}
		back, err := snapshot.ParseHint(snapshot.FormatHint(id))
		require.NoError(t, err)
		require.Equal(t, id, back)
	})
}

// FuzzDecodeStatistics checks DecodeStatistics never panics and re-encodes
// to a fixed point.
func FuzzDecodeStatistics(f *testing.F) {
	f.Add([]byte(statisticsJSON))
	f.Add([]byte(`{"snapshotId":1,"colStats":{"c":{"colId":2,"min":-5,"max":1.5e3}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := snapshot.DecodeStatistics(data)
		if err != nil {
			return
		}
		enc := s.Encode()
		s2, err := snapshot.DecodeStatistics(enc)
		require.NoError(t, err, "%s", enc)
		require.Equal(t, string(enc), string(s2.Encode()))
	})
}

// FuzzDecodeConsumer checks DecodeConsumer never panics and round-trips.
func FuzzDecodeConsumer(f *testing.F) {
	f.Add([]byte(`{"nextSnapshot" : 5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := snapshot.DecodeConsumer(data)
		if err != nil {
			return
		}
		c2, err := snapshot.DecodeConsumer(c.Encode())
		require.NoError(t, err)
		require.Equal(t, c, c2)
	})
}

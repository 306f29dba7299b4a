package manifest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

func TestCreationTime(t *testing.T) {
	shanghai := time.FixedZone("UTC+8", 8*3600)
	// A file written at 2024-09-06 15:45:55.039 wall clock in UTC+8 stores
	// the wall clock as if it were UTC.
	written := time.Date(2024, 9, 6, 15, 45, 55, 39e6, shanghai)
	stored := manifest.CreationTimeMillis(written)
	require.Equal(t, time.Date(2024, 9, 6, 15, 45, 55, 39e6, time.UTC).UnixMilli(), stored)

	m := manifest.DataFileMeta{CreationTime: &stored}
	got, ok := m.CreationTimeIn(shanghai)
	require.True(t, ok)
	require.True(t, got.Equal(written), "got %v", got)
	require.Equal(t, written.UnixMilli(), got.UnixMilli()) // Java creationTimeEpochMillis

	// Read in another zone the same stored value is another instant.
	utc, _ := m.CreationTimeIn(time.UTC)
	require.Equal(t, 8*time.Hour, utc.Sub(got))

	// Before the epoch, millisecond flooring still round-trips.
	neg := int64(-1)
	m.CreationTime = &neg
	got, _ = m.CreationTimeIn(time.UTC)
	require.Equal(t, neg, manifest.CreationTimeMillis(got))

	_, ok = (&manifest.DataFileMeta{}).CreationTimeIn(time.UTC)
	require.False(t, ok)
}

func TestKindsAndStats(t *testing.T) {
	require.Equal(t, "ADD", manifest.FileKindAdd.String())
	require.Equal(t, "DELETE", manifest.FileKindDelete.String())
	require.Equal(t, "FileKind(7)", manifest.FileKind(7).String())
	require.False(t, manifest.FileKind(-1).Valid())
	require.Equal(t, "APPEND", manifest.FileSourceAppend.String())
	require.Equal(t, "COMPACT", manifest.FileSourceCompact.String())
	require.Equal(t, "FileSource(2)", manifest.FileSource(2).String())
	require.False(t, manifest.FileSource(2).Valid())

	empty := manifest.EmptyStats()
	require.True(t, empty.IsEmpty())
	require.Equal(t, make([]byte, 12), empty.MinValues)
	require.NotNil(t, empty.NullCounts)
	full := fullEntry().File.ValueStats
	require.False(t, full.IsEmpty())
}

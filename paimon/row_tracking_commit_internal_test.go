package paimon

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

func rtEntry(name string, rows, minSeq, maxSeq int64, src manifest.FileSource, first *int64, cols ...string) manifest.ManifestEntry {
	return manifest.ManifestEntry{Kind: manifest.FileKindAdd, Partition: manifest.EmptyRow(), File: manifest.DataFileMeta{
		FileName: name, RowCount: rows, MinSequenceNumber: minSeq, MaxSequenceNumber: maxSeq,
		FileSource: &src, FirstRowID: first, WriteCols: cols}}
}

// TestAssignRowTracking follows RowTrackingCommitUtils: data files take
// the next ids, .blob files continue the range of the data file before
// them per column, compaction output and files with ids keep theirs, and
// files whose sequence numbers start at 0 get the snapshot id.
func TestAssignRowTracking(t *testing.T) {
	seven := int64(7)
	in := []manifest.ManifestEntry{
		rtEntry("data-a-0.parquet", 10, 0, 9, manifest.FileSourceAppend, nil, "id", "name"),
		rtEntry("data-a-1.blob", 4, 0, 3, manifest.FileSourceAppend, nil, "pic"),
		rtEntry("data-a-2.blob", 6, 0, 5, manifest.FileSourceAppend, nil, "pic"),
		rtEntry("data-a-3.blob", 10, 0, 9, manifest.FileSourceAppend, nil, "doc"),
		rtEntry("data-b-0.parquet", 5, 12, 16, manifest.FileSourceAppend, nil),
		rtEntry("data-c-0.parquet", 3, 4, 6, manifest.FileSourceCompact, nil),
		rtEntry("data-d-0.parquet", 7, 0, 0, manifest.FileSourceAppend, &seven, "name"),
		rtEntry("data-e-0.parquet", 2, 0, 1, manifest.FileSourceAppend, nil, "_ROW_ID", "name"),
	}
	out, next, err := assignRowTracking(9, 100, in, false)
	require.NoError(t, err)
	require.EqualValues(t, 115, next)
	wantFirst := []any{int64(100), int64(100), int64(104), int64(100), int64(110), nil, int64(7), nil}
	wantSeq := [][2]int64{{9, 9}, {9, 9}, {9, 9}, {9, 9}, {12, 16}, {4, 6}, {9, 9}, {9, 9}}
	for i, e := range out {
		if wantFirst[i] == nil {
			require.Nil(t, e.File.FirstRowID, e.File.FileName)
		} else {
			require.Equal(t, wantFirst[i], *e.File.FirstRowID, e.File.FileName)
		}
		require.Equal(t, wantSeq[i], [2]int64{e.File.MinSequenceNumber, e.File.MaxSequenceNumber}, e.File.FileName)
	}
	for i := range in {
		if i != 6 {
			require.Nil(t, in[i].File.FirstRowID, "the input is not modified")
		}
	}

	// A .blob file without a data file before it is a broken message.
	_, _, err = assignRowTracking(1, 0, in[1:2], false)
	require.ErrorIs(t, err, ErrInvalidCommitMessage)
	noSource := rtEntry("data-x-0.parquet", 1, 0, 0, manifest.FileSourceAppend, nil)
	noSource.File.FileSource = nil
	_, _, err = assignRowTracking(1, 0, []manifest.ManifestEntry{noSource}, false)
	require.ErrorIs(t, err, ErrInvalidCommitMessage)
}

// TestPartitionGroups: entries grouped by partition, each group in input
// order, every entry once.
func TestPartitionGroups(t *testing.T) {
	var in []manifest.ManifestEntry
	for i := range 40 {
		e := rtEntry("f", int64(i+1), 1, 1, manifest.FileSourceAppend, nil)
		p := []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, byte(i % 20), 0, 0, 0, 0, 0, 0, 0}
		e.Partition = p
		in = append(in, e)
	}
	groups := partitionGroups(in)
	require.Len(t, groups, 20)
	seen := map[string]bool{}
	n := 0
	for _, g := range groups {
		require.Len(t, g, 2)
		require.False(t, seen[string(g[0].Partition)])
		seen[string(g[0].Partition)] = true
		require.Equal(t, string(g[0].Partition), string(g[1].Partition))
		require.Less(t, g[0].File.RowCount, g[1].File.RowCount, "input order within a group")
		n += len(g)
	}
	require.Equal(t, 40, n)
}

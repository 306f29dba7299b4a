package paimon

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// TestDataEvolutionDeletionVectorsOnAnchor: Java 2.0.0 keeps one deletion
// vector per row-id group of a data-evolution table, on the group's anchor
// file (DataEvolutionUtils.retrieveAnchorFile: smallest max sequence
// number, then name), and reads only that one. A planned split with a
// vector on any other file is not Java's layout and is refused in Plan
// (checkSplits), before any row, naming both options, as ErrUnsupported.
// Reads of Java-written vectors are checked by the golden table
// data-evolution-dv (interop).
func TestDataEvolutionDeletionVectorsOnAnchor(t *testing.T) {
	st := &scanState{dataEvolution: true}
	files := []manifest.DataFileMeta{
		deFile("data-b.parquet", 0, 3, 1), deFile("data-a.parquet", 0, 3, 1), // same sequence: name decides
		deFile("cols.parquet", 0, 3, 5), deFile("pic.blob", 0, 3, 1), deFile("next.parquet", 3, 2, 7),
	}
	dfs := func(at ...int) []*DeletionFile {
		out := make([]*DeletionFile, len(files))
		for _, i := range at {
			out[i] = &DeletionFile{Path: "index/dv-1", Length: 10}
		}
		return out
	}
	require.NoError(t, st.checkSplits([]Split{{Files: files}}))
	require.NoError(t, st.checkSplits([]Split{{Files: files, DeletionFiles: dfs(1, 4)}}))
	for _, at := range []int{0, 2, 3} {
		err := st.checkSplits([]Split{{Files: files, DeletionFiles: dfs(at)}})
		require.ErrorIs(t, err, ErrUnsupported, files[at].FileName)
		require.Contains(t, err.Error(), optDataEvolution)
		require.Contains(t, err.Error(), optDeletionVectors)
		var ce *CorruptError
		require.NotErrorAs(t, err, &ce)
	}
	// Without data evolution, deletion files are read normally.
	require.NoError(t, (&scanState{}).checkSplits([]Split{{Files: files, DeletionFiles: dfs(0, 2)}}))
}

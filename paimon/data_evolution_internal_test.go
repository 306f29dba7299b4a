package paimon

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

func deFile(name string, first, rows, maxSeq int64) manifest.DataFileMeta {
	return manifest.DataFileMeta{FileName: name, FirstRowID: &first, RowCount: rows, MaxSequenceNumber: maxSeq}
}

func groupNames(groups [][]*manifest.DataFileMeta) [][]string {
	var out [][]string
	for _, g := range groups {
		var names []string
		for _, f := range g {
			names = append(names, f.FileName)
		}
		out = append(out, names)
	}
	return out
}

// TestEvolutionGroups checks Java's mergeRangesAndSort: groups by row-id
// range in range order, data files newest first (stable for equal sequence
// numbers), BLOB files after them.
func TestEvolutionGroups(t *testing.T) {
	files := []manifest.DataFileMeta{
		deFile("late.parquet", 10, 5, 3),
		deFile("base.parquet", 0, 10, 1),
		deFile("cols-a.parquet", 0, 10, 4),
		deFile("b.blob", 0, 10, 2),
		deFile("cols-b.parquet", 0, 10, 4),
		deFile("late-cols.parquet", 10, 5, 5),
	}
	groups, err := evolutionGroups(files)
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"cols-a.parquet", "cols-b.parquet", "base.parquet", "b.blob"},
		{"late-cols.parquet", "late.parquet"},
	}, groupNames(groups))
	require.Equal(t, int64(15), evolutionRowCount(files))
}

// TestEvolutionGroupsRefuseMisalignedFiles checks that data files whose
// row-id ranges overlap without being equal are an error, as in Java,
// never a guess at which rows they hold.
func TestEvolutionGroupsRefuseMisalignedFiles(t *testing.T) {
	_, err := evolutionGroups([]manifest.DataFileMeta{deFile("a.parquet", 0, 4, 1), deFile("b.parquet", 3, 1, 2)})
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "b.parquet")

	noID := deFile("c.parquet", 0, 1, 1)
	noID.FirstRowID = nil
	_, err = evolutionGroups([]manifest.DataFileMeta{noID})
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "no first row id")
}

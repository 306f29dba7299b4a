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

// TestCheckBlobBunch checks the BLOB files of one column of a row-id group
// as Java 2.0.0's BlobFileBunch and BlobFallbackRecordReader do: several
// writes may overlap (a later one falls back on earlier ones), the files of
// one write may not, and together they cover the data file's row ids
// without a hole.
func TestCheckBlobBunch(t *testing.T) {
	data := deFile("d.parquet", 0, 6, 1)
	bunch := func(files ...manifest.DataFileMeta) []*manifest.DataFileMeta {
		out := make([]*manifest.DataFileMeta, len(files))
		for i := range files {
			out[i] = &files[i]
		}
		return out
	}
	// Sorted by first row id, newest first (evolutionGroups' order).
	ok := bunch(deFile("u1.blob", 0, 3, 3), deFile("a.blob", 0, 2, 1), deFile("u0.blob", 0, 6, 2),
		deFile("b.blob", 2, 4, 1))
	require.NoError(t, checkBlobBunch(ok, &data))
	require.NoError(t, checkBlobBunch(ok, nil))

	err := checkBlobBunch(bunch(deFile("a.blob", 0, 3, 1), deFile("b.blob", 2, 4, 1)), &data)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "overlap")

	err = checkBlobBunch(bunch(deFile("a.blob", 0, 2, 1), deFile("b.blob", 3, 3, 1)), &data)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "b.blob starts at row id 3")

	err = checkBlobBunch(bunch(deFile("a.blob", 0, 2, 1), deFile("u.blob", 1, 3, 2)), &data)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "cover row ids 0-3")
}

package paimon

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// TestDataEvolutionDeletionVectorsRefused: Java 1.4.2 forbids
// data-evolution.enabled with deletion-vectors.enabled (SchemaValidation);
// 2.0.0 allows it and applies the vectors per row-id range, which this
// library does not implement yet. A planned split of a data-evolution table
// carrying deletion files is refused in Plan (checkSplits), so before any
// row, naming both options, as ErrUnsupported.
func TestDataEvolutionDeletionVectorsRefused(t *testing.T) {
	st := &scanState{dataEvolution: true}
	files := []manifest.DataFileMeta{{FileName: "data-1.parquet"}}
	require.NoError(t, st.checkSplits([]Split{{Files: files}}))
	err := st.checkSplits([]Split{{Files: files, DeletionFiles: []*DeletionFile{{Path: "index/dv-1", Length: 10}}}})
	require.ErrorIs(t, err, ErrUnsupported)
	require.Contains(t, err.Error(), optDataEvolution)
	require.Contains(t, err.Error(), optDeletionVectors)
	var ce *CorruptError
	require.NotErrorAs(t, err, &ce)
	// Without data evolution, deletion files are read normally.
	require.NoError(t, (&scanState{}).checkSplits([]Split{{Files: files, DeletionFiles: []*DeletionFile{{Path: "index/dv-1"}}}}))
}

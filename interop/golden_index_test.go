package interop_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// checkIndexFiles decodes the index files an index manifest lists and checks
// them against the manifest's counts.
func checkIndexFiles(ctx context.Context, t *testing.T, c goldenCase, entries []manifest.IndexManifestEntry) {
	t.Helper()
	for _, e := range entries {
		f := e.IndexFile
		switch f.IndexType {
		case manifest.IndexTypeDeletionVectors:
			dvs, err := c.meta.ReadDeletionVectors(ctx, f)
			require.NoError(t, err, f.FileName)
			require.Len(t, dvs, len(f.DVRanges), f.FileName)
			require.EqualValues(t, f.RowCount, len(dvs), "%s: _ROW_COUNT is the number of deletion vectors", f.FileName)
			for _, r := range f.DVRanges {
				dv, ok := dvs[r.DataFileName]
				require.True(t, ok, r.DataFileName)
				if r.Cardinality != nil {
					require.EqualValues(t, *r.Cardinality, dv.Cardinality(), r.DataFileName)
				}
			}
		case manifest.IndexTypeHash:
			hashes, err := c.meta.ReadHashIndex(ctx, f)
			require.NoError(t, err, f.FileName)
			require.EqualValues(t, f.RowCount, len(hashes), f.FileName)
		default:
			t.Errorf("%s: unexpected index type %s in the golden corpus", f.FileName, f.IndexType)
		}
	}
}

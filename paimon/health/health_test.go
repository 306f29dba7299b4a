package health_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/health"
)

func openGolden(t *testing.T, producer, scenario, table string) *paimon.Table {
	t.Helper()
	fsys, err := localfs.New(filepath.Join("..", "..", "testdata", "golden", producer, scenario, "warehouse"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { fsys.Close() })
	id := paimon.Identifier{Database: "interop", Table: table}
	tbl, err := paimon.OpenTable(context.Background(), fsys, "interop.db/"+table, &paimon.TableOptions{Identifier: id})
	require.NoError(t, err)
	return tbl
}

// TestInspectGolden inspects Java's tables: pk-dedup has a level-0 file
// beside the compacted level in each partition (two sorted runs), healthy
// under the default triggers; pk-deletion-vectors has nine snapshots, none
// overdue a day after the last.
func TestInspectGolden(t *testing.T) {
	ctx := context.Background()
	rep, err := health.Inspect(ctx, openGolden(t, "java-1.4.2", "pk-dedup", "pk_dedup"), nil)
	require.NoError(t, err)
	require.Empty(t, rep.Findings)
	require.Equal(t, "interop.pk_dedup", rep.Table.Name)
	require.Equal(t, "primary-key", rep.Table.Type)
	require.Equal(t, "fixed", rep.Table.BucketMode)
	require.Len(t, rep.Buckets, 2)
	for _, b := range rep.Buckets {
		require.Equal(t, 1, b.Level0Files)
		require.Equal(t, 2, b.SortedRuns)
		require.Contains(t, []string{"dt=d1", "dt=d2"}, b.Partition)
	}

	tbl := openGolden(t, "java-1.4.2", "pk-deletion-vectors", "pk_deletion_vectors")
	s, err := tbl.Meta().ReadSnapshot(ctx, 9)
	require.NoError(t, err)
	now := time.UnixMilli(s.TimeMillis).Add(24 * time.Hour)
	rep, err = health.Inspect(ctx, tbl, &health.Options{Now: func() time.Time { return now }, SmallFileThreshold: 1})
	require.NoError(t, err)
	require.Equal(t, 9, rep.Snapshots.Count)
	require.Zero(t, rep.Snapshots.Overdue)
	require.Equal(t, int64(24*3600), rep.Snapshots.LatestAge)
	require.Equal(t, int64(1), rep.Table.SmallFileSize)
	require.Empty(t, rep.Findings)
}

package paimon_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveFiles checks TableMeta.LiveFiles against the files a plan reads,
// after commits that delete files (a partition overwrite), and its
// partition and bucket filters.
func TestLiveFiles(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, map[string]string{"bucket": "2", "bucket-key": "id"})
	c := newCommit(t, tbl, "")
	write(t, tbl, c, 1, rowsOf(0, 60, 3), 7)
	write(t, tbl, c, 2, rowsOf(60, 90, 3), 11)
	_, err := c.DropPartitions(ctx, 3, []map[string]string{{"dt": "2024-01-02"}})
	require.NoError(t, err)
	tbl = reopen(t, fsys)
	meta := tbl.Meta()
	id, ok, err := meta.LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	s, err := meta.ReadSnapshot(ctx, id)
	require.NoError(t, err)

	plan, err := tbl.NewScan().Plan(ctx)
	require.NoError(t, err)
	var planned []string
	for _, sp := range plan.Splits {
		for _, f := range sp.Files {
			planned = append(planned, f.FileName)
		}
	}
	names := func(opts *paimon.LiveFilesOptions) []string {
		t.Helper()
		live, err := meta.LiveFiles(ctx, s, opts)
		require.NoError(t, err)
		var out []string
		for _, e := range live {
			out = append(out, e.File.FileName)
		}
		slices.Sort(out)
		return out
	}
	slices.Sort(planned)
	all := names(nil)
	require.Equal(t, planned, all)
	require.Equal(t, all, names(&paimon.LiveFilesOptions{Workers: 1}))

	day1, err := binaryrow.Encode(0, []schema.DataType{schema.StringType()}, []any{"2024-01-01"})
	require.NoError(t, err)
	want := binaryrow.MarshalSerialized(day1, 1)
	live, err := meta.LiveFiles(ctx, s, &paimon.LiveFilesOptions{
		Partition: func(p []byte) (bool, error) { return string(p) == string(want), nil },
		Bucket:    func(b int32) bool { return b == 1 },
	})
	require.NoError(t, err)
	require.NotEmpty(t, live)
	require.Less(t, len(live), len(all))
	for _, e := range live {
		require.Equal(t, want, e.Partition)
		require.EqualValues(t, 1, e.Bucket)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = meta.LiveFiles(cancelled, s, nil)
	require.ErrorIs(t, err, context.Canceled)
}

package paimon_test

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// trackedRow is one row of a row-tracking read: the id column with the
// row's _ROW_ID and _SEQUENCE_NUMBER.
type trackedRow struct{ id, rowID, seq int64 }

// readTracked reads id, _ROW_ID and _SEQUENCE_NUMBER of every row, sorted by
// _ROW_ID.
func readTracked(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) []trackedRow {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	opts = append(opts, paimon.WithAllocator(mem), paimon.WithColumns("id", "_ROW_ID", "_SEQUENCE_NUMBER"))
	var out []trackedRow
	for rec, err := range tbl.NewScan(opts...).Records(context.Background()) {
		require.NoError(t, err)
		ids := rec.Column(0).(*array.Int64)
		rids := rec.Column(1).(*array.Int64)
		seqs := rec.Column(2).(*array.Int64)
		for i := 0; i < int(rec.NumRows()); i++ {
			out = append(out, trackedRow{ids.Value(i), rids.Value(i), seqs.Value(i)})
		}
		rec.Release()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rowID < out[j].rowID })
	return out
}

// TestRowTrackingAppend: plain appends to a row-tracking table get row ids
// from the snapshot's next row id at commit, in file order, and the
// sequence number of the snapshot that wrote them (Java
// RowTrackingCommitUtils).
func TestRowTrackingAppend(t *testing.T) {
	for _, de := range []bool{false, true} {
		name := "row-tracking"
		opts := map[string]string{"row-tracking.enabled": "true"}
		if de {
			name = "data-evolution"
			opts["data-evolution.enabled"] = "true"
		}
		t.Run(name, func(t *testing.T) {
			tbl, fsys := newWriteTable(t, false, opts)
			c := newCommit(t, tbl, "u")
			r1 := write(t, tbl, c, 1, rowsOf(0, 10, 1), 10)
			require.NotNil(t, r1.Snapshot.NextRowID)
			require.EqualValues(t, 10, *r1.Snapshot.NextRowID)
			r2 := write(t, reopen(t, fsys), c, 2, rowsOf(10, 15, 1), 5)
			require.EqualValues(t, 15, *r2.Snapshot.NextRowID)

			var firsts []int64
			for _, fl := range liveFiles(t, reopen(t, fsys)) {
				for _, f := range fl {
					require.NotNil(t, f.FirstRowID, f.FileName)
					firsts = append(firsts, *f.FirstRowID)
				}
			}
			slices.Sort(firsts)
			require.Equal(t, []int64{0, 10}, firsts)

			got := readTracked(t, reopen(t, fsys))
			require.Len(t, got, 15)
			for i, r := range got {
				want := int64(1)
				if i >= 10 {
					want = 2
				}
				require.Equal(t, trackedRow{int64(i), int64(i), want}, r)
			}
			// The full table rows are the rows written.
			requireRows(t, render(t, rowsOf(0, 15, 1)), dump(t, reopen(t, fsys)))
		})
	}
}

// TestRowTrackingRolledFiles: a writer that rolls files numbers them one
// after another; on a data-evolution table every file's rows restart at
// sequence 0 in the writer (a LongCounter(0) per file in Java), so the
// commit stamps them all with the snapshot id, while a row-tracking writer
// continues its counter across files and only the first file (starting at
// 0) is stamped.
func TestRowTrackingRolledFiles(t *testing.T) {
	ctx := context.Background()
	for _, de := range []bool{false, true} {
		opts := map[string]string{"row-tracking.enabled": "true", "target-file-size": "1 b"}
		if de {
			opts["data-evolution.enabled"] = "true"
		}
		tbl, fsys := newWriteTable(t, false, opts)
		w, err := tbl.NewWriter(nil)
		require.NoError(t, err)
		rows := rowsOf(0, 3000, 1)
		for i := 0; i < len(rows); i += 1000 {
			rec := batch(t, memcheck.New(), rows[i:i+1000])
			require.NoError(t, w.Write(ctx, rec))
			rec.Release()
		}
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		require.NoError(t, w.Close(ctx))
		require.Len(t, msgs, 1)
		require.GreaterOrEqual(t, len(msgs[0].NewFiles), 2, "the writer should roll")
		for _, f := range msgs[0].NewFiles {
			require.Nil(t, f.FirstRowID)
		}
		res, err := newCommit(t, tbl, "").Commit(ctx, paimon.BatchCommitIdentifier, msgs)
		require.NoError(t, err)
		require.EqualValues(t, 3000, *res.Snapshot.NextRowID)
		var files []manifest.DataFileMeta
		for _, fl := range liveFiles(t, reopen(t, fsys)) {
			files = append(files, fl...)
		}
		sort.Slice(files, func(i, j int) bool { return *files[i].FirstRowID < *files[j].FirstRowID })
		var before int64
		for i, f := range files {
			require.EqualValues(t, before, *f.FirstRowID)
			if de || i == 0 {
				require.EqualValues(t, 1, f.MinSequenceNumber)
				require.EqualValues(t, 1, f.MaxSequenceNumber)
			} else {
				require.EqualValues(t, before, f.MinSequenceNumber)
				require.EqualValues(t, before+f.RowCount-1, f.MaxSequenceNumber)
			}
			before += f.RowCount
		}
		got := readTracked(t, reopen(t, fsys))
		require.Len(t, got, 3000)
		for i, r := range got {
			require.EqualValues(t, i, r.id)
			require.EqualValues(t, i, r.rowID)
		}
	}
}

// TestRowTrackingRetryReassigns: a commit that loses the race for its
// snapshot id numbers its files again from the winner's next row id.
func TestRowTrackingRetryReassigns(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, false, map[string]string{"row-tracking.enabled": "true"})
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	rec := batch(t, memcheck.New(), rowsOf(0, 4, 1))
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))

	c := newCommit(t, tbl, "slow")
	raced := false
	paimon.SetCommitHook(c, func(_ context.Context, point string, id int64) {
		if point == "publish" && !raced {
			raced = true
			// Another writer takes snapshot 1 with 6 rows.
			write(t, reopen(t, fsys), newCommit(t, reopen(t, fsys), "fast"), 1, rowsOf(100, 106, 1), 6)
		}
	})
	res, err := c.Commit(ctx, 1, msgs)
	require.NoError(t, err)
	require.True(t, raced)
	require.EqualValues(t, 2, res.Snapshot.ID)
	require.EqualValues(t, 2, res.Attempts)
	require.EqualValues(t, 10, *res.Snapshot.NextRowID)

	got := readTracked(t, reopen(t, fsys))
	require.Len(t, got, 10)
	for i, r := range got {
		require.EqualValues(t, i, r.rowID)
		if i < 6 {
			require.Equal(t, trackedRow{int64(100 + i), int64(i), 1}, r)
		} else {
			require.Equal(t, trackedRow{int64(i - 6), int64(i), 2}, r)
		}
	}
}

// TestRowTrackingPartitions: the ids of one commit are contiguous within
// each partition (row-tracking.partition-group-on-commit) and cover
// [0, next row id) exactly once.
func TestRowTrackingPartitions(t *testing.T) {
	tbl, fsys := newWriteTable(t, true, map[string]string{"row-tracking.enabled": "true"})
	c := newCommit(t, tbl, "u")
	write(t, tbl, c, 1, rowsOf(0, 200, 7), 13)
	res := write(t, reopen(t, fsys), c, 2, rowsOf(200, 260, 3), 60)
	require.EqualValues(t, 260, *res.Snapshot.NextRowID)
	got := readTracked(t, reopen(t, fsys))
	require.Len(t, got, 260)
	ids := map[int64]bool{}
	for i, r := range got {
		require.EqualValues(t, i, r.rowID)
		require.False(t, ids[r.id])
		ids[r.id] = true
		if r.id < 200 {
			require.EqualValues(t, 1, r.seq)
		} else {
			require.EqualValues(t, 2, r.seq)
		}
	}
	// One file per partition and commit, each with its own range.
	for _, fl := range liveFiles(t, reopen(t, fsys)) {
		for _, f := range fl {
			require.NotNil(t, f.FirstRowID)
			require.Nil(t, f.WriteCols)
		}
	}
}

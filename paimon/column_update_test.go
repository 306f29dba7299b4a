package paimon_test

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

var deOptions = map[string]string{"row-tracking.enabled": "true", "data-evolution.enabled": "true"}

// prepareUpdate updates the named columns of the rows [row id, values...]
// and returns the messages.
func prepareUpdate(t *testing.T, tbl *paimon.Table, columns []string, rows [][]any) ([]paimon.CommitMessage, error) {
	t.Helper()
	ctx := context.Background()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	u, err := tbl.NewColumnUpdate(ctx, columns, &paimon.ColumnUpdateOptions{Allocator: mem})
	require.NoError(t, err)
	defer u.Close(ctx)
	fields := []schema.DataField{{ID: 1000, Name: "_ROW_ID", Type: schema.BigIntType().NotNull()}}
	for _, c := range columns {
		f, ok := tbl.Schema().FieldByName(c)
		require.True(t, ok)
		fields = append(fields, f)
	}
	rec, err := testtable.BuildRecord(mem, fields, rows)
	require.NoError(t, err)
	defer rec.Release()
	if err := u.Update(ctx, rec); err != nil {
		return nil, err
	}
	return u.PrepareCommit(ctx)
}

// TestColumnUpdate: updates of some columns by row id read back with the
// other columns untouched, one file per row-id group covering the group.
func TestColumnUpdate(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, false, deOptions)
	c := newCommit(t, tbl, "u")
	write(t, tbl, c, 1, rowsOf(0, 10, 1), 10)
	write(t, reopen(t, fsys), c, 2, rowsOf(10, 15, 1), 5)
	want := rowsOf(0, 15, 1)

	msgs, err := prepareUpdate(t, reopen(t, fsys), []string{"name"}, [][]any{{int64(11), "x11"}, {int64(2), "x2"}, {int64(5), nil}})
	require.NoError(t, err)
	require.Len(t, msgs, 2)
	for i, first := range []int64{0, 10} {
		require.Len(t, msgs[i].NewFiles, 1)
		f := msgs[i].NewFiles[0]
		require.Equal(t, first, *f.FirstRowID)
		require.EqualValues(t, 10-5*i, f.RowCount)
		require.Equal(t, []string{"name"}, f.WriteCols)
		require.EqualValues(t, 2, msgs[i].CheckFromSnapshot)
	}
	res, err := c.Commit(ctx, 3, msgs)
	require.NoError(t, err)
	require.EqualValues(t, 15, *res.Snapshot.NextRowID) // an update adds no row
	want[11][2], want[2][2], want[5][2] = "x11", "x2", nil
	requireRows(t, render(t, want), dump(t, reopen(t, fsys)))

	// Another column of the same rows: both updates show.
	msgs, err = prepareUpdate(t, reopen(t, fsys), []string{"score", "name"}, [][]any{{int64(2), 99.5, "y2"}, {int64(3), nil, "y3"}})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	require.Equal(t, []string{"name", "score"}, msgs[0].NewFiles[0].WriteCols)
	_, err = c.Commit(ctx, 4, msgs)
	require.NoError(t, err)
	want[2][2], want[2][3], want[3][2], want[3][3] = "y2", 99.5, "y3", nil
	requireRows(t, render(t, want), dump(t, reopen(t, fsys)))

	// Row ids and sequence numbers: ids unchanged, updated groups carry the
	// sequence number of the last update.
	got := readTracked(t, reopen(t, fsys))
	require.Len(t, got, 15)
	for i, r := range got {
		require.EqualValues(t, i, r.rowID)
		require.EqualValues(t, i, r.id)
	}
	// Time travel sees the table before the updates.
	requireRows(t, render(t, rowsOf(0, 15, 1)), dumpAt(t, reopen(t, fsys), 2))
}

// dumpAt reads snapshot id as sorted canonical rows.
func dumpAt(t *testing.T, tbl *paimon.Table, id int64) []string {
	t.Helper()
	var out []string
	fields := tbl.Schema().Fields
	for rec, err := range tbl.NewScan(paimon.WithSnapshotID(id)).Records(context.Background()) {
		require.NoError(t, err)
		for r := 0; r < int(rec.NumRows()); r++ {
			vals := make([]any, len(fields))
			for c := range fields {
				v, err := parquet.ArrowValue(rec.Column(c), r, fields[c].Type)
				require.NoError(t, err)
				vals[c] = v
			}
			b, err := canon.EncodeRow(fields, vals)
			require.NoError(t, err)
			out = append(out, string(b))
		}
		rec.Release()
	}
	sort.Strings(out)
	return out
}

// TestColumnUpdateConflict: two updates computed from the same snapshot
// conflict when they touch the same row-id group, and the loser's files
// are removed; updates of different groups both land.
func TestColumnUpdateConflict(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, false, deOptions)
	c := newCommit(t, tbl, "u")
	write(t, tbl, c, 1, rowsOf(0, 10, 1), 10)
	write(t, reopen(t, fsys), c, 2, rowsOf(10, 15, 1), 5)

	a, err := prepareUpdate(t, reopen(t, fsys), []string{"name"}, [][]any{{int64(1), "a1"}})
	require.NoError(t, err)
	b, err := prepareUpdate(t, reopen(t, fsys), []string{"score"}, [][]any{{int64(9), 1.0}})
	require.NoError(t, err)
	d, err := prepareUpdate(t, reopen(t, fsys), []string{"name"}, [][]any{{int64(12), "d12"}})
	require.NoError(t, err)
	_, err = newCommit(t, reopen(t, fsys), "a").Commit(ctx, 1, a)
	require.NoError(t, err)
	_, err = newCommit(t, reopen(t, fsys), "b").Commit(ctx, 1, b)
	require.ErrorIs(t, err, paimon.ErrCommitConflict)
	exists, err := fs.Exists(ctx, fsys, "db.db/t/bucket-0/"+b[0].NewFiles[0].FileName)
	require.NoError(t, err)
	require.False(t, exists, "the conflicting update's file is removed")
	_, err = newCommit(t, reopen(t, fsys), "d").Commit(ctx, 1, d)
	require.NoError(t, err)
	want := rowsOf(0, 15, 1)
	want[1][2], want[12][2] = "a1", "d12"
	requireRows(t, render(t, want), dump(t, reopen(t, fsys)))
}

// TestColumnUpdateRefused: what is refused, before any file is written.
func TestColumnUpdateRefused(t *testing.T) {
	ctx := context.Background()
	rt, _ := newWriteTable(t, false, map[string]string{"row-tracking.enabled": "true"})
	_, err := rt.NewColumnUpdate(ctx, []string{"name"}, nil)
	require.ErrorIs(t, err, paimon.ErrUnsupported)

	tbl, fsys := newWriteTable(t, true, deOptions)
	write(t, tbl, newCommit(t, tbl, "u"), 1, rowsOf(0, 10, 2), 10)
	tbl = reopen(t, fsys)
	_, err = tbl.NewColumnUpdate(ctx, []string{"dt"}, nil)
	require.ErrorIs(t, err, paimon.ErrUnsupported)
	_, err = tbl.NewColumnUpdate(ctx, []string{"nope"}, nil)
	require.ErrorIs(t, err, paimon.ErrInvalidUpdate)
	_, err = tbl.NewColumnUpdate(ctx, nil, nil)
	require.ErrorIs(t, err, paimon.ErrInvalidUpdate)
	_, err = prepareUpdate(t, tbl, []string{"name"}, [][]any{{int64(10), "x"}})
	require.ErrorIs(t, err, paimon.ErrInvalidUpdate)
	_, err = prepareUpdate(t, tbl, []string{"name"}, [][]any{{int64(3), "x"}, {int64(3), "y"}})
	require.ErrorIs(t, err, paimon.ErrInvalidUpdate)
	// Nothing was written besides the table's own files.
	files := liveFiles(t, reopen(t, fsys))
	require.Equal(t, 2, countFiles(files))
	var names []string
	for dir := range files {
		entries, err := fs.ReadDir(ctx, fsys, "db.db/t/"+dir)
		require.NoError(t, err)
		for _, e := range entries {
			names = append(names, e.Name)
		}
	}
	require.Len(t, slices.Compact(names), 2)
}

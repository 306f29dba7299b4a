package paimon_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

func rbHint(t *testing.T, fsys fs.FS, dir, name string) int64 {
	t.Helper()
	id, err := snapshot.ParseHint(tagReadFile(t, fsys, dir+"/snapshot/"+name))
	require.NoError(t, err)
	return id
}

func rbSnapshotIDs(t *testing.T, tbl *paimon.Table) []int64 {
	t.Helper()
	ids, err := tbl.Meta().SnapshotIDs(context.Background())
	require.NoError(t, err)
	return ids
}

// TestRollbackToSnapshot rolls a Java table back: newer snapshots and tags
// go, data files stay, and the table reads as the target snapshot did.
func TestRollbackToSnapshot(t *testing.T) {
	ctx := context.Background()
	tbl, fsys, dir := tagGolden(t, "append-unpartitioned", "append_unpartitioned")
	want := tagRows(t, tbl, paimon.WithSnapshotID(3))
	_, err := tbl.CreateTag(ctx, "at2", &paimon.CreateTagOptions{SnapshotID: 2})
	require.NoError(t, err)
	_, err = tbl.CreateTag(ctx, "at5", nil)
	require.NoError(t, err)
	before := tagCountFiles(t, fsys, dir)

	// The preview predicts the rollback and changes nothing.
	preview, err := tbl.PreviewRollback(ctx, 3, "")
	require.NoError(t, err)
	require.Equal(t, before, tagCountFiles(t, fsys, dir))
	require.Equal(t, int64(5), rbHint(t, fsys, dir, "LATEST"))
	_, err = tbl.PreviewRollback(ctx, 3, "at2")
	require.ErrorIs(t, err, paimon.ErrInvalidOption)

	res, err := tbl.RollbackTo(ctx, 3)
	require.NoError(t, err)
	require.Equal(t, &paimon.RollbackResult{SnapshotID: 3, DeletedSnapshots: []int64{4, 5}, DeletedTags: []string{"at5"}}, res)
	require.Equal(t, res, preview)
	require.Equal(t, []int64{1, 2, 3}, rbSnapshotIDs(t, tbl))
	require.Equal(t, int64(3), rbHint(t, fsys, dir, "LATEST"))
	require.Equal(t, before-3, tagCountFiles(t, fsys, dir), "only the two snapshot files and one tag are removed")
	require.Equal(t, want, tagRows(t, tbl))
	names, err := tbl.Meta().TagNames(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"at2"}, names)

	// Rolling back to the latest snapshot changes nothing; unknown ids fail.
	res, err = tbl.RollbackTo(ctx, 3)
	require.NoError(t, err)
	require.Empty(t, res.DeletedSnapshots)
	_, err = tbl.RollbackTo(ctx, 9)
	require.ErrorIs(t, err, paimon.ErrSnapshotNotFound)
	_, err = tbl.RollbackToTag(ctx, "nope")
	require.ErrorIs(t, err, paimon.ErrTagNotFound)
}

// TestRollbackToExpiredTag restores the file of an expired snapshot from
// its tag, as Java's RollbackHelper.createSnapshotFileIfNeeded does.
func TestRollbackToExpiredTag(t *testing.T) {
	ctx := context.Background()
	tbl, fsys, dir := tagGolden(t, "tag-expire", "tag_expire")
	want := tagRows(t, tbl, paimon.WithTag("t1"))
	require.Equal(t, []int64{5}, rbSnapshotIDs(t, tbl))

	// Snapshot 1 expired, but tag t1 holds it: RollbackTo goes through it.
	preview, err := tbl.PreviewRollback(ctx, 1, "")
	require.NoError(t, err)
	require.Equal(t, []int64{5}, rbSnapshotIDs(t, tbl), "the preview changed the table")
	res, err := tbl.RollbackTo(ctx, 1)
	require.NoError(t, err)
	require.Equal(t, res, preview)
	require.Equal(t, &paimon.RollbackResult{SnapshotID: 1, DeletedSnapshots: []int64{5}, DeletedTags: []string{"t2"}, Restored: true}, res)
	require.Equal(t, []int64{1}, rbSnapshotIDs(t, tbl))
	require.Equal(t, int64(1), rbHint(t, fsys, dir, "LATEST"))
	require.Equal(t, int64(1), rbHint(t, fsys, dir, "EARLIEST"))
	tag, err := tbl.Meta().ReadTag(ctx, "t1")
	require.NoError(t, err)
	require.Equal(t, tag.Snapshot.Encode(), tagReadFile(t, fsys, dir+"/snapshot/snapshot-1"))
	require.Equal(t, want, tagRows(t, tbl))
	require.Equal(t, []string{`{"id":1,"v":"s1"}`, `{"id":2,"v":"s1"}`}, want)
}

// TestRollbackReplay replays Java's rollback plan (interop/plans/
// rollback.json) with this library's writer, tags and rollbacks, and
// compares the result with Java's: the same rows, snapshots 1..3, and the
// hints Java left.
func TestRollbackReplay(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	fields := []schema.DataField{
		{ID: 0, Name: "dt", Type: schema.StringType().NotNull()},
		{ID: 1, Name: "id", Type: schema.IntType().NotNull()},
		{ID: 2, Name: "v", Type: schema.StringType()},
	}
	dir := "interop.db/rollback"
	_, err := paimon.CreateTable(ctx, fsys, dir, &schema.Schema{Fields: fields, PartitionKeys: []string{"dt"}})
	require.NoError(t, err)
	open := func() *paimon.Table {
		tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
		require.NoError(t, err)
		return tbl
	}
	write := func(dt string, id int32, v string) {
		tbl := open()
		w, err := tbl.NewWriter(nil)
		require.NoError(t, err)
		defer w.Close(ctx)
		rec, err := testtable.BuildRecord(memcheck.New(), fields, [][]any{{dt, id, v}})
		require.NoError(t, err)
		defer rec.Release()
		require.NoError(t, w.Write(ctx, rec))
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		c, err := tbl.NewCommit(nil)
		require.NoError(t, err)
		_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
		require.NoError(t, err)
	}
	write("a", 1, "s1")
	write("a", 2, "s2")
	_, err = open().CreateTag(ctx, "keep", &paimon.CreateTagOptions{SnapshotID: 2})
	require.NoError(t, err)
	write("b", 3, "s3")
	write("b", 4, "s4")
	_, err = open().RollbackTo(ctx, 3)
	require.NoError(t, err)
	write("c", 5, "after-rollback-1")
	require.Equal(t, []int64{1, 2, 3, 4}, rbSnapshotIDs(t, open()))
	_, err = open().RollbackToTag(ctx, "keep")
	require.NoError(t, err)
	write("c", 6, "after-rollback-2")

	tbl := open()
	javaExpected, err := os.ReadFile(filepath.Join(goldenRoot, "java-1.4.2", "rollback", "expected.jsonl"))
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 3}, rbSnapshotIDs(t, tbl))
	require.Equal(t, int64(3), rbHint(t, fsys, dir, "LATEST"))
	java := strings.Split(strings.TrimSpace(string(javaExpected)), "\n")
	require.Equal(t, java, tagRows(t, tbl))
	names, err := tbl.Meta().TagNames(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"keep"}, names)
}

package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// later is a clock two days ahead: every file on the store looks old to
// the orphan cleaner's safety age.
func later() time.Time { return time.Now().Add(48 * time.Hour) }

// noOrphans checks that the orphan cleaner, treating every file as old,
// finds nothing to remove: each file is referenced.
func noOrphans(t *testing.T, tbl *paimon.Table) {
	t.Helper()
	res, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{DryRun: true, OlderThan: time.Hour, Now: later})
	require.NoError(t, err)
	require.Empty(t, res.Deleted, "unreferenced files")
}

// plannedFiles returns the data files a scan with opts reads, by name
// relative to the file system root, sorted.
func plannedFiles(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) []string {
	t.Helper()
	plan, err := tbl.NewScan(opts...).Plan(ctx)
	require.NoError(t, err)
	var out []string
	for _, sp := range plan.Splits {
		for _, f := range sp.Files {
			out = append(out, tablePath+"/"+sp.BucketPath+"/"+f.FileName)
		}
	}
	slices.Sort(out)
	return out
}

// union merges sorted name lists without duplicates.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// testExpireSnapshots expires all but the two newest of five snapshots
// (one of them an overwrite) and checks that exactly the data files the
// overwrite replaced are deleted, the remaining snapshots read as before,
// the expired ones are gone, and nothing unreferenced is left.
func testExpireSnapshots(t *testing.T, fsys fs.FS) {
	tbl := createTable(t, fsys, avroUnaware, nil)
	fields := tbl.Schema().Fields
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: "writer", SkipExpire: true})
	require.NoError(t, err)
	wants := map[int64][][]any{}
	write(t, tbl, c, 1, rowsOf(0, 30), 30)
	wants[1] = rowsOf(0, 30)
	write(t, tbl, c, 2, rowsOf(30, 60), 30)
	wants[2] = rowsOf(0, 60)
	replaced := plannedFiles(t, tbl, paimon.WithSnapshotID(2), paimon.WithFilter(predicate.Equal("dt", "2024-01-01")))
	require.NotEmpty(t, replaced)
	over := rowsIn("2024-01-01", 900, 905)
	_, err = c.Overwrite(ctx, 3, map[string]string{"dt": "2024-01-01"}, prepare(t, tbl, over, 10))
	require.NoError(t, err)
	wants[3] = concat(where(wants[2], notInDay("2024-01-01")), over)
	write(t, tbl, c, 4, rowsOf(60, 90), 30)
	wants[4] = concat(wants[3], rowsOf(60, 90))
	write(t, tbl, c, 5, rowsOf(90, 120), 30)
	wants[5] = concat(wants[4], rowsOf(90, 120))

	before := dataFiles(listFiles(t, fsys, tablePath))
	res, err := tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMin: 2, RetainMax: 2, OlderThan: -1, CommitGrace: -1})
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 3}, res.Expired)
	require.Equal(t, len(replaced), res.DeletedDataFiles)
	require.Positive(t, res.DeletedManifestLists)
	after := dataFiles(listFiles(t, fsys, tablePath))
	var gone []string
	for _, f := range before {
		if !slices.Contains(after, f) {
			gone = append(gone, f)
		}
	}
	require.Equal(t, replaced, gone, "deleted data files")

	tbl = reopen(t, fsys)
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Equal(t, []int64{4, 5}, ids)
	earliest, ok, err := tbl.Meta().EarliestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	require.EqualValues(t, 4, earliest)
	requireRows(t, render(t, fields, wants[5]), read(t, tbl), "latest snapshot")
	requireRows(t, render(t, fields, wants[4]), read(t, tbl, paimon.WithSnapshotID(4)), "snapshot 4")
	_, err = scanLines(t, tbl, paimon.WithSnapshotID(1))
	require.ErrorIs(t, err, paimon.ErrSnapshotNotFound)

	res, err = tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMin: 2, RetainMax: 2, OlderThan: -1, CommitGrace: -1})
	require.NoError(t, err)
	require.Empty(t, res.Expired)
	noOrphans(t, tbl)
}

// testTagsAndRollback tags snapshots, reads them by tag, expires the
// snapshots under the tags (the tags keep their files), deletes a tag,
// rolls back to an expired tagged snapshot, commits on top, and cleans the
// files only the rolled-back snapshots used.
func testTagsAndRollback(t *testing.T, fsys fs.FS) {
	tbl := createTable(t, fsys, parquetFixed, nil)
	fields := tbl.Schema().Fields
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: "writer", SkipExpire: true})
	require.NoError(t, err)
	wants := map[string][][]any{}

	write(t, tbl, c, 1, rowsOf(0, 40), 40)
	wants["t1"] = rowsOf(0, 40)
	tag, err := tbl.CreateTag(ctx, "t1", nil)
	require.NoError(t, err)
	require.EqualValues(t, 1, tag.Snapshot.ID)
	write(t, tbl, c, 2, rowsOf(40, 80), 40)
	wants["t2"] = rowsOf(0, 80)
	over := rowsIn("2024-01-02", 800, 804)
	_, err = c.Overwrite(ctx, 3, map[string]string{"dt": "2024-01-02"}, prepare(t, tbl, over, 10))
	require.NoError(t, err)
	wants["t3"] = concat(where(wants["t2"], notInDay("2024-01-02")), over)
	for _, name := range []string{"t3", "t2"} {
		_, err = tbl.CreateTag(ctx, name, &paimon.CreateTagOptions{SnapshotID: int64(name[1] - '0')})
		require.NoError(t, err, name)
	}
	_, err = tbl.CreateTag(ctx, "t1", &paimon.CreateTagOptions{SnapshotID: 2})
	require.ErrorIs(t, err, paimon.ErrTagExists)
	_, err = tbl.CreateTag(ctx, "t9", &paimon.CreateTagOptions{SnapshotID: 9})
	require.ErrorIs(t, err, paimon.ErrSnapshotNotFound)

	names, err := tbl.Meta().TagNames(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"t1", "t2", "t3"}, names)
	checkTags := func(what string, names ...string) {
		t.Helper()
		for _, name := range names {
			requireRows(t, render(t, fields, wants[name]), read(t, tbl, paimon.WithTag(name)), "%s: tag %s", what, name)
		}
	}
	checkTags("before expiration", "t1", "t2", "t3")

	// Expire snapshots 1 and 2: the tags hold their files, including those
	// the overwrite in snapshot 3 replaced.
	res, err := tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMin: 1, RetainMax: 1, OlderThan: -1, CommitGrace: -1})
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2}, res.Expired)
	require.Zero(t, res.DeletedDataFiles)
	_, err = scanLines(t, tbl, paimon.WithSnapshotID(1))
	require.ErrorIs(t, err, paimon.ErrSnapshotNotFound)
	checkTags("after expiration", "t1", "t2", "t3")
	noOrphans(t, tbl)

	// t3's snapshot exists: deleting the tag only removes the tag file.
	require.NoError(t, tbl.DeleteTag(ctx, "t3"))
	_, err = scanLines(t, tbl, paimon.WithTag("t3"))
	require.ErrorIs(t, err, paimon.ErrTagNotFound)
	require.ErrorIs(t, tbl.DeleteTag(ctx, "t3"), paimon.ErrTagNotFound)

	// Roll back to t1, whose snapshot expired: it is restored from the tag,
	// snapshot 3 and the newer tag t2 go.
	rb, err := tbl.RollbackToTag(ctx, "t1")
	require.NoError(t, err)
	require.True(t, rb.Restored)
	require.EqualValues(t, 1, rb.SnapshotID)
	require.Equal(t, []int64{3}, rb.DeletedSnapshots)
	require.Equal(t, []string{"t2"}, rb.DeletedTags)
	tbl = reopen(t, fsys)
	requireRows(t, render(t, fields, wants["t1"]), read(t, tbl), "latest after rollback")
	checkTags("after rollback", "t1")

	// A new writer commits on top of the restored snapshot.
	more := rowsOf(200, 210)
	res2 := write(t, tbl, newCommit(t, tbl, "after-rollback"), 1, more, 10)
	require.EqualValues(t, 2, res2.Snapshot.ID)
	tbl = reopen(t, fsys)
	requireRows(t, render(t, fields, concat(wants["t1"], more)), read(t, tbl), "commit after rollback")

	// The files only the removed snapshots and tags used are orphans now.
	orphans, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{OlderThan: time.Hour, Now: later})
	require.NoError(t, err)
	require.NotEmpty(t, orphans.Deleted)
	require.Equal(t, union(plannedFiles(t, tbl), plannedFiles(t, tbl, paimon.WithTag("t1"))),
		dataFiles(listFiles(t, fsys, tablePath)), "data files left")
	requireRows(t, render(t, fields, concat(wants["t1"], more)), read(t, tbl), "latest after orphan cleaning")
	checkTags("after orphan cleaning", "t1")
	noOrphans(t, tbl)
}

// testRemoveOrphanFiles leaves the files of a writer that crashed before
// its commit, checks that a closed writer and an aborted commit clean up
// after themselves, and that the orphan cleaner removes exactly the crashed
// writer's files once they are old enough, and none while they are young.
func testRemoveOrphanFiles(t *testing.T, fsys fs.FS) {
	tbl := createTable(t, fsys, parquetFixed, nil)
	fields := tbl.Schema().Fields
	c := newCommit(t, tbl, "writer")
	write(t, tbl, c, 1, rowsOf(0, 40), 40)
	write(t, tbl, c, 2, rowsOf(40, 80), 40)
	want := render(t, fields, rowsOf(0, 80))
	committed := listFiles(t, fsys, tablePath)

	// A writer closed without PrepareCommit removes what it wrote, and a
	// commit aborted explicitly removes its messages' files.
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	rec, err := testtable.BuildRecord(memory.DefaultAllocator, fields, rowsOf(300, 310))
	require.NoError(t, err)
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	require.NoError(t, w.Close(ctx))
	require.NoError(t, c.Abort(ctx, prepare(t, tbl, rowsOf(310, 320), 10)))
	require.Equal(t, committed, listFiles(t, fsys, tablePath), "closed writer or aborted commit left files")

	// A writer that crashed between PrepareCommit and Commit.
	crashed := prepare(t, tbl, rowsOf(100, 140), 20)
	n := 0
	for _, m := range crashed {
		n += len(m.NewFiles)
	}
	all := listFiles(t, fsys, tablePath)
	orphans := added(committed, all)
	require.Len(t, orphans, n)
	var size int64
	for _, o := range orphans {
		require.Contains(t, dataFiles(all), o)
		size += all[o]
	}

	// Young files are protected by the default safety age (one day).
	res, err := tbl.RemoveOrphanFiles(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, res.Deleted)

	res, err = tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{DryRun: true, OlderThan: time.Hour, Now: later})
	require.NoError(t, err)
	require.Equal(t, orphans, res.Deleted, "dry run")
	require.Equal(t, size, res.DeletedBytes)
	require.Equal(t, all, listFiles(t, fsys, tablePath), "a dry run removed files")

	res, err = tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{OlderThan: time.Hour, Now: later})
	require.NoError(t, err)
	require.Equal(t, orphans, res.Deleted)
	require.Equal(t, committed, listFiles(t, fsys, tablePath))
	requireRows(t, want, read(t, reopen(t, fsys)), "after orphan cleaning")

	// The table takes commits as before.
	write(t, tbl, c, 3, rowsOf(80, 90), 10)
	requireRows(t, render(t, fields, rowsOf(0, 90)), read(t, reopen(t, fsys)), "commit after orphan cleaning")
}

package paimon_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/paimon"
)

func openBranch(t *testing.T, fsys fs.FS, branch string) *paimon.Table {
	t.Helper()
	tbl, err := paimon.OpenTable(context.Background(), fsys, "db.db/t", &paimon.TableOptions{Branch: branch})
	require.NoError(t, err)
	return tbl
}

// TestBranchLifecycle creates branches from a tag, a snapshot and nothing,
// writes and commits to one, reads both sides, fast-forwards main to it
// and drops the others (Java FileSystemBranchManager semantics).
func TestBranchLifecycle(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, nil)
	c := newCommit(t, tbl, "main-writer")
	all := rowsOf(0, 120, 3)
	write(t, tbl, c, 1, all[:40], 16)
	write(t, tbl, c, 2, all[40:80], 16)
	tbl = reopen(t, fsys)
	_, err := tbl.CreateTag(ctx, "t1", &paimon.CreateTagOptions{SnapshotID: 1})
	require.NoError(t, err)

	// Invalid names and starting points are refused before any file.
	for _, name := range []string{"", " ", "main", "123", "a/b"} {
		require.ErrorIs(t, tbl.CreateBranch(ctx, name, nil), paimon.ErrInvalidBranchName, name)
	}
	require.ErrorIs(t, tbl.CreateBranch(ctx, "x", &paimon.CreateBranchOptions{Tag: "nope"}), paimon.ErrTagNotFound)
	require.ErrorIs(t, tbl.CreateBranch(ctx, "x", &paimon.CreateBranchOptions{SnapshotID: 9}), paimon.ErrSnapshotNotFound)
	require.ErrorIs(t, tbl.CreateBranch(ctx, "x", &paimon.CreateBranchOptions{SnapshotID: 1, Tag: "t1"}), paimon.ErrInvalidOption)
	names, err := tbl.Branches(ctx)
	require.NoError(t, err)
	require.Empty(t, names)

	require.NoError(t, tbl.CreateBranch(ctx, "fromtag", &paimon.CreateBranchOptions{Tag: "t1"}))
	require.NoError(t, tbl.CreateBranch(ctx, "fromsnap", &paimon.CreateBranchOptions{SnapshotID: 2}))
	require.NoError(t, tbl.CreateBranch(ctx, "empty", nil))
	require.ErrorIs(t, tbl.CreateBranch(ctx, "empty", nil), paimon.ErrBranchExists)
	names, err = tbl.Branches(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"empty", "fromsnap", "fromtag"}, names)

	// The tag branch has the tag and its snapshot, read like main at 1.
	bt := openBranch(t, fsys, "fromtag")
	require.Equal(t, render(t, all[:40]), dump(t, bt))
	tags, err := bt.Meta().TagNames(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"t1"}, tags)
	require.Equal(t, render(t, all[:80]), dump(t, openBranch(t, fsys, "fromsnap")))
	require.Empty(t, dump(t, openBranch(t, fsys, "empty")))

	// Writes to a branch commit there and leave main alone.
	bc := newCommit(t, bt, "branch-writer")
	res := write(t, bt, bc, 1, all[80:120], 16)
	require.EqualValues(t, 2, res.Snapshot.ID)
	bt = openBranch(t, fsys, "fromtag")
	want := append(append([][]any{}, all[:40]...), all[80:120]...)
	require.Equal(t, render(t, want), dump(t, bt))
	require.Equal(t, render(t, all[:80]), dump(t, reopen(t, fsys)))
	ok, err := fs.Exists(ctx, fsys, "db.db/t/branch/branch-fromtag/snapshot/snapshot-2")
	require.NoError(t, err)
	require.True(t, ok)

	// Fast-forward main to the branch: main's snapshot 2 is replaced by
	// the branch's, main's tag of snapshot 1 too.
	require.ErrorIs(t, tbl.FastForward(ctx, "empty"), paimon.ErrSnapshotNotFound)
	require.ErrorIs(t, tbl.FastForward(ctx, "nope"), paimon.ErrBranchNotFound)
	require.ErrorIs(t, bt.FastForward(ctx, "fromtag"), paimon.ErrInvalidBranchName)
	require.NoError(t, tbl.FastForward(ctx, "fromtag"))
	main := reopen(t, fsys)
	require.Equal(t, render(t, want), dump(t, main))
	ids, err := main.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2}, ids)
	latest, _, err := main.Meta().LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 2, latest)

	// Main goes on after the fast-forward, on top of the branch.
	mc := newCommit(t, main, "main-writer-2")
	res = write(t, main, mc, 1, rowsOf(200, 210, 3), 5)
	require.EqualValues(t, 3, res.Snapshot.ID)

	require.NoError(t, main.DropBranch(ctx, "empty"))
	require.ErrorIs(t, main.DropBranch(ctx, "empty"), paimon.ErrBranchNotFound)
	names, err = main.Branches(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"fromsnap", "fromtag"}, names)
}

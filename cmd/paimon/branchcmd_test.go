package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func branchNamesOf(t *testing.T, wh, table string) []string {
	t.Helper()
	names := []string{}
	for _, r := range jsonRows(t, runOK(t, "branch", "list", "--warehouse", wh, table, "--output", "jsonl")) {
		names = append(names, r["branch_name"].(string))
	}
	return names
}

// TestBranchCommands creates branches from a tag, a snapshot and nothing,
// reads them as db.table$branch_NAME, fast-forwards main and drops one.
func TestBranchCommands(t *testing.T) {
	wh, _ := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	w := "--warehouse=" + wh
	runOK(t, "tag", "create", w, table, "first", "--snapshot", "1")
	require.Equal(t, "Created branch b1 of interop.append_unpartitioned (at tag first).\n",
		runOK(t, "branch", "create", w, table, "b1", "--tag", "first"))
	require.Equal(t, "Created branch b3 of interop.append_unpartitioned (at snapshot 3).\n",
		runOK(t, "branch", "create", w, table, "b3", "--snapshot", "3"))
	require.Equal(t, "Created branch empty of interop.append_unpartitioned (empty).\n",
		runOK(t, "branch", "create", w, table, "empty"))
	require.Equal(t, []string{"b1", "b3", "empty"}, branchNamesOf(t, wh, table))

	require.Equal(t, expectedRows(t, "append-unpartitioned", "expected-snapshot-1.jsonl"),
		canonLines(t, runOK(t, "scan", w, table+"$branch_b1", "--output", "canon")))
	require.Equal(t, expectedRows(t, "append-unpartitioned", "expected-snapshot-3.jsonl"),
		canonLines(t, runOK(t, "scan", w, table+"$branch_b3", "--output", "canon")))

	runFail(t, "branch already exists", "branch", "create", w, table, "b1")
	runFail(t, "invalid branch name", "branch", "create", w, table, "main")
	runFail(t, "invalid branch name", "branch", "create", w, table, "42")
	runFail(t, "tag not found", "branch", "create", w, table, "x", "--tag", "nope")
	runUsage(t, "--tag and --snapshot exclude each other", "branch", "create", w, table, "x", "--tag", "first", "--snapshot", "1")
	runFail(t, "does not have a snapshot", "branch", "fast-forward", w, table, "empty")

	require.Equal(t, "Fast-forwarded interop.append_unpartitioned to branch b3 (latest snapshot 3).\n",
		runOK(t, "branch", "fast-forward", w, table, "b3"))
	require.Equal(t, []int64{1, 2, 3}, snapshotIDsOf(t, wh, table))
	require.Equal(t, expectedRows(t, "append-unpartitioned", "expected-snapshot-3.jsonl"),
		canonLines(t, runOK(t, "scan", w, table, "--output", "canon")))

	require.Equal(t, "Dropped branch empty of interop.append_unpartitioned.\n", runOK(t, "branch", "drop", w, table, "empty"))
	runFail(t, "branch not found", "branch", "drop", w, table, "empty")
	require.Equal(t, "Branch empty of interop.append_unpartitioned does not exist.\n", runOK(t, "branch", "drop", w, table, "empty", "--if-exists"))
	require.Equal(t, []string{"b1", "b3"}, branchNamesOf(t, wh, table))
}

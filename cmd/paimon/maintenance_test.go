package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// snapshotIDsOf lists the snapshot ids of a table through the snapshots
// command.
func snapshotIDsOf(t *testing.T, wh, table string) []int64 {
	t.Helper()
	var ids []int64
	for _, r := range jsonRows(t, runOK(t, "snapshots", "--warehouse", wh, table, "--output", "jsonl")) {
		n, err := r["snapshot_id"].(json.Number).Int64()
		require.NoError(t, err)
		ids = append(ids, n)
	}
	return ids
}

func tagNamesOf(t *testing.T, wh, table string) []string {
	t.Helper()
	names := []string{}
	for _, r := range jsonRows(t, runOK(t, "tag", "list", "--warehouse", wh, table, "--output", "jsonl")) {
		names = append(names, r["tag_name"].(string))
	}
	return names
}

// expectedRows reads a golden expected-*.jsonl file, sorted.
func expectedRows(t *testing.T, scenario, file string) []string {
	t.Helper()
	return readExpected(t, filepath.Join(goldenRoot, "java-1.4.2", scenario, file))
}

func TestExpireCommand(t *testing.T) {
	wh, dir := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	want := canonLines(t, runOK(t, "scan", "--warehouse", wh, table, "--output", "canon"))

	// The Java snapshots are years old by now, but 10 are kept by default.
	require.Equal(t, "Nothing to expire in interop.append_unpartitioned: 5 snapshots (1..5).\n",
		runOK(t, "expire", "--warehouse", wh, table))
	// A dry run lists what the real run then deletes, and deletes nothing.
	before := listTree(t, dir)
	dry := runOK(t, "expire", "--warehouse", wh, table, "--retain-min", "2", "--older-than", "0", "--dry-run")
	require.Equal(t, before, listTree(t, dir), "a dry run changed files")
	require.True(t, strings.HasPrefix(dry, "Dry run: would expire 3 snapshots of interop.append_unpartitioned (1..3); 2 snapshots (4..5) would be left.\n"+
		"Would delete 3 data files, 0 changelog files, 0 manifests, 6 manifest lists, 0 index manifests, 0 index files, 0 statistics files and 3 snapshot files:\n"), dry)
	require.True(t, strings.HasSuffix(dry, "Nothing was changed.\n"), dry)
	var dryJSON expireJSON
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "expire", "--warehouse", wh, table, "--retain-min", "2", "--older-than", "0", "--dry-run", "--output", "json")), &dryJSON))
	require.True(t, dryJSON.DryRun)
	require.Equal(t, []int64{1, 2, 3}, dryJSON.Expired)
	require.Len(t, dryJSON.WouldDelete, 12)
	require.Equal(t, before, listTree(t, dir))
	out := runOK(t, "expire", "--warehouse", wh, table, "--retain-min", "2", "--older-than", "0")
	var gone []string
	after := listTree(t, dir)
	for _, p := range before {
		if !slices.Contains(after, p) {
			gone = append(gone, p)
		}
	}
	require.Len(t, gone, len(dryJSON.WouldDelete))
	for _, p := range dryJSON.WouldDelete {
		rel := strings.TrimPrefix(filepath.ToSlash(p), filepath.ToSlash(dir)+"/")
		require.Contains(t, gone, rel, "would delete %s, which the real run kept", p)
		require.Contains(t, dry, "  "+p+"\n")
	}
	require.Equal(t, "Expired 3 snapshots of interop.append_unpartitioned (1..3); 2 snapshots (4..5) left.\n"+
		"Deleted 3 data files, 0 changelog files, 0 manifests, 6 manifest lists, 0 index manifests, 0 index files, 0 statistics files.\n", out)
	require.Equal(t, []int64{4, 5}, snapshotIDsOf(t, wh, table))
	require.Equal(t, want, canonLines(t, runOK(t, "scan", "--warehouse", wh, table, "--output", "canon")))
	b, err := os.ReadFile(filepath.Join(dir, "snapshot", "EARLIEST"))
	require.NoError(t, err)
	require.Equal(t, "4", string(b))

	var res expireJSON
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "expire", "--warehouse", wh, table, "--retain-min", "1", "--retain-max", "1", "--output", "json")), &res))
	require.Equal(t, []int64{4}, res.Expired)
	require.Equal(t, []int64{5}, res.Remaining)
	require.Equal(t, want, canonLines(t, runOK(t, "scan", "--warehouse", wh, table, "--output", "canon")))

	runUsage(t, "--retain-min", "expire", "--warehouse", wh, table, "--retain-min", "0")
	runUsage(t, "--older-than", "expire", "--warehouse", wh, table, "--older-than", "soon")
	runUsage(t, "--output", "expire", "--warehouse", wh, table, "--output", "csv")
	runFail(t, "table not found", "expire", "--warehouse", wh, "interop.nope")
	runUsage(t, "--retain-max 2 is less than --retain-min 5", "expire", "--warehouse", wh, table, "--retain-min", "5", "--retain-max", "2")
	runFail(t, "snapshot.num-retained.max (2) must not be less than snapshot.num-retained.min (10)", "expire", "--warehouse", wh, table, "--retain-max", "2")
}

func TestTagCommands(t *testing.T) {
	wh, dir := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	w := "--warehouse=" + wh
	require.Equal(t, "Created tag first on snapshot 1 of interop.append_unpartitioned.\n",
		runOK(t, "tag", "create", w, table, "first", "--snapshot", "1"))
	require.Equal(t, "Created tag week on snapshot 5 of interop.append_unpartitioned, retained for 7d.\n",
		runOK(t, "tag", "create", w, table, "week", "--time-retained", "7 d"))
	require.Equal(t, []string{"first", "week"}, tagNamesOf(t, wh, table))
	snap, err := os.ReadFile(filepath.Join(dir, "snapshot", "snapshot-1"))
	require.NoError(t, err)
	tag, err := os.ReadFile(filepath.Join(dir, "tag", "tag-first"))
	require.NoError(t, err)
	require.Equal(t, string(snap), string(tag), "a tag without retention is the snapshot's JSON")
	require.Equal(t, expectedRows(t, "append-unpartitioned", "expected-snapshot-1.jsonl"),
		canonLines(t, runOK(t, "scan", w, table, "--tag", "first", "--output", "canon")))

	runFail(t, `tag already exists: "first"`, "tag", "create", w, table, "first")
	runFail(t, "snapshot not found", "tag", "create", w, table, "x", "--snapshot", "9")
	runFail(t, "invalid tag name", "tag", "create", w, table, "a/b")
	runFail(t, "table not found", "tag", "create", w, "interop.nope", "x")
	runUsage(t, "--time-retained", "tag", "create", w, table, "x", "--time-retained", "forever")
	runUsage(t, "missing table name (database.table) and tag name", "tag", "create", w, table)

	require.Equal(t, "Deleted tag week of interop.append_unpartitioned.\n", runOK(t, "tag", "delete", w, table, "week"))
	runFail(t, "tag not found", "tag", "delete", w, table, "week")
	require.Equal(t, "Tag week of interop.append_unpartitioned does not exist.\n", runOK(t, "tag", "delete", w, table, "week", "--if-exists"))
	require.Equal(t, []string{"first"}, tagNamesOf(t, wh, table))

	// A tag whose snapshot expired and which alone holds its files.
	wh2, dir2 := goldenCopy(t, "tag-expire", "tag_expire")
	runFail(t, "its snapshot 1 has expired and the tag alone references its files", "tag", "delete", "--warehouse", wh2, "interop.tag_expire", "t1")
	_, err = os.Stat(filepath.Join(dir2, "tag", "tag-t1"))
	require.NoError(t, err, "the refused tag stays")
}

func TestRollbackCommand(t *testing.T) {
	wh, dir := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	w := "--warehouse=" + wh
	runOK(t, "tag", "create", w, table, "last")
	before := listTree(t, dir)
	require.Equal(t, "Dry run: would roll back interop.append_unpartitioned to snapshot 3: would delete snapshots 4..5, tag last.\nNothing was changed.\n",
		runOK(t, "rollback", w, table, "--snapshot", "3", "--dry-run"))
	require.Equal(t, before, listTree(t, dir), "a dry run changed files")
	require.Equal(t, "Rolled back interop.append_unpartitioned to snapshot 3: deleted snapshots 4..5, tag last.\n",
		runOK(t, "rollback", w, table, "--snapshot", "3"))
	require.Equal(t, []int64{1, 2, 3}, snapshotIDsOf(t, wh, table))
	require.Equal(t, expectedRows(t, "append-unpartitioned", "expected-snapshot-3.jsonl"), canonLines(t, runOK(t, "scan", w, table, "--output", "canon")))
	b, err := os.ReadFile(filepath.Join(dir, "snapshot", "LATEST"))
	require.NoError(t, err)
	require.Equal(t, "3", string(b))
	require.Empty(t, tagNamesOf(t, wh, table))

	// Writes continue after the rollback, from snapshot 4 again.
	out := runOK(t, "load", w, table, writeTemp(t, "more.csv", "id,name\n40,forty\n"))
	require.Equal(t, "Loaded 1 rows from 1 file into interop.append_unpartitioned: snapshot 4.\n", out)
	require.Contains(t, canonLines(t, runOK(t, "scan", w, table, "--output", "canon")), `{"id":40,"name":"forty","score":null}`)

	// To a tag whose snapshot expired: the snapshot comes back from it.
	wh2, _ := goldenCopy(t, "tag-expire", "tag_expire")
	table2 := "interop.tag_expire"
	require.Equal(t, "Dry run: would roll back interop.tag_expire to snapshot 1 (restored from its tag): would delete snapshot 5, tag t2.\nNothing was changed.\n",
		runOK(t, "rollback", "--warehouse", wh2, table2, "--tag", "t1", "--dry-run"))
	require.Equal(t, "Rolled back interop.tag_expire to snapshot 1 (restored from its tag): deleted snapshot 5, tag t2.\n",
		runOK(t, "rollback", "--warehouse", wh2, table2, "--tag", "t1"))
	require.Equal(t, []int64{1}, snapshotIDsOf(t, wh2, table2))
	require.Equal(t, expectedRows(t, "tag-expire", "expected-tag-t1.jsonl"), canonLines(t, runOK(t, "scan", "--warehouse", wh2, table2, "--output", "canon")))
	require.Equal(t, "Rolled back interop.tag_expire to snapshot 1: nothing to delete.\n",
		runOK(t, "rollback", "--warehouse", wh2, table2, "--snapshot", "1"))

	runFail(t, "snapshot not found", "rollback", w, table, "--snapshot", "9")
	runFail(t, "tag not found", "rollback", w, table, "--tag", "nope")
	runFail(t, "tag not found", "rollback", w, table, "--tag", "nope", "--dry-run")
	runFail(t, "snapshot not found", "rollback", w, table, "--snapshot", "9", "--dry-run")
	runFail(t, "table not found", "rollback", w, "interop.nope", "--snapshot", "1")
	runUsage(t, "--snapshot and --tag cannot be combined", "rollback", w, table, "--snapshot", "1", "--tag", "x")
	runUsage(t, "missing target", "rollback", w, table)
	runUsage(t, "--snapshot", "rollback", w, table, "--snapshot", "-1")
	require.True(t, strings.HasPrefix(runOK(t, "help", "rollback"), "Usage: paimon rollback"))
}

// TestExpireCommitGrace: snapshots that were the latest less than
// --commit-grace ago are kept (a commit may be computed from them), unless
// the grace is turned off.
func TestExpireCommitGrace(t *testing.T) {
	wh := newTable(t, `{"fields": [{"name": "id", "type": "INT"}], "options": {"bucket": "-1"}}`)
	csv := writeTemp(t, "in.csv", "id\n1\n")
	for range 3 {
		runOK(t, "load", "--warehouse", wh, "db.t", csv)
	}
	require.Equal(t, "Nothing to expire in db.t: 3 snapshots (1..3).\n",
		runOK(t, "expire", "--warehouse", wh, "db.t", "--retain-min", "1", "--older-than", "0"))
	require.Contains(t, runOK(t, "expire", "--warehouse", wh, "db.t", "--retain-min", "1", "--older-than", "0", "--commit-grace", "0"),
		"Expired 2 snapshots of db.t (1..2)")
	runUsage(t, "--commit-grace", "expire", "--warehouse", wh, "db.t", "--commit-grace", "-1s")
}

// listTree lists the files under dir, slash-separated relative paths, sorted.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	}))
	return out
}

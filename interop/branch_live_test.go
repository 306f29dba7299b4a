package interop_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveBranchRoundTrips checks branches both ways with Java 1.4.2 and
// 2.0.0 (issue 21):
//
//  1. we create a table, tag it, create a branch from the tag and from a
//     snapshot, write to the tag branch; Java reads both branches and main,
//     fast-forwards main to the tag branch and writes on; we read what
//     Java left;
//  2. Java creates a table, a branch from a tag, writes to the branch; we
//     read the branch as Java does, fast-forward main to it and write on;
//     Java reads our result.
func TestLiveBranchRoundTrips(t *testing.T) {
	runners := interop.RequireJava(t)
	seed := liveSeed(t)
	ctx := context.Background()
	for _, rn := range runners {
		rn.Timeout = 5 * time.Minute
		t.Run(rn.Name(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 0x21b))
			wh := t.TempDir()
			out := t.TempDir()
			fsys, err := localfs.New(wh, nil)
			require.NoError(t, err)
			defer fsys.Close()

			// 1. Ours first.
			ct := &ctTable{name: "ours", partitioned: true, commits: 3, opts: map[string]string{}}
			ct.create(ctx, t, fsys, r)
			tbl := ct.open(ctx, t, fsys)
			_, err = tbl.CreateTag(ctx, "t2", &paimon.CreateTagOptions{SnapshotID: 2})
			require.NoError(t, err)
			// The branch starts with the rows of snapshot 2.
			got2, _ := goScan(ctx, t, tbl, paimon.WithSnapshotID(2))
			atTag := linesToModel(t, got2)
			require.NoError(t, tbl.CreateBranch(ctx, "b", &paimon.CreateBranchOptions{Tag: "t2"}))
			require.NoError(t, tbl.CreateBranch(ctx, "s3", &paimon.CreateBranchOptions{SnapshotID: 3}))
			bt, err := paimon.OpenTable(ctx, fsys, ct.dir(), &paimon.TableOptions{Branch: "b"})
			require.NoError(t, err)
			for range 2 {
				ct.goWrite(ctx, t, bt, r, atTag, 15)
			}
			mainRows := ct.lines()
			items := []interop.BatchItem{
				{Out: filepath.Join(out, "b.jsonl"), Args: interop.DumpArgs(wh, ct.id()+"$branch_b", interop.DumpOptions{})},
				{Out: filepath.Join(out, "s3.jsonl"), Args: interop.DumpArgs(wh, ct.id()+"$branch_s3", interop.DumpOptions{})},
				{Out: filepath.Join(out, "main.jsonl"), Args: interop.DumpArgs(wh, ct.id(), interop.DumpOptions{})},
				{Out: filepath.Join(out, "branches.jsonl"), Args: []string{"meta", wh, ct.id(), "branches"}},
			}
			// Java fast-forwards main to b, then writes to main.
			javaRows := map[int64]string{}
			var rows []json.RawMessage
			for range 5 {
				ct.row(t, r, javaRows)
				rows = append(rows, json.RawMessage(javaRows[ct.nextID-1]))
			}
			plan := filepath.Join(out, "ff-plan.json")
			require.NoError(t, os.WriteFile(plan, []byte(wtJSON(map[string]any{"db": ctDB, "table": ct.name, "ops": []any{
				map[string]any{"op": "fastForward", "name": "b"},
				map[string]any{"op": "write", "rows": rows},
			}})), 0o644))
			items = append(items,
				interop.BatchItem{Out: filepath.Join(out, "ff.out"), Args: []string{"apply", wh, plan}},
				interop.BatchItem{Out: filepath.Join(out, "main-after.jsonl"), Args: interop.DumpArgs(wh, ct.id(), interop.DumpOptions{})},
			)
			require.NoError(t, rn.Batch(ctx, items))
			wtCompare(t, "Java's read of our branch b", ctLines(atTag), readCanon(t, filepath.Join(out, "b.jsonl")))
			wtCompare(t, "Java's read of our branch s3", mainRows, readCanon(t, filepath.Join(out, "s3.jsonl")))
			wtCompare(t, "Java's read of main", mainRows, readCanon(t, filepath.Join(out, "main.jsonl")))
			require.Len(t, readCanon(t, filepath.Join(out, "branches.jsonl")), 2)
			for id, l := range javaRows {
				atTag[id] = l
			}
			wtCompare(t, "Java's read of main after its fast-forward and write", ctLines(atTag), readCanon(t, filepath.Join(out, "main-after.jsonl")))
			got, _ := goScan(ctx, t, ct.open(ctx, t, fsys))
			wtCompare(t, "our read of main after Java's fast-forward", ctLines(atTag), got)

			// 2. Java first.
			jt := &ctTable{name: "javas", nextID: 1000}
			jrows := map[int64]string{}
			write := func(m map[int64]string, n int) []json.RawMessage {
				var rs []json.RawMessage
				for range n {
					jt.row(t, r, m)
					rs = append(rs, json.RawMessage(m[jt.nextID-1]))
				}
				return rs
			}
			ops := []any{
				map[string]any{"op": "create"},
				map[string]any{"op": "write", "rows": write(jrows, 10)},
				map[string]any{"op": "write", "rows": write(jrows, 10)},
				map[string]any{"op": "tag", "name": "base"},
			}
			brows := map[int64]string{}
			for id, l := range jrows {
				brows[id] = l
			}
			ops = append(ops,
				map[string]any{"op": "createBranch", "name": "dev", "tag": "base"},
				map[string]any{"op": "write", "branch": "dev", "rows": write(brows, 8)},
				map[string]any{"op": "write", "branch": "dev", "rows": write(brows, 8)},
				map[string]any{"op": "write", "rows": write(jrows, 4)}, // main moves on too
			)
			plan = filepath.Join(out, "java-plan.json")
			require.NoError(t, os.WriteFile(plan, []byte(wtJSON(map[string]any{"db": ctDB, "table": jt.name,
				"schema": map[string]any{"fields": ctSchemaJSON(), "partitionKeys": []string{"dt"}, "options": map[string]string{"bucket": "-1"}},
				"ops":    ops})), 0o644))
			require.NoError(t, rn.Batch(ctx, []interop.BatchItem{
				{Out: filepath.Join(out, "java.out"), Args: []string{"apply", wh, plan}},
				{Out: filepath.Join(out, "dev.jsonl"), Args: interop.DumpArgs(wh, jt.id()+"$branch_dev", interop.DumpOptions{})},
			}))
			wtCompare(t, "Java's read of its branch", ctLines(brows), readCanon(t, filepath.Join(out, "dev.jsonl")))
			dev, err := paimon.OpenTable(ctx, fsys, jt.dir(), &paimon.TableOptions{Branch: "dev"})
			require.NoError(t, err)
			got, _ = goScan(ctx, t, dev)
			wtCompare(t, "our read of Java's branch", ctLines(brows), got)
			main := jt.open(ctx, t, fsys)
			got, _ = goScan(ctx, t, main)
			wtCompare(t, "our read of Java's main", ctLines(jrows), got)
			require.NoError(t, main.FastForward(ctx, "dev"))
			main = jt.open(ctx, t, fsys)
			got, _ = goScan(ctx, t, main)
			wtCompare(t, "our read of main after our fast-forward", ctLines(brows), got)
			jt.goWrite(ctx, t, main, r, brows, 6)
			require.NoError(t, rn.Batch(ctx, []interop.BatchItem{
				{Out: filepath.Join(out, "java-main.jsonl"), Args: interop.DumpArgs(wh, jt.id(), interop.DumpOptions{})},
				{Out: filepath.Join(out, "java-snaps.jsonl"), Args: []string{"meta", wh, jt.id(), "snapshots"}},
			}))
			wtCompare(t, "Java's read of main after our fast-forward and write", ctLines(brows), readCanon(t, filepath.Join(out, "java-main.jsonl")))
			// Main keeps its snapshot 1, replaces 2-3 by dev's 2-4 and adds
			// our 5; the fast-forward copied dev's EARLIEST hint (2), as
			// Java's copyFiles of the snapshot directory does, so Java's
			// $snapshots starts at 2.
			var ids []int64
			for _, l := range readCanon(t, filepath.Join(out, "java-snaps.jsonl")) {
				var v struct {
					ID int64 `json:"snapshot_id"`
				}
				require.NoError(t, json.Unmarshal([]byte(l), &v))
				ids = append(ids, v.ID)
			}
			slices.Sort(ids)
			require.Equal(t, []int64{2, 3, 4, 5}, ids, "Java's snapshots of main after our fast-forward and write")
			_, err = os.Stat(filepath.Join(wh, jt.dir(), "snapshot", "snapshot-1"))
			require.NoError(t, err, "main's snapshot 1 (before the branch) is kept")
		})
	}
}

// linesToModel turns canonical ctFields lines into a model keyed by id.
func linesToModel(t *testing.T, lines []string) map[int64]string {
	t.Helper()
	m := map[int64]string{}
	for _, l := range lines {
		var v struct {
			ID int64 `json:"id"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &v))
		m[v.ID] = l
	}
	return m
}

// ctSchemaJSON is ctFields as a plan's schema fields.
func ctSchemaJSON() []map[string]any {
	var out []map[string]any
	for _, f := range ctFields {
		out = append(out, map[string]any{"id": f.ID, "name": f.Name, "type": f.Type.String()})
	}
	return out
}

package interop_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/paimon"
)

// The Java side of TestLiveWritesReadByJava: two batches (two JVMs) per
// Java version, with our writer's append in between.

// wtJava runs the Java side on a copy of the warehouse: one batch (one
// JVM) reads, filters, lists and then maintains every table; our writer
// appends; a second batch reads the union, compacts and reads again.
func wtJava(ctx context.Context, t *testing.T, rn *interop.Runner, wh string, tables []*wtTable) {
	start := time.Now()
	whv := filepath.Join(t.TempDir(), "warehouse")
	require.NoError(t, os.CopyFS(whv, os.DirFS(wh)))
	out := t.TempDir()
	var items1, items2 []interop.BatchItem
	for _, wt := range tables {
		items1 = append(items1, wt.javaRound1(t, whv, out)...)
	}
	require.NoError(t, rn.Batch(ctx, items1))
	round1 := time.Now()
	fsys, err := localfs.New(whv, nil)
	require.NoError(t, err)
	for _, wt := range tables {
		t.Run(wt.spec.name, func(t *testing.T) { wt.checkRound1(ctx, t, fsys, whv, out, rn.Version) })
	}
	// Our writer on top of Java's snapshots.
	for _, wt := range tables {
		if wt.spec.light {
			continue
		}
		tbl, err := paimon.OpenTable(ctx, fsys, wt.dir, nil)
		require.NoError(t, err)
		wtGoCommit(ctx, t, tbl, wtUser(wt.spec)+"-after", wtCommit{kind: "append", rows: len(wt.goAfter), writes: 2},
			wt.goAfter)
		items2 = append(items2, wt.javaRound2(t, whv, out)...)
	}
	goAppend := time.Now()
	require.NoError(t, rn.Batch(ctx, items2))
	round2 := time.Now()
	for _, wt := range tables {
		if !wt.spec.light {
			t.Run(wt.spec.name+"/after", func(t *testing.T) { wt.checkRound2(ctx, t, fsys, out) })
		}
	}
	t.Logf("Java round 1 (%d commands) %v, Go checks and appends %v, Java round 2 (%d commands) %v, Go checks %v",
		len(items1), round1.Sub(start).Round(time.Millisecond), goAppend.Sub(round1).Round(time.Millisecond),
		len(items2), round2.Sub(goAppend).Round(time.Millisecond), time.Since(round2).Round(time.Millisecond))
}

// out names one of the table's output files in directory out.
func (wt *wtTable) out(out, name string) string {
	return filepath.Join(out, wt.spec.name+"-"+name)
}

// javaRound1 is the table's part of the first batch: the dump, $files,
// $snapshots and the filtered dumps of the warehouse our writer left, then
// the maintenance plan and what it leaves (light tables: the first three).
func (wt *wtTable) javaRound1(t *testing.T, whv, out string) []interop.BatchItem {
	t.Helper()
	items := []interop.BatchItem{
		{Out: wt.out(out, "full.jsonl"), Args: interop.DumpArgs(whv, wt.id(), interop.DumpOptions{})},
		{Out: wt.out(out, "files.jsonl"), Args: []string{"meta", whv, wt.id(), "files"}},
		{Out: wt.out(out, "snapshots.jsonl"), Args: []string{"meta", whv, wt.id(), "snapshots"}},
	}
	if wt.spec.light {
		return items
	}
	plan := wt.out(out, "maint-plan.json")
	require.NoError(t, os.WriteFile(plan, wt.javaPlan, 0o644))
	for i, f := range wt.filters {
		items = append(items, interop.BatchItem{Out: wt.out(out, filterName(i)+".jsonl"),
			Args: []string{"dump", whv, wt.id(), "--filter", f.arg, "--planned-files", wt.out(out, filterName(i)+".files")}})
	}
	return append(items,
		interop.BatchItem{Out: wt.out(out, "apply1.out"), Args: []string{"apply", whv, plan}},
		interop.BatchItem{Out: wt.out(out, "maint.jsonl"), Args: interop.DumpArgs(whv, wt.id(), interop.DumpOptions{})},
		interop.BatchItem{Out: wt.out(out, "maint-snapshots.jsonl"), Args: []string{"meta", whv, wt.id(), "snapshots"}},
	)
}

func filterName(i int) string { return "filter-" + strconv.Itoa(i) }

// javaRound2 is the table's part of the second batch, after our append on
// top of Java's snapshots: the dump, the bucket-key filters, a compaction
// and the dump after it.
func (wt *wtTable) javaRound2(t *testing.T, whv, out string) []interop.BatchItem {
	t.Helper()
	plan := wt.out(out, "compact-plan.json")
	require.NoError(t, os.WriteFile(plan, []byte(wtJSON(map[string]any{"db": wtDB, "table": wt.spec.name,
		"ops": []any{map[string]any{"op": "compact"}}})), 0o644))
	items := []interop.BatchItem{
		{Out: wt.out(out, "union.jsonl"), Args: interop.DumpArgs(whv, wt.id(), interop.DumpOptions{})},
	}
	for i, f := range wt.eq {
		items = append(items, interop.BatchItem{Out: wt.out(out, "eq-"+strconv.Itoa(i)+".jsonl"),
			Args: []string{"dump", whv, wt.id(), "--filter", f.arg}})
	}
	return append(items,
		interop.BatchItem{Out: wt.out(out, "apply2.out"), Args: []string{"apply", whv, plan}},
		interop.BatchItem{Out: wt.out(out, "compacted.jsonl"), Args: interop.DumpArgs(whv, wt.id(), interop.DumpOptions{})},
		interop.BatchItem{Out: wt.out(out, "final-snapshots.jsonl"), Args: []string{"meta", whv, wt.id(), "snapshots"}},
	)
}

// wtCompare reports a difference between expected and read rows.
func wtCompare(t *testing.T, what string, want, got []string) {
	t.Helper()
	if d := canon.Compare(want, got); d != "" {
		t.Errorf("%s differs from the rows we committed:\n%s%s", what, d, explainDiff(want, got))
	}
}

// checkRound1 checks the outputs of javaRound1.
func (wt *wtTable) checkRound1(ctx context.Context, t *testing.T, fsys *localfs.FS, whv, out, version string) {
	name := wt.spec.name
	wtCompare(t, "Java's dump of "+name, wt.model.lines(), readCanon(t, wt.out(out, "full.jsonl")))
	t.Run("files", func(t *testing.T) { wt.checkFiles(t, whv, readCanon(t, wt.out(out, "files.jsonl"))) })
	t.Run("snapshots", func(t *testing.T) { wt.checkSnapshots(t, readCanon(t, wt.out(out, "snapshots.jsonl"))) })
	if wt.spec.light {
		return
	}
	t.Run("filters", func(t *testing.T) { wt.checkFilters(t, out, version) })
	t.Run("maintained", func(t *testing.T) {
		wtCompare(t, "Java's dump after Java's write, compact, overwrite and expire of "+name,
			wt.maintModel.lines(), readCanon(t, wt.out(out, "maint.jsonl")))
		tbl, err := paimon.OpenTable(ctx, fsys, wt.dir, nil)
		require.NoError(t, err)
		got, _ := goScan(ctx, t, tbl)
		wtCompare(t, "our scan after Java's maintenance of "+name, wt.maintModel.lines(), got)
		wtCheckDataFilesOnDisk(ctx, t, tbl, filepath.Join(whv, wt.dir), wtRetainMax)
		wtCheckLatestTotal(t, "after Java's maintenance", readCanon(t, wt.out(out, "maint-snapshots.jsonl")),
			len(wt.maintModel.rows))
	})
}

// checkRound2 checks the outputs of javaRound2.
func (wt *wtTable) checkRound2(ctx context.Context, t *testing.T, fsys *localfs.FS, out string) {
	name := wt.spec.name
	want := wt.finalModel.lines()
	wtCompare(t, "Java's dump after our append on top of Java's snapshots of "+name, want,
		readCanon(t, wt.out(out, "union.jsonl")))
	for i, f := range wt.eq {
		wtCompare(t, "Java's dump of "+name+" with --filter "+f.arg, wt.finalModel.filter(t, f.pred),
			readCanon(t, wt.out(out, "eq-"+strconv.Itoa(i)+".jsonl")))
	}
	wtCompare(t, "Java's dump after Java compacted our last append of "+name, want,
		readCanon(t, wt.out(out, "compacted.jsonl")))
	tbl, err := paimon.OpenTable(ctx, fsys, wt.dir, nil)
	require.NoError(t, err)
	got, _ := goScan(ctx, t, tbl)
	wtCompare(t, "our scan after Java's second compaction of "+name, want, got)
	wtCheckLatestTotal(t, "at the end", readCanon(t, wt.out(out, "final-snapshots.jsonl")), len(want))
}

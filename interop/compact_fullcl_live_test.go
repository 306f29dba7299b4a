package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveFullCompactionChangelog is the acceptance test of
// changelog-producer = full-compaction (issue 18). Tables with that
// producer (deduplicate with deletes, Avro, sequence.field,
// partial-update, aggregation) get level-0 runs from our write-only
// writer; a copy of the warehouse is compacted by Java 1.4.2
// (write.compact(p, b, true) per bucket) and the original by
// Table.Compact; then the same rows are written into both and both are
// compacted again. Then:
//
//  1. Java 1.4.2 and 2.0.0 read, in changelog mode, the incremental
//     changes of each compaction snapshot and of all snapshots of our
//     table, and they must be exactly what Java 1.4.2 reads from its own
//     compactions; our incremental read must return the same; the tables'
//     snapshots must carry the same changelog record counts;
//  2. Java 1.4.2, 2.0.0 and pypaimon read our compacted tables as we do;
//  3. on a copy per Java version, Java writes and compacts after us and we
//     after Java: the rows and the changelog of the last compaction read
//     the same in Java and here.
func TestLiveFullCompactionChangelog(t *testing.T) {
	runners := interop.Require(t)
	seed := liveSeed(t)
	t.Setenv("JAVA_TOOL_OPTIONS", strings.TrimSpace(os.Getenv("JAVA_TOOL_OPTIONS")+" -XX:TieredStopAtLevel=1"))
	ctx := context.Background()
	r := rand.New(rand.NewPCG(uint64(seed), 0x18fc))
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	const cp = "changelog-producer"
	tables := []*pkcTable{
		{name: "fc_dedup", partitioned: true, full: true, deletes: true, opts: map[string]string{"bucket": "2", cp: "full-compaction"}},
		{name: "fc_dedup_avro", full: true, deletes: true, opts: map[string]string{"bucket": "1", "file.format": "avro", cp: "full-compaction"}},
		{name: "fc_seq", full: true, opts: map[string]string{"bucket": "1", "sequence.field": "v", cp: "full-compaction"}},
		{name: "fc_partial", partitioned: true, full: true, opts: map[string]string{"bucket": "2", "merge-engine": "partial-update", cp: "full-compaction"}},
		{name: "fc_agg", full: true, opts: map[string]string{"bucket": "2", "merge-engine": "aggregation", "fields.v.aggregate-function": "sum", cp: "full-compaction"}},
	}
	for _, pt := range tables {
		pt.create(ctx, t, fsys)
		tbl := pt.open(ctx, t, fsys)
		for range 3 {
			pt.goWrite(ctx, t, tbl, r, 10+r.IntN(25))
		}
	}
	java := map[string]*interop.Runner{}
	var python []*interop.Runner
	for _, rn := range runners {
		rn.Timeout = 5 * time.Minute
		if rn.Producer == "java" {
			java[rn.Version] = rn
		} else {
			python = append(python, rn)
		}
	}
	j14 := java["1.4.2"]
	out := t.TempDir()
	whJ := filepath.Join(t.TempDir(), "warehouse")
	require.NoError(t, os.CopyFS(whJ, os.DirFS(wh)))
	fsJ, err := localfs.New(whJ, nil)
	require.NoError(t, err)

	compactBoth := func(round int) {
		var items []interop.BatchItem
		for _, pt := range tables {
			items = append(items, pt.javaOps(t, whJ, out, fmt.Sprintf("java-compact-%d", round), []any{map[string]any{"op": "compact", "full": true}}))
		}
		require.NoError(t, j14.Batch(ctx, items))
		for _, pt := range tables {
			res, err := pt.open(ctx, t, fsys).Compact(ctx, &paimon.CompactOptions{Full: true})
			require.NoError(t, err, pt.name)
			require.NotNil(t, res.Commit, "%s: nothing compacted", pt.name)
		}
	}
	compactBoth(1) // snapshot 4
	for _, pt := range tables {
		for range 3 {
			fcWriteBoth(ctx, t, pt, []*paimon.Table{pt.open(ctx, t, fsys), pt.open(ctx, t, fsJ)}, r, 6+r.IntN(20))
		}
	}
	compactBoth(2) // snapshot 8
	ranges := [][2]int64{{3, 4}, {7, 8}, {0, 8}}
	for _, pt := range tables {
		for _, tb := range []*paimon.Table{pt.open(ctx, t, fsys), pt.open(ctx, t, fsJ)} {
			id, _, err := tb.Meta().LatestSnapshotID(ctx)
			require.NoError(t, err)
			require.EqualValues(t, 8, id, "%s: snapshots", pt.name)
		}
	}
	incArgs := func(w, id string, rg [2]int64) []string {
		return append(interop.DumpArgs(w, id, interop.DumpOptions{}), "--incremental", fmt.Sprintf("%d,%d", rg[0], rg[1]), "--incremental-mode", "changelog")
	}
	versions := make([]string, 0, len(java))
	for v := range java {
		versions = append(versions, v)
	}
	slices.Sort(versions) // 1.4.2 first: its turn reads Java's own compaction
	for _, v := range versions {
		rn := java[v]
		var items []interop.BatchItem
		for _, pt := range tables {
			items = append(items,
				interop.BatchItem{Out: pt.out(out, v+"-dump.jsonl"), Args: interop.DumpArgs(wh, pt.id(), interop.DumpOptions{})},
				interop.BatchItem{Out: pt.out(out, v+"-snapshots.jsonl"), Args: []string{"meta", wh, pt.id(), "snapshots"}})
			for _, rg := range ranges {
				items = append(items, interop.BatchItem{Out: pt.out(out, fmt.Sprintf("%s-cl-%d-%d.jsonl", v, rg[0], rg[1])), Args: incArgs(wh, pt.id(), rg)})
				if v == "1.4.2" {
					items = append(items, interop.BatchItem{Out: pt.out(out, fmt.Sprintf("java-cl-%d-%d.jsonl", rg[0], rg[1])), Args: incArgs(whJ, pt.id(), rg)})
				}
			}
			if v == "1.4.2" {
				items = append(items,
					interop.BatchItem{Out: pt.out(out, "java-dump.jsonl"), Args: interop.DumpArgs(whJ, pt.id(), interop.DumpOptions{})},
					interop.BatchItem{Out: pt.out(out, "java-snapshots.jsonl"), Args: []string{"meta", whJ, pt.id(), "snapshots"}})
			}
		}
		require.NoError(t, rn.Batch(ctx, items))
		for _, pt := range tables {
			t.Run(v+"/"+pt.name, func(t *testing.T) {
				ours, _ := goScan(ctx, t, pt.open(ctx, t, fsys))
				wtCompare(t, "Java "+v+"'s dump of "+pt.name+" vs Java 1.4.2's of its own compaction", readCanon(t, pt.out(out, "java-dump.jsonl")), readCanon(t, pt.out(out, v+"-dump.jsonl")))
				wtCompare(t, "our scan of "+pt.name+" vs Java "+v+"'s dump", readCanon(t, pt.out(out, v+"-dump.jsonl")), ours)
				for _, rg := range ranges {
					want := readCanon(t, pt.out(out, fmt.Sprintf("java-cl-%d-%d.jsonl", rg[0], rg[1])))
					require.NotEmpty(t, want, "%s (%d,%d]: Java's changelog", pt.name, rg[0], rg[1])
					what := fmt.Sprintf("%s: changelog (%d,%d]", pt.name, rg[0], rg[1])
					wtCompare(t, what+" of our compactions read by Java "+v+" vs of Java's", want, readCanon(t, pt.out(out, fmt.Sprintf("%s-cl-%d-%d.jsonl", v, rg[0], rg[1]))))
					got, err := scanCanon(t, pt.open(ctx, t, fsys), paimon.WithIncremental(rg[0], rg[1], paimon.IncrementalChangelog))
					require.NoError(t, err)
					wtCompare(t, what+" we read vs Java's", want, got)
				}
				require.Equal(t, fcChangelogCounts(t, readCanon(t, pt.out(out, "java-snapshots.jsonl"))), fcChangelogCounts(t, readCanon(t, pt.out(out, v+"-snapshots.jsonl"))),
					"%s: kind and changelog record count of each snapshot", pt.name)
			})
		}
	}
	for _, rn := range python {
		for _, pt := range tables {
			got, err := rn.Dump(ctx, wh, pt.id(), interop.DumpOptions{})
			require.NoError(t, err, "pypaimon dump of %s", pt.name)
			lines, err := canon.ReadLines(strings.NewReader(string(got)))
			require.NoError(t, err)
			ours, _ := goScan(ctx, t, pt.open(ctx, t, fsys))
			wtCompare(t, "pypaimon's dump of "+pt.name+" after our compactions", ours, lines)
		}
	}

	// Java writes and compacts after us, we write and compact after Java.
	for _, v := range versions {
		rn := java[v]
		t.Run("after/"+v, func(t *testing.T) {
			whv := filepath.Join(t.TempDir(), "warehouse")
			require.NoError(t, os.CopyFS(whv, os.DirFS(wh)))
			fv, err := localfs.New(whv, nil)
			require.NoError(t, err)
			var items []interop.BatchItem
			for _, pt := range tables {
				var ops []any
				for range 3 {
					var rows []json.RawMessage
					for range 6 {
						_, line := pt.row(t, r)
						rows = append(rows, json.RawMessage(line))
					}
					ops = append(ops, map[string]any{"op": "write", "rows": rows})
				}
				ops = append(ops, map[string]any{"op": "compact", "full": true})
				items = append(items, pt.javaOps(t, whv, out, v+"-write", ops),
					interop.BatchItem{Out: pt.out(out, v+"-after-java.jsonl"), Args: interop.DumpArgs(whv, pt.id(), interop.DumpOptions{})},
					interop.BatchItem{Out: pt.out(out, v+"-after-java-cl.jsonl"), Args: incArgs(whv, pt.id(), [2]int64{11, 12})})
			}
			require.NoError(t, rn.Batch(ctx, items))
			items = nil
			for _, pt := range tables {
				tbl := pt.open(ctx, t, fv)
				id, _, err := tbl.Meta().LatestSnapshotID(ctx)
				require.NoError(t, err)
				require.EqualValues(t, 12, id, "%s: Java's three writes and compaction", pt.name)
				got, _ := goScan(ctx, t, tbl)
				wtCompare(t, "our scan after Java "+v+" wrote and compacted on top of our compactions ("+pt.name+")",
					readCanon(t, pt.out(out, v+"-after-java.jsonl")), got)
				cl, err := scanCanon(t, tbl, paimon.WithIncremental(11, 12, paimon.IncrementalChangelog))
				require.NoError(t, err)
				wtCompare(t, "our read of Java "+v+"'s changelog ("+pt.name+")", readCanon(t, pt.out(out, v+"-after-java-cl.jsonl")), cl)
				for range 3 {
					pt.goWrite(ctx, t, tbl, r, 6)
				}
				res, err := pt.open(ctx, t, fv).Compact(ctx, &paimon.CompactOptions{Full: true})
				require.NoError(t, err, pt.name)
				require.NotNil(t, res.Commit, "%s: nothing compacted after Java", pt.name)
				items = append(items,
					interop.BatchItem{Out: pt.out(out, v+"-after-go.jsonl"), Args: interop.DumpArgs(whv, pt.id(), interop.DumpOptions{})},
					interop.BatchItem{Out: pt.out(out, v+"-after-go-cl.jsonl"), Args: incArgs(whv, pt.id(), [2]int64{15, 16})})
			}
			require.NoError(t, rn.Batch(ctx, items))
			for _, pt := range tables {
				tbl := pt.open(ctx, t, fv)
				got, _ := goScan(ctx, t, tbl)
				wtCompare(t, "Java "+v+"'s dump after our compaction on top of Java's ("+pt.name+") vs our scan",
					got, readCanon(t, pt.out(out, v+"-after-go.jsonl")))
				cl, err := scanCanon(t, tbl, paimon.WithIncremental(15, 16, paimon.IncrementalChangelog))
				require.NoError(t, err)
				require.NotEmpty(t, cl, pt.name)
				wtCompare(t, "Java "+v+"'s read of our changelog after Java's ("+pt.name+")", cl, readCanon(t, pt.out(out, v+"-after-go-cl.jsonl")))
			}
		})
	}
}

// fcWriteBoth commits the same n random upserts (and deletes, for
// deduplicate tables) into each table with a write-only writer.
func fcWriteBoth(ctx context.Context, t *testing.T, pt *pkcTable, tbls []*paimon.Table, r *rand.Rand, n int) {
	t.Helper()
	fields := append(append([]schema.DataField(nil), pkcFields...), schema.DataField{ID: 99, Name: "op", Type: schema.StringType()})
	var rows [][]any
	for range n {
		vals, _ := pt.row(t, r)
		op := "+I"
		if pt.deletes && r.IntN(5) == 0 {
			op = "-D"
			delete(pt.rows, fmt.Sprint(vals[3], "/", vals[0]))
		}
		rows = append(rows, append(vals, op))
	}
	for _, tbl := range tbls {
		mem := memcheck.New()
		w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem, WriteOnly: true, RowKindColumn: "op"})
		require.NoError(t, err)
		rec, err := testtable.BuildRecord(mem, fields, rows)
		require.NoError(t, err)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		require.NoError(t, w.Close(ctx))
		c, err := tbl.NewCommit(nil)
		require.NoError(t, err)
		_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
		require.NoError(t, err)
		mem.AssertSize(t, 0)
	}
}

// fcChangelogCounts lists each snapshot's id, kind and changelog record
// count from a $snapshots dump.
func fcChangelogCounts(t *testing.T, snaps []string) []string {
	t.Helper()
	var out []string
	for _, l := range snaps {
		var s struct {
			ID    int64  `json:"snapshot_id"`
			Kind  string `json:"commit_kind"`
			Count *int64 `json:"changelog_record_count"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &s))
		c := "none"
		if s.Count != nil {
			c = fmt.Sprint(*s.Count)
		}
		out = append(out, fmt.Sprintf("%d %s %s", s.ID, s.Kind, c))
	}
	slices.Sort(out)
	return out
}

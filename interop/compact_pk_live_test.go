package interop_test

import (
	"cmp"
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

// TestLivePrimaryKeyCompaction is the acceptance test of primary-key
// compaction (issue 18). Primary-key tables (each merge engine, fixed and
// dynamic buckets, Parquet and Avro) get several level-0 sorted runs per
// bucket from our writer (upserts and deletes for deduplicate), then:
//
//  1. a copy of the warehouse is compacted by Java 1.4.2 (write.compact(p,
//     b, full) per bucket, as Spark's compact procedure) and the original
//     by Table.Compact, fully or by trigger as the table says; Java's $files
//     of both must describe the same compaction (per partition and bucket:
//     level, row count, sequence range and source of each file);
//  2. Java 1.4.2 and 2.0.0 and pypaimon read our compacted tables row for
//     row as Java reads its own compaction (and as our model of the
//     deduplicate writes), and $snapshots shows the COMPACT snapshot;
//  3. on a copy per Java version, Java writes and compacts after us, then
//     we write and compact after Java: Java and we read the same rows.
func TestLivePrimaryKeyCompaction(t *testing.T) {
	runners := interop.Require(t)
	seed := liveSeed(t)
	t.Setenv("JAVA_TOOL_OPTIONS", strings.TrimSpace(os.Getenv("JAVA_TOOL_OPTIONS")+" -XX:TieredStopAtLevel=1"))
	ctx := context.Background()
	r := rand.New(rand.NewPCG(uint64(seed), 0x18c1))
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	tables := []*pkcTable{
		{name: "dedup", partitioned: true, full: true, deletes: true, opts: map[string]string{"bucket": "2"}},
		{name: "dedup_trigger", partitioned: true, deletes: true, opts: map[string]string{"bucket": "2", "num-sorted-run.compaction-trigger": "3"}},
		{name: "dedup_avro", full: true, deletes: true, opts: map[string]string{"bucket": "1", "file.format": "avro"}},
		{name: "dynamic", partitioned: true, full: true, deletes: true, opts: map[string]string{"bucket": "-1", "dynamic-bucket.target-row-num": "20"}},
		{name: "partial", partitioned: true, full: true, opts: map[string]string{"bucket": "2", "merge-engine": "partial-update"}},
		{name: "agg", full: true, opts: map[string]string{"bucket": "2", "merge-engine": "aggregation", "fields.v.aggregate-function": "sum"}},
		{name: "first", partitioned: true, full: true, opts: map[string]string{"bucket": "2", "merge-engine": "first-row"}},
		// Deletion vectors: our level-0 runs compacted to the highest level
		// (fully, and by ForceUpLevel0Compaction's trigger); afterwards
		// Java's writer compacts with lookups, marking our rows in
		// deletion vectors, and we compact fully on top of that.
		{name: "dedup_dv", partitioned: true, full: true, deletes: true, opts: map[string]string{"bucket": "2", "deletion-vectors.enabled": "true"}},
		{name: "dedup_dv_trigger", deletes: true, opts: map[string]string{"bucket": "1", "deletion-vectors.enabled": "true"}},
		// Lookup compaction: after a full compaction, two small level-0
		// runs go by trigger to the level below the highest, merged with
		// lookups into it (LookupMergeTreeCompactRewriter), for each merge
		// engine Java allows with deletion vectors; afterwards Java and we
		// keep compacting by trigger.
		{name: "dedup_dv_lookup", deletes: true, lookup: true, opts: map[string]string{"bucket": "1", "deletion-vectors.enabled": "true"}},
		{name: "dedup_dv_lookup_seq", partitioned: true, lookup: true, opts: map[string]string{"bucket": "2", "deletion-vectors.enabled": "true", "sequence.field": "v"}},
		{name: "partial_dv_lookup", partitioned: true, lookup: true, opts: map[string]string{"bucket": "2", "merge-engine": "partial-update", "deletion-vectors.enabled": "true"}},
		{name: "agg_dv_lookup", lookup: true, opts: map[string]string{"bucket": "1", "merge-engine": "aggregation", "fields.v.aggregate-function": "sum", "deletion-vectors.enabled": "true"}},
		// Retractions, some of keys no other version has: Java's lookup
		// compaction runs the engine over such a lone version too (the
		// sum of a lone retraction is its negated value, a row of +I).
		{name: "agg_dv_retract", partitioned: true, lookup: true, retracts: true, keys: 400, opts: map[string]string{"bucket": "1", "merge-engine": "aggregation",
			"fields.v.aggregate-function": "sum", "deletion-vectors.enabled": "true"}},
		// changelog-producer = lookup: the compactions also write the
		// changelog, which Java's incremental changelog read of our
		// compaction must return as it returns Java's own.
		{name: "lookup_cl", partitioned: true, deletes: true, lookup: true, changelog: true, opts: map[string]string{"bucket": "2", "changelog-producer": "lookup"}},
		{name: "lookup_cl_dv", deletes: true, lookup: true, changelog: true, opts: map[string]string{"bucket": "1", "changelog-producer": "lookup", "deletion-vectors.enabled": "true"}},
		// The other merge engines with changelog-producer = lookup (Java
		// LookupChangelogMergeFunctionWrapper over LookupMergeFunction, and
		// FirstRowMergeFunctionWrapper): the version a lookup finds above
		// the output level is the before and joins the merge; first-row
		// emits +I for the keys not found above only. Their first runs are
		// larger (over a wider key space, so that first-row has new keys in
		// the last runs), so that the highest level is too large for the
		// size ratio to take it in: the last runs go below it (below).
		{name: "partial_lookup_cl", lookup: true, changelog: true, below: true, keys: 400, opts: map[string]string{"bucket": "1", "merge-engine": "partial-update", "changelog-producer": "lookup"}},
		{name: "agg_lookup_cl", partitioned: true, lookup: true, changelog: true, below: true, retracts: true, keys: 400, opts: map[string]string{"bucket": "1", "merge-engine": "aggregation",
			"fields.v.aggregate-function": "sum", "changelog-producer": "lookup", "changelog-producer.row-deduplicate": "true",
			"changelog-producer.row-deduplicate-ignore-fields": "v"}},
		{name: "first_lookup_cl", lookup: true, changelog: true, below: true, keys: 400, opts: map[string]string{"bucket": "1", "merge-engine": "first-row", "changelog-producer": "lookup"}},
		// sequence.field: the version above joins the merge in the
		// field's order and may win (then -U/+U of the same row).
		{name: "seq_lookup_cl", lookup: true, changelog: true, below: true, keys: 400, opts: map[string]string{"bucket": "1", "changelog-producer": "lookup", "sequence.field": "v"}},
	}
	for _, pt := range tables {
		pt.create(ctx, t, fsys)
		tbl := pt.open(ctx, t, fsys)
		for range 6 {
			n := 10 + r.IntN(25)
			if pt.below {
				n = 80
			}
			pt.goWrite(ctx, t, tbl, r, n)
		}
		if pt.lookup {
			_, err := pt.open(ctx, t, fsys).Compact(ctx, &paimon.CompactOptions{Full: true})
			require.NoError(t, err, pt.name)
			for range 2 {
				pt.goWrite(ctx, t, pt.open(ctx, t, fsys), r, 3+r.IntN(5))
			}
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

	// Java compacts a copy, we compact the original.
	whJ := filepath.Join(t.TempDir(), "warehouse")
	require.NoError(t, os.CopyFS(whJ, os.DirFS(wh)))
	var items []interop.BatchItem
	for _, pt := range tables {
		items = append(items, pt.javaOps(t, whJ, out, "java-compact", []any{map[string]any{"op": "compact", "full": pt.full}}))
	}
	require.NoError(t, j14.Batch(ctx, items))
	ours := map[string][]string{}
	oursChangelog := map[string][]string{}
	compactID := map[string]int64{}
	for _, pt := range tables {
		before, _ := goScan(ctx, t, pt.open(ctx, t, fsys))
		res, err := pt.open(ctx, t, fsys).Compact(ctx, &paimon.CompactOptions{Full: pt.full})
		require.NoError(t, err, pt.name)
		require.NotNil(t, res.Commit, "%s: nothing compacted", pt.name)
		t.Logf("%s: rewrote %d files into %d (%d buckets)", pt.name, res.FilesRewritten, res.FilesWritten, res.Tasks)
		got, _ := goScan(ctx, t, pt.open(ctx, t, fsys))
		if pt.deletes {
			wtCompare(t, "our scan of "+pt.name+" after our compaction", pt.lines(), got)
		} else if !pt.retracts && pt.opts["merge-engine"] != "first-row" && !(pt.lookup && pt.opts["deletion-vectors.enabled"] == "true") {
			// (A deletion-vector table's scan before the compaction does
			// not see its level-0 files. A lone retraction reads as no row
			// before the compaction and as the engine's row after it, in
			// Java as here.)
			wtCompare(t, "our scan of "+pt.name+" after our compaction (as before it)", before, got)
		}
		ours[pt.name] = got
		compactID[pt.name] = res.Commit.Snapshot.ID
		if pt.changelog {
			id := res.Commit.Snapshot.ID
			oursChangelog[pt.name] = goChanges(ctx, t, pt.open(ctx, t, fsys), id)
			require.NotEmpty(t, oursChangelog[pt.name], "%s: our compaction wrote no changelog", pt.name)
			t.Logf("%s: %d changelog rows", pt.name, len(oursChangelog[pt.name]))
		}
	}

	// 1.4.2 first: its turn dumps Java's own compaction, which the
	// other versions' checks read.
	versions := make([]string, 0, len(java))
	for v := range java {
		versions = append(versions, v)
	}
	slices.Sort(versions)
	for _, v := range versions {
		rn := java[v]
		items = nil
		for _, pt := range tables {
			items = append(items,
				interop.BatchItem{Out: pt.out(out, v+"-dump.jsonl"), Args: interop.DumpArgs(wh, pt.id(), interop.DumpOptions{})},
				interop.BatchItem{Out: pt.out(out, v+"-files.jsonl"), Args: []string{"meta", wh, pt.id(), "files"}},
				interop.BatchItem{Out: pt.out(out, v+"-snapshots.jsonl"), Args: []string{"meta", wh, pt.id(), "snapshots"}},
			)
			if v == "1.4.2" {
				items = append(items, interop.BatchItem{Out: pt.out(out, "java-files.jsonl"), Args: []string{"meta", whJ, pt.id(), "files"}},
					interop.BatchItem{Out: pt.out(out, "java-dump.jsonl"), Args: interop.DumpArgs(whJ, pt.id(), interop.DumpOptions{})})
			}
			if pt.changelog {
				id := compactID[pt.name]
				incr := []string{"--incremental", fmt.Sprintf("%d,%d", id-1, id), "--incremental-mode", "changelog"}
				items = append(items, interop.BatchItem{Out: pt.out(out, v+"-changelog.jsonl"),
					Args: append(interop.DumpArgs(wh, pt.id(), interop.DumpOptions{Mode: "audit"}), incr...)})
				if v == "1.4.2" {
					items = append(items, interop.BatchItem{Out: pt.out(out, "java-changelog.jsonl"),
						Args: append(interop.DumpArgs(whJ, pt.id(), interop.DumpOptions{Mode: "audit"}), incr...)})
				}
			}
		}
		require.NoError(t, rn.Batch(ctx, items))
		for _, pt := range tables {
			t.Run(v+"/"+pt.name, func(t *testing.T) {
				javaOfOurs := readCanon(t, pt.out(out, v+"-dump.jsonl"))
				javaOfJava := readCanon(t, pt.out(out, "java-dump.jsonl"))
				wtCompare(t, "Java "+v+"'s dump of "+pt.name+" after our compaction vs Java 1.4.2's compaction", javaOfJava, javaOfOurs)
				wtCompare(t, "our scan of "+pt.name+" vs Java "+v+"'s dump of it", javaOfOurs, ours[pt.name])
				require.Equal(t, "COMPACT", ctLatestKind(t, readCanon(t, pt.out(out, v+"-snapshots.jsonl"))))
				if pt.changelog {
					javaCL := readCanon(t, pt.out(out, "java-changelog.jsonl"))
					require.NotEmpty(t, javaCL, "%s: Java's compaction wrote no changelog", pt.name)
					wtCompare(t, "Java "+v+"'s incremental changelog read of our compaction of "+pt.name+" vs of Java 1.4.2's compaction",
						javaCL, readCanon(t, pt.out(out, v+"-changelog.jsonl")))
					wtCompare(t, "our incremental changelog read of "+pt.name+" vs Java "+v+"'s", readCanon(t, pt.out(out, v+"-changelog.jsonl")), oursChangelog[pt.name])
				}
				if pt.below {
					levels := map[float64]bool{}
					for _, l := range readCanon(t, pt.out(out, v+"-files.jsonl")) {
						var f struct{ Level float64 }
						require.NoError(t, json.Unmarshal([]byte(l), &f))
						levels[f.Level] = true
					}
					require.True(t, levels[4] && levels[5], "%s: the compaction did not land below the highest level: levels %v", pt.name, levels)
				}
				if v == "1.4.2" {
					require.Equal(t, ctShape(t, readCanon(t, pt.out(out, "java-files.jsonl"))), ctShape(t, readCanon(t, pt.out(out, v+"-files.jsonl"))),
						"%s: our compaction differs from Java's (partition, bucket, level, rows, sequence numbers, source of each file)", pt.name)
				}
			})
		}
	}
	for _, rn := range python {
		items = nil
		for _, pt := range tables {
			items = append(items, interop.BatchItem{Out: pt.out(out, rn.Name()+"-dump.jsonl"), Args: interop.DumpArgs(wh, pt.id(), interop.DumpOptions{})})
			if pt.below && pt.opts["merge-engine"] == "aggregation" {
				items = append(items, interop.BatchItem{Out: pt.out(out, rn.Name()+"-java-dump.jsonl"), Args: interop.DumpArgs(whJ, pt.id(), interop.DumpOptions{})})
			}
		}
		require.NoError(t, rn.Batch(ctx, items), "pypaimon dumps")
		for _, pt := range tables {
			lines := readCanon(t, pt.out(out, rn.Name()+"-dump.jsonl"))
			if pt.below && pt.opts["merge-engine"] == "aggregation" {
				// pypaimon merges every level, not only level 0 and the
				// lowest above it as Java's LookupMergeFunction does, so
				// it counts the sums the lookup folded into the level
				// below the highest twice: it must read our compaction as
				// it reads Java's.
				wtCompare(t, "pypaimon's dump of "+pt.name+" after our compaction vs after Java's",
					readCanon(t, pt.out(out, rn.Name()+"-java-dump.jsonl")), lines)
				continue
			}
			wtCompare(t, "pypaimon's dump of "+pt.name+" after our compaction", ours[pt.name], lines)
		}
	}

	// Java writes and compacts after us, we write and compact after Java.
	for v, rn := range java {
		t.Run("after/"+v, func(t *testing.T) {
			whv := filepath.Join(t.TempDir(), "warehouse")
			require.NoError(t, os.CopyFS(whv, os.DirFS(wh)))
			fv, err := localfs.New(whv, nil)
			require.NoError(t, err)
			// Java's writes into dynamic-bucket tables need a bucket
			// assigner the harness of main does not have yet.
			var after []*pkcTable
			for _, pt := range tables {
				if pt.opts["bucket"] != "-1" {
					after = append(after, pt)
				}
			}
			var items []interop.BatchItem
			for _, pt := range after {
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
					interop.BatchItem{Out: pt.out(out, v+"-after-java.jsonl"), Args: interop.DumpArgs(whv, pt.id(), interop.DumpOptions{})})
			}
			require.NoError(t, rn.Batch(ctx, items))
			items = nil
			for _, pt := range after {
				got, _ := goScan(ctx, t, pt.open(ctx, t, fv))
				wtCompare(t, "our scan after Java "+v+" wrote and compacted on top of our compaction ("+pt.name+")",
					readCanon(t, pt.out(out, v+"-after-java.jsonl")), got)
				tbl := pt.open(ctx, t, fv)
				for range 4 {
					pt.goWrite(ctx, t, tbl, r, 6)
				}
				res, err := pt.open(ctx, t, fv).Compact(ctx, &paimon.CompactOptions{Full: !pt.lookup})
				require.NoError(t, err, pt.name)
				require.NotNil(t, res.Commit, "%s: nothing compacted after Java", pt.name)
				items = append(items, interop.BatchItem{Out: pt.out(out, v+"-after-go.jsonl"), Args: interop.DumpArgs(whv, pt.id(), interop.DumpOptions{})})
			}
			require.NoError(t, rn.Batch(ctx, items))
			for _, pt := range after {
				got, _ := goScan(ctx, t, pt.open(ctx, t, fv))
				wtCompare(t, "Java "+v+"'s dump after our compaction on top of Java's ("+pt.name+") vs our scan",
					got, readCanon(t, pt.out(out, v+"-after-go.jsonl")))
			}
		})
	}
}

// pkcTable is one table of TestLivePrimaryKeyCompaction. rows is the model
// of a deduplicate table (key -> canon line).
type pkcTable struct {
	name        string
	partitioned bool
	full        bool
	deletes     bool
	retracts    bool // aggregation: -U and -D of random keys, and of a key no other version has (lone)
	lone        int
	lookup      bool // fully compacted, then two small runs (lookup compaction by trigger)
	changelog   bool // changelog-producer = lookup: compare the compaction's changelog
	keys        int  // size of the key space (0: 80)
	below       bool // larger first runs: the lookup compaction must land below the highest level
	opts        map[string]string
	rows        map[string]string
}

var pkcFields = []schema.DataField{
	{ID: 0, Name: "id", Type: schema.BigIntType().NotNull()},
	{ID: 1, Name: "s", Type: schema.StringType()},
	{ID: 2, Name: "v", Type: schema.DoubleType()},
	{ID: 3, Name: "dt", Type: schema.StringType().NotNull()},
}

const pkcDB = "pkcdb"

func (pt *pkcTable) id() string                  { return pkcDB + "." + pt.name }
func (pt *pkcTable) dir() string                 { return pkcDB + ".db/" + pt.name }
func (pt *pkcTable) out(out, name string) string { return filepath.Join(out, pt.name+"-"+name) }
func (pt *pkcTable) lines() []string {
	out := make([]string, 0, len(pt.rows))
	for _, l := range pt.rows {
		out = append(out, l)
	}
	return canonSorted(out)
}

func canonSorted(lines []string) []string {
	got, _ := canon.ReadLines(strings.NewReader(strings.Join(lines, "\n")))
	return got
}

func (pt *pkcTable) open(ctx context.Context, t *testing.T, fsys *localfs.FS) *paimon.Table {
	t.Helper()
	tbl, err := paimon.OpenTable(ctx, fsys, pt.dir(), nil)
	require.NoError(t, err)
	return tbl
}

func (pt *pkcTable) create(ctx context.Context, t *testing.T, fsys *localfs.FS) {
	t.Helper()
	b := schema.NewSchemaBuilder()
	for _, f := range pkcFields {
		b.Column(f.Name, f.Type)
	}
	if pt.partitioned {
		b.PartitionKeys("dt").PrimaryKey("dt", "id")
	} else {
		b.PrimaryKey("id")
	}
	for k, v := range pt.opts {
		b.Option(k, v)
	}
	s, err := b.Build()
	require.NoError(t, err)
	_, err = paimon.CreateTable(ctx, fsys, pt.dir(), s)
	require.NoError(t, err)
	pt.rows = map[string]string{}
}

// row makes a random row of a small key space, so that keys are updated.
func (pt *pkcTable) row(t *testing.T, r *rand.Rand) ([]any, string) {
	t.Helper()
	id := int64(r.IntN(cmp.Or(pt.keys, 80)))
	dt := "2024-01-01"
	if pt.partitioned {
		dt = fmt.Sprintf("2024-01-0%d", 1+id%2)
	}
	var s any = fmt.Sprintf("s%d-%d", id, r.IntN(1000))
	if r.IntN(7) == 0 {
		s = nil
	}
	vals := []any{id, s, float64(r.IntN(1000)) / 4, dt}
	b, err := canon.EncodeRow(pkcFields, vals)
	require.NoError(t, err)
	pt.rows[fmt.Sprint(dt, "/", id)] = string(b)
	return vals, string(b)
}

// goWrite commits n random upserts (and, for deduplicate tables, deletes)
// with a write-only writer: each bucket written gets one level-0 run.
func (pt *pkcTable) goWrite(ctx context.Context, t *testing.T, tbl *paimon.Table, r *rand.Rand, n int) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := append(append([]schema.DataField(nil), pkcFields...), schema.DataField{ID: 99, Name: "op", Type: schema.StringType()})
	var rows [][]any
	for range n {
		vals, _ := pt.row(t, r)
		op := "+I"
		if pt.deletes && r.IntN(5) == 0 {
			op = "-D"
			delete(pt.rows, fmt.Sprint(vals[3], "/", vals[0]))
		}
		if pt.retracts && r.IntN(4) == 0 {
			op = []string{"-U", "-D"}[r.IntN(2)]
		}
		rows = append(rows, append(vals, op))
	}
	if pt.retracts {
		// A key outside the random key space, written once.
		pt.lone++
		vals, _ := pt.row(t, r)
		vals[0] = int64(cmp.Or(pt.keys, 80) + pt.lone)
		rows = append(rows, append(vals, []string{"-U", "-D"}[pt.lone%2]))
	}
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
}

// javaOps is a batch item applying ops to the table.
func (pt *pkcTable) javaOps(t *testing.T, wh, out, name string, ops []any) interop.BatchItem {
	t.Helper()
	plan := pt.out(out, name+"-plan.json")
	require.NoError(t, os.WriteFile(plan, []byte(wtJSON(map[string]any{"db": pkcDB, "table": pt.name, "ops": ops})), 0o644))
	return interop.BatchItem{Out: pt.out(out, name+".out"), Args: []string{"apply", wh, plan}}
}

// goChanges reads the changelog of snapshot id (an incremental read in
// changelog mode) as sorted canonical lines with their rowkind column.
func goChanges(ctx context.Context, t *testing.T, tbl *paimon.Table, id int64) []string {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	var lines []string
	for rec, err := range tbl.NewScan(paimon.WithAllocator(mem), paimon.WithIncremental(id-1, id, paimon.IncrementalChangelog)).Records(ctx) {
		require.NoError(t, err)
		fields, err := schema.FromArrowSchema(rec.Schema())
		require.NoError(t, err)
		ls, err := canon.BatchLines(fields, rec)
		require.NoError(t, err)
		lines = append(lines, ls...)
		rec.Release()
	}
	return canonSorted(lines)
}

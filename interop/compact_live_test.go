package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
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

// TestLiveCompaction is the acceptance test of append compaction (issue
// 18). Tables of every append layout are filled with small files by our
// writer (unaware and fixed buckets, Parquet and Avro, partitioned or not;
// two of them with deletion vectors that Java's DELETE path writes), then:
//
//  1. a copy of the warehouse is compacted by Java 1.4.2 (its compact
//     procedure: AppendCompactCoordinator, write.compact(p, b, full)) and
//     the original by Table.Compact with the same strategy; Java's $files
//     of both must describe the same compaction: per partition and bucket
//     the same files rewritten into files of the same row counts,
//     sequence ranges, levels and file source;
//  2. Java 1.4.2 and 2.0.0 and pypaimon read our compacted tables exactly
//     as the rows written (minus Java's deletions), before and after, and
//     Java's $snapshots shows the COMPACT snapshot;
//  3. on a copy per Java version, Java writes more small files and
//     compacts after us, then we write and compact after Java: both read
//     every row once.
func TestLiveCompaction(t *testing.T) {
	runners := interop.Require(t)
	seed := liveSeed(t)
	t.Setenv("JAVA_TOOL_OPTIONS", strings.TrimSpace(os.Getenv("JAVA_TOOL_OPTIONS")+" -XX:TieredStopAtLevel=1"))
	ctx := context.Background()
	r := rand.New(rand.NewPCG(uint64(seed), 0x18c0))
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	tables := []*ctTable{
		{name: "unaware", partitioned: true, commits: 8, opts: map[string]string{}},
		{name: "unaware_avro", commits: 7, opts: map[string]string{"file.format": "avro"}},
		{name: "fixed_full", partitioned: true, commits: 7, full: true,
			opts: map[string]string{"bucket": "2", "bucket-key": "id", "write-only": "true"}},
		{name: "fixed_minor", commits: 7, opts: map[string]string{"bucket": "2", "bucket-key": "id", "write-only": "true"}},
		{name: "unaware_dv", partitioned: true, commits: 8, deletes: true,
			opts: map[string]string{"deletion-vectors.enabled": "true"}},
		{name: "fixed_dv", commits: 6, deletes: true, full: true,
			opts: map[string]string{"bucket": "2", "bucket-key": "id", "deletion-vectors.enabled": "true", "write-only": "true"}},
	}
	for _, ct := range tables {
		ct.create(ctx, t, fsys, r)
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

	// Java deletes rows of the deletion-vector tables, as Spark's DELETE.
	var items []interop.BatchItem
	for _, ct := range tables {
		if ct.deletes {
			items = append(items, ct.javaDelete(t, r, wh, out))
		}
	}
	require.NoError(t, j14.Batch(ctx, items))
	for _, ct := range tables {
		got, _ := goScan(ctx, t, ct.open(ctx, t, fsys))
		wtCompare(t, "our scan of "+ct.name+" before compaction", ct.lines(), got)
	}

	// Java compacts a copy, we compact the original.
	whJ := filepath.Join(t.TempDir(), "warehouse")
	require.NoError(t, os.CopyFS(whJ, os.DirFS(wh)))
	items = nil
	for _, ct := range tables {
		items = append(items, ct.javaCompact(t, whJ, out, "java-compact"))
	}
	require.NoError(t, j14.Batch(ctx, items))
	for _, ct := range tables {
		res, err := ct.open(ctx, t, fsys).Compact(ctx, &paimon.CompactOptions{Full: ct.full})
		require.NoError(t, err, ct.name)
		require.NotNil(t, res.Commit, "%s: nothing compacted", ct.name)
		t.Logf("%s: rewrote %d files into %d (%d tasks)", ct.name, res.FilesRewritten, res.FilesWritten, res.Tasks)
		got, _ := goScan(ctx, t, ct.open(ctx, t, fsys))
		wtCompare(t, "our scan of "+ct.name+" after our compaction", ct.lines(), got)
	}

	// What every reader sees, and Java's view of both compactions.
	for v, rn := range java {
		items = nil
		for _, ct := range tables {
			items = append(items,
				interop.BatchItem{Out: ct.out(out, v+"-dump.jsonl"), Args: interop.DumpArgs(wh, ct.id(), interop.DumpOptions{})},
				interop.BatchItem{Out: ct.out(out, v+"-files.jsonl"), Args: []string{"meta", wh, ct.id(), "files"}},
				interop.BatchItem{Out: ct.out(out, v+"-snapshots.jsonl"), Args: []string{"meta", wh, ct.id(), "snapshots"}},
			)
			if v == "1.4.2" {
				items = append(items, interop.BatchItem{Out: ct.out(out, "java-files.jsonl"), Args: []string{"meta", whJ, ct.id(), "files"}},
					interop.BatchItem{Out: ct.out(out, "java-dump.jsonl"), Args: interop.DumpArgs(whJ, ct.id(), interop.DumpOptions{})})
			}
		}
		require.NoError(t, rn.Batch(ctx, items))
		for _, ct := range tables {
			t.Run(v+"/"+ct.name, func(t *testing.T) {
				wtCompare(t, "Java "+v+"'s dump of "+ct.name+" after our compaction", ct.lines(), readCanon(t, ct.out(out, v+"-dump.jsonl")))
				require.Equal(t, "COMPACT", ctLatestKind(t, readCanon(t, ct.out(out, v+"-snapshots.jsonl"))))
				if v == "1.4.2" {
					wtCompare(t, "Java's dump of "+ct.name+" after Java's compaction", ct.lines(), readCanon(t, ct.out(out, "java-dump.jsonl")))
					require.Equal(t, ctShape(t, readCanon(t, ct.out(out, "java-files.jsonl"))), ctShape(t, readCanon(t, ct.out(out, v+"-files.jsonl"))),
						"%s: our compaction differs from Java's (partition, bucket, level, rows, sequence numbers, source of each file)", ct.name)
				}
			})
		}
	}
	for _, rn := range python {
		for _, ct := range tables {
			got, err := rn.Dump(ctx, wh, ct.id(), interop.DumpOptions{})
			require.NoError(t, err, "pypaimon dump of %s", ct.name)
			lines, err := canon.ReadLines(strings.NewReader(string(got)))
			require.NoError(t, err)
			wtCompare(t, "pypaimon's dump of "+ct.name+" after our compaction", ct.lines(), lines)
		}
	}

	// Java writes and compacts after us, we write and compact after Java.
	for v, rn := range java {
		t.Run("after/"+v, func(t *testing.T) {
			whv := filepath.Join(t.TempDir(), "warehouse")
			require.NoError(t, os.CopyFS(whv, os.DirFS(wh)))
			fv, err := localfs.New(whv, nil)
			require.NoError(t, err)
			models := map[string]map[int64]string{}
			var items []interop.BatchItem
			for _, ct := range tables {
				m := ct.clone()
				models[ct.name] = m
				items = append(items, ct.javaWriteCompact(t, r, whv, out, v, m),
					interop.BatchItem{Out: ct.out(out, v+"-after-java.jsonl"), Args: interop.DumpArgs(whv, ct.id(), interop.DumpOptions{})})
			}
			require.NoError(t, rn.Batch(ctx, items))
			items = nil
			for _, ct := range tables {
				m := models[ct.name]
				wtCompare(t, "Java "+v+"'s dump after Java wrote and compacted on top of our compaction ("+ct.name+")",
					ctLines(m), readCanon(t, ct.out(out, v+"-after-java.jsonl")))
				tbl := ct.open(ctx, t, fv)
				for range 6 {
					ct.goWrite(ctx, t, tbl, r, m, 5)
				}
				res, err := ct.open(ctx, t, fv).Compact(ctx, &paimon.CompactOptions{Full: ct.full})
				require.NoError(t, err, ct.name)
				require.NotNil(t, res.Commit, "%s: nothing compacted after Java", ct.name)
				got, _ := goScan(ctx, t, ct.open(ctx, t, fv))
				wtCompare(t, "our scan after our compaction on top of Java's ("+ct.name+")", ctLines(m), got)
				items = append(items, interop.BatchItem{Out: ct.out(out, v+"-after-go.jsonl"), Args: interop.DumpArgs(whv, ct.id(), interop.DumpOptions{})})
			}
			require.NoError(t, rn.Batch(ctx, items))
			for _, ct := range tables {
				wtCompare(t, "Java "+v+"'s dump after our compaction on top of Java's ("+ct.name+")",
					ctLines(models[ct.name]), readCanon(t, ct.out(out, v+"-after-go.jsonl")))
			}
		})
	}
}

// ctTable is one table of TestLiveCompaction and the rows it holds.
type ctTable struct {
	name        string
	partitioned bool
	commits     int
	full        bool
	deletes     bool
	opts        map[string]string

	rows   map[int64]string // id -> canon line
	nextID int64
}

var ctFields = []schema.DataField{
	{ID: 0, Name: "id", Type: schema.BigIntType().NotNull()},
	{ID: 1, Name: "s", Type: schema.StringType()},
	{ID: 2, Name: "v", Type: schema.DoubleType()},
	{ID: 3, Name: "dt", Type: schema.StringType()},
}

const ctDB = "cdb"

func (ct *ctTable) id() string  { return ctDB + "." + ct.name }
func (ct *ctTable) dir() string { return ctDB + ".db/" + ct.name }

func (ct *ctTable) out(out, name string) string { return filepath.Join(out, ct.name+"-"+name) }

func (ct *ctTable) lines() []string { return ctLines(ct.rows) }

func (ct *ctTable) clone() map[int64]string {
	m := make(map[int64]string, len(ct.rows))
	for k, v := range ct.rows {
		m[k] = v
	}
	return m
}

func ctLines(m map[int64]string) []string {
	out := make([]string, 0, len(m))
	for _, l := range m {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

func (ct *ctTable) open(ctx context.Context, t *testing.T, fsys *localfs.FS) *paimon.Table {
	t.Helper()
	tbl, err := paimon.OpenTable(ctx, fsys, ct.dir(), nil)
	require.NoError(t, err)
	return tbl
}

// create creates the table and writes its small commits.
func (ct *ctTable) create(ctx context.Context, t *testing.T, fsys *localfs.FS, r *rand.Rand) {
	t.Helper()
	ts := &schema.TableSchema{Version: 3, Fields: ctFields, HighestFieldID: 3, Options: map[string]string{}}
	if ct.partitioned {
		ts.PartitionKeys = []string{"dt"}
	}
	for k, v := range ct.opts {
		ts.Options[k] = v
	}
	_, err := testtable.Create(ctx, fsys, ct.dir(), ts)
	require.NoError(t, err)
	ct.rows = map[int64]string{}
	tbl := ct.open(ctx, t, fsys)
	for range ct.commits {
		ct.goWrite(ctx, t, tbl, r, ct.rows, 10+r.IntN(30))
	}
}

// row makes a random row with the next id.
func (ct *ctTable) row(t *testing.T, r *rand.Rand, m map[int64]string) []any {
	t.Helper()
	id := ct.nextID
	ct.nextID++
	var s any = fmt.Sprintf("s%d-%d", id, r.IntN(1000))
	if r.IntN(7) == 0 {
		s = nil
	}
	vals := []any{id, s, r.NormFloat64() * 100, fmt.Sprintf("2024-01-0%d", 1+r.IntN(2))}
	b, err := canon.EncodeRow(ctFields, vals)
	require.NoError(t, err)
	m[id] = string(b)
	return vals
}

// goWrite commits n random rows with a write-only writer (which leaves
// the compaction to Table.Compact).
func (ct *ctTable) goWrite(ctx context.Context, t *testing.T, tbl *paimon.Table, r *rand.Rand, m map[int64]string, n int) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	var rows [][]any
	for range n {
		rows = append(rows, ct.row(t, r, m))
	}
	w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem, WriteOnly: true})
	require.NoError(t, err)
	rec, err := testtable.BuildRecord(mem, ctFields, rows)
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

// javaDelete is a batch item that deletes a fifth of the rows through
// Java's deletion-vector path.
func (ct *ctTable) javaDelete(t *testing.T, r *rand.Rand, wh, out string) interop.BatchItem {
	t.Helper()
	var ids []int64
	for id := range ct.rows {
		if r.IntN(5) == 0 {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		delete(ct.rows, id)
	}
	plan := ct.out(out, "delete-plan.json")
	require.NoError(t, os.WriteFile(plan, []byte(wtJSON(map[string]any{"db": ctDB, "table": ct.name,
		"ops": []any{map[string]any{"op": "deleteRows", "column": "id", "values": ids}}})), 0o644))
	return interop.BatchItem{Out: ct.out(out, "delete.out"), Args: []string{"apply", wh, plan}}
}

// javaCompact is a batch item that compacts the table with the table's
// strategy.
func (ct *ctTable) javaCompact(t *testing.T, wh, out, name string) interop.BatchItem {
	t.Helper()
	plan := ct.out(out, name+"-plan.json")
	require.NoError(t, os.WriteFile(plan, []byte(wtJSON(map[string]any{"db": ctDB, "table": ct.name,
		"ops": []any{map[string]any{"op": "compact", "full": ct.full}}})), 0o644))
	return interop.BatchItem{Out: ct.out(out, name+".out"), Args: []string{"apply", wh, plan}}
}

// javaWriteCompact is a batch item in which Java writes six small commits
// and compacts.
func (ct *ctTable) javaWriteCompact(t *testing.T, r *rand.Rand, wh, out, v string, m map[int64]string) interop.BatchItem {
	t.Helper()
	var ops []any
	for range 6 {
		var rows []json.RawMessage
		for range 5 {
			ct.row(t, r, m)
			rows = append(rows, json.RawMessage(m[ct.nextID-1]))
		}
		ops = append(ops, map[string]any{"op": "write", "rows": rows})
	}
	// Java's minor compaction of fixed buckets may run a second round in
	// the same prepareCommit that picks the first round's output again,
	// and then fails its own commit ("File deletion conflicts detected":
	// AppendOnlyWriter keeps both in compactBefore and compactAfter); a
	// full compaction has one round.
	ops = append(ops, map[string]any{"op": "compact", "full": true})
	plan := ct.out(out, v+"-write-plan.json")
	require.NoError(t, os.WriteFile(plan, []byte(wtJSON(map[string]any{"db": ctDB, "table": ct.name, "ops": ops})), 0o644))
	return interop.BatchItem{Out: ct.out(out, v+"-write.out"), Args: []string{"apply", wh, plan}}
}

// ctShape is what must agree between Java's compaction and ours: for each
// live file its partition, bucket, level, row count, sequence numbers and
// source (file names, sizes and times differ).
func ctShape(t *testing.T, files []string) []string {
	t.Helper()
	var out []string
	for _, l := range files {
		var f map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &f))
		out = append(out, fmt.Sprintf("%v|%v|level %v|%v rows|seq %v..%v|%v", f["partition"], f["bucket"], f["level"],
			f["record_count"], f["min_sequence_number"], f["max_sequence_number"], f["file_source"]))
	}
	sort.Strings(out)
	return out
}

// ctLatestKind is the commit kind of the newest snapshot in Java's
// $snapshots (whose lines are sorted as text, not by id).
func ctLatestKind(t *testing.T, snaps []string) string {
	t.Helper()
	var id int64 = -1
	kind := ""
	for _, l := range snaps {
		var s struct {
			ID   int64  `json:"snapshot_id"`
			Kind string `json:"commit_kind"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &s))
		if s.ID > id {
			id, kind = s.ID, s.Kind
		}
	}
	return kind
}

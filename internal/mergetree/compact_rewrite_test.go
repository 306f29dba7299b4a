package mergetree_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// TestGoldenCompaction compacts every bucket of the latest snapshot of the
// Java-written golden primary-key tables (every merge engine, Parquet and
// Avro, schema evolution) with RunCompactTask, in the two ways a
// compaction job picks (a full compaction; universal compaction by
// trigger, repeated while it picks), and checks that the bucket's files
// afterwards read as Java read the table (expected.jsonl; for first-row,
// whose batch read skips level 0, as our read of every level before the
// compaction). The new files must be key-value files at the output level
// with _FILE_SOURCE COMPACT, and a full compaction must leave one sorted
// run at the highest level without retractions.
func TestGoldenCompaction(t *testing.T) {
	tables := goldenMergeTables(t, "deduplicate", "partial-update", "aggregation", "first-row")
	require.NotEmpty(t, tables)
	rewrites := 0
	for _, g := range tables {
		name, _ := filepath.Rel(goldenRoot, g.scenario)
		for _, mode := range []string{"full", "universal"} {
			t.Run(name+"/"+mode, func(t *testing.T) { rewrites += g.checkCompaction(t, mode == "full") })
		}
	}
	require.Positive(t, rewrites, "no golden bucket needed a rewrite")
	t.Logf("%d tables, %d files written", len(tables), rewrites)
}

func (g *goldenTable) checkCompaction(t *testing.T, full bool) int {
	ctx := context.Background()
	mem := checked(t)
	latest := strings.TrimSpace(string(g.read(t, "snapshot/LATEST")))
	snap, err := snapshot.Decode(g.read(t, "snapshot/snapshot-"+latest))
	require.NoError(t, err)
	ts := g.schema(t, snap.SchemaID)
	seqFields, desc := sequenceOptions(t, ts)
	merge, err := mergefunc.NewFactory(ts)
	require.NoError(t, err)
	lookup, err := mergefunc.LookupMerge(ts)
	require.NoError(t, err)
	opts := mergetree.Options{Schema: ts, Merge: merge, SequenceFields: seqFields, SequenceDescending: desc, BatchSize: 3, Allocator: mem, LookupHighLevel: lookup}
	kc, err := mergetree.NewKeyComparator(keyTypes(ts))
	require.NoError(t, err)
	firstRow := ts.Options["merge-engine"] == "first-row"
	if err := datafile.ValidateKeyValue(ts, datafile.KeyValue{Level: 1, Source: manifest.FileSourceCompact}); err != nil {
		// Files the writer cannot write (ORC, TIMESTAMP(9) keys in
		// Parquet): the compaction is refused before any file.
		require.ErrorIs(t, err, datafile.ErrUnsupported)
		t.Logf("refused: %v", err)
		return 0
	}

	out := t.TempDir()
	fsys, err := localfs.New(out, nil)
	require.NoError(t, err)
	names := datafile.NewFileNames()
	open := g.open(t, ts, mem)
	rewrites := 0
	var got, before []string
	for _, files := range g.liveFiles(t, snap) {
		if firstRow {
			rows, err := readAll(t, files, open, &opts)
			require.NoError(t, err)
			before = append(before, rows...)
		}
		numLevels := 6 // num-sorted-run.compaction-trigger + 1
		for _, f := range files {
			numLevels = max(numLevels, int(f.Level)+1)
		}
		levels, err := mergetree.NewLevels(kc, files, numLevels)
		require.NoError(t, err)
		universal := &mergetree.Universal{MaxSizeAmp: 200, SizeRatio: 1, RunTrigger: 2}
		for range 10 {
			var u *mergetree.CompactUnit
			if full {
				u = mergetree.PickFullCompaction(levels.NumLevels(), levels.SortedRuns(), nil, false)
			} else if u = universal.Pick(levels.NumLevels(), levels.SortedRuns()); !mergetree.AcceptPick(u) {
				u = nil
			}
			if u == nil {
				break
			}
			steps, err := mergetree.PlanCompactTask(u, kc, 1, levels.MaxLevel(), false)
			require.NoError(t, err)
			drop := mergetree.DropDelete(u, levels.NonEmptyHighestLevel(), false, false)
			res, err := mergetree.RunCompactTask(ctx, steps, u.OutputLevel, drop, &mergetree.CompactOptions{
				Options: opts, Open: open, FS: fsys, Names: names,
			})
			require.NoError(t, err)
			for _, f := range res.Written {
				g.files[f.FileName] = filepath.Join(out, f.FileName)
				require.EqualValues(t, u.OutputLevel, f.Level)
				require.Equal(t, manifest.FileSourceCompact, *f.FileSource)
				if drop {
					require.Zero(t, *f.DeleteRowCount, "retractions dropped at the top level")
				}
				rewrites++
			}
			require.NoError(t, levels.Update(res.Before, res.After))
			if full {
				break
			}
		}
		if full {
			require.LessOrEqual(t, levels.NumberOfSortedRuns(), 1)
			if levels.NumberOfSortedRuns() == 1 {
				require.Equal(t, levels.MaxLevel(), levels.NonEmptyHighestLevel())
			}
		}
		all := levels.AllFiles()
		if firstRow && !full {
			// Java's batch read skips level 0.
			all = slices.DeleteFunc(all, func(f manifest.DataFileMeta) bool { return f.Level == 0 })
		}
		rows, err := readAll(t, all, open, &opts)
		require.NoError(t, err)
		got = append(got, rows...)
	}
	var want []string
	if firstRow && full {
		want = before
	} else {
		raw, err := os.ReadFile(filepath.Join(g.scenario, "expected.jsonl"))
		require.NoError(t, err)
		if want, err = canon.ReadLines(bytes.NewReader(raw)); err != nil {
			require.NoError(t, err)
		}
	}
	wantSorted, err := canon.ReadLines(strings.NewReader(strings.Join(want, "\n")))
	require.NoError(t, err)
	gotSorted, err := canon.ReadLines(strings.NewReader(strings.Join(got, "\n")))
	require.NoError(t, err)
	if d := canon.Compare(wantSorted, gotSorted); d != "" {
		t.Fatalf("after compaction:\n%s", d)
	}
	return rewrites
}

// TestCompactionModel writes random rows (random keys, kinds, user
// sequence values, NULLs) as many small level-0 runs with Writer, compacts
// the bucket after each run while universal compaction (trigger 3) picks,
// as Java's writer does, and fully at the end; after every compaction the
// bucket's files must read (the batch read; and the key values with
// retractions until the first compaction that dropped them) exactly as the
// runs did before any compaction, for every merge engine.
//
// Retractions are only written to the deduplicate table: with the other
// engines (and with sequence.field) Java's compaction itself changes what
// a later read returns when it drops a key's retraction at the top level
// before newer versions of the key arrive (a lone -U of a sum, a -D with a
// high sequence value), so the runs read at once are no oracle there; the
// golden test covers those engines' retractions against Java's reads.
func TestCompactionModel(t *testing.T) {
	engines := map[string]struct {
		opts    map[string]string
		retract bool
	}{
		"deduplicate":     {map[string]string{}, true},
		"dedup-seq-field": {map[string]string{"sequence.field": "s"}, false},
		"first-row":       {map[string]string{"merge-engine": "first-row", "ignore-delete": "true"}, false},
		"partial-update":  {map[string]string{"merge-engine": "partial-update"}, false},
		"aggregation":     {map[string]string{"merge-engine": "aggregation", "fields.v.aggregate-function": "sum", "fields.s.aggregate-function": "max", "fields.name.aggregate-function": "last_non_null_value"}, false},
	}
	for name, e := range engines {
		t.Run(name, func(t *testing.T) {
			for seed := range uint64(2) {
				opts := map[string]string{"target-file-size": "4 kb"}
				maps.Copy(opts, e.opts)
				checkCompactionModel(t, sortBufferTable(t, opts), rand.New(rand.NewPCG(seed, 11)), e.retract)
			}
		})
	}
}

func checkCompactionModel(t *testing.T, ts *schema.TableSchema, rng *rand.Rand, retract bool) {
	ctx := context.Background()
	mem := checked(t)
	merge, err := mergefunc.NewFactory(ts)
	require.NoError(t, err)
	seqFields, desc := sequenceOptions(t, ts)
	o := mergetree.Options{Schema: ts, Merge: merge, SequenceFields: seqFields, SequenceDescending: desc, BatchSize: 1 + rng.IntN(40), Allocator: mem}
	dir := t.TempDir()
	fsys, err := localfs.New(dir, nil)
	require.NoError(t, err)
	names := datafile.NewFileNames()
	w, err := mergetree.NewWriter(&mergetree.WriterOptions{Options: o, FS: fsys, Names: names, BufferSize: 1 << 20})
	require.NoError(t, err)
	defer w.Close()
	sc, err := schema.ToArrowSchema(ts.Fields)
	require.NoError(t, err)
	rows := randomKVRows(rng, 300+rng.IntN(600), retract)
	g := &goldenTable{files: map[string]string{}}
	register := func(fs []manifest.DataFileMeta) {
		for _, f := range fs {
			g.files[f.FileName] = filepath.Join(dir, f.FileName)
		}
	}
	open := g.open(t, ts, mem)
	read := func(files []manifest.DataFileMeta) (batch, kvs []string) {
		batch, err := readAll(t, files, open, &o)
		require.NoError(t, err)
		ko := o
		ko.KeyValues = true
		for rec, err := range mergetree.Read(ctx, files, open, &ko) {
			require.NoError(t, err)
			lines, err := renderBatch(rec, mergetree.ReadFields(ts))
			require.NoError(t, err)
			rec.Release()
			kvs = append(kvs, lines...)
		}
		return batch, kvs
	}
	kc, err := mergetree.NewKeyComparator(keyTypes(ts))
	require.NoError(t, err)
	levels, err := mergetree.NewLevels(kc, nil, 4)
	require.NoError(t, err)
	universal := &mergetree.Universal{MaxSizeAmp: 200, SizeRatio: 1, RunTrigger: 3}
	compact := func(full bool) (bool, bool) {
		var u *mergetree.CompactUnit
		if full {
			u = mergetree.PickFullCompaction(levels.NumLevels(), levels.SortedRuns(), nil, false)
		} else if u = universal.Pick(levels.NumLevels(), levels.SortedRuns()); !mergetree.AcceptPick(u) {
			u = nil
		}
		if u == nil {
			return false, false
		}
		steps, err := mergetree.PlanCompactTask(u, kc, 3<<10, levels.MaxLevel(), false)
		require.NoError(t, err)
		drop := mergetree.DropDelete(u, levels.NonEmptyHighestLevel(), false, false)
		res, err := mergetree.RunCompactTask(ctx, steps, u.OutputLevel, drop, &mergetree.CompactOptions{
			Options: o, Open: open, FS: fsys, Names: names,
		})
		require.NoError(t, err)
		register(res.Written)
		require.NoError(t, levels.Update(res.Before, res.After))
		return true, drop
	}
	var written []manifest.DataFileMeta
	compactions := 0
	dropped := false
	check := func(what string, drop bool) {
		// Once retractions were dropped at the top level, the files hold
		// fewer key values than the runs did: only the batch read compares.
		dropped = dropped || drop
		wantBatch, wantKV := read(written)
		gotBatch, gotKV := read(levels.AllFiles())
		require.Equal(t, wantBatch, gotBatch, "batch read after %s:\n%s", what, diff(wantBatch, gotBatch))
		if !dropped {
			require.Equal(t, wantKV, gotKV, "key values after %s:\n%s", what, diff(wantKV, gotKV))
		}
	}
	for lo := 0; lo < len(rows); {
		hi := min(len(rows), lo+1+rng.IntN(80))
		b := array.NewRecordBuilder(memcheck.New(), sc)
		var kinds []int8
		for _, r := range rows[lo:hi] {
			for i, f := range ts.Fields {
				require.NoError(t, arrowrow.AppendValue(b.Field(i), f.Type, r.values[i]))
			}
			kinds = append(kinds, int8(r.kind))
		}
		rec := b.NewRecordBatch()
		b.Release()
		require.NoError(t, w.Write(ctx, rec.Columns(), kinds))
		rec.Release()
		run, _, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		register(run)
		written = append(written, run...)
		require.NoError(t, levels.Update(nil, run))
		lo = hi
		// Java's writer compacts after each flush while the strategy picks.
		for n := 0; ; n++ {
			did, drop := compact(false)
			if !did {
				break
			}
			compactions++
			check(fmt.Sprintf("universal compaction %d", compactions), drop)
			require.Less(t, n, 20, "compaction does not converge")
		}
	}
	did, drop := compact(true)
	require.True(t, did || levels.NumberOfSortedRuns() == 1)
	check("the full compaction", drop)
	require.Greater(t, compactions, 1)
	t.Logf("%d rows in %d runs, %d universal compactions", len(rows), len(written), compactions)
	require.Equal(t, 1, levels.NumberOfSortedRuns())
	for _, f := range levels.AllFiles() {
		require.EqualValues(t, levels.MaxLevel(), f.Level)
		require.Zero(t, *f.DeleteRowCount, "the full compaction left retractions")
	}
}

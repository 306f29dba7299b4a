package paimon_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestCompactPrimaryKey writes random rows into primary-key tables (each
// commit a level-0 sorted run per bucket), compacts them by trigger after
// every commit and fully at the end, and checks that every compaction
// leaves the rows as they were (for deduplicate, as the model of the
// writes says), that a full compaction leaves one sorted run at the
// highest level per bucket, and that compactions publish COMPACT
// snapshots. First-row tables, whose batch reads skip level 0, must read
// every key's first version after the full compaction. Retractions are written to the deduplicate tables only: with
// other engines Java's compaction itself may change a later read when it
// drops a retraction at the highest level.
func TestCompactPrimaryKey(t *testing.T) {
	for _, c := range []struct {
		name        string
		partitioned bool
		opts        map[string]string
		retract     bool
	}{
		{"fixed", true, nil, true},
		{"fixed-avro-unpartitioned", false, map[string]string{"file.format": "avro", "bucket": "3", "num-sorted-run.compaction-trigger": "3"}, true},
		{"dynamic", true, map[string]string{"bucket": "-1", "dynamic-bucket.target-row-num": "15"}, true},
		{"small-files", true, map[string]string{"target-file-size": "2 kb", "num-levels": "3"}, true},
		{"partial-update", true, map[string]string{"merge-engine": "partial-update"}, false},
		{"aggregation", true, map[string]string{"merge-engine": "aggregation", "fields.score.aggregate-function": "sum"}, false},
		{"first-row", true, map[string]string{"merge-engine": "first-row"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			tbl, fsys := newPKTable(t, c.partitioned, c.opts)
			model := pkModel{}
			rng := rand.New(rand.NewPCG(3, 4))
			commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
			require.NoError(t, err)
			w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
			require.NoError(t, err)
			defer w.Close(ctx)
			firstRow := c.opts["merge-engine"] == "first-row"
			first := pkModel{} // the first version of each key
			compactions := 0
			compact := func(full bool) {
				before := dump(t, reopen(t, fsys))
				res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: full, Workers: 2})
				require.NoError(t, err)
				if res.Commit != nil {
					compactions++
					require.Equal(t, snapshot.CommitCompact, res.Commit.Snapshot.CommitKind)
				}
				if !firstRow {
					requireRows(t, before, dump(t, reopen(t, fsys)))
				}
			}
			for round := range 14 {
				n := 1 + rng.IntN(50)
				rows := make([][]any, n)
				kinds := make([]string, n)
				for i := range rows {
					id := int64(rng.IntN(60))
					dt := "2024-01-01"
					if c.partitioned {
						dt = fmt.Sprintf("2024-01-0%d", 1+id%2)
					}
					rows[i] = []any{dt, id, fmt.Sprintf("r%d-%d", round, i), float64(rng.IntN(100))}
					kinds[i] = []string{"+I", "+I", "+U", "-D", "-U"}[rng.IntN(3)]
					if c.retract {
						kinds[i] = []string{"+I", "+I", "+U", "-D", "-U"}[rng.IntN(5)]
					}
				}
				rec := pkBatch(t, tbl, rows, kinds)
				require.NoError(t, w.Write(ctx, rec))
				rec.Release()
				model.apply(rows, kinds)
				for _, r := range rows {
					if k := fmt.Sprint(r[0], "/", r[1]); first[k] == nil {
						first[k] = r
					}
				}
				msgs, err := w.PrepareCommit(ctx)
				require.NoError(t, err)
				_, err = commit.Commit(ctx, int64(round), msgs)
				require.NoError(t, err)
				compact(false)
				if c.retract {
					require.Equal(t, model.rows(t), dump(t, reopen(t, fsys)), "round %d", round)
				}
			}
			require.Positive(t, compactions, "no compaction by trigger")
			compact(true)
			if firstRow {
				// Batch reads of first-row tables skip level 0 (Java
				// DataTableBatchScan): after the full compaction they see
				// every key's first version.
				requireRows(t, first.rows(t), dump(t, reopen(t, fsys)))
			}
			maxLevel := int32(5)
			if c.opts["num-levels"] != "" {
				maxLevel = 2
			}
			if c.opts["num-sorted-run.compaction-trigger"] != "" {
				maxLevel = 3
			}
			s, entries := liveEntriesOf(t, reopen(t, fsys))
			require.Equal(t, snapshot.CommitCompact, s.CommitKind)
			for _, e := range entries {
				require.Equal(t, maxLevel, e.File.Level, "file %s after the full compaction", e.File.FileName)
				require.NotNil(t, e.File.DeleteRowCount)
				require.Zero(t, *e.File.DeleteRowCount)
			}
			// A second full compaction has nothing to do.
			res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
			require.NoError(t, err)
			require.Nil(t, res.Commit)
			t.Logf("%d compactions, %d files after the full one", compactions, len(entries))
		})
	}
}

// TestCompactPrimaryKeyRefused: what the primary-key compaction does not do
// as Java does is refused before anything is written.
func TestCompactPrimaryKeyRefused(t *testing.T) {
	for name, opts := range map[string]map[string]string{
		"lookup-changelog-row-deduplicate-double": {"changelog-producer": "lookup", "merge-engine": "partial-update", "changelog-producer.row-deduplicate": "true"},
		"record-expire": {"record-level.expire-time": "1 d", "record-level.time-field": "id"},
		"orc":           {"file.format": "orc"},
	} {
		t.Run(name, func(t *testing.T) {
			tbl, fsys := newPKTable(t, true, opts)
			_, err := compactTable(t, tbl, nil)
			require.ErrorIs(t, err, paimon.ErrUnsupported)
			relCheckClean(t, fsys, "db.db/t")
		})
	}
}

// TestCompactPrimaryKeyDeletionVectors compacts Java 1.4.2's golden
// deletion-vector primary-key table as it was at snapshot 8 (the
// snapshots after it removed): level-0 runs of upserts and deletes on top
// of level-5 files whose replaced rows Java's lookup compaction marked in
// deletion vectors. A compaction by trigger either lands at the highest
// level or, when Java's would go below it (which needs its lookup), is
// refused before anything is written. The full compaction reads the files
// with their vectors applied, leaves every file at the highest level and
// the rows Java's own compaction of the same state left (snapshot 9:
// expected.jsonl); no vector of a file that is no longer live remains
// (Java's FileRewriteCompactTask may leave them until the bucket's next
// compaction). A full compaction after it has nothing left to do.
func TestCompactPrimaryKeyDeletionVectors(t *testing.T) {
	for _, full := range []bool{false, true} {
		t.Run(fmt.Sprintf("full=%v", full), func(t *testing.T) { testCompactPKDV(t, full) })
	}
}

func testCompactPKDV(t *testing.T, full bool) {
	ctx := context.Background()
	wh := copyGolden(t, "java-1.4.2", "pk-deletion-vectors")
	_, fsys := openAt(t, wh, "pk_deletion_vectors")
	snapDir := filepath.Join(wh, "interop.db", "pk_deletion_vectors", "snapshot")
	require.NoError(t, os.Remove(filepath.Join(snapDir, "snapshot-9")))
	require.NoError(t, os.WriteFile(filepath.Join(snapDir, "LATEST"), []byte("8"), 0o644))
	open := func() *paimon.Table {
		tb, err := paimon.OpenTable(ctx, fsys, "interop.db/pk_deletion_vectors", nil)
		require.NoError(t, err)
		return tb
	}
	dvFiles := func(s *snapshot.Snapshot) map[string]bool {
		out := map[string]bool{}
		if s.IndexManifest == nil {
			return out
		}
		idx, err := open().Meta().ReadIndexManifest(ctx, *s.IndexManifest)
		require.NoError(t, err)
		for _, e := range idx {
			for _, r := range e.IndexFile.DVRanges {
				out[r.DataFileName] = true
			}
		}
		return out
	}
	s0, live0 := liveEntriesOf(t, open())
	require.EqualValues(t, 8, s0.ID)
	levels := map[int32]int{}
	dv := dvFiles(s0)
	withDV := 0
	wasLive := map[string]bool{}
	for _, e := range live0 {
		wasLive[e.File.FileName] = true
		levels[e.File.Level]++
		if dv[e.File.FileName] {
			withDV++
		}
	}
	require.Positive(t, levels[0], "level-0 files at snapshot 8")
	require.Positive(t, withDV, "live files with deletion vectors at snapshot 8")

	want := readCanonFile(t, filepath.Join(goldenRoot, "java-1.4.2", "pk-deletion-vectors", "expected.jsonl"))
	sort.Strings(want)
	res, err := compactTable(t, open(), &paimon.CompactOptions{Full: full})
	require.NoError(t, err)
	require.NotNil(t, res.Commit)
	require.Equal(t, snapshot.CommitCompact, res.Commit.Snapshot.CommitKind)
	requireRows(t, want, jsonLines(t, open()))
	s1, live1 := liveEntriesOf(t, open())
	names := map[string]bool{}
	for _, e := range live1 {
		if full {
			require.Equal(t, int32(5), e.File.Level, "file %s after the compaction", e.File.FileName)
		}
		names[e.File.FileName] = true
	}
	// Vectors of files the compaction rewrote are gone (the golden table
	// also holds a vector Java left for a file its own compaction had
	// already removed, in a bucket with nothing to compact).
	for f := range dvFiles(s1) {
		require.True(t, names[f] || !wasLive[f], "deletion vector of %s, which the compaction rewrote", f)
	}
	t.Logf("before: files per level %v, %d with deletion vectors; after: %d files, %d with deletion vectors",
		levels, withDV, len(live1), len(dvFiles(s1)))
	res, err = compactTable(t, open(), &paimon.CompactOptions{Full: true})
	require.NoError(t, err)
	if full {
		require.Nil(t, res.Commit, "a full compaction after it")
	}
	requireRows(t, want, jsonLines(t, open()))
}

// jsonLines reads a table's latest snapshot as sorted canonical JSON lines
// (the golden expected.jsonl form).
func jsonLines(t *testing.T, tbl *paimon.Table) []string {
	t.Helper()
	return sortedScanLines(t, tbl)
}

// sortedScanLines reads a scan of tbl with opts as sorted canonical lines
// (fields from each batch's schema; every batch released).
func sortedScanLines(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) []string {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	var all []string
	for rec, err := range tbl.NewScan(append([]paimon.ScanOption{paimon.WithAllocator(mem)}, opts...)...).Records(context.Background()) {
		require.NoError(t, err)
		fields, err := schema.FromArrowSchema(rec.Schema())
		require.NoError(t, err)
		l, err := canon.BatchLines(fields, rec)
		require.NoError(t, err)
		all = append(all, l...)
		rec.Release()
	}
	sort.Strings(all)
	return all
}

// TestCompactPrimaryKeyDeletionVectorsLookup: on a deletion-vector table
// whose rows sit at the highest level, small level-0 runs go, by Java's
// ForceUpLevel0Compaction, to the level below, merged with lookups into
// the highest level whose replaced rows get deletion vectors
// (LookupMergeTreeCompactRewriter). Rounds of updates, deletes and new
// keys, each compacted by trigger, read as the model; the highest level
// is never rewritten by them; a full compaction at the end also reads as
// the model and leaves no vector.
func TestCompactPrimaryKeyDeletionVectorsLookup(t *testing.T) {
	for _, engine := range []string{"deduplicate", "partial-update", "deduplicate-seq"} {
		t.Run(engine, func(t *testing.T) { testCompactPKDVLookup(t, engine) })
	}
}

func testCompactPKDVLookup(t *testing.T, engine string) {
	ctx := context.Background()
	opts := map[string]string{"deletion-vectors.enabled": "true", "bucket": "1"}
	switch engine {
	case "partial-update":
		opts["merge-engine"] = engine
		opts["partial-update.remove-record-on-delete"] = "true"
	case "deduplicate-seq":
		opts["sequence.field"] = "score"
	}
	tbl, fsys := newPKTable(t, false, opts)
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
	require.NoError(t, err)
	w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
	require.NoError(t, err)
	defer w.Close(ctx)
	model := pkModel{}
	write := func(round int, ids []int, kind string) {
		var rows [][]any
		var kinds []string
		for _, id := range ids {
			var name any = fmt.Sprintf("r%d-%d", round, id)
			if engine == "partial-update" && id%3 == 0 {
				name = nil // partial update keeps the old name
			}
			rows = append(rows, []any{"2024-01-01", int64(id), name, float64(round*1000 + id)})
			kinds = append(kinds, kind)
		}
		rec := pkBatch(t, tbl, rows, kinds)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		if engine == "partial-update" {
			for i, r := range rows {
				k := fmt.Sprint(r[0], "/", r[1])
				if kinds[i] == "+I" && r[2] == nil && model[k] != nil {
					r[2] = model[k][2]
				}
			}
		}
		model.apply(rows, kinds)
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		_, err = commit.Commit(ctx, int64(round), msgs)
		require.NoError(t, err)
	}
	ids := func(from, to, step int) []int {
		var out []int
		for i := from; i < to; i += step {
			out = append(out, i)
		}
		return out
	}
	write(0, ids(0, 400, 1), "+I")
	_, err = compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
	require.NoError(t, err)
	_, top := liveEntriesOf(t, reopen(t, fsys))
	require.Len(t, top, 1)
	topFile := top[0].File
	require.Equal(t, model.rows(t), dump(t, reopen(t, fsys)))
	rounds := []struct {
		ids  []int
		kind string
	}{
		{ids(10, 14, 1), "+I"},
		{ids(12, 20, 2), "+I"},
		{ids(13, 16, 1), "-D"},
		{ids(395, 405, 1), "+I"},
		{ids(0, 400, 37), "+I"},
		{ids(14, 15, 1), "+I"},
	}
	for i, rd := range rounds {
		write(i+1, rd.ids, rd.kind)
		res, err := compactTable(t, reopen(t, fsys), nil)
		require.NoError(t, err, "round %d", i+1)
		require.NotNil(t, res.Commit, "round %d", i+1)
		require.Equal(t, model.rows(t), dump(t, reopen(t, fsys)), "round %d", i+1)
		_, live := liveEntriesOf(t, reopen(t, fsys))
		found := false
		for _, e := range live {
			require.NotZero(t, e.File.Level, "round %d: level-0 file %s left", i+1, e.File.FileName)
			found = found || e.File.FileName == topFile.FileName
		}
		require.True(t, found, "round %d: the highest level's file is not rewritten", i+1)
		require.NotEmpty(t, dvPositions(t, reopen(t, fsys))[topFile.FileName], "round %d", i+1)
	}
	relCheckClean(t, fsys, "db.db/t")
	res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
	require.NoError(t, err)
	require.NotNil(t, res.Commit)
	require.Equal(t, model.rows(t), dump(t, reopen(t, fsys)))
	require.Empty(t, dvPositions(t, reopen(t, fsys)))
}

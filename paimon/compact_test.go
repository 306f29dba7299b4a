package paimon_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// liveFiles lists the data files of the latest snapshot by bucket path.
func liveFiles(t *testing.T, tbl *paimon.Table) map[string][]manifest.DataFileMeta {
	t.Helper()
	plan, err := tbl.NewScan().Plan(context.Background())
	require.NoError(t, err)
	out := map[string][]manifest.DataFileMeta{}
	for _, sp := range plan.Splits {
		out[sp.BucketPath] = append(out[sp.BucketPath], sp.Files...)
	}
	return out
}

// requireRows compares sorted canonical rows and reports a short diff.
func requireRows(t *testing.T, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	w, g := map[string]int{}, map[string]int{}
	for _, r := range want {
		w[r]++
	}
	for _, r := range got {
		g[r]++
	}
	var missing, extra []string
	for r, n := range w {
		if g[r] < n && len(missing) < 5 {
			missing = append(missing, r)
		}
	}
	for r, n := range g {
		if w[r] < n && len(extra) < 5 {
			extra = append(extra, r)
		}
	}
	t.Fatalf("rows differ: want %d, got %d; missing e.g. %v; extra e.g. %v", len(want), len(got), missing, extra)
}

func countFiles(files map[string][]manifest.DataFileMeta) int {
	n := 0
	for _, fs := range files {
		n += len(fs)
	}
	return n
}

// compactTable compacts with a checked allocator.
func compactTable(t *testing.T, tbl *paimon.Table, opts *paimon.CompactOptions) (*paimon.CompactResult, error) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	if opts == nil {
		opts = &paimon.CompactOptions{}
	}
	o := *opts
	o.Allocator = mem
	return tbl.Compact(context.Background(), &o)
}

// writeCommits writes rows in n commits of one file per bucket each, with
// write-only writers (which do not compact).
func writeCommits(t *testing.T, tbl *paimon.Table, rows [][]any, n int) {
	t.Helper()
	ctx := context.Background()
	c := newCommit(t, tbl, "") // a fresh user: identifiers restart at 1
	per := (len(rows) + n - 1) / n
	for i := 0; i < n; i++ {
		lo, hi := i*per, min((i+1)*per, len(rows))
		if lo >= hi {
			break
		}
		w, err := tbl.NewWriter(&paimon.WriterOptions{WriteOnly: true})
		require.NoError(t, err)
		rec := batch(t, memcheck.New(), rows[lo:hi])
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		_, err = c.Commit(ctx, int64(i+1), msgs)
		require.NoError(t, err)
		require.NoError(t, w.Close(ctx))
	}
}

func TestCompactUnawareBucket(t *testing.T) {
	tbl, fsys := newWriteTable(t, true, nil)
	all := rowsOf(0, 600, 3)
	writeCommits(t, tbl, all, 10)
	before := liveFiles(t, reopen(t, fsys))
	require.Equal(t, 40, countFiles(before)) // 4 partitions (3 days and NULL) × 10 commits

	var last paimon.CompactProgress
	res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Progress: func(p paimon.CompactProgress) { last = p }})
	require.NoError(t, err)
	require.NotNil(t, res.Commit)
	require.Equal(t, snapshot.CommitCompact, res.Commit.Snapshot.CommitKind)
	require.EqualValues(t, 11, res.Commit.Snapshot.ID)
	require.EqualValues(t, 0, res.Commit.Snapshot.DeltaRecordCount)
	require.EqualValues(t, 600, res.Commit.Snapshot.TotalRecordCount)
	require.Equal(t, 4, res.Tasks)
	require.Equal(t, 40, res.FilesBefore)
	require.Equal(t, 40, res.FilesRewritten)
	require.Equal(t, 4, res.FilesWritten)
	require.Equal(t, 4, res.FilesAfter)
	require.EqualValues(t, 600, res.RowsWritten)
	require.Equal(t, paimon.CompactProgress{Tasks: 4, TasksDone: 4, Files: 40, FilesDone: 40, Bytes: res.BytesRewritten,
		BytesDone: res.BytesRewritten, RowsWritten: 600}, last)

	tbl = reopen(t, fsys)
	requireRows(t, render(t, all), dump(t, tbl))
	after := liveFiles(t, tbl)
	require.Equal(t, 4, countFiles(after))
	for dir, files := range after {
		f := files[0]
		require.Equal(t, manifest.FileSourceCompact, *f.FileSource, dir)
		require.EqualValues(t, 0, f.Level)
		// The counter starts at the first (smallest) file's minimum.
		require.Equal(t, f.RowCount, f.MaxSequenceNumber-f.MinSequenceNumber+1)
		smallest := slices.MinFunc(before[dir], func(a, b manifest.DataFileMeta) int { return int(a.FileSize - b.FileSize) })
		require.Equal(t, smallest.MinSequenceNumber, f.MinSequenceNumber)
	}

	// Nothing is left to compact: no snapshot.
	res, err = compactTable(t, tbl, nil)
	require.NoError(t, err)
	require.Nil(t, res.Commit)
	require.Equal(t, 0, res.Tasks)
	require.Equal(t, 4, res.FilesBefore)
	require.Equal(t, 4, res.FilesAfter)
	relCheckClean(t, fsys, "db.db/t")
}

func TestCompactUnawareMinFiles(t *testing.T) {
	// Four small files are fewer than compaction.min.file-num (5): Java's
	// coordinator leaves them, and so do we.
	tbl, fsys := newWriteTable(t, false, nil)
	writeCommits(t, tbl, rowsOf(0, 40, 1), 4)
	res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
	require.NoError(t, err)
	require.Nil(t, res.Commit)
	writeCommits(t, reopen(t, fsys), rowsOf(40, 50, 1), 1)
	res, err = compactTable(t, reopen(t, fsys), nil)
	require.NoError(t, err)
	require.Equal(t, 5, res.FilesRewritten)
	requireRows(t, render(t, rowsOf(0, 50, 1)), dump(t, reopen(t, fsys)))
}

func TestCompactUnawareRollsAtTarget(t *testing.T) {
	// A small target size: bins close at twice the target and outputs roll
	// at the target, as Java's RowDataRollingFileWriter does.
	tbl, fsys := newWriteTable(t, false, map[string]string{"target-file-size": "8 kb", "source.split.open-file-cost": "1 b"})
	all := rowsOf(0, 6000, 1)
	writeCommits(t, tbl, all, 30)
	res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Workers: 3})
	require.NoError(t, err)
	require.NotNil(t, res.Commit)
	require.Greater(t, res.Tasks, 1)
	requireRows(t, render(t, all), dump(t, reopen(t, fsys)))
	for _, files := range liveFiles(t, reopen(t, fsys)) {
		seen := map[string]bool{}
		for _, f := range files {
			require.False(t, seen[f.FileName])
			seen[f.FileName] = true
		}
	}
	relCheckClean(t, fsys, "db.db/t")
}

func TestCompactFixedBucket(t *testing.T) {
	opts := map[string]string{"bucket": "2", "bucket-key": "id"}
	for _, full := range []bool{false, true} {
		t.Run(fmt.Sprintf("full=%v", full), func(t *testing.T) {
			tbl, fsys := newWriteTable(t, true, opts)
			all := rowsOf(0, 400, 2)
			writeCommits(t, tbl, all, 7)
			before := liveFiles(t, reopen(t, fsys))
			res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: full})
			require.NoError(t, err)
			require.NotNil(t, res.Commit)
			tbl = reopen(t, fsys)
			requireRows(t, render(t, all), dump(t, tbl))
			checkPlacement(t, tbl)
			after := liveFiles(t, tbl)
			for dir, files := range after {
				want := 1 // full: everything
				if !full {
					// The writer's rule: the first five files in
					// sequence order, the others stay.
					want = len(before[dir]) - 5 + 1
				}
				require.Len(t, files, want, dir)
				// Sequence numbers stay those of the bucket: the
				// compacted file covers the range of its inputs.
				byName := map[string]bool{}
				for _, f := range before[dir] {
					byName[f.FileName] = true
				}
				var lo, hi int64 = 1 << 62, -1
				for _, f := range files {
					if byName[f.FileName] {
						continue
					}
					lo, hi = min(lo, f.MinSequenceNumber), max(hi, f.MaxSequenceNumber)
				}
				require.EqualValues(t, 0, lo, dir)
				require.Positive(t, hi)
			}
			relCheckClean(t, fsys, "db.db/t")
		})
	}
}

func TestCompactFixedBucketFullKeepsLargeHead(t *testing.T) {
	// Full compaction keeps the leading files that are already large
	// (Java FullCompactTask) and rewrites the rest when small files
	// outnumber large ones.
	tbl, fsys := newWriteTable(t, false, map[string]string{"bucket": "1", "bucket-key": "id", "target-file-size": "20 kb", "file.format": "avro"})
	writeCommits(t, tbl, rowsOf(0, 12000, 1), 1) // rolled: large files first
	before := bySeq(liveFiles(t, reopen(t, fsys))["bucket-0"])
	large := 0
	for large < len(before) && before[large].FileSize >= 20*1024/10*7 {
		large++
	}
	require.Greater(t, large, 1, "%v", sizes(before))
	require.Less(t, large, len(before)) // the last rolled file is small
	// One small file after the large ones: fewer than three files to
	// rewrite, so nothing happens.
	res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
	require.NoError(t, err)
	require.Nil(t, res.Commit)

	writeCommits(t, reopen(t, fsys), rowsOf(12000, 12030, 1), 3)
	res, err = compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
	require.NoError(t, err)
	require.NotNil(t, res.Commit)
	require.Equal(t, len(before)-large+3, res.FilesRewritten)
	after := bySeq(liveFiles(t, reopen(t, fsys))["bucket-0"])
	require.Len(t, after, large+1)
	for i := range large {
		require.Equal(t, before[i].FileName, after[i].FileName)
	}
	require.Equal(t, before[large].MinSequenceNumber, after[large].MinSequenceNumber)
	require.EqualValues(t, 12029, after[large].MaxSequenceNumber)
	requireRows(t, render(t, rowsOf(0, 12030, 1)), dump(t, reopen(t, fsys)))
}

func bySeq(files []manifest.DataFileMeta) []manifest.DataFileMeta {
	out := slices.Clone(files)
	slices.SortFunc(out, func(a, b manifest.DataFileMeta) int { return int(a.MinSequenceNumber - b.MinSequenceNumber) })
	return out
}

func TestCompactPartitionFilter(t *testing.T) {
	tbl, fsys := newWriteTable(t, true, nil)
	all := rowsOf(0, 300, 3)
	writeCommits(t, tbl, all, 6)
	res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Partitions: predicate.Equal("dt", "2024-01-02")})
	require.NoError(t, err)
	require.Equal(t, 1, res.Tasks)
	for dir, files := range liveFiles(t, reopen(t, fsys)) {
		if dir == "dt=2024-01-02/bucket-0" {
			require.Len(t, files, 1)
		} else {
			require.Len(t, files, 6, dir)
		}
	}
	requireRows(t, render(t, all), dump(t, reopen(t, fsys)))

	_, err = compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Partitions: predicate.Equal("id", int64(3))})
	require.ErrorIs(t, err, paimon.ErrInvalidPartition)
}

func TestCompactSchemaEvolution(t *testing.T) {
	tbl, fsys := newWriteTable(t, false, nil)
	writeCommits(t, tbl, rowsOf(0, 50, 1), 5)
	_, err := alterTable(context.Background(), fsys, "db.db/t", paimon.AddColumn{FieldNames: []string{"extra"}, Type: schema.IntType()})
	require.NoError(t, err)
	// The table object still has the old schema: Compact uses the latest.
	res, err := compactTable(t, tbl, nil)
	require.NoError(t, err)
	require.NotNil(t, res.Commit)
	tbl = reopen(t, fsys)
	for _, files := range liveFiles(t, tbl) {
		for _, f := range files {
			require.EqualValues(t, 1, f.SchemaID)
		}
	}
	rows := dump(t, tbl)
	require.Len(t, rows, 50)
}

func TestCompactConflict(t *testing.T) {
	// Two compactions planned on the same snapshot: the first to commit
	// wins, the second finds its files gone, fails with ErrCommitConflict
	// and leaves nothing behind.
	tbl, fsys := newWriteTable(t, false, nil)
	all := rowsOf(0, 100, 1)
	writeCommits(t, tbl, all, 6)
	var inner *paimon.CompactResult
	_, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Progress: func(p paimon.CompactProgress) {
		if p.FilesDone == 0 && inner == nil {
			var err error
			inner, err = reopen(t, fsys).Compact(context.Background(), nil)
			require.NoError(t, err)
		}
	}})
	require.ErrorIs(t, err, paimon.ErrCommitConflict)
	require.NotNil(t, inner.Commit)
	requireRows(t, render(t, all), dump(t, reopen(t, fsys)))
	relCheckClean(t, fsys, "db.db/t")
}

func TestCompactConcurrentAppend(t *testing.T) {
	// An append committed while a compaction runs does not conflict: both
	// land and every row is there once. (The table is write-only, so that
	// the writer does not compact too, as Java recommends next to a
	// compaction job.)
	tbl, fsys := newWriteTable(t, false, map[string]string{"bucket": "2", "bucket-key": "id", "write-only": "true"})
	all := rowsOf(0, 200, 1)
	writeCommits(t, tbl, all[:150], 6)
	appended := false
	res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true, Progress: func(p paimon.CompactProgress) {
		if p.FilesDone == 1 && !appended {
			appended = true
			write(t, reopen(t, fsys), newCommit(t, reopen(t, fsys), "other"), 1, all[150:], 50)
		}
	}})
	require.NoError(t, err)
	require.True(t, appended)
	require.EqualValues(t, 8, res.Commit.Snapshot.ID)
	requireRows(t, render(t, all), dump(t, reopen(t, fsys)))
	checkPlacement(t, reopen(t, fsys))
}

func TestCompactRefused(t *testing.T) {
	ctx := context.Background()
	for name, opts := range map[string]map[string]string{
		"row-tracking":  {"row-tracking.enabled": "true"},
		"external-path": {"data-file.external-paths": "file:///tmp/x"},
		"clustering":    {"clustering.incremental": "true", "clustering.columns": "id"},
	} {
		t.Run(name, func(t *testing.T) {
			tbl, fsys := newWriteTable(t, false, opts)
			_, err := compactTable(t, tbl, nil)
			require.ErrorIs(t, err, paimon.ErrUnsupported)
			ids, err := tbl.Meta().SnapshotIDs(ctx)
			require.NoError(t, err)
			require.Empty(t, ids)
			_ = fsys
		})
	}
	t.Run("primary-key-postpone", func(t *testing.T) {
		// Primary-key tables compact (TestCompactPrimaryKey) except what
		// TestCompactPrimaryKeyRefused lists, postpone buckets among them.
		fsys := memfs.New(nil)
		sc, err := schema.NewSchemaBuilder().Column("id", schema.BigIntType().NotNull()).Column("v", schema.StringType()).
			PrimaryKey("id").Option("bucket", "-2").Build()
		require.NoError(t, err)
		tbl, err := paimon.CreateTable(ctx, fsys, "db.db/t", sc)
		require.NoError(t, err)
		_, err = compactTable(t, tbl, nil)
		require.ErrorIs(t, err, paimon.ErrUnsupported)
	})
	t.Run("negative-workers", func(t *testing.T) {
		tbl, _ := newWriteTable(t, false, nil)
		_, err := compactTable(t, tbl, &paimon.CompactOptions{Workers: -1})
		require.ErrorIs(t, err, paimon.ErrInvalidOption)
	})
}

func TestCompactEmptyTable(t *testing.T) {
	tbl, _ := newWriteTable(t, true, nil)
	res, err := compactTable(t, tbl, nil)
	require.NoError(t, err)
	require.Nil(t, res.Commit)
}

// TestCompactCancelled cancels a compaction after its first file: nothing
// is committed and nothing is left.
func TestCompactCancelled(t *testing.T) {
	tbl, fsys := newWriteTable(t, true, nil)
	writeCommits(t, tbl, rowsOf(0, 300, 3), 6)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := reopen(t, fsys).Compact(ctx, &paimon.CompactOptions{Workers: 1, Progress: func(p paimon.CompactProgress) {
		if p.FilesDone == 1 {
			cancel()
		}
	}})
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	ids, err := reopen(t, fsys).Meta().SnapshotIDs(context.Background())
	require.NoError(t, err)
	require.Len(t, ids, 6)
	relCheckClean(t, fsys, "db.db/t")
}

func sizes(files []manifest.DataFileMeta) []int64 {
	out := make([]int64, len(files))
	for i := range files {
		out[i] = files[i].FileSize
	}
	return out
}

func TestWriterCompactsFixedBuckets(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, map[string]string{"bucket": "2", "bucket-key": "id"})
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	defer w.Close(ctx)
	c := newCommit(t, tbl, "ingester")
	all := rowsOf(0, 700, 2)
	var kinds []snapshot.CommitKind
	for i := range 7 {
		rec := batch(t, mem, all[i*100:(i+1)*100])
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		res, err := c.Commit(ctx, int64(i+1), msgs)
		require.NoError(t, err)
		for _, s := range res.Published {
			kinds = append(kinds, s.CommitKind)
		}
	}
	// The fifth flush of each bucket triggers its compaction: an APPEND
	// then a COMPACT snapshot, committed with the same identifier.
	a, cp := snapshot.CommitAppend, snapshot.CommitCompact
	require.Equal(t, []snapshot.CommitKind{a, a, a, a, a, cp, a, a}, kinds)
	tbl = reopen(t, fsys)
	requireRows(t, render(t, all), dump(t, tbl))
	checkPlacement(t, tbl)
	for dir, files := range liveFiles(t, tbl) {
		require.Len(t, files, 3, dir) // the compacted one and two newer
	}

	// A new writer restores the buckets' files: they count towards its
	// next compaction.
	w2, err := reopen(t, fsys).NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	defer w2.Close(ctx)
	for i := 7; i < 9; i++ {
		rec := batch(t, mem, rowsOf(i*100, (i+1)*100, 2))
		require.NoError(t, w2.Write(ctx, rec))
		rec.Release()
		msgs, err := w2.PrepareCommit(ctx)
		require.NoError(t, err)
		_, err = c.Commit(ctx, int64(i+1), msgs)
		require.NoError(t, err)
	}
	tbl = reopen(t, fsys)
	requireRows(t, render(t, rowsOf(0, 900, 2)), dump(t, tbl))
	for dir, files := range liveFiles(t, tbl) {
		require.Len(t, files, 1, dir) // 3 restored + 2 new: compacted again
	}
	relCheckClean(t, fsys, "db.db/t")
}

func TestWriterWriteOnlyDoesNotCompact(t *testing.T) {
	for name, tc := range map[string]struct {
		opts    map[string]string
		wo      bool
		compact bool
	}{
		"table-write-only":  {map[string]string{"bucket": "1", "bucket-key": "id", "write-only": "true"}, false, false},
		"writer-write-only": {map[string]string{"bucket": "1", "bucket-key": "id"}, true, false},
		"unaware-bucket":    {nil, false, false},
		"fixed-bucket":      {map[string]string{"bucket": "1", "bucket-key": "id"}, false, true},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tbl, fsys := newWriteTable(t, false, tc.opts)
			w, err := tbl.NewWriter(&paimon.WriterOptions{WriteOnly: tc.wo})
			require.NoError(t, err)
			defer w.Close(ctx)
			c := newCommit(t, tbl, "")
			for i := range 6 {
				rec := batch(t, memcheck.New(), rowsOf(i*10, i*10+10, 1))
				require.NoError(t, w.Write(ctx, rec))
				rec.Release()
				msgs, err := w.PrepareCommit(ctx)
				require.NoError(t, err)
				_, err = c.Commit(ctx, int64(i+1), msgs)
				require.NoError(t, err)
			}
			want := 6
			if tc.compact {
				want = 2
			}
			require.Equal(t, want, countFiles(liveFiles(t, reopen(t, fsys))))
		})
	}
}

func TestWriterCompactionLosesToCompactJob(t *testing.T) {
	// A dedicated compaction commits first: the writer's compaction of the
	// same files is refused, its new rows are committed all the same.
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, false, map[string]string{"bucket": "1", "bucket-key": "id"})
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	defer w.Close(ctx)
	c := newCommit(t, tbl, "ingester")
	for i := range 5 {
		rec := batch(t, memcheck.New(), rowsOf(i*10, i*10+10, 1))
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		if i < 4 {
			_, err = c.Commit(ctx, int64(i+1), msgs)
			require.NoError(t, err)
			continue
		}
		require.NotNil(t, msgs[0].Compact)
		_, err = compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
		require.NoError(t, err)
		res, err := c.Commit(ctx, int64(i+1), msgs)
		require.NoError(t, err, "the new rows landed: the commit succeeded")
		require.ErrorIs(t, res.CompactErr, paimon.ErrCommitConflict)
		require.Equal(t, snapshot.CommitAppend, res.Snapshot.CommitKind)
	}
	requireRows(t, render(t, rowsOf(0, 50, 1)), dump(t, reopen(t, fsys)))
	relCheckClean(t, fsys, "db.db/t")
}

func TestWriterResyncsAfterLostCompaction(t *testing.T) {
	// A writer that compacts and a dedicated compaction job on the same
	// bucket, round after round: the job compacts before the writer's
	// commit (the writer's compaction loses, CompactErr) or after it (the
	// files in the writer's queue are compacted away). The writer re-syncs
	// the bucket with the latest snapshot before its next compaction: no
	// error, every row once.
	for name, opts := range map[string]map[string]string{
		"plain":            {"bucket": "1", "bucket-key": "id", "compaction.min.file-num": "4"},
		"deletion-vectors": {"bucket": "1", "bucket-key": "id", "compaction.min.file-num": "4", "deletion-vectors.enabled": "true"},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tbl, fsys := newWriteTable(t, false, opts)
			w, err := tbl.NewWriter(nil)
			require.NoError(t, err)
			defer w.Close(ctx)
			c := newCommit(t, tbl, "ingester")
			lost, won, race := 0, 0, false
			const rounds = 30
			for i := range rounds {
				rec := batch(t, memcheck.New(), rowsOf(i*10, i*10+10, 1))
				require.NoError(t, w.Write(ctx, rec))
				rec.Release()
				msgs, err := w.PrepareCommit(ctx)
				require.NoError(t, err, "round %d", i)
				// Every other compaction of the writer, the job compacts
				// first.
				if len(msgs) > 0 && msgs[0].Compact != nil {
					if race = !race; race {
						_, err = compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
						require.NoError(t, err)
					}
				}
				res, err := c.Commit(ctx, int64(i+1), msgs)
				require.NoError(t, err, "round %d", i)
				if res.CompactErr != nil {
					require.ErrorIs(t, res.CompactErr, paimon.ErrCommitConflict)
					lost++
				} else if res.Snapshot.CommitKind == snapshot.CommitCompact {
					won++
				}
				if i%5 == 4 {
					_, err = compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
					require.NoError(t, err)
				}
			}
			t.Logf("writer compactions: %d committed, %d lost", won, lost)
			require.Positive(t, lost, "the job never beat the writer: the test did not exercise the race")
			require.Positive(t, won, "the writer never compacted after a lost race")
			requireRows(t, render(t, rowsOf(0, rounds*10, 1)), dump(t, reopen(t, fsys)))
			relCheckClean(t, fsys, "db.db/t")
		})
	}
}

func TestCompactORC(t *testing.T) {
	// ORC tables compact like Parquet ones (Java compacts them with the
	// table's format): the output files are ORC, the rows unchanged, and
	// the fixed-bucket writer's compaction works on them too.
	for _, opts := range []map[string]string{
		{"file.format": "orc"},
		{"file.format": "orc", "bucket": "2", "bucket-key": "id", "file.compression": "snappy"},
	} {
		t.Run(opts["bucket"], func(t *testing.T) {
			tbl, fsys := newWriteTable(t, true, opts)
			all := rowsOf(0, 600, 3)
			writeCommits(t, tbl, all, 6)
			res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{MemoryBudget: 64 << 10})
			require.NoError(t, err)
			require.NotNil(t, res.Commit)
			require.Positive(t, res.FilesWritten)
			tbl = reopen(t, fsys)
			requireRows(t, render(t, all), dump(t, tbl))
			compacted := 0
			for dir, files := range liveFiles(t, tbl) {
				for _, f := range files {
					require.True(t, strings.HasSuffix(f.FileName, ".orc"), "%s/%s", dir, f.FileName)
					if *f.FileSource == manifest.FileSourceCompact {
						compacted++
					}
				}
			}
			require.Equal(t, res.FilesWritten, compacted)
			relCheckClean(t, fsys, "db.db/t")
		})
	}
}

func TestCompactMemoryBudget(t *testing.T) {
	// A compaction bigger than its memory budget splits its output (row
	// groups cut at the budget, files finished early) instead of holding
	// it: the rows are the same either way.
	files := map[int64]int{}
	for _, budget := range []int64{-1, 64 << 10} {
		tbl, fsys := newWriteTable(t, false, nil)
		all := rowsOf(0, 30000, 1)
		writeCommits(t, tbl, all, 6)
		res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{MemoryBudget: budget})
		require.NoError(t, err)
		files[budget] = res.FilesWritten
		requireRows(t, render(t, all), dump(t, reopen(t, fsys)))
	}
	require.Equal(t, 1, files[-1])
	require.Greater(t, files[64<<10], 1)
}

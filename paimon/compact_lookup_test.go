package paimon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// rollbackGolden makes snapshot id the latest of a copied golden table by
// removing the later snapshot files (their data files stay, unreferenced).
func rollbackGolden(t *testing.T, wh, table string, id int64) {
	t.Helper()
	dir := filepath.Join(wh, filepath.FromSlash(table), "snapshot")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		var n int64
		if _, err := fmt.Sscanf(e.Name(), "snapshot-%d", &n); err == nil && n > id {
			require.NoError(t, os.Remove(filepath.Join(dir, e.Name())))
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "LATEST"), []byte(fmt.Sprint(id)), 0o644))
}

// dvPositions returns the deleted row positions of every data file with a
// deletion vector in the latest snapshot.
func dvPositions(t *testing.T, tbl *paimon.Table) map[string][]int64 {
	t.Helper()
	ctx := context.Background()
	s, _ := liveEntriesOf(t, tbl)
	out := map[string][]int64{}
	if s.IndexManifest == nil {
		return out
	}
	idx, err := tbl.Meta().ReadIndexManifest(ctx, *s.IndexManifest)
	require.NoError(t, err)
	for _, e := range idx {
		if e.Kind != manifest.FileKindAdd || e.IndexFile.IndexType != manifest.IndexTypeDeletionVectors {
			continue
		}
		dvs, err := tbl.Meta().ReadDeletionVectors(ctx, e.IndexFile)
		require.NoError(t, err)
		for name, dv := range dvs {
			out[name] = slices.Collect(dv.Positions())
		}
	}
	return out
}

// fileLayout describes the live files of a table the way two compactions
// of the same input must agree on them: per bucket, level, row count,
// sequence range and delete count, with the name for files the compaction
// did not write (kept is the set of names before it) and the deleted
// positions of each file's vector.
func fileLayout(t *testing.T, tbl *paimon.Table, kept map[string]bool) []string {
	t.Helper()
	_, live := liveEntriesOf(t, tbl)
	dvs := dvPositions(t, tbl)
	var out []string
	for _, e := range live {
		f := e.File
		name := "new"
		if kept[f.FileName] {
			name = f.FileName
		}
		src := "?"
		if f.FileSource != nil {
			src = fmt.Sprint(*f.FileSource)
		}
		del := int64(-1)
		if f.DeleteRowCount != nil {
			del = *f.DeleteRowCount
		}
		out = append(out, fmt.Sprintf("bucket %d level %d rows %d seq %d-%d deletes %d %s source %v dv %v",
			e.Bucket, f.Level, f.RowCount, f.MinSequenceNumber, f.MaxSequenceNumber, del, name, src, dvs[f.FileName]))
	}
	sort.Strings(out)
	return out
}

// TestCompactPrimaryKeyDeletionVectorsLookupGolden: in Java 1.4.2's golden
// deletion-vector table, the writers compacted level-0 files with lookups
// (snapshots 4 and 7: ForceUpLevel0Compaction put them below the highest
// level and marked the replaced rows of the highest level in deletion
// vectors). Rolled back to the snapshot before each, a compaction by
// trigger here gives the same files (level, rows, sequence range), the
// same deletion vectors (same positions in the same files) and the rows
// Java reads at that snapshot.
func TestCompactPrimaryKeyDeletionVectorsLookupGolden(t *testing.T) {
	const table = "interop.db/pk_deletion_vectors"
	for _, id := range []int64{4, 7, 9} {
		t.Run(fmt.Sprintf("snapshot-%d", id), func(t *testing.T) {
			ctx := context.Background()
			java := copyGolden(t, "java-1.4.2", "pk-deletion-vectors")
			rollbackGolden(t, java, table, id)
			jt, _ := openAt(t, java, filepath.Base(table))
			js, _ := liveEntriesOf(t, jt)
			require.Equal(t, snapshot.CommitCompact, js.CommitKind)

			ours := copyGolden(t, "java-1.4.2", "pk-deletion-vectors")
			rollbackGolden(t, ours, table, id-1)
			ot, fsys := openAt(t, ours, filepath.Base(table))
			_, before := liveEntriesOf(t, ot)
			kept := map[string]bool{}
			levels := map[int32]int{}
			for _, e := range before {
				kept[e.File.FileName] = true
				levels[e.File.Level]++
			}
			res, err := compactTable(t, ot, nil)
			require.NoError(t, err)
			require.NotNil(t, res.Commit, "Java compacted at snapshot %d", id)
			ot, err = paimon.OpenTable(ctx, fsys, table, nil)
			require.NoError(t, err)
			want := fileLayout(t, jt, kept)
			require.Equal(t, want, fileLayout(t, ot, kept))
			exp := readCanonFile(t, filepath.Join(goldenRoot, "java-1.4.2", "pk-deletion-vectors", fmt.Sprintf("expected-snapshot-%d.jsonl", id)))
			sort.Strings(exp)
			requireRows(t, exp, jsonLines(t, ot))
			t.Logf("snapshot %d from levels %v: %v", id, levels, want)
		})
	}
}

// changelogLines reads the changes of snapshot id (changelog files) as
// sorted canonical lines with their row kinds.
func changelogLines(t *testing.T, tbl *paimon.Table, id int64) []string {
	t.Helper()
	return sortedScanLines(t, tbl, paimon.WithIncremental(id-1, id, paimon.IncrementalChangelog))
}

// TestCompactLookupChangelogGolden: Java 1.4.2's golden table with
// changelog-producer = lookup (deduplicate, two buckets) was compacted by
// its writers (snapshots 2, 4 and 7, by ForceUpLevel0Compaction) and by
// full compactions (5 and 8). Rolled back to the snapshot before each, our
// compaction gives the same data files, the same changelog (read back as
// an incremental changelog read of that snapshot, which holds -U/+U, -D
// and +I rows) and the rows Java reads.
func TestCompactLookupChangelogGolden(t *testing.T) {
	const table = "interop.db/pk_changelog_lookup"
	for _, c := range []struct {
		id   int64
		full bool
	}{{2, false}, {4, false}, {5, true}, {7, false}, {8, true}} {
		t.Run(fmt.Sprintf("snapshot-%d", c.id), func(t *testing.T) {
			ctx := context.Background()
			java := copyGolden(t, "java-1.4.2", "pk-changelog-lookup")
			rollbackGolden(t, java, table, c.id)
			jt, _ := openAt(t, java, filepath.Base(table))
			js, _ := liveEntriesOf(t, jt)
			require.Equal(t, snapshot.CommitCompact, js.CommitKind)

			ours := copyGolden(t, "java-1.4.2", "pk-changelog-lookup")
			rollbackGolden(t, ours, table, c.id-1)
			ot, fsys := openAt(t, ours, filepath.Base(table))
			_, before := liveEntriesOf(t, ot)
			kept := map[string]bool{}
			for _, e := range before {
				kept[e.File.FileName] = true
			}
			res, err := compactTable(t, ot, &paimon.CompactOptions{Full: c.full})
			require.NoError(t, err)
			require.NotNil(t, res.Commit)
			ot, err = paimon.OpenTable(ctx, fsys, table, nil)
			require.NoError(t, err)
			require.Equal(t, fileLayout(t, jt, kept), fileLayout(t, ot, kept))
			ours2, _ := liveEntriesOf(t, ot)
			require.Equal(t, js.ChangelogRecordCount, ours2.ChangelogRecordCount)
			want := changelogLines(t, jt, c.id)
			require.Equal(t, want, changelogLines(t, ot, c.id))
			exp := readCanonFile(t, filepath.Join(goldenRoot, "java-1.4.2", "pk-changelog-lookup", fmt.Sprintf("expected-snapshot-%d.jsonl", c.id)))
			sort.Strings(exp)
			requireRows(t, exp, jsonLines(t, ot))
			t.Logf("snapshot %d: changelog %v", c.id, want)
		})
	}
}

// changelogRows reads the changelog of snapshot id as (row kind, canonical
// row) pairs in read order.
func changelogRows(t *testing.T, tbl *paimon.Table, id int64) [][2]string {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := tbl.Schema().Fields
	var out [][2]string
	for rec, err := range tbl.NewScan(paimon.WithAllocator(mem), paimon.WithIncremental(id-1, id, paimon.IncrementalChangelog)).Records(context.Background()) {
		require.NoError(t, err)
		require.Equal(t, len(fields)+1, int(rec.NumCols()))
		for r := 0; r < int(rec.NumRows()); r++ {
			kind, err := parquet.ArrowValue(rec.Column(0), r, schema.StringType())
			require.NoError(t, err)
			vals := make([]any, len(fields))
			for c := range fields {
				v, err := parquet.ArrowValue(rec.Column(c+1), r, fields[c].Type)
				require.NoError(t, err)
				vals[c] = v
			}
			b, err := canon.EncodeRow(fields, vals)
			require.NoError(t, err)
			out = append(out, [2]string{fmt.Sprint(kind), string(b)})
		}
		rec.Release()
	}
	return out
}

// TestCompactLookupChangelogReplay: on deduplicate tables with
// changelog-producer = lookup (with and without deletion vectors), rounds
// of upserts and deletes each compacted by trigger (level-0 runs go below
// the highest level, or to it) and a final full compaction: replaying the
// changelog of every COMPACT snapshot in order gives the table's rows
// after each compaction, every -U is followed by the +U of its key, and a
// compaction without level-0 files writes no changelog.
func TestCompactLookupChangelogReplay(t *testing.T) {
	for _, dv := range []bool{false, true} {
		t.Run(fmt.Sprintf("dv=%v", dv), func(t *testing.T) {
			ctx := context.Background()
			opts := map[string]string{"changelog-producer": "lookup", "bucket": "2"}
			if dv {
				opts["deletion-vectors.enabled"] = "true"
			}
			tbl, fsys := newPKTable(t, false, opts)
			commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
			require.NoError(t, err)
			w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
			require.NoError(t, err)
			defer w.Close(ctx)
			model := pkModel{}
			replay := map[string]string{}
			key := func(line string) string {
				var m map[string]any
				require.NoError(t, json.Unmarshal([]byte(line), &m))
				return fmt.Sprint(m["dt"], "/", m["id"])
			}
			write := func(round int, ids []int, kind string) {
				var rows [][]any
				var kinds []string
				for _, id := range ids {
					rows = append(rows, []any{"2024-01-01", int64(id), fmt.Sprintf("r%d-%d", round, id), float64(round)})
					kinds = append(kinds, kind)
				}
				rec := pkBatch(t, tbl, rows, kinds)
				require.NoError(t, w.Write(ctx, rec))
				rec.Release()
				model.apply(rows, kinds)
				msgs, err := w.PrepareCommit(ctx)
				require.NoError(t, err)
				_, err = commit.Commit(ctx, int64(round), msgs)
				require.NoError(t, err)
			}
			compact := func(round int, full bool) {
				res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: full})
				require.NoError(t, err, "round %d", round)
				require.NotNil(t, res.Commit, "round %d", round)
				rows := changelogRows(t, reopen(t, fsys), res.Commit.Snapshot.ID)
				for i, r := range rows {
					k := key(r[1])
					switch r[0] {
					case "+I", "+U":
						replay[k] = r[1]
					case "-U", "-D":
						require.Equal(t, replay[k], r[1], "round %d: %s retracts a row the changelog did not add", round, r[0])
						delete(replay, k)
					}
					if r[0] == "-U" {
						require.Less(t, i+1, len(rows))
						require.Equal(t, "+U", rows[i+1][0])
						require.Equal(t, k, key(rows[i+1][1]))
					}
				}
				want := model.rows(t)
				require.Equal(t, want, dump(t, reopen(t, fsys)), "round %d", round)
				var got []string
				for _, l := range replay {
					got = append(got, l)
				}
				sort.Strings(got)
				require.Equal(t, want, got, "round %d: changelog replay", round)
			}
			ids := func(from, to, step int) []int {
				var out []int
				for i := from; i < to; i += step {
					out = append(out, i)
				}
				return out
			}
			write(0, ids(0, 300, 1), "+I")
			compact(0, false)
			for i, rd := range []struct {
				ids  []int
				kind string
			}{
				{ids(10, 20, 1), "+I"},
				{ids(15, 30, 3), "+I"},
				{ids(12, 18, 1), "-D"},
				{ids(290, 310, 1), "+I"},
				{ids(0, 300, 31), "+I"},
				{ids(12, 14, 1), "+I"},
			} {
				write(i+1, rd.ids, rd.kind)
				compact(i+1, false)
			}
			write(9, ids(100, 110, 1), "+I")
			write(10, ids(105, 108, 1), "-D")
			compact(10, true)
			res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
			require.NoError(t, err)
			if res.Commit != nil {
				s, _ := liveEntriesOf(t, reopen(t, fsys))
				require.Nil(t, s.ChangelogManifestList, "a compaction without level-0 files has no changelog")
			}
		})
	}
}

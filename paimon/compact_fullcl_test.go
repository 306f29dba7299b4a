package paimon_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestCompactFullChangelogGolden replays Java's golden
// pk-changelog-full-compaction scenario (plan
// interop/plans/pk-changelog-full-compaction.json: two writes, a full
// compaction, a write, a full compaction) with our compaction: a copy of
// the warehouse is rolled back to the writes before Java's first
// compaction, compacted by Table.Compact, written as Java's plan writes
// and compacted again. Each COMPACT snapshot must hold the changelog
// Java's did (the incremental changelog read of its range, kinds,
// values and sequence ranges of the changelog files) and the tables must
// read the same.
func TestCompactFullChangelogGolden(t *testing.T) {
	for _, producer := range []string{"java-1.4.2", "java-2.0.0"} {
		t.Run(producer, func(t *testing.T) {
			ctx := context.Background()
			const table = "pk_changelog_full_compaction"
			java, _ := openAt(t, filepath.Join(goldenRoot, producer, "pk-changelog-full-compaction", "warehouse"), table)
			wh := copyGolden(t, producer, "pk-changelog-full-compaction")
			ours, fsys := openAt(t, wh, table)
			_, err := ours.RollbackTo(ctx, 2)
			require.NoError(t, err)
			reopenIt := func() *paimon.Table {
				tbl, err := paimon.OpenTable(ctx, fsys, "interop.db/"+table, nil)
				require.NoError(t, err)
				return tbl
			}
			compactFull := func() {
				res, err := compactTable(t, reopenIt(), &paimon.CompactOptions{Full: true})
				require.NoError(t, err)
				require.NotNil(t, res.Commit)
				require.Equal(t, snapshot.CommitCompact, res.Commit.Snapshot.CommitKind)
			}
			compactFull() // snapshot 3
			w, err := reopenIt().NewWriter(&paimon.WriterOptions{WriteOnly: true})
			require.NoError(t, err)
			mem := memcheck.New()
			rec, err := testtable.BuildRecord(mem, reopenIt().Schema().Fields, [][]any{{int32(3), "c2", int32(30)}, {int32(5), "e", int32(5)}})
			require.NoError(t, err)
			require.NoError(t, w.Write(ctx, rec))
			rec.Release()
			msgs, err := w.PrepareCommit(ctx)
			require.NoError(t, err)
			require.NoError(t, w.Close(ctx))
			c, err := reopenIt().NewCommit(nil)
			require.NoError(t, err)
			_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
			require.NoError(t, err)
			mem.AssertSize(t, 0)
			compactFull() // snapshot 5

			for _, rg := range [][2]int64{{2, 3}, {4, 5}, {0, 5}} {
				want := fcChangelogRows(t, java, rg[0], rg[1])
				require.NotEmpty(t, want)
				requireRows(t, want, fcChangelogRows(t, reopenIt(), rg[0], rg[1]))
			}
			requireRows(t, dump(t, java), dump(t, reopenIt()))
			for _, id := range []int64{3, 5} {
				require.Equal(t, changelogShape(t, java, id), changelogShape(t, reopenIt(), id), "changelog files of snapshot %d", id)
			}
		})
	}
}

// fcChangelogRows is the incremental changelog read of (start, end] as
// sorted canonical rows with their kinds.
func fcChangelogRows(t *testing.T, tbl *paimon.Table, start, end int64) []string {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := append([]schema.DataField{{ID: -1, Name: "rowkind", Type: schema.StringType()}}, tbl.Schema().Fields...)
	var out []string
	for rec, err := range tbl.NewScan(paimon.WithAllocator(mem), paimon.WithIncremental(start, end, paimon.IncrementalChangelog)).Records(context.Background()) {
		require.NoError(t, err)
		out = append(out, canonRows(t, fields, rec)...)
		rec.Release()
	}
	sort.Strings(out)
	return out
}

// changelogShape describes the changelog files a snapshot added: bucket,
// level, rows, sequence range and source of each, sorted.
func changelogShape(t *testing.T, tbl *paimon.Table, id int64) []string {
	t.Helper()
	ctx := context.Background()
	meta := tbl.Meta()
	s, err := meta.ReadSnapshot(ctx, id)
	require.NoError(t, err)
	require.NotNil(t, s.ChangelogManifestList, "snapshot %d has no changelog", id)
	mfs, err := meta.ChangelogManifests(ctx, s)
	require.NoError(t, err)
	var out []string
	for i := range mfs {
		entries, err := meta.ReadListedManifest(ctx, &mfs[i])
		require.NoError(t, err)
		for _, e := range entries {
			require.Equal(t, manifest.FileKindAdd, e.Kind)
			f := e.File
			src := "none"
			if f.FileSource != nil {
				src = fmt.Sprint(*f.FileSource)
			}
			out = append(out, fmt.Sprintf("bucket %d level %d rows %d seq %d-%d source %s", e.Bucket, f.Level, f.RowCount, f.MinSequenceNumber, f.MaxSequenceNumber, src))
		}
	}
	sort.Strings(out)
	return out
}

// TestCompactFullChangelogReplay writes random upserts and retractions
// into tables with changelog-producer = full-compaction and compacts them,
// by Table.Compact (by trigger every round, fully every third) or by the
// writer itself (full-compaction.delta-commits). After every full
// compaction the changelog of all snapshots so far, replayed in order
// (each -U and -D must retract exactly the row the replay holds for its
// key), must give the table's rows: every change reached the changelog
// exactly once. Snapshots of compactions below the highest level carry no
// changelog.
func TestCompactFullChangelogReplay(t *testing.T) {
	const cp = "changelog-producer"
	for _, c := range []struct {
		name    string
		opts    map[string]string
		writer  bool // the writer compacts (not write-only)
		retract bool
	}{
		{"dedup-compact", map[string]string{cp: "full-compaction", "num-sorted-run.compaction-trigger": "3"}, false, true},
		{"dedup-writer", map[string]string{cp: "full-compaction", "full-compaction.delta-commits": "2"}, true, true},
		{"dedup-writer-every-commit", map[string]string{cp: "full-compaction", "file.format": "avro"}, true, true},
		{"sequence-field", map[string]string{cp: "full-compaction", "sequence.field": "score"}, false, false},
		{"partial-update-writer", map[string]string{cp: "full-compaction", "merge-engine": "partial-update", "full-compaction.delta-commits": "3"}, true, false},
		{"aggregation", map[string]string{cp: "full-compaction", "merge-engine": "aggregation", "fields.score.aggregate-function": "sum"}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			tbl, fsys := newPKTable(t, true, c.opts)
			rng := rand.New(rand.NewPCG(18, 7))
			commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
			require.NoError(t, err)
			w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op", WriteOnly: !c.writer})
			require.NoError(t, err)
			defer w.Close(ctx)
			state := map[string]string{}
			replayed := int64(0)
			fulls := 0
			check := func() {
				fulls++
				tbl := reopen(t, fsys)
				s, entries := liveEntriesOf(t, tbl)
				require.Equal(t, snapshot.CommitCompact, s.CommitKind)
				maxLevel := int32(5)
				if c.opts["num-sorted-run.compaction-trigger"] == "3" {
					maxLevel = 3 // num-levels defaults to the trigger + 1
				}
				for _, e := range entries {
					require.Equal(t, maxLevel, e.File.Level, "file %s after a full compaction", e.File.FileName)
				}
				for id := replayed + 1; id <= s.ID; id++ {
					replayChangelog(t, tbl, id, state)
				}
				replayed = s.ID
				var got []string
				for _, r := range state {
					got = append(got, r)
				}
				sort.Strings(got)
				requireRows(t, dump(t, tbl), got)
			}
			for round := range 9 {
				n := 1 + rng.IntN(40)
				rows := make([][]any, n)
				kinds := make([]string, n)
				for i := range rows {
					id := int64(rng.IntN(50))
					rows[i] = []any{fmt.Sprintf("2024-01-0%d", 1+id%2), id, fmt.Sprintf("r%d-%d", round, i), float64(rng.IntN(100))}
					kinds[i] = "+I"
					if c.retract {
						kinds[i] = []string{"+I", "+I", "+U", "-D", "-U"}[rng.IntN(5)]
					}
				}
				rec := pkBatch(t, tbl, rows, kinds)
				require.NoError(t, w.Write(ctx, rec))
				rec.Release()
				msgs, err := w.PrepareCommit(ctx)
				require.NoError(t, err)
				res, err := commit.Commit(ctx, int64(round+1), msgs)
				require.NoError(t, err)
				require.NoError(t, res.CompactErr)
				if c.writer {
					delta := 1
					if d := c.opts["full-compaction.delta-commits"]; d != "" {
						delta = int(d[0] - '0')
					}
					if (round+1)%delta == 0 {
						check()
					} else {
						s, _ := liveEntriesOf(t, reopen(t, fsys))
						require.Equal(t, snapshot.CommitAppend, s.CommitKind, "round %d", round)
					}
					continue
				}
				_, err = compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: round%3 == 2})
				require.NoError(t, err)
				if round%3 == 2 {
					check()
				}
			}
			require.Positive(t, fulls)
		})
	}
}

// replayChangelog applies the changelog of snapshot id to state (key ->
// canonical row): retractions first, each of exactly the row held, then
// additions.
func replayChangelog(t *testing.T, tbl *paimon.Table, id int64, state map[string]string) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := tbl.Schema().Fields
	kindField := schema.DataField{ID: -1, Name: "rowkind", Type: schema.StringType()}
	type change struct{ kind, key, row string }
	var adds, retracts []change
	for rec, err := range tbl.NewScan(paimon.WithAllocator(mem), paimon.WithIncremental(id-1, id, paimon.IncrementalChangelog)).Records(context.Background()) {
		require.NoError(t, err)
		for r := 0; r < int(rec.NumRows()); r++ {
			kind, err := parquet.ArrowValue(rec.Column(0), r, kindField.Type)
			require.NoError(t, err)
			vals := make([]any, len(fields))
			for c := range fields {
				v, err := parquet.ArrowValue(rec.Column(c+1), r, fields[c].Type)
				require.NoError(t, err)
				vals[c] = v
			}
			b, err := canon.EncodeRow(fields, vals)
			require.NoError(t, err)
			ch := change{kind: fmt.Sprint(kind), key: fmt.Sprint(vals[0], "/", vals[1]), row: string(b)}
			if ch.kind == "-U" || ch.kind == "-D" {
				retracts = append(retracts, ch)
			} else {
				adds = append(adds, ch)
			}
		}
		rec.Release()
	}
	for _, ch := range retracts {
		require.Equal(t, state[ch.key], ch.row, "snapshot %d: %s of key %s", id, ch.kind, ch.key)
		delete(state, ch.key)
	}
	for _, ch := range adds {
		_, held := state[ch.key]
		require.False(t, held, "snapshot %d: %s of key %s, which the changelog holds already", id, ch.kind, ch.key)
		state[ch.key] = ch.row
	}
}

// relCheckInserts checks that the changelog of snapshot id (of the crash
// matrix's table) is exactly want, every row as +I: a compaction that
// crashed and ran again wrote its changelog once.
func relCheckInserts(want []string) func(ctx context.Context, fsys fs.FS, id int64) error {
	inserts := make([]string, len(want))
	for i, r := range want {
		inserts[i] = "+I " + r
	}
	return relCheckChangelog(inserts)
}

// TestCompactPrimaryKeyMemoryBudget: a primary-key compaction bigger than
// its memory budget splits its output (data files and, with
// changelog-producer = full-compaction, changelog files finished early)
// instead of holding it; the rows and the changelog are the same either
// way.
func TestCompactPrimaryKeyMemoryBudget(t *testing.T) {
	ctx := context.Background()
	for _, cl := range []bool{false, true} {
		t.Run(fmt.Sprint("changelog=", cl), func(t *testing.T) {
			files := map[int64]int{}
			changelogs := map[int64][]string{}
			for _, budget := range []int64{-1, 64 << 10} {
				opts := map[string]string{"bucket": "1", "write-only": "true"}
				if cl {
					opts["changelog-producer"] = "full-compaction"
				}
				tbl, fsys := newPKTable(t, false, opts)
				all := pkRowsOf(20000)
				writeCommits(t, tbl, all, 4)
				res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true, MemoryBudget: budget})
				require.NoError(t, err)
				files[budget] = res.FilesWritten
				requireRows(t, render(t, all), dump(t, reopen(t, fsys)))
				if cl {
					s, err := reopen(t, fsys).Meta().ReadSnapshot(ctx, res.Commit.Snapshot.ID)
					require.NoError(t, err)
					require.NotNil(t, s.ChangelogRecordCount)
					require.EqualValues(t, len(all), *s.ChangelogRecordCount)
					changelogs[budget] = fcChangelogRows(t, reopen(t, fsys), s.ID-1, s.ID)
				}
			}
			require.Equal(t, 1, files[-1])
			require.Greater(t, files[64<<10], 1)
			require.Equal(t, changelogs[-1], changelogs[64<<10])
		})
	}
}

// TestCompactFullChangelogRefused: what the full-compaction changelog is
// not produced for as Java produces it is refused before anything is
// written, and the table stays as it was.
func TestCompactFullChangelogRefused(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newPKTable(t, false, map[string]string{"changelog-producer": "full-compaction", "write-only": "true",
		"changelog-producer.row-deduplicate": "true"})
	writeCommits(t, tbl, pkRowsOf(100), 2)
	before, _, err := reopen(t, fsys).Meta().LatestSnapshotID(ctx)
	require.NoError(t, err)
	_, err = compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
	require.ErrorIs(t, err, paimon.ErrUnsupported)
	require.ErrorContains(t, err, "changelog-producer.row-deduplicate")
	after, _, err := reopen(t, fsys).Meta().LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.Equal(t, before, after)
	relCheckClean(t, fsys, "db.db/t")
}

// pkRowsOf builds n rows [dt, id, name, score] with distinct keys and a
// non-NULL dt (part of the primary key of newPKTable).
func pkRowsOf(n int) [][]any {
	rows := rowsOf(0, n, 1)
	for _, r := range rows {
		r[0] = "2024-01-01"
	}
	return rows
}

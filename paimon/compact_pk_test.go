package paimon_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/snapshot"
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
		"deletion-vectors":   {"deletion-vectors.enabled": "true"},
		"lookup-changelog":   {"changelog-producer": "lookup"},
		"full-compaction-cl": {"changelog-producer": "full-compaction"},
		"record-expire":      {"record-level.expire-time": "1 d", "record-level.time-field": "id"},
		"orc":                {"file.format": "orc"},
	} {
		t.Run(name, func(t *testing.T) {
			tbl, fsys := newPKTable(t, true, opts)
			_, err := compactTable(t, tbl, nil)
			require.ErrorIs(t, err, paimon.ErrUnsupported)
			relCheckClean(t, fsys, "db.db/t")
		})
	}
}

package paimon_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// newPKTable creates an empty primary-key table (dt, id) -> (name, score),
// partitioned by dt unless opts says otherwise, and opens it.
func newPKTable(t *testing.T, partitioned bool, opts map[string]string) (*paimon.Table, fs.FS) {
	t.Helper()
	ctx := context.Background()
	fsys, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { fsys.Close() })
	b := schema.NewSchemaBuilder()
	for _, f := range writeFields {
		b.Column(f.Name, f.Type)
	}
	b.PrimaryKey("dt", "id").Option("bucket", "2")
	if partitioned {
		b.PartitionKeys("dt")
	}
	for k, v := range opts {
		b.Option(k, v)
	}
	s, err := b.Build()
	require.NoError(t, err)
	tbl, err := paimon.CreateTable(ctx, fsys, "db.db/t", s)
	require.NoError(t, err)
	return tbl, fsys
}

// pkBatch builds a batch of rows [dt, id, name, score] with the table's
// schema, plus a trailing "op" column of row kinds when kinds is not nil.
func pkBatch(t *testing.T, tbl *paimon.Table, rows [][]any, kinds []string) arrow.RecordBatch {
	t.Helper()
	fields := tbl.Schema().Fields
	if kinds != nil {
		fields = append(append([]schema.DataField(nil), fields...), schema.NewField(99, "op", schema.StringType()))
	}
	sc, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	b := array.NewRecordBuilder(memcheck.New(), sc)
	defer b.Release()
	for i, r := range rows {
		for c, f := range tbl.Schema().Fields {
			require.NoError(t, arrowrow.AppendValue(b.Field(c), f.Type, r[c]))
		}
		if kinds != nil {
			b.Field(len(fields) - 1).(*array.StringBuilder).Append(kinds[i])
		}
	}
	return b.NewRecordBatch()
}

// pkModel is the deduplicate table the writes should produce.
type pkModel map[string][]any

func (m pkModel) apply(rows [][]any, kinds []string) {
	for i, r := range rows {
		k := fmt.Sprint(r[0], "/", r[1])
		switch kinds[i] {
		case "+I", "+U":
			m[k] = r
		case "-U", "-D":
			delete(m, k)
		}
	}
}

func (m pkModel) rows(t *testing.T) []string {
	var rows [][]any
	for _, r := range m {
		rows = append(rows, r)
	}
	out := render(t, rows)
	sort.Strings(out)
	return out
}

// TestWritePrimaryKeyDeduplicate writes random upserts, deletes and
// re-inserts over many commits, with several writers in turn, fixed and
// dynamic buckets, partitioned or not, and reads the table back after every
// commit, comparing with the model.
func TestWritePrimaryKeyDeduplicate(t *testing.T) {
	for _, c := range []struct {
		name        string
		partitioned bool
		opts        map[string]string
	}{
		{"fixed", true, nil},
		{"fixed-unpartitioned-avro", false, map[string]string{"file.format": "avro", "bucket": "3"}},
		{"dynamic", true, map[string]string{"bucket": "-1", "dynamic-bucket.target-row-num": "7"}},
		{"small-buffer", true, map[string]string{"write-buffer-size": "4 kb"}},
		{"changelog-input", true, map[string]string{"changelog-producer": "input"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			tbl, fsys := newPKTable(t, c.partitioned, c.opts)
			model := pkModel{}
			rng := rand.New(rand.NewPCG(1, 2))
			commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
			require.NoError(t, err)
			var w *paimon.TableWriter
			for round := range 12 {
				if w == nil || rng.IntN(3) == 0 {
					if w != nil {
						require.NoError(t, w.Close(ctx))
					}
					w, err = reopen(t, fsys).NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
					require.NoError(t, err)
				}
				for range 1 + rng.IntN(3) {
					n := 1 + rng.IntN(60)
					rows := make([][]any, n)
					kinds := make([]string, n)
					for i := range rows {
						id := int64(rng.IntN(40))
						dt := "2024-01-01"
						if c.partitioned {
							dt = fmt.Sprintf("2024-01-0%d", 1+id%3)
						}
						var name any = fmt.Sprintf("r%d-%d", round, i)
						if rng.IntN(6) == 0 {
							name = nil
						}
						rows[i] = []any{dt, id, name, float64(rng.IntN(100))}
						kinds[i] = []string{"+I", "+I", "+U", "-D", "-U"}[rng.IntN(5)]
					}
					rec := pkBatch(t, tbl, rows, kinds)
					require.NoError(t, w.Write(ctx, rec))
					rec.Release()
					model.apply(rows, kinds)
				}
				msgs, err := w.PrepareCommit(ctx)
				require.NoError(t, err)
				// Messages travel between processes.
				for i := range msgs {
					b, err := msgs[i].MarshalBinary()
					require.NoError(t, err)
					require.NoError(t, msgs[i].UnmarshalBinary(b))
				}
				_, err = commit.Commit(ctx, int64(round), msgs)
				require.NoError(t, err)
				require.Equal(t, model.rows(t), dump(t, reopen(t, fsys)), "round %d", round)
			}
			require.NoError(t, w.Close(ctx))
			checkLevel0Layout(t, fsys, c.opts["changelog-producer"] == "input")
		})
	}
}

// checkLevel0Layout checks every live data file is a level-0 key-value file
// of this writer (data-*, with a sequence range and key range) and that
// changelog files exist exactly when asked for.
func checkLevel0Layout(t *testing.T, fsys fs.FS, changelog bool) {
	t.Helper()
	tbl := reopen(t, fsys)
	s, entries := liveEntriesOf(t, tbl)
	require.NotEmpty(t, entries)
	for _, e := range entries {
		require.Equal(t, int32(0), e.File.Level)
		require.Equal(t, manifest.FileSourceAppend, *e.File.FileSource)
		require.LessOrEqual(t, e.File.MinSequenceNumber, e.File.MaxSequenceNumber)
		require.NotEmpty(t, e.File.MinKey)
	}
	require.Equal(t, changelog, s.ChangelogManifestList != nil)
}

// liveEntriesOf returns the latest snapshot and its live data files.
func liveEntriesOf(t *testing.T, tbl *paimon.Table) (*snapshot.Snapshot, []manifest.ManifestEntry) {
	t.Helper()
	ctx := context.Background()
	id, ok, err := tbl.Meta().LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	s, err := tbl.Meta().ReadSnapshot(ctx, id)
	require.NoError(t, err)
	metas, err := tbl.Meta().DataManifests(ctx, s)
	require.NoError(t, err)
	var m manifest.Merger
	for i := range metas {
		entries, err := tbl.Meta().ReadListedManifest(ctx, &metas[i])
		require.NoError(t, err)
		require.NoError(t, m.Add(entries...))
	}
	return s, m.Result()
}

// TestWritePrimaryKeyOptions checks what the writer takes from the table's
// options: ignore-delete drops deletes, partial-update and aggregation merge
// rows (in the buffer and across commits), key-only deletes, WriteWithKind.
func TestWritePrimaryKeyOptions(t *testing.T) {
	ctx := context.Background()
	r := func(dt string, id int64, name any, score any) []any { return []any{dt, id, name, score} }
	t.Run("ignore-delete", func(t *testing.T) {
		tbl, fsys := newPKTable(t, false, map[string]string{"ignore-delete": "true"})
		commitPK(t, tbl, [][]any{r("d", 1, "a", 1.0), r("d", 2, "b", 2.0)}, nil)
		commitPK(t, tbl, [][]any{r("d", 1, "a", 1.0), r("d", 2, "b", 2.0), r("d", 2, "c", 3.0)}, []string{"-D", "-U", "+U"})
		require.Equal(t, render(t, [][]any{r("d", 1, "a", 1.0), r("d", 2, "c", 3.0)}), dump(t, reopen(t, fsys)))
	})
	t.Run("partial-update", func(t *testing.T) {
		tbl, fsys := newPKTable(t, false, map[string]string{"merge-engine": "partial-update"})
		commitPK(t, tbl, [][]any{r("d", 1, "a", nil), r("d", 1, nil, 5.0), r("d", 2, nil, 1.0)}, nil)
		commitPK(t, tbl, [][]any{r("d", 2, "z", nil)}, nil)
		require.Equal(t, render(t, [][]any{r("d", 1, "a", 5.0), r("d", 2, "z", 1.0)}), dump(t, reopen(t, fsys)))
	})
	t.Run("aggregation", func(t *testing.T) {
		tbl, fsys := newPKTable(t, false, map[string]string{"merge-engine": "aggregation",
			"fields.score.aggregate-function": "sum", "fields.name.aggregate-function": "max", "fields.name.ignore-retract": "true"})
		commitPK(t, tbl, [][]any{r("d", 1, "a", 1.5), r("d", 1, "c", 2.0), r("d", 2, "b", 1.0)}, nil)
		commitPK(t, tbl, [][]any{r("d", 1, "b", 0.5), r("d", 2, "b", 1.0)}, []string{"+I", "-U"})
		require.Equal(t, render(t, [][]any{r("d", 1, "c", 4.0), r("d", 2, "b", 0.0)}), dump(t, reopen(t, fsys)))
	})
	t.Run("retraction the engine refuses", func(t *testing.T) {
		// Java would fail to merge these rows with the key's others; the
		// writer refuses them up front rather than leave a table that
		// cannot be read.
		for msg, opts := range map[string]map[string]string{
			"does not support retraction": {"merge-engine": "aggregation", "fields.name.aggregate-function": "max"},
			"can not accept delete":       {"merge-engine": "partial-update"},
			"first row merge engine":      {"merge-engine": "first-row"},
		} {
			tbl, fsys := newPKTable(t, false, opts)
			w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
			require.NoError(t, err)
			rec := pkBatch(t, tbl, [][]any{r("d", 1, "a", 1.0), r("d", 1, "a", 1.0)}, []string{"+I", "-D"})
			err = w.Write(ctx, rec)
			rec.Release()
			require.ErrorIs(t, err, paimon.ErrInvalidOption)
			require.ErrorContains(t, err, msg)
			require.NoError(t, w.Close(ctx))
			require.Empty(t, tableFiles(t, fsys))
		}
	})
	t.Run("key-only delete", func(t *testing.T) {
		tbl, fsys := newPKTable(t, true, nil)
		commitPK(t, tbl, [][]any{r("d1", 1, "a", 1.0), r("d2", 2, "b", 2.0), r("d2", 3, "c", 3.0)}, nil)
		w, err := tbl.NewWriter(nil)
		require.NoError(t, err)
		keys := columnsBatchOf(t, []arrow.Field{{Name: "dt", Type: arrow.BinaryTypes.String}, {Name: "id", Type: arrow.PrimitiveTypes.Int64}},
			[]any{"d2", "d1"}, []any{int64(2), int64(9)})
		require.NoError(t, w.Delete(ctx, keys))
		keys.Release()
		// Write with a kind: every row of the batch.
		rec := pkBatch(t, tbl, [][]any{r("d2", 3, "c2", 3.5)}, nil)
		require.NoError(t, w.WriteWithKind(ctx, rec, paimon.RowKindUpdateAfter))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		require.NoError(t, w.Close(ctx))
		c, err := tbl.NewCommit(nil)
		require.NoError(t, err)
		_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
		require.NoError(t, err)
		require.Equal(t, render(t, [][]any{r("d1", 1, "a", 1.0), r("d2", 3, "c2", 3.5)}), dump(t, reopen(t, fsys)))
	})
	t.Run("postpone", func(t *testing.T) {
		tbl, fsys := newPKTable(t, true, map[string]string{"bucket": "-2"})
		res := commitPK(t, tbl, [][]any{r("d1", 1, "a", 1.0), r("d1", 1, "b", 2.0)}, nil)
		// Postpone buckets are read after a compaction distributes them.
		require.Empty(t, dump(t, reopen(t, fsys)))
		_, entries := liveEntriesOf(t, reopen(t, fsys))
		require.Len(t, entries, 1)
		e := entries[0]
		require.Equal(t, int32(-2), e.Bucket)
		require.Equal(t, int32(-2), e.TotalBuckets)
		require.Equal(t, int64(2), e.File.RowCount, "postpone files keep every row, unmerged")
		require.Equal(t, int64(-1), e.File.MinSequenceNumber)
		// Java's prefix: data-file.prefix + "-u-<user>-s-<writer>-w-".
		require.True(t, strings.HasPrefix(e.File.FileName, "data--u-"), e.File.FileName)
		require.True(t, strings.HasSuffix(e.File.FileName, ".avro"), e.File.FileName)
		require.NotNil(t, res.Snapshot)
	})
}

// columnsBatchOf builds a batch from columns of values.
func columnsBatchOf(t *testing.T, fields []arrow.Field, cols ...[]any) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(memcheck.New(), arrow.NewSchema(fields, nil))
	defer b.Release()
	for i, col := range cols {
		for _, v := range col {
			switch x := v.(type) {
			case string:
				b.Field(i).(*array.StringBuilder).Append(x)
			case int64:
				b.Field(i).(*array.Int64Builder).Append(x)
			case float64:
				b.Field(i).(*array.Float64Builder).Append(x)
			}
		}
	}
	return b.NewRecordBatch()
}

// TestWritePrimaryKeyConcurrentWriters: two writers of the same bucket
// restore the same sequence numbers; the second commit would let an older
// row win, and is refused with ErrCommitConflict (nothing of it lands). The
// messages of both, committed together by one committer, land.
func TestWritePrimaryKeyConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newPKTable(t, false, map[string]string{"bucket": "1"})
	r := func(id int64, name string) []any { return []any{"d", id, name, 1.0} }
	commitPK(t, tbl, [][]any{r(1, "base")}, nil)
	prepare := func(rows [][]any) []paimon.CommitMessage {
		w, err := reopen(t, fsys).NewWriter(nil)
		require.NoError(t, err)
		defer w.Close(ctx)
		rec := pkBatch(t, tbl, rows, nil)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		return msgs
	}
	a, b := prepare([][]any{r(1, "a")}), prepare([][]any{r(2, "b")})
	c, err := tbl.NewCommit(nil)
	require.NoError(t, err)
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, a)
	require.NoError(t, err)
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, b)
	require.ErrorIs(t, err, paimon.ErrCommitConflict)
	require.ErrorContains(t, err, "another writer wrote to the bucket")
	require.Equal(t, render(t, [][]any{r(1, "a")}), dump(t, reopen(t, fsys)))

	x, y := prepare([][]any{r(3, "x")}), prepare([][]any{r(4, "y")})
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, append(x, y...))
	require.NoError(t, err)
	require.Equal(t, render(t, [][]any{r(1, "a"), r(3, "x"), r(4, "y")}), dump(t, reopen(t, fsys)))
}

package testtable_test

import (
	"context"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// scanFixture is a table written by the builder plus the rows of each commit.
type scanFixture struct {
	fsys    fs.FS
	dir     string
	schema  *schema.TableSchema
	commits [][][]any // rows of each commit
	results []*testtable.CommitResult
}

// buildScanFixture writes three commits of the mixed schema: two partitions
// and two files in the first commit, one file each in the others. Ids are
// disjoint per file so that a filter on id prunes files by statistics.
func buildScanFixture(t *testing.T) *scanFixture {
	t.Helper()
	ctx := context.Background()
	f := &scanFixture{fsys: memfs.New(nil), dir: "wh/default.db/t", schema: mixedSchema(t)}
	tbl, err := testtable.Create(ctx, f.fsys, f.dir, f.schema)
	require.NoError(t, err)
	gen := func(dt string, from, n int) [][]any {
		var rows [][]any
		for i := from; i < from+n; i++ {
			var name any = "name-" + string(rune('a'+i%26)) + "-padding-to-be-truncated"
			if i%7 == 0 {
				name = nil
			}
			rows = append(rows, []any{dt, int64(i), name, dec(int64(i*101), 18, 2),
				data.TimestampFromMicros(int64(i) * 1_000_003), int32(19000 + i), float64(i) / 3, []any{"t", dt}})
		}
		return rows
	}
	plan := [][]struct {
		dt       string
		from, n  int
		rowGroup int64
	}{
		{{"2024-01-01", 0, 50, 16}, {"2024-01-02", 100, 30, 0}},
		{{"2024-01-01", 200, 20, 0}},
		{{"2024-01-03", 300, 10, 4}},
	}
	for _, files := range plan {
		var dfs []testtable.DataFile
		var all [][]any
		for _, p := range files {
			rows := gen(p.dt, p.from, p.n)
			all = append(all, rows...)
			dfs = append(dfs, testtable.DataFile{Partition: []any{p.dt}, Records: []arrow.RecordBatch{record(t, nil, f.schema.Fields, rows)}, RowGroupRows: p.rowGroup})
		}
		res, err := tbl.Commit(ctx, dfs...)
		require.NoError(t, err)
		f.commits = append(f.commits, all)
		f.results = append(f.results, res)
	}
	return f
}

// upTo returns the canonical rows of the first n commits, sorted.
func (f *scanFixture) upTo(t *testing.T, n int, keep func(row []any) bool, cols ...string) []string {
	t.Helper()
	fields := f.schema.Fields
	idx := make([]int, len(fields))
	for i := range idx {
		idx[i] = i
	}
	if len(cols) > 0 {
		fields, idx = nil, nil
		for _, c := range cols {
			i := f.schema.FieldIndex(c)
			fields = append(fields, f.schema.Fields[i])
			idx = append(idx, i)
		}
	}
	var out []string
	for _, rows := range f.commits[:n] {
		for _, r := range rows {
			if keep != nil && !keep(r) {
				continue
			}
			vals := make([]any, len(idx))
			for i, j := range idx {
				vals[i] = r[j]
			}
			out = append(out, canonLine(t, fields, vals))
		}
	}
	sort.Strings(out)
	return out
}

// scanLines runs a scan and returns its rows as sorted canon-v1 lines.
func scanLines(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) []string {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	scan := tbl.NewScan(append(opts, paimon.WithAllocator(mem))...)
	sc, err := scan.ArrowSchema(ctx)
	require.NoError(t, err)
	fields, err := schema.FromArrowSchema(sc)
	require.NoError(t, err)
	var out []string
	for rec, err := range scan.Records(ctx) {
		require.NoError(t, err)
		for i := 0; i < int(rec.NumRows()); i++ {
			vals := make([]any, len(fields))
			for c := range fields {
				vals[c], err = parquet.ArrowValue(rec.Column(c), i, fields[c].Type)
				require.NoError(t, err)
			}
			out = append(out, canonLine(t, fields, vals))
		}
		rec.Release()
	}
	sort.Strings(out)
	return out
}

// TestTableMetaReadsBuilderTables reads the builder's metadata back through
// paimon.TableMeta.
func TestTableMetaReadsBuilderTables(t *testing.T) {
	ctx := context.Background()
	f := buildScanFixture(t)
	m := paimon.NewTableMeta(f.fsys, f.dir)
	id, ok, err := m.LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(3), id)
	ids, err := m.SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 3}, ids)
	earliest, ok, err := m.EarliestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(1), earliest)
	sch, err := m.LatestSchema(ctx)
	require.NoError(t, err)
	require.Equal(t, f.schema.Fields, sch.Fields)
	for i, res := range f.results {
		s, err := m.ReadSnapshot(ctx, int64(i+1))
		require.NoError(t, err)
		require.Equal(t, res.Snapshot, s)
		metas, err := m.DataManifests(ctx, s)
		require.NoError(t, err)
		require.Len(t, metas, i+1)
		require.Equal(t, res.Manifest, metas[i])
		entries, err := m.ReadManifest(ctx, res.Manifest.FileName)
		require.NoError(t, err)
		require.Equal(t, res.Entries, entries)
	}
}

// TestScanReadsBuilderTables scans builder-written tables with the paimon
// scan API and compares with the rows handed to the builder.
func TestScanReadsBuilderTables(t *testing.T) {
	ctx := context.Background()
	f := buildScanFixture(t)
	tbl, err := paimon.OpenTable(ctx, f.fsys, f.dir, nil)
	require.NoError(t, err)

	t.Run("all rows", func(t *testing.T) {
		require.Equal(t, f.upTo(t, 3, nil), scanLines(t, tbl))
	})
	t.Run("time travel", func(t *testing.T) {
		for n := 1; n <= 3; n++ {
			require.Equal(t, f.upTo(t, n, nil), scanLines(t, tbl, paimon.WithSnapshotID(int64(n))))
		}
	})
	t.Run("projection", func(t *testing.T) {
		require.Equal(t, f.upTo(t, 3, nil, "score", "id"), scanLines(t, tbl, paimon.WithColumns("score", "id")))
	})
	t.Run("small batches", func(t *testing.T) {
		require.Equal(t, f.upTo(t, 3, nil), scanLines(t, tbl, paimon.WithBatchSize(7)))
	})
	t.Run("partition filter", func(t *testing.T) {
		plan, err := tbl.NewScan(paimon.WithFilter(predicate.Equal("dt", "2024-01-02"))).Plan(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, plan.Stats.Files-plan.Stats.FilesPrunedByPartition-plan.Stats.FilesPrunedByStats)
		require.Equal(t, int64(30), plan.Stats.RowCount)
		keep := func(r []any) bool { return r[0] == "2024-01-02" }
		require.Equal(t, f.upTo(t, 3, keep), scanLines(t, tbl, paimon.WithFilter(predicate.Equal("dt", "2024-01-02"))))
	})
	t.Run("stats filter", func(t *testing.T) {
		// Ids 200..219 live in one file of partition 2024-01-01, which
		// holds another file (ids 0..49): only statistics can tell them
		// apart.
		filter := predicate.And(predicate.GreaterOrEqual("id", int64(205)), predicate.LessThan("id", int64(210)))
		plan, err := tbl.NewScan(paimon.WithFilter(filter)).Plan(ctx)
		require.NoError(t, err)
		require.Equal(t, 4, plan.Stats.Files)
		require.Equal(t, 3, plan.Stats.FilesPrunedByPartition+plan.Stats.FilesPrunedByStats)
		require.GreaterOrEqual(t, plan.Stats.FilesPrunedByStats, 1)
		keep := func(r []any) bool { id := r[1].(int64); return id >= 205 && id < 210 }
		require.Equal(t, f.upTo(t, 3, keep), scanLines(t, tbl, paimon.WithFilter(filter)))
	})
	t.Run("truncated string statistics", func(t *testing.T) {
		// Names are longer than 16 characters: the stored maximum was
		// rounded up, so an equality filter must still find its rows.
		filter := predicate.Equal("name", "name-c-padding-to-be-truncated")
		keep := func(r []any) bool { return r[2] == "name-c-padding-to-be-truncated" }
		want := f.upTo(t, 3, keep)
		require.NotEmpty(t, want)
		require.Equal(t, want, scanLines(t, tbl, paimon.WithFilter(filter)))
	})
	t.Run("limit", func(t *testing.T) {
		got := scanLines(t, tbl, paimon.WithLimit(5))
		require.GreaterOrEqual(t, len(got), 5)
	})
}

package paimon_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// writeIndexedTable creates an append table (id BIGINT, k STRING, v INT)
// with the given options and commits files of rowsPerFile rows each: file
// f holds the ids f*rowsPerFile.., k = "k<id>" (unique, so a bloom filter
// on k excludes all files but one for k = 'k<id>') and v = id % 7 in every
// file (so statistics cannot prune on v, and v's bitmap only the files
// lacking a value).
func writeIndexedTable(tb testing.TB, fsys fs.FS, dir string, opts map[string]string, files, rowsPerFile int) *paimon.Table {
	tb.Helper()
	return writeIndexedTableKeys(tb, fsys, dir, opts, files, rowsPerFile, func(id int64) string { return fmt.Sprintf("k%d", id) })
}

// writeIndexedTableKeys is writeIndexedTable with k = key(id).
func writeIndexedTableKeys(tb testing.TB, fsys fs.FS, dir string, opts map[string]string, files, rowsPerFile int, key func(int64) string) *paimon.Table {
	tb.Helper()
	ctx := context.Background()
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("k", schema.StringType()).
		Column("v", schema.IntType()).
		Options(opts).
		Build()
	require.NoError(tb, err)
	tbl, err := paimon.CreateTable(ctx, fsys, dir, s)
	require.NoError(tb, err)
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
	require.NoError(tb, err)
	for f := range files {
		w, err := tbl.NewWriter(nil)
		require.NoError(tb, err)
		b := array.NewRecordBuilder(memcheck.New(), w.ArrowSchema())
		for i := range rowsPerFile {
			id := int64(f*rowsPerFile + i)
			b.Field(0).(*array.Int64Builder).Append(id)
			b.Field(1).(*array.StringBuilder).Append(key(id))
			b.Field(2).(*array.Int32Builder).Append(int32(id % 7))
		}
		rec := b.NewRecordBatch()
		require.NoError(tb, w.Write(ctx, rec))
		rec.Release()
		b.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(tb, err)
		_, err = c.Commit(ctx, int64(f+1), msgs)
		require.NoError(tb, err)
		require.NoError(tb, w.Close(ctx))
	}
	return tbl
}

var indexOptions = map[string]string{
	"file-index.bloom-filter.columns":  "k",
	"file-index.bloom-filter.k.items":  "2000",
	"file-index.bitmap.columns":        "v",
	"file-index.in-manifest-threshold": "64kb",
}

// TestFileIndexWritten writes indexed files and checks that our plan (for
// embedded indexes) and our read (for separate .index files) use them; the
// rows are those of the unindexed read.
func TestFileIndexWritten(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		threshold string
		embedded  bool
	}{{"embedded", "64kb", true}, {"separate", "1b", false}} {
		t.Run(tc.name, func(t *testing.T) {
			base, err := localfs.New(t.TempDir(), nil)
			require.NoError(t, err)
			cfs := fstest.NewCountingFS(base)
			defer cfs.Close()
			opts := map[string]string{}
			for k, v := range indexOptions {
				opts[k] = v
			}
			opts["file-index.in-manifest-threshold"] = tc.threshold
			tbl := writeIndexedTable(t, cfs, "db.db/t", opts, 5, 200)
			plan, err := tbl.NewScan().Plan(ctx)
			require.NoError(t, err)
			for _, s := range plan.Splits {
				for _, f := range s.Files {
					if tc.embedded {
						require.NotNil(t, f.EmbeddedIndex)
						require.Empty(t, f.ExtraFiles)
					} else {
						require.Nil(t, f.EmbeddedIndex)
						require.Equal(t, []string{f.FileName + ".index"}, f.ExtraFiles)
					}
				}
			}
			prunedByIndex := 0
			for _, c := range []struct {
				filter *predicate.Predicate
				files  int // data files read
				rows   int64
			}{
				{predicate.Equal("k", "k321"), 1, 1},
				{predicate.Equal("k", "nope"), 0, 0},
				{predicate.In("k", "k5", "k999"), 2, 2},
				{predicate.Equal("v", int32(3)), 5, 143},
				{predicate.Equal("v", int32(9)), 0, 0},
				{predicate.IsNull("v"), 0, 0},
			} {
				cfs.Reset()
				n, err := countRows(t, tbl.NewScan(paimon.WithFilter(c.filter)))
				require.NoError(t, err)
				require.Equal(t, c.rows, n, "%v", c.filter)
				read := 0
				for _, name := range cfs.Names(fstest.OpOpen) {
					if strings.HasSuffix(name, ".parquet") {
						read++
					}
				}
				require.Equal(t, c.files, read, "%v: data files read", c.filter)
				if tc.embedded {
					plan, err := tbl.NewScan(paimon.WithFilter(c.filter)).Plan(ctx)
					require.NoError(t, err)
					require.Equal(t, 5-c.files, plan.Stats.FilesPrunedByStats+plan.Stats.FilesPrunedByIndex, "%v", c.filter)
					prunedByIndex += plan.Stats.FilesPrunedByIndex
				}
			}
			if tc.embedded {
				require.GreaterOrEqual(t, prunedByIndex, 2)
			}
		})
	}
}

// BenchmarkFileIndexEqualityFilter reads an equality on a non-key column
// (k = one value, the values scattered over all files so that min/max
// statistics cannot prune) from a table with a bloom-filter index on k, and
// from the same table without indexes. The ratio of the two is the speed-up
// the index gives.
//
// PAIMON_INDEX_BENCH_ROWS sets the table size (default 100,000 rows: 20
// files of 5,000). Larger tables are written in 100 files (at least 5,000
// rows each); the figure is the 10M-row table (100 files of
// 100,000 rows; writing it takes minutes and about 2 GB of disk for the
// two tables):
//
//	PAIMON_INDEX_BENCH_ROWS=10000000 go test -run '^$' \
//	    -bench BenchmarkFileIndexEqualityFilter -benchtime 5x ./paimon/
func BenchmarkFileIndexEqualityFilter(b *testing.B) {
	ctx := context.Background()
	total := 100_000
	if v := os.Getenv("PAIMON_INDEX_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 5000 {
			b.Fatalf("PAIMON_INDEX_BENCH_ROWS=%q: want a row count of at least 5000", v)
		}
		total = n
	}
	perFile := max(5000, total/100)
	files := total / perFile
	// k is a unique value scattered over the files (a permutation of the
	// ids, zero-padded), as a user or order id is in an append table: every
	// file's min/max statistics span nearly the whole range, so statistics
	// cannot prune an equality and only the index can. With k = "k<id>" in
	// id order the statistics alone kept just two files of 100 and the
	// benchmark measured planning, not the index.
	n := int64(files * perFile)
	step := int64(7919)
	for gcd(step, n) != 1 {
		step += 2
	}
	scatter := func(id int64) string { return fmt.Sprintf("k%010d", id*step%n) }
	key := scatter(n/2 + 1234)
	b.Logf("%d files of %d rows, k = %q", files, perFile, key)
	for _, bc := range []struct {
		name string
		opts map[string]string
	}{
		{"indexed", map[string]string{"file-index.bloom-filter.columns": "k", "file-index.bloom-filter.k.items": strconv.Itoa(perFile)}},
		{"bitmap", map[string]string{"file-index.bitmap.columns": "k"}},
		{"plain", map[string]string{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fsys, err := localfs.New(b.TempDir(), nil)
			require.NoError(b, err)
			defer fsys.Close()
			tbl := writeIndexedTableKeys(b, fsys, "db.db/t", bc.opts, files, perFile, scatter)
			filter := paimon.WithFilter(predicate.Equal("k", key))
			plan, err := tbl.NewScan(filter).Plan(ctx)
			require.NoError(b, err)
			read := 0
			for _, s := range plan.Splits {
				read += len(s.Files)
			}
			b.Logf("%s: %d files planned (%d pruned by statistics, %d by an embedded index; a separate .index file is checked when its file is read)", bc.name,
				read, plan.Stats.FilesPrunedByStats, plan.Stats.FilesPrunedByIndex)
			b.ResetTimer()
			for b.Loop() {
				var n int64
				for rec, err := range tbl.NewScan(filter).Records(ctx) {
					if err != nil {
						b.Fatal(err)
					}
					n += rec.NumRows()
					rec.Release()
				}
				if n != 1 {
					b.Fatalf("%d rows", n)
				}
			}
		})
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// writeRangeBenchTable creates an append table (id BIGINT, n BIGINT, s
// STRING) of files files of perFile rows, where n = id·1000003 mod the row
// count (so every file spans nearly the whole range of n and statistics
// prune no range of it) and s = n zero-padded to 10 digits. It returns the
// number of rows with lo <= n < hi.
func writeRangeBenchTable(tb testing.TB, fsys fs.FS, dir string, opts map[string]string, files, perFile int, lo, hi int64) (*paimon.Table, int64) {
	tb.Helper()
	ctx := context.Background()
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("n", schema.BigIntType()).
		Column("s", schema.StringType()).
		Options(opts).
		Build()
	require.NoError(tb, err)
	tbl, err := paimon.CreateTable(ctx, fsys, dir, s)
	require.NoError(tb, err)
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
	require.NoError(tb, err)
	total := int64(files * perFile)
	var want int64
	for f := range files {
		w, err := tbl.NewWriter(nil)
		require.NoError(tb, err)
		b := array.NewRecordBuilder(memcheck.New(), w.ArrowSchema())
		for i := range perFile {
			id := int64(f*perFile + i)
			n := id * 1000003 % total
			if n >= lo && n < hi {
				want++
			}
			b.Field(0).(*array.Int64Builder).Append(id)
			b.Field(1).(*array.Int64Builder).Append(n)
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("%010d", n))
		}
		rec := b.NewRecordBatch()
		require.NoError(tb, w.Write(ctx, rec))
		rec.Release()
		b.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(tb, err)
		_, err = c.Commit(ctx, int64(f+1), msgs)
		require.NoError(tb, err)
		require.NoError(tb, w.Close(ctx))
	}
	return tbl, want
}

// BenchmarkFileIndexRangeFilter reads a narrow range of a column whose
// values are spread over every file (lo <= n < lo+2, two rows in at most
// two files, and the same range of its string form s) from tables with a bsi index on n, a range-bitmap
// index on n, a range-bitmap index on s, and no index. The ratio of an
// indexed table's time to the plain one's is the speed-up the index gives
// (the files the filter matches are read in every case).
//
// PAIMON_INDEX_BENCH_ROWS sets the table size as for
// BenchmarkFileIndexEqualityFilter (default 100,000 rows); the issue's
// figure is the 10M-row table:
//
//	PAIMON_INDEX_BENCH_ROWS=10000000 go test -run '^$' \
//	    -bench BenchmarkFileIndexRangeFilter -benchtime 5x ./paimon/
func BenchmarkFileIndexRangeFilter(b *testing.B) {
	ctx := context.Background()
	total := 100_000
	if v := os.Getenv("PAIMON_INDEX_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 5000 {
			b.Fatalf("PAIMON_INDEX_BENCH_ROWS=%q: want a row count of at least 5000", v)
		}
		total = n
	}
	perFile := max(5000, total/100)
	files := total / perFile
	lo := int64(files*perFile/2 + 1234)
	hi := lo + 2
	nRange := predicate.And(predicate.GreaterOrEqual("n", lo), predicate.LessThan("n", hi))
	sRange := predicate.And(predicate.GreaterOrEqual("s", fmt.Sprintf("%010d", lo)), predicate.LessThan("s", fmt.Sprintf("%010d", hi)))
	b.Logf("%d files of %d rows, %d <= n < %d", files, perFile, lo, hi)
	for _, bc := range []struct {
		name   string
		opts   map[string]string
		filter *predicate.Predicate
	}{
		{"bsi", map[string]string{"file-index.bsi.columns": "n"}, nRange},
		{"range-bitmap", map[string]string{"file-index.range-bitmap.columns": "n"}, nRange},
		{"range-bitmap-string", map[string]string{"file-index.range-bitmap.columns": "s"}, sRange},
		{"plain", map[string]string{}, nRange},
		{"plain-string", map[string]string{}, sRange},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fsys, err := localfs.New(b.TempDir(), nil)
			require.NoError(b, err)
			defer fsys.Close()
			tbl, want := writeRangeBenchTable(b, fsys, "db.db/t", bc.opts, files, perFile, lo, hi)
			filter := paimon.WithFilter(bc.filter)
			b.ResetTimer()
			for b.Loop() {
				var n int64
				for rec, err := range tbl.NewScan(filter).Records(ctx) {
					if err != nil {
						b.Fatal(err)
					}
					n += rec.NumRows()
					rec.Release()
				}
				if n != want {
					b.Fatalf("%d rows, want %d", n, want)
				}
			}
		})
	}
}

// TestFileIndexBitmapKeysOutliveBatches writes a bitmap index on a string
// column from batches released right after Write (as Write allows), on an
// allocator that overwrites freed memory: the index keeps its distinct
// values until the file closes, so it must hold copies, or its keys become
// other bytes and a filter on a value the file holds prunes the file.
func TestFileIndexBitmapKeysOutliveBatches(t *testing.T) {
	ctx := context.Background()
	fsys, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	defer fsys.Close()
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("k", schema.StringType()).
		Options(map[string]string{"file-index.bitmap.columns": "k"}).
		Build()
	require.NoError(t, err)
	tbl, err := paimon.CreateTable(ctx, fsys, "db.db/t", s)
	require.NoError(t, err)
	var rows [][]any
	for batch := range 3 {
		for i := range 100 {
			rows = append(rows, []any{int64(batch*100 + i), fmt.Sprintf("key-%d-%d", batch, i%3)})
		}
	}
	writeBatches(t, tbl, tbl.Schema().Fields, rows, 100)
	// Of i in [0, 100), 34 have i%3 == 0 and 33 each of the others.
	for k, want := range map[string]int64{"key-0-0": 34, "key-1-2": 33, "key-2-1": 33, "key-3-0": 0} {
		n, err := countRows(t, tbl.NewScan(paimon.WithFilter(predicate.Equal("k", k))))
		require.NoError(t, err)
		require.Equal(t, want, n, k)
	}
}

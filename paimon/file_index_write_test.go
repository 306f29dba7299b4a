package paimon_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/localfs"
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
	ctx := context.Background()
	s, err := paimon.NewSchemaBuilder().
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
		b := array.NewRecordBuilder(memory.DefaultAllocator, w.ArrowSchema())
		for i := range rowsPerFile {
			id := int64(f*rowsPerFile + i)
			b.Field(0).(*array.Int64Builder).Append(id)
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("k%d", id))
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
// (k = one value) from a table with a bloom-filter index on k, and from the
// same table without indexes. The ratio of the two is the speed-up the
// index gives.
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
	key := fmt.Sprintf("k%d", files*perFile/2+1234)
	b.Logf("%d files of %d rows, k = %q", files, perFile, key)
	for _, bc := range []struct {
		name string
		opts map[string]string
	}{
		{"indexed", map[string]string{"file-index.bloom-filter.columns": "k", "file-index.bloom-filter.k.items": strconv.Itoa(perFile)}},
		{"plain", map[string]string{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fsys, err := localfs.New(b.TempDir(), nil)
			require.NoError(b, err)
			defer fsys.Close()
			tbl := writeIndexedTable(b, fsys, "db.db/t", bc.opts, files, perFile)
			filter := paimon.WithFilter(predicate.Equal("k", key))
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

package paimon_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/fileindex"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// writeRangeIndexedTable creates an append table (id BIGINT, n BIGINT, r
// INT, s STRING) and commits files files: every file holds the extremes
// n = ±1000, r = 0 and 1000, s = "a" and "z" (so value statistics prune
// nothing inside those bounds), and file f alone holds n = 10f (negated
// for odd f), r = 10f and s = "m<f>", plus a NULL row.
func writeRangeIndexedTable(tb testing.TB, fsys *fstest.CountingFS, dir string, opts map[string]string, files int) *paimon.Table {
	tb.Helper()
	ctx := context.Background()
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("n", schema.BigIntType()).
		Column("r", schema.IntType()).
		Column("s", schema.StringType()).
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
		n := int64(10 * f)
		if f%2 == 1 {
			n = -n
		}
		for i, row := range [][]any{{int64(-1000), int32(0), "a"}, {n, int32(10 * f), fmt.Sprintf("m%d", f)}, {nil, nil, nil}, {int64(1000), int32(1000), "z"}} {
			b.Field(0).(*array.Int64Builder).Append(int64(f*10 + i))
			if row[0] == nil {
				b.Field(1).AppendNull()
				b.Field(2).AppendNull()
				b.Field(3).AppendNull()
				continue
			}
			b.Field(1).(*array.Int64Builder).Append(row[0].(int64))
			b.Field(2).(*array.Int32Builder).Append(row[1].(int32))
			b.Field(3).(*array.StringBuilder).Append(row[2].(string))
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

// TestFileIndexWrittenRange writes bsi (n) and range-bitmap (r, s)
// indexes, embedded and in separate files, and checks that equality, IN
// and range filters within every file's statistics read only the files
// the indexes admit, with the rows of an unindexed read.
func TestFileIndexWrittenRange(t *testing.T) {
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
			tbl := writeRangeIndexedTable(t, cfs, "db.db/t", map[string]string{
				"file-index.bsi.columns":               "n",
				"file-index.range-bitmap.columns":      "r,s",
				"file-index.range-bitmap.s.chunk-size": "8b",
				"file-index.in-manifest-threshold":     tc.threshold,
			}, 6)
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
				{predicate.Equal("n", int64(20)), 1, 1},
				{predicate.Equal("n", int64(-30)), 1, 1},
				{predicate.Equal("n", int64(25)), 0, 0},
				{predicate.And(predicate.GreaterThan("n", int64(15)), predicate.LessThan("n", int64(999))), 2, 2},
				{predicate.And(predicate.GreaterOrEqual("n", int64(-999)), predicate.LessOrEqual("n", int64(-30))), 2, 2},
				{predicate.In("n", int64(0), int64(40)), 2, 2},
				{predicate.And(predicate.GreaterThan("r", int32(5)), predicate.LessOrEqual("r", int32(30))), 3, 3},
				{predicate.Equal("r", int32(7)), 0, 0},
				{predicate.And(predicate.GreaterOrEqual("s", "m2"), predicate.LessThan("s", "m4")), 2, 2},
				{predicate.Equal("s", "m5"), 1, 1},
				{predicate.Equal("s", "m"), 0, 0},
				{predicate.IsNull("r"), 6, 6},
				{predicate.GreaterThan("r", int32(-1)), 6, 18},
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
					require.Equal(t, 6-c.files, plan.Stats.FilesPrunedByStats+plan.Stats.FilesPrunedByIndex, "%v", c.filter)
					prunedByIndex += plan.Stats.FilesPrunedByIndex
				}
			}
			if tc.embedded {
				require.GreaterOrEqual(t, prunedByIndex, 30)
			}
		})
	}
}

// TestFileIndexWrittenPrimaryKey: the primary-key writer indexes the value
// columns of its data files in file order (Java KeyValueDataFileWriter),
// embedded or in a separate file, and leaves changelog files unindexed.
func TestFileIndexWrittenPrimaryKey(t *testing.T) {
	ctx := context.Background()
	for _, threshold := range []string{"64kb", "1b"} {
		t.Run(threshold, func(t *testing.T) {
			fsys, err := localfs.New(t.TempDir(), nil)
			require.NoError(t, err)
			defer fsys.Close()
			s, err := schema.NewSchemaBuilder().
				Column("id", schema.BigIntType().NotNull()).
				Column("n", schema.BigIntType()).
				Column("s", schema.StringType()).
				PrimaryKey("id").
				Options(map[string]string{
					"bucket":                           "1",
					"changelog-producer":               "input",
					"file-index.bsi.columns":           "n",
					"file-index.range-bitmap.columns":  "s,id",
					"file-index.in-manifest-threshold": threshold,
				}).Build()
			require.NoError(t, err)
			tbl, err := paimon.CreateTable(ctx, fsys, "db.db/pk", s)
			require.NoError(t, err)
			w, err := tbl.NewWriter(nil)
			require.NoError(t, err)
			defer w.Close(ctx)
			b := array.NewRecordBuilder(memcheck.New(), w.ArrowSchema())
			// Written out of key order: the file holds ids 0..99 sorted.
			for i := range 100 {
				id := int64((i * 37) % 100)
				b.Field(0).(*array.Int64Builder).Append(id)
				if id%10 == 0 {
					b.Field(1).AppendNull()
				} else {
					b.Field(1).(*array.Int64Builder).Append(id - 50)
				}
				b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("s%02d", id))
			}
			rec := b.NewRecordBatch()
			require.NoError(t, w.Write(ctx, rec))
			rec.Release()
			b.Release()
			msgs, err := w.PrepareCommit(ctx)
			require.NoError(t, err)
			require.Len(t, msgs, 1)
			require.NotEmpty(t, msgs[0].ChangelogFiles)
			for _, f := range msgs[0].ChangelogFiles {
				require.Nil(t, f.EmbeddedIndex)
				require.Empty(t, f.ExtraFiles)
			}
			require.Len(t, msgs[0].NewFiles, 1)
			f := msgs[0].NewFiles[0]
			raw := f.EmbeddedIndex
			if threshold == "1b" {
				require.Nil(t, raw)
				require.Equal(t, []string{f.FileName + ".index"}, f.ExtraFiles)
				raw, err = fs.ReadFile(ctx, fsys, "db.db/pk/bucket-0/"+f.ExtraFiles[0])
				require.NoError(t, err)
			}
			idx, err := fileindex.Parse(raw)
			require.NoError(t, err)
			bsi := idx.Index("n", "bsi", schema.BigIntType())
			// Row i of the file is id i; n = i-50 except every tenth NULL.
			require.Equal(t, []uint32{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}, bsi.Test(fileindex.OpIsNull, nil).Bitmap().ToArray())
			require.Equal(t, []uint32{97, 98, 99}, bsi.Test(fileindex.OpGreaterThan, []any{int64(46)}).Bitmap().ToArray())
			require.Equal(t, []uint32{3}, bsi.Test(fileindex.OpEqual, []any{int64(-47)}).Bitmap().ToArray())
			rb := idx.Index("s", "range-bitmap", schema.StringType())
			require.Equal(t, []uint32{0, 1}, rb.Test(fileindex.OpLessThan, []any{"s02"}).Bitmap().ToArray())
			rid := idx.Index("id", "range-bitmap", schema.BigIntType())
			require.Equal(t, []uint32{42}, rid.Test(fileindex.OpEqual, []any{int64(42)}).Bitmap().ToArray())
			c, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
			require.NoError(t, err)
			_, err = c.Commit(ctx, 1, msgs)
			require.NoError(t, err)
			n, err := countRows(t, tbl.NewScan(paimon.WithFilter(predicate.GreaterThan("n", int64(46)))))
			require.NoError(t, err)
			require.Equal(t, int64(3), n)
		})
	}
}

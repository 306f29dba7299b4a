package interop_test

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveFileIndexWrittenByUs writes, with our append writer, the data of
// the golden file-index plans into tables with a bloom-filter index on s
// and bitmap indexes on c and c1, embedded in the manifest and in separate
// .index files; Java 1.4.2 and 2.0.0 then plan and read each filter. Java's
// plan must keep exactly the files ours keeps (for embedded indexes it
// decodes ours to prune), and its rows must be ours (for separate indexes
// its read decodes ours; a damaged index fails its read).
func TestLiveFileIndexWrittenByUs(t *testing.T) {
	runners := interop.RequireJava(t)
	ctx := context.Background()
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	defer fsys.Close()
	type row struct {
		id   int32
		s, c *string
		c1   *int32
	}
	str := func(s string) *string { return &s }
	i32 := func(v int32) *int32 { return &v }
	writes := [][]row{
		{{1, str("a"), str("red"), i32(1)}, {2, str("z"), str("blue"), i32(9)}, {3, str("q"), str("red"), i32(9)}},
		{{4, str("b"), str("green"), i32(2)}, {5, str("y"), str("blue"), i32(8)}, {6, str("y"), str("blue"), i32(2)}},
		{{7, str("c"), nil, i32(3)}, {8, str("x"), str("red"), i32(7)}, {9, nil, nil, nil}},
		{{10, str("d"), str("yellow"), i32(4)}, {11, str("w"), str("yellow"), i32(6)}},
	}
	filters := []string{`s = "q"`, `s = "m"`, `s = "y"`, `c = "green"`, `c = "purple"`, `c != "blue"`,
		`c is null`, `c is not null`, `c1 = 5`, `c1 = 7`, `c1 is null`, `id >= 5`}
	tables := map[string]string{"fi_embedded": "64kb", "fi_separate": "1b"}
	for name, threshold := range tables {
		s, err := paimon.NewSchemaBuilder().
			Column("id", schema.IntType().NotNull()).
			Column("s", schema.StringType()).
			Column("c", schema.StringType()).
			Column("c1", schema.IntType()).
			Options(map[string]string{
				"file-index.bloom-filter.columns": "s", "file-index.bloom-filter.s.items": "64",
				"file-index.bitmap.columns": "c,c1", "file-index.in-manifest-threshold": threshold,
			}).Build()
		require.NoError(t, err)
		tbl, err := paimon.CreateTable(ctx, fsys, "interop.db/"+name, s)
		require.NoError(t, err)
		c, err := tbl.NewCommit(&paimon.CommitOptions{User: "go"})
		require.NoError(t, err)
		for i, rows := range writes {
			w, err := tbl.NewWriter(nil)
			require.NoError(t, err)
			b := array.NewRecordBuilder(memory.DefaultAllocator, w.ArrowSchema())
			for _, r := range rows {
				b.Field(0).(*array.Int32Builder).Append(r.id)
				for j, v := range []*string{r.s, r.c} {
					if v == nil {
						b.Field(1 + j).AppendNull()
					} else {
						b.Field(1 + j).(*array.StringBuilder).Append(*v)
					}
				}
				if r.c1 == nil {
					b.Field(3).AppendNull()
				} else {
					b.Field(3).(*array.Int32Builder).Append(*r.c1)
				}
			}
			rec := b.NewRecordBatch()
			require.NoError(t, w.Write(ctx, rec))
			rec.Release()
			b.Release()
			msgs, err := w.PrepareCommit(ctx)
			require.NoError(t, err)
			_, err = c.Commit(ctx, int64(i+1), msgs)
			require.NoError(t, err)
			require.NoError(t, w.Close(ctx))
		}
	}
	for _, rn := range runners {
		rn.Timeout = 5 * time.Minute
		t.Run(rn.Name(), func(t *testing.T) {
			out := t.TempDir()
			var items []interop.BatchItem
			for name := range tables {
				for i, f := range filters {
					base := filepath.Join(out, name+"-"+filterName(i))
					items = append(items, interop.BatchItem{Out: base + ".jsonl",
						Args: []string{"dump", wh, "interop." + name, "--filter", f, "--planned-files", base + ".files"}})
				}
			}
			require.NoError(t, rn.Batch(ctx, items))
			prunedByIndex := 0
			for name := range tables {
				tbl, err := paimon.OpenTable(ctx, fsys, "interop.db/"+name, nil)
				require.NoError(t, err)
				for i, f := range filters {
					base := filepath.Join(out, name+"-"+filterName(i))
					p, err := harnessFilter(f, tbl.Schema().Fields)
					require.NoError(t, err)
					got, plan := goScan(ctx, t, tbl, paimon.WithFilter(p))
					prunedByIndex += plan.Stats.FilesPrunedByIndex
					wtCompare(t, "Java's read of "+name+" with "+f, got, readCanon(t, base+".jsonl"))
					var ours []string
					for _, s := range plan.Splits {
						for _, df := range s.Files {
							ours = append(ours, df.FileName)
						}
					}
					raw, err := os.ReadFile(base + ".files")
					require.NoError(t, err)
					var java []string
					for _, l := range strings.Fields(string(raw)) {
						java = append(java, path.Base(l))
					}
					slices.Sort(ours)
					slices.Sort(java)
					require.Equal(t, java, ours, "%s with %s: files Java's plan keeps", name, f)
				}
			}
			require.Positive(t, prunedByIndex)
		})
	}
}

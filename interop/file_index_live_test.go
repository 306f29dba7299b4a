package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveFileIndexWrittenByUs writes, with our append writer, the rows
// of the golden file-index plans (interop/plans/file-index-*.json) into
// tables with the plans' index options: a bloom-filter index on s, bitmap
// indexes on c and c1 (c1 asks for version 1, which we do not write), a
// bsi index on n and range-bitmap indexes on r and s (small chunk sizes,
// so the last file's dictionaries span several chunks), embedded in the
// manifest and in separate .index files. Java 1.4.2 and 2.0.0 then plan
// and read each of the plans' filters (equalities, ranges, IN, null
// tests). Java's plan must keep exactly the files ours keeps (for
// embedded indexes it decodes ours to prune), and its rows must be ours
// (for separate indexes its read decodes ours; a damaged index fails its
// read).
func TestLiveFileIndexWrittenByUs(t *testing.T) {
	runners := interop.RequireJava(t)
	ctx := context.Background()
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	defer fsys.Close()
	raw, err := os.ReadFile("plans/file-index-separate.json")
	require.NoError(t, err)
	var plan struct {
		Dumps []struct {
			Filter string `json:"filter"`
		} `json:"dumps"`
		Schema struct {
			Options map[string]string `json:"options"`
		} `json:"schema"`
		Ops []struct {
			Op   string           `json:"op"`
			Rows []map[string]any `json:"rows"`
		} `json:"ops"`
	}
	require.NoError(t, json.Unmarshal(raw, &plan))
	var filters []string
	for _, d := range plan.Dumps {
		filters = append(filters, d.Filter)
	}
	for _, typ := range []string{"bloom-filter", "bitmap", "bsi", "range-bitmap"} {
		require.Contains(t, plan.Schema.Options, "file-index."+typ+".columns")
	}
	tables := map[string]string{"fi_embedded": "64kb", "fi_separate": "1b"}
	for name, threshold := range tables {
		opts := map[string]string{}
		for k, v := range plan.Schema.Options {
			if strings.HasPrefix(k, "file-index.") {
				opts[k] = v
			}
		}
		opts["file-index.in-manifest-threshold"] = threshold
		s, err := schema.NewSchemaBuilder().
			Column("id", schema.IntType().NotNull()).
			Column("s", schema.StringType()).
			Column("c", schema.StringType()).
			Column("c1", schema.IntType()).
			Column("n", schema.BigIntType()).
			Column("r", schema.IntType()).
			Options(opts).Build()
		require.NoError(t, err)
		tbl, err := paimon.CreateTable(ctx, fsys, "interop.db/"+name, s)
		require.NoError(t, err)
		c, err := tbl.NewCommit(&paimon.CommitOptions{User: "go"})
		require.NoError(t, err)
		commits := 0
		for _, op := range plan.Ops {
			if op.Op != "write" {
				continue
			}
			w, err := tbl.NewWriter(nil)
			require.NoError(t, err)
			b := array.NewRecordBuilder(memcheck.New(), w.ArrowSchema())
			for _, r := range op.Rows {
				for j, f := range tbl.Schema().Fields {
					v, ok := r[f.Name]
					if !ok || v == nil {
						b.Field(j).AppendNull()
						continue
					}
					switch fb := b.Field(j).(type) {
					case *array.Int32Builder:
						fb.Append(int32(v.(float64)))
					case *array.Int64Builder:
						fb.Append(int64(v.(float64)))
					case *array.StringBuilder:
						fb.Append(v.(string))
					default:
						t.Fatalf("column %s: %T", f.Name, fb)
					}
				}
			}
			rec := b.NewRecordBatch()
			require.NoError(t, w.Write(ctx, rec))
			rec.Release()
			b.Release()
			msgs, err := w.PrepareCommit(ctx)
			require.NoError(t, err)
			commits++
			_, err = c.Commit(ctx, int64(commits), msgs)
			require.NoError(t, err)
			require.NoError(t, w.Close(ctx))
		}
		require.Equal(t, 5, commits)
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
			prunedByIndex, prunedByRange := 0, 0
			for name := range tables {
				tbl, err := paimon.OpenTable(ctx, fsys, "interop.db/"+name, nil)
				require.NoError(t, err)
				for i, f := range filters {
					base := filepath.Join(out, name+"-"+filterName(i))
					p, err := harnessFilter(f, tbl.Schema().Fields)
					require.NoError(t, err)
					got, plan := goScan(ctx, t, tbl, paimon.WithFilter(p))
					prunedByIndex += plan.Stats.FilesPrunedByIndex
					if strings.HasPrefix(f, "n ") || strings.HasPrefix(f, "r ") || strings.HasPrefix(f, "s >") || strings.HasPrefix(f, "s <") {
						prunedByRange += plan.Stats.FilesPrunedByIndex // bsi and range-bitmap
					}
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
			require.Positive(t, prunedByRange)
		})
	}
}

// TestLiveFileIndexPrimaryKeyWrittenByUs writes a primary-key table with
// our writer, with a bsi index on n and range-bitmap indexes on r and s
// embedded in each data file's meta (Java KeyValueDataFileWriter indexes
// the value columns), and has Java 1.4.2 and 2.0.0 plan and read filters:
// its rows must be ours for every filter, and it never keeps a file ours
// drops.
//
// Java's plan of this table (deduplicate, no deletion vectors, level-0
// files) keeps every file even for an equality no file's index admits
// (n = 25): it does not prune it by the embedded indexes here, so this
// test cannot show Java decoding our primary-key indexes; the append test
// above shows it decodes the same index bytes.
func TestLiveFileIndexPrimaryKeyWrittenByUs(t *testing.T) {
	runners := interop.RequireJava(t)
	ctx := context.Background()
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	defer fsys.Close()
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.IntType().NotNull()).
		Column("n", schema.BigIntType()).
		Column("r", schema.IntType()).
		Column("s", schema.StringType()).
		PrimaryKey("id").
		Options(map[string]string{
			"bucket": "1", "file-index.bsi.columns": "n", "file-index.range-bitmap.columns": "r,s",
			"file-index.in-manifest-threshold": "64kb",
		}).Build()
	require.NoError(t, err)
	tbl, err := paimon.CreateTable(ctx, fsys, "interop.db/fi_pk", s)
	require.NoError(t, err)
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: "go"})
	require.NoError(t, err)
	// Write f holds n ±1000, r 0 and 1000, s "a" and "z", n = 10f (-20 for
	// f = 2), r = 10f, s = "m<f>" and a NULL row.
	for f := 1; f <= 3; f++ {
		w, err := tbl.NewWriter(nil)
		require.NoError(t, err)
		b := array.NewRecordBuilder(memcheck.New(), w.ArrowSchema())
		n := int64(10 * f)
		if f == 2 {
			n = -n
		}
		for i, row := range [][]any{{int64(-1000), int32(0), "a"}, {n, int32(10 * f), fmt.Sprintf("m%d", f)}, nil, {int64(1000), int32(1000), "z"}} {
			b.Field(0).(*array.Int32Builder).Append(int32(f*10 + i))
			if row == nil {
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
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		b.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		_, err = c.Commit(ctx, int64(f), msgs)
		require.NoError(t, err)
		require.NoError(t, w.Close(ctx))
	}
	filters := []string{`n = 25`, `n = -20`, `n > 35`, `n is null`, `r = 7`, `r = 30`, `r < 10`,
		`s = "m"`, `s = "m2"`, `s > "m4"`}
	for _, rn := range runners {
		rn.Timeout = 5 * time.Minute
		t.Run(rn.Name(), func(t *testing.T) {
			out := t.TempDir()
			var items []interop.BatchItem
			for i, f := range filters {
				base := filepath.Join(out, filterName(i))
				items = append(items, interop.BatchItem{Out: base + ".jsonl",
					Args: []string{"dump", wh, "interop.fi_pk", "--filter", f, "--planned-files", base + ".files"}})
			}
			require.NoError(t, rn.Batch(ctx, items))
			for i, f := range filters {
				base := filepath.Join(out, filterName(i))
				p, err := harnessFilter(f, tbl.Schema().Fields)
				require.NoError(t, err)
				got, plan := goScan(ctx, t, tbl, paimon.WithFilter(p))
				wtCompare(t, "Java's read of fi_pk with "+f, got, readCanon(t, base+".jsonl"))
				ours := map[string]bool{}
				for _, s := range plan.Splits {
					for _, df := range s.Files {
						ours[df.FileName] = true
					}
				}
				raw, err := os.ReadFile(base + ".files")
				require.NoError(t, err)
				java := strings.Fields(string(raw))
				for _, l := range java {
					require.True(t, ours[path.Base(l)], "%s: Java keeps %s, ours does not", f, l)
				}
			}
		})
	}
}

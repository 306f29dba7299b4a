package testtable_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/internal/testtable"
)

// TestLiveJavaReadsBuilderTables has Java Paimon read tables the builder
// wrote and compares its dumps with the input rows (PAIMON_INTEROP=1 only):
// an unaware-bucket partitioned table of many types over two commits, and a
// fixed-bucket one. Java also lists the files through its $files system
// table, which decodes every DataFileMeta, statistics included.
func TestLiveJavaReadsBuilderTables(t *testing.T) {
	runners := interop.RequireJava(t)
	ctx := context.Background()
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)

	allTypes := newSchema(t, func(b *schema.SchemaBuilder) {
		b.Column("p", schema.StringType()).
			Column("id", schema.BigIntType().NotNull()).
			Column("b", schema.BooleanType()).
			Column("i8", schema.TinyIntType()).
			Column("i16", schema.SmallIntType()).
			Column("i32", schema.IntType()).
			Column("f32", schema.FloatType()).
			Column("f64", schema.DoubleType()).
			Column("d5", schema.DecimalType(5, 2)).
			Column("d18", schema.DecimalType(18, 4)).
			Column("d38", schema.DecimalType(38, 10)).
			Column("s", schema.StringType()).
			Column("c", schema.CharType(3)).
			Column("bin", schema.BytesType()).
			Column("day", schema.DateType()).
			Column("tm", schema.TimeType(3)).
			Column("ts3", schema.TimestampType(3)).
			Column("ts6", schema.TimestampType(6)).
			Column("ltz", schema.TimestampLTZType(6)).
			Column("arr", schema.ArrayType(schema.IntType())).
			Column("m", schema.MapType(schema.StringType().NotNull(), schema.DoubleType())).
			Column("r", schema.RowType(schema.NewField(100, "x", schema.IntType()), schema.NewField(101, "y", schema.StringType()))).
			PartitionKeys("p")
	})
	row := func(p string, id int64) []any {
		if id%5 == 4 {
			return []any{p, id, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
		}
		return []any{p, id, id%2 == 0, int8(id), int16(-id), int32(id * 1000), float32(id) / 4, float64(id) * 1.5,
			dec(id, 5, 2), dec(id*12345, 18, 4), dec(id*987654321, 38, 10),
			"string value number " + string(rune('A'+id)), "abc", []byte{byte(id), 0xff}, int32(19000 + id), int32(id * 1000),
			data.Timestamp{Millis: 1_700_000_000_000 + id}, data.TimestampFromMicros(1_700_000_000_000_000 + id), data.TimestampFromMicros(-id),
			[]any{int32(id), nil}, data.Map{Keys: []any{"k"}, Values: []any{float64(id)}}, []any{int32(id), "y"}}
	}
	fixed := newSchema(t, func(b *schema.SchemaBuilder) {
		b.Column("k", schema.IntType()).Column("v", schema.StringType()).Options(map[string]string{"bucket": "2", "bucket-key": "k"})
	})

	type table struct {
		name    string
		schema  *schema.TableSchema
		commits [][]testtable.DataFile
		rows    [][]any
	}
	var tables []table
	{
		tb := table{name: "all_types", schema: allTypes}
		for c, parts := range [][]string{{"a", "b"}, {"a", "b c/d"}} {
			var files []testtable.DataFile
			for pi, p := range parts {
				var rows [][]any
				for i := range 12 {
					rows = append(rows, row(p, int64(c*100+pi*20+i)))
				}
				tb.rows = append(tb.rows, rows...)
				files = append(files, testtable.DataFile{Partition: []any{p}, Records: []arrow.RecordBatch{record(t, nil, allTypes.Fields, rows)}})
			}
			tb.commits = append(tb.commits, files)
		}
		tables = append(tables, tb)
	}
	{
		tb := table{name: "fixed_bucket", schema: fixed}
		for c := range 2 {
			var files []testtable.DataFile
			for bucket := range 2 {
				rows := [][]any{{int32(c*10 + bucket), "v"}, {int32(c*10 + bucket + 2), nil}}
				tb.rows = append(tb.rows, rows...)
				files = append(files, testtable.DataFile{Bucket: bucket, Records: []arrow.RecordBatch{record(t, nil, fixed.Fields, rows)}})
			}
			tb.commits = append(tb.commits, files)
		}
		tables = append(tables, tb)
	}

	// Write the tables, then have every runner read them in one batch (one
	// JVM start per runner).
	type check struct {
		want     []string
		snapshot int // rows at snapshot 1
		files    int
	}
	checks := map[string]check{}
	for _, tb := range tables {
		tbl, err := testtable.Create(ctx, fsys, "interop.db/"+tb.name, tb.schema)
		require.NoError(t, err)
		c := check{snapshot: len(tb.rows) / 2}
		for _, files := range tb.commits {
			_, err := tbl.Commit(ctx, files...)
			require.NoError(t, err)
			c.files += len(files)
		}
		for _, r := range tb.rows {
			c.want = append(c.want, canonLine(t, tb.schema.Fields, r))
		}
		sort.Strings(c.want)
		checks[tb.name] = c
	}
	for _, r := range runners {
		t.Run(r.Name(), func(t *testing.T) {
			out := t.TempDir()
			var items []interop.BatchItem
			for _, tb := range tables {
				name := "interop." + tb.name
				items = append(items,
					interop.BatchItem{Out: filepath.Join(out, tb.name+"-all"), Args: interop.DumpArgs(wh, name, interop.DumpOptions{})},
					interop.BatchItem{Out: filepath.Join(out, tb.name+"-snapshot-1"), Args: interop.DumpArgs(wh, name, interop.DumpOptions{Snapshot: 1})},
					interop.BatchItem{Out: filepath.Join(out, tb.name+"-files"), Args: []string{"meta", wh, name, "files"}},
				)
			}
			require.NoError(t, r.Batch(ctx, items))
			for _, tb := range tables {
				c := checks[tb.name]
				require.Empty(t, canon.Compare(c.want, readLines(t, filepath.Join(out, tb.name+"-all"))), tb.name)
				require.Len(t, readLines(t, filepath.Join(out, tb.name+"-snapshot-1")), c.snapshot, tb.name)
				require.Len(t, readLines(t, filepath.Join(out, tb.name+"-files")), c.files, tb.name)
			}
		})
	}
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	lines, err := canon.ReadLines(f)
	require.NoError(t, err)
	return lines
}

package mergetree_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

const (
	benchRuns      = 5
	benchRunRows   = 2_000_000
	benchBatchRows = 4096
)

// benchBucket is a bucket of benchRuns overlapping sorted runs of about
// benchRunRows rows each, built once: BIGINT key over [0, 5M) (each key is
// in a run with probability 0.4, so most keys have versions in two runs),
// then INT, STRING and DOUBLE values; 5% of the rows are deletes.
type benchBucket struct {
	ts    *schema.TableSchema
	files []manifest.DataFileMeta
	table *memTable
	rows  int64
}

var (
	benchOnce sync.Once
	bench     *benchBucket
)

func loadBench(b *testing.B) *benchBucket {
	benchOnce.Do(func() {
		ts := buildSchema(b, schema.NewSchemaBuilder().
			Column("k", schema.BigIntType()).Column("v", schema.IntType()).
			Column("s", schema.StringType()).Column("d", schema.DoubleType()).PrimaryKey("k"))
		bb := &benchBucket{ts: ts, table: newMemTable(ts)}
		sc, err := schema.ToArrowSchema(mergetree.ReadFields(ts))
		require.NoError(b, err)
		r := rand.New(rand.NewPCG(1, 1))
		keySpace := int64(benchRunRows * 5 / 2)
		seq := int64(0)
		for run := range benchRuns {
			f := &memFile{}
			builder := array.NewRecordBuilder(memory.DefaultAllocator, sc)
			var first, last int64 = -1, -1
			n := 0
			flush := func() {
				f.batches = append(f.batches, builder.NewRecordBatch())
				n = 0
			}
			for k := int64(0); k < keySpace; k++ {
				if r.Float64() >= 0.4 {
					continue
				}
				if first < 0 {
					first = k
				}
				last = k
				seq++
				kind := data.Insert
				if r.IntN(20) == 0 {
					kind = data.Delete
				}
				builder.Field(0).(*array.Int64Builder).Append(seq)
				builder.Field(1).(*array.Int8Builder).Append(int8(kind))
				builder.Field(2).(*array.Int64Builder).Append(k)
				builder.Field(3).(*array.Int32Builder).Append(int32(k))
				builder.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("v-%07d", k%10_000_000))
				builder.Field(5).(*array.Float64Builder).Append(float64(k) / 3)
				bb.rows++
				if n++; n == benchBatchRows {
					flush()
				}
			}
			if n > 0 {
				flush()
			}
			builder.Release()
			f.meta = manifest.DataFileMeta{
				FileName: fmt.Sprintf("run-%d", run),
				MinKey:   serializedKey(b, keyTypes(ts), []any{first}),
				MaxKey:   serializedKey(b, keyTypes(ts), []any{last}),
			}
			bb.table.files[f.meta.FileName] = f
			bb.files = append(bb.files, f.meta)
		}
		bench = bb
	})
	return bench
}

// BenchmarkMerge merges the bucket with the deduplicate engine, through the
// Selector fast path and through the value path, and passes one run alone
// (a single-run section). rows/s counts input rows.
func BenchmarkMerge(b *testing.B) {
	bb := loadBench(b)
	cases := []struct {
		name  string
		merge mergefunc.Factory
		files []manifest.DataFileMeta
		rows  int64
	}{
		{"dedup-selector", dedupFactory(), bb.files, bb.rows},
		{"dedup-values", hiddenDedupFactory(), bb.files, bb.rows},
		{"single-run", dedupFactory(), bb.files[:1], int64(len(bb.table.files[bb.files[0].FileName].batches)) * benchBatchRows},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			mem := memcheck.New()
			opts := &mergetree.Options{Schema: bb.ts, Merge: c.merge, Allocator: mem}
			b.ReportAllocs()
			b.ResetTimer()
			var out int64
			for range b.N {
				out = 0
				for rec, err := range mergetree.Read(context.Background(), c.files, bb.table.open, opts) {
					if err != nil {
						b.Fatal(err)
					}
					out += rec.NumRows()
					rec.Release()
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(c.rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(out), "out-rows")
			mem.AssertSize(b, 0)
		})
	}
}

package datafile_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// TestParquetDictionaryChoice checks the columns written PLAIN from the
// start (plainColumns): nearly unique columns in a sample of the file's
// first rows, as parquet-java's first-page check ends up writing them
// (bench.scan's Java files: id, price, name, amount and ts PLAIN, qty and
// day dictionary-encoded), while columns of few distinct values keep their
// dictionary; a first batch too small to judge decides nothing. The values
// and row counts read back as written, on one goroutine and on several.
func TestParquetDictionaryChoice(t *testing.T) {
	fields := []schema.DataField{
		col("id", schema.BigIntType().NotNull()),
		col("qty", schema.IntType()),
		col("price", schema.DoubleType()),
		col("name", schema.StringType()),
		col("amount", schema.DecimalType(18, 2)),
		col("ts", schema.TimestampType(6)),
		col("cat", schema.StringType()),
		col("mostly", schema.BigIntType()), // 90% distinct: below the threshold
	}
	ts := tableSchema(t, nil, fields...)
	row := func(i int) []any {
		var qty any = int32(i * 7919 % 1000)
		if i%20 == 0 {
			qty = nil
		}
		mostly := int64(i)
		if i%10 == 0 {
			mostly = 0
		}
		return []any{
			int64(i), qty, float64(i) * 1.25, fmt.Sprintf("user-%08d", i*7919%1_000_003),
			data.NewDecimalFromInt64(int64(i)*37, 18, 2), data.TimestampFromMicros(1_735_689_600_000_000 + int64(i)*1000), fmt.Sprint("c", i%50), mostly,
		}
	}
	for _, tc := range []struct {
		name       string
		firstBatch int // rows of the batch that opens the file
		wantPlain  []bool
	}{
		{"sampled", 20_000, []bool{true, false, true, true, true, true, false, false}},
		{"first batch too small", 1000, make([]bool, len(fields))},
	} {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", tc.name, workers), func(t *testing.T) {
				ctx := context.Background()
				mem := memcheck.New()
				defer mem.AssertSize(t, 0)
				fsys := memfs.New(nil)
				w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: bucketDir, Schema: ts, Allocator: mem, Workers: workers})
				require.NoError(t, err)
				const total = 30_000
				for from := 0; from < total; {
					n := tc.firstBatch
					if from > 0 {
						n = total - from
					}
					rows := make([][]any, n)
					for i := range rows {
						rows[i] = row(from + i)
					}
					require.NoError(t, w.Write(ctx, record(t, nil, fields, rows)))
					from += n
				}
				metas, err := w.Close(ctx)
				require.NoError(t, err)
				require.Len(t, metas, 1)
				path := bucketDir + "/" + metas[0].FileName
				raw, err := fs.ReadFile(ctx, fsys, path)
				require.NoError(t, err)
				r, err := file.NewParquetReader(bytes.NewReader(raw))
				require.NoError(t, err)
				defer r.Close()
				for rg := 0; rg < r.NumRowGroups(); rg++ {
					md := r.MetaData().RowGroup(rg)
					for c := range fields {
						cc, err := md.ColumnChunk(c)
						require.NoError(t, err)
						dict := cc.HasDictionaryPage()
						for _, e := range cc.Encodings() {
							dict = dict || e == pq.Encodings.RLEDict || e == pq.Encodings.PlainDict
						}
						require.Equal(t, tc.wantPlain[c], !dict, "row group %d column %s encodings %v", rg, fields[c].Name, cc.Encodings())
					}
				}
				got := readRows(t, fsys, path, ts.Fields)
				require.Len(t, got, total)
				for _, i := range []int{0, 1, 4095, 20_000, total - 1} {
					require.Equal(t, fmt.Sprint(row(i)), fmt.Sprint(got[i]), "row %d", i)
				}
			})
		}
	}
}

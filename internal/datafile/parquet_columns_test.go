package datafile_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// TestColumnFileWriterSameBytes writes the same batches with the columns
// encoded on one goroutine (pqarrow's FileWriter) and on several
// (columnFileWriter): every file, its statistics in the DataFileMeta and
// the points where files roll and row groups are cut must be identical,
// byte for byte, whatever the nulls (none, some, all in a batch), slices
// with offsets, types and row-group limits.
func TestColumnFileWriterSameBytes(t *testing.T) {
	flat := []schema.DataField{
		col("id", schema.BigIntType().NotNull()),
		col("b", schema.BooleanType()),
		col("i8", schema.TinyIntType()),
		col("i16", schema.SmallIntType()),
		col("i32", schema.IntType()),
		col("f", schema.FloatType()),
		col("d", schema.DoubleType()),
		col("dec", schema.DecimalType(10, 2)),
		col("bigdec", schema.DecimalType(30, 4)),
		col("s", schema.StringType()),
		col("req", schema.StringType().NotNull()),
		col("bin", schema.BytesType()),
		col("day", schema.DateType()),
		col("ts3", schema.TimestampType(3)),
		col("ts6", schema.TimestampType(6)),
		col("nul", schema.IntType()),
	}
	row := func(i int) []any {
		null := func(v any, every int) any {
			if every > 0 && i%every == 0 {
				return nil
			}
			return v
		}
		id := int64(i)
		// Column "s" has no NULL in the first 3,000 rows, "nul" only NULLs.
		sEvery := 0
		if i >= 3000 {
			sEvery = 7
		}
		return []any{
			id,
			null(i%3 == 0, 5),
			null(int8(i%100), 11),
			null(int16(i*7), 13),
			null(int32(i*7919%100003), 3),
			null(float32(i)/3, 17),
			null(math.Sin(float64(i)), 19),
			null(data.NewDecimalFromInt64(int64(i*31), 10, 2), 23),
			null(data.NewDecimalFromInt64(int64(i)*1_000_003, 30, 4), 2),
			null(fmt.Sprintf("s%07d", i*37%10007), sEvery),
			fmt.Sprintf("%0*d", 60+i%40, i),
			null([]byte(fmt.Sprint(i)), 29),
			null(int32(19000+i%400), 31),
			null(data.Timestamp{Millis: int64(i) * 1000}, 37),
			null(data.Timestamp{Millis: int64(i + 10), NanoOfMilli: int32(i%1000+1000) % 1000 * 1000}, 41),
			nil,
		}
	}
	nested := append(append([]schema.DataField(nil), flat[:3]...), col("arr", schema.ArrayType(schema.IntType())))
	nestedRow := func(i int) []any {
		r := row(i)[:3]
		var arr any = []any{int32(i), nil}
		if i%9 == 0 {
			arr = nil
		}
		return append(r, arr)
	}
	for _, tc := range []struct {
		name     string
		fields   []schema.DataField
		row      func(int) []any
		opts     map[string]string
		rgRows   int64
		rows     int
		minFiles int
	}{
		{"rolling", flat, row, map[string]string{"file.compression": "none", "target-file-size": "1mb", "parquet.block.size": "300000"}, 0, 30_000, 2},
		{"row-group rows", flat, row, map[string]string{"file.compression": "snappy"}, 777, 5_000, 1},
		{"zstd", flat, row, nil, 0, 6_000, 1},
		{"nested falls back", nested, nestedRow, nil, 0, 4_000, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := tableSchema(t, tc.opts, tc.fields...)
			write := func(workers int) (*memfs.FS, []manifest.DataFileMeta) {
				ctx := context.Background()
				mem := memcheck.New()
				defer mem.AssertSize(t, 0)
				fsys := memfs.New(nil)
				w, err := datafile.NewWriter(datafile.Options{
					FS: fsys, Dir: bucketDir, Schema: ts, Allocator: mem, RowGroupRows: tc.rgRows,
					Now: func() time.Time { return clock }, Workers: workers,
				})
				require.NoError(t, err)
				for from := 0; from < tc.rows; {
					n := min(tc.rows-from, 1+from%1700)
					rows := make([][]any, 0, n+10)
					for i := range n + 10 {
						rows = append(rows, tc.row(from-5+i))
					}
					rec := record(t, nil, ts.Fields, rows)
					// A slice with an offset into its buffers.
					part := rec.NewSlice(5, int64(5+n))
					require.NoError(t, w.Write(ctx, part))
					part.Release()
					from += n
				}
				metas, err := w.Close(ctx)
				require.NoError(t, err)
				return fsys, metas
			}
			serialFS, serial := write(1)
			parFS, par := write(4)
			require.GreaterOrEqual(t, len(serial), tc.minFiles)
			t.Logf("%d files", len(serial))
			require.Len(t, par, len(serial))
			ctx := context.Background()
			for i := range serial {
				a, b := serial[i], par[i]
				ra, err := fs.ReadFile(ctx, serialFS, bucketDir+"/"+a.FileName)
				require.NoError(t, err)
				rb, err := fs.ReadFile(ctx, parFS, bucketDir+"/"+b.FileName)
				require.NoError(t, err)
				require.True(t, bytes.Equal(ra, rb), "file %d differs", i)
				b.FileName = a.FileName
				require.Equal(t, a, b, "file %d", i)
			}
			// The files read back as written.
			var got int
			for _, m := range par {
				got += len(readRows(t, parFS, bucketDir+"/"+m.FileName, ts.Fields))
			}
			require.Equal(t, tc.rows, got)
		})
	}
}

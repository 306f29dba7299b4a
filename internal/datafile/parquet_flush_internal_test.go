package datafile

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/stretchr/testify/require"
)

// TestFlushLastPages checks what flushLastPages relies on, for every flat
// type, with and without dictionaries: pageBuffered holds for a column
// whose page holds values and no dictionary, and not once the page is
// flushed (so no empty page is ever written), nor for a page of NULLs
// alone or a dictionary column; and the file is byte for byte what
// pqarrow's writer makes of the same batches, cut into the same row groups.
func TestFlushLastPages(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "bigdec", Type: &arrow.Decimal128Type{Precision: 30, Scale: 4}, Nullable: true},
		{Name: "nul", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	batch := func(from, n int) arrow.RecordBatch {
		var rows []string
		for i := from; i < from+n; i++ {
			v := func(s string) string {
				if i%7 == 3 {
					return "null"
				}
				return s
			}
			rows = append(rows, fmt.Sprintf(`{"i8": %s, "i16": %s, "i32": %s, "i64": %d, "f32": %s, "f64": %s, "b": %s,`+
				` "s": %s, "bin": %s, "d": %s, "ts": %s, "dec": %s, "bigdec": %s, "nul": null}`,
				v(fmt.Sprint(i%100)), v(fmt.Sprint(i%30000)), v(fmt.Sprint(i*7919)), i, v(fmt.Sprint(float32(i)/3)),
				v(fmt.Sprint(float64(i)/7)), v(fmt.Sprint(i%3 == 0)), v(fmt.Sprintf("%q", fmt.Sprint("v", i*37))),
				v(`"`+"AQI="+`"`), v(fmt.Sprint(19000+i%50)), v(fmt.Sprint(int64(i)*1000003)),
				v(fmt.Sprintf(`"%d.%02d"`, i, i%100)), v(fmt.Sprintf(`"%d.0001"`, i*1000))))
		}
		rec, _, err := array.RecordFromJSON(memcheck.New(), sc, strings.NewReader("["+strings.Join(rows, ",")+"]"))
		require.NoError(t, err)
		return rec
	}
	// With 1 MiB pages no page is flushed before the row group closes;
	// with 2 KiB pages some columns flush one at the very end of a batch
	// (i64's 300 values are 2,400 bytes), leaving nothing buffered.
	for _, tc := range []struct {
		dict     bool
		pageSize int64
	}{{false, 1 << 20}, {true, 1 << 20}, {false, 2048}, {true, 2048}} {
		dict := tc.dict
		t.Run(fmt.Sprintf("dictionary=%v,page=%d", dict, tc.pageSize), func(t *testing.T) {
			props := pq.NewWriterProperties(pq.WithDictionaryDefault(dict), pq.WithCompression(compress.Codecs.Zstd),
				pq.WithStoreDecimalAsInteger(true), pq.WithDataPageSize(tc.pageSize))
			arrowProps := pqarrow.NewArrowWriterProperties()
			var got, want bytes.Buffer
			c, err := newColumnFileWriter(sc, &got, props, arrowProps, 3)
			require.NoError(t, err)
			ref, err := pqarrow.NewFileWriter(sc, &want, props, arrowProps)
			require.NoError(t, err)
			for g, n := range []int{300, 41, 1000} {
				if g > 0 {
					require.NoError(t, c.NewBufferedRowGroupChecked())
					require.NoError(t, ref.NewBufferedRowGroupChecked())
				}
				rec := batch(g*10_000, n)
				require.NoError(t, c.WriteBuffered(rec))
				require.NoError(t, ref.WriteBuffered(rec))
				rec.Release()
				if g > 0 {
					continue
				}
				// The first row group: look at every column before and
				// after the flush.
				buffered := make([]bool, sc.NumFields())
				for i, f := range sc.Fields() {
					cw, err := c.rgw.Column(i)
					require.NoError(t, err)
					buffered[i] = pageBuffered(cw)
					_, isDict := cw.CurrentEncoder().(interface{ NumEntries() int })
					switch {
					case f.Name == "nul", isDict:
						require.False(t, buffered[i], f.Name)
					case !dict && tc.pageSize == 1<<20:
						require.True(t, buffered[i], f.Name)
					}
				}
				require.Contains(t, buffered, true)
				require.NoError(t, c.flushLastPages())
				for i, f := range sc.Fields() {
					cw, err := c.rgw.Column(i)
					require.NoError(t, err)
					require.False(t, pageBuffered(cw), "%s still buffered after the flush", f.Name)
				}
				require.NoError(t, c.flushLastPages()) // nothing left: no empty page either
			}
			require.NoError(t, c.Close())
			require.NoError(t, ref.Close())
			require.True(t, bytes.Equal(got.Bytes(), want.Bytes()), "the file differs from pqarrow's")
		})
	}
}

package parquet_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

const benchRows = 1_000_000

func benchFields() []schema.DataField {
	return []schema.DataField{
		{ID: 0, Name: "id", Type: schema.BigIntType().NotNull()},
		{ID: 1, Name: "i", Type: schema.IntType()},
		{ID: 2, Name: "d", Type: schema.DoubleType()},
		{ID: 3, Name: "s", Type: schema.StringType()},
		{ID: 4, Name: "ts", Type: schema.TimestampType(6)},
		{ID: 5, Name: "dec", Type: schema.DecimalType(18, 4)},
		{ID: 6, Name: "b", Type: schema.BooleanType()},
	}
}

// writeFile writes rows rows of fields with pqarrow, zstd, in batches.
func writeFile(tb testing.TB, fields []schema.DataField, rows int, props ...pq.WriterProperty) []byte {
	tb.Helper()
	sc, err := schema.ToArrowSchema(fields)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	wp := pq.NewWriterProperties(append([]pq.WriterProperty{pq.WithCompression(compress.Codecs.Zstd)}, props...)...)
	w, err := pqarrow.NewFileWriter(sc, &buf, wp, pqarrow.DefaultWriterProps())
	if err != nil {
		tb.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for base := 0; base < rows; base += 65536 {
		n := min(65536, rows-base)
		for k := 0; k < n; k++ {
			i := base + k
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			if i%10 == 0 {
				b.Field(1).AppendNull()
			} else {
				b.Field(1).(*array.Int32Builder).Append(int32(i * 7))
			}
			b.Field(2).(*array.Float64Builder).Append(float64(i) / 3)
			b.Field(3).(*array.StringBuilder).Append(fmt.Sprintf("value-%d", i%5000))
			b.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000_000 + int64(i)*1_000))
			b.Field(5).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i) * 12345))
			b.Field(6).(*array.BooleanBuilder).Append(i%3 == 0)
		}
		rec := b.NewRecordBatch()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

var (
	benchOnce sync.Once
	benchData []byte
)

func benchFile(b *testing.B) []byte {
	benchOnce.Do(func() { benchData = writeFile(b, benchFields(), benchRows) })
	return benchData
}

func BenchmarkReadParquet(b *testing.B) {
	data := benchFile(b)
	fields := benchFields()
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		r, err := parquet.Open(ctx, bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			b.Fatal(err)
		}
		var rows int64
		for rec, err := range r.Read(ctx, fields, &parquet.ReadRequest{BatchSize: 4096}) {
			if err != nil {
				b.Fatal(err)
			}
			rows += rec.NumRows()
			rec.Release()
		}
		if rows != benchRows {
			b.Fatalf("rows %d", rows)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkRawPqarrow(b *testing.B) {
	data := benchFile(b)
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		pr, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: 4096}, memory.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		rr, err := fr.GetRecordReader(ctx, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		var rows int64
		for rr.Next() {
			rows += rr.RecordBatch().NumRows()
		}
		rr.Release()
		if rows != benchRows {
			b.Fatalf("rows %d", rows)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

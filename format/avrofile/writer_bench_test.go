package avrofile_test

import (
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/avrofile"
)

// countingDiscard counts what the writer hands on.
type countingDiscard struct{ n int64 }

func (c *countingDiscard) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// BenchmarkWriter writes BenchmarkRead's rows (format/parquet's benchmark
// columns, benchRows of them in batches of 4096) with each codec.
func BenchmarkWriter(b *testing.B) {
	fields := benchFields()
	batches := readBatches(b, memory.NewGoAllocator(), benchFile(b, "null"), fields, 4096)
	defer func() {
		for _, r := range batches {
			r.Release()
		}
	}()
	for _, compression := range []string{"null", "snappy", "zstd"} {
		b.Run(compression, func(b *testing.B) {
			var out countingDiscard
			b.ResetTimer()
			for range b.N {
				writeBench(b, &out, batches, compression)
			}
			b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(out.n)/float64(b.N), "file-bytes")
		})
	}
}

func writeBench(b *testing.B, out io.Writer, batches []arrow.RecordBatch, compression string) {
	w, err := avrofile.NewWriter(out, benchFields(), &avrofile.WriterOptions{Compression: compression})
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range batches {
		if err := w.Write(r); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

package manifest_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// benchEntries builds n entries shaped like a primary-key table's manifest:
// a string-ish date partition, a two-column key, dense value stats over ten
// columns, creation time and file source set.
func benchEntries(n int) []manifest.ManifestEntry {
	counts := make([]*int64, 10)
	for i := range counts {
		counts[i] = i64(int64(i))
	}
	valueMin := row(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	valueMax := row(11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
	out := make([]manifest.ManifestEntry, n)
	for i := range out {
		out[i] = manifest.ManifestEntry{
			Kind:         manifest.FileKindAdd,
			Partition:    row(int32(20240000 + i%30)),
			Bucket:       int32(i % 16),
			TotalBuckets: 16,
			File: manifest.DataFileMeta{
				FileName:          fmt.Sprintf("data-5c0a4b7e-2f4d-4e0e-9a3f-%012d-0.parquet", i),
				FileSize:          int64(1<<20 + i),
				RowCount:          int64(10000 + i),
				MinKey:            row(int32(i), 1),
				MaxKey:            row(int32(i+1000), 2),
				KeyStats:          manifest.SimpleStats{MinValues: row(int32(i), 1), MaxValues: row(int32(i+1000), 2), NullCounts: counts[:2]},
				ValueStats:        manifest.SimpleStats{MinValues: valueMin, MaxValues: valueMax, NullCounts: counts},
				MinSequenceNumber: int64(i * 10000),
				MaxSequenceNumber: int64(i*10000 + 9999),
				SchemaID:          1,
				Level:             int32(i % 5),
				ExtraFiles:        []string{},
				CreationTime:      i64(1725608755039 + int64(i)),
				DeleteRowCount:    i64(int64(i % 7)),
				FileSource:        src(manifest.FileSource(i % 2)),
			},
		}
	}
	return out
}

const benchN = 10000

func BenchmarkReadManifest(b *testing.B) {
	var buf bytes.Buffer
	if err := manifest.WriteManifest(&buf, benchEntries(benchN), &manifest.WriteOptions{Compression: "zstd"}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		entries, err := manifest.ReadManifest(bytes.NewReader(data))
		if err != nil || len(entries) != benchN {
			b.Fatal(err, len(entries))
		}
	}
	b.ReportMetric(float64(benchN*b.N)/b.Elapsed().Seconds(), "entries/s")
}

func BenchmarkWriteManifest(b *testing.B) {
	entries := benchEntries(benchN)
	var buf bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		buf.Reset()
		if err := manifest.WriteManifest(&buf, entries, &manifest.WriteOptions{Compression: "zstd"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchN*b.N)/b.Elapsed().Seconds(), "entries/s")
	b.ReportMetric(float64(buf.Len()), "file-bytes")
}

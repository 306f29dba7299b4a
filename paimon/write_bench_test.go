package paimon_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// writeBenchBatches builds the 10M rows of the scan benchmark table (7 mixed
// columns, 5 day partitions) as 64Ki-row batches, once per process.
var writeBenchBatches = func() func() []arrow.RecordBatch {
	var recs []arrow.RecordBatch
	return func() []arrow.RecordBatch {
		if recs == nil {
			sc, err := schema.ToArrowSchema(scanSchema().Fields)
			if err != nil {
				panic(err)
			}
			for from := int64(0); from < scanRows; from += scanBatchRows {
				recs = append(recs, scanBatch(sc, from, min(scanBatchRows, scanRows-from)))
			}
		}
		return recs
	}
}()

// BenchmarkWrite10M appends the 10M-row table through TableWriter and one
// commit, into a fresh table on local disk per iteration.
//
//	go test ./paimon -run '^$' -bench 'Write10M|RawParquetWrite10M' -benchtime 3x
func BenchmarkWrite10M(b *testing.B) {
	recs := writeBenchBatches()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		fsys, err := localfs.New(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := testtable.Create(ctx, fsys, "t", scanSchema()); err != nil {
			b.Fatal(err)
		}
		tbl, err := paimon.OpenTable(ctx, fsys, "t", nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		w, err := tbl.NewWriter(nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, rec := range recs {
			if err := w.Write(ctx, rec); err != nil {
				b.Fatal(err)
			}
		}
		msgs, err := w.PrepareCommit(ctx)
		if err != nil {
			b.Fatal(err)
		}
		c, err := tbl.NewCommit(nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Commit(ctx, paimon.BatchCommitIdentifier, msgs); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = w.Close(ctx)
		fsys.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(scanRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkRawParquetWrite10M writes the same batches with the same Parquet
// writer settings (pqarrow, zstd level 1) into one file per day partition,
// with no Paimon logic: the limit of BenchmarkWrite10M.
func BenchmarkRawParquetWrite10M(b *testing.B) {
	recs := writeBenchBatches()
	// The writer settings internal/datafile uses for Paimon data files.
	props := pq.NewWriterProperties(pq.WithCompression(compress.Codecs.Zstd), pq.WithCompressionLevel(1),
		pq.WithAllocator(memcheck.New()), pq.WithStoreDecimalAsInteger(true), pq.WithRootName("paimon_schema"))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		var w *pqarrow.FileWriter
		var f *os.File
		var day arrow.Date32 = -1
		closeFile := func() {
			if w != nil {
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				w = nil
			}
		}
		for _, rec := range recs {
			d := rec.Column(6).(interface{ Value(int) arrow.Date32 }).Value(0)
			if d != day {
				closeFile()
				var err error
				if f, err = os.Create(filepath.Join(dir, fmt.Sprintf("day-%d.parquet", d))); err != nil {
					b.Fatal(err)
				}
				if w, err = pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.DefaultWriterProps()); err != nil {
					b.Fatal(err)
				}
				day = d
			}
			if err := w.WriteBuffered(rec); err != nil {
				b.Fatal(err)
			}
		}
		closeFile()
	}
	b.ReportMetric(float64(scanRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCommitWith1000Snapshots measures the latency of one append commit
// (one small data file) on a table that already has 1,000 snapshots. The
// table is generated once into the benchmark cache by 1,000 commits of this
// library and copied afresh for every run.
//
//	go test ./paimon -run '^$' -bench CommitWith1000Snapshots -benchtime 200x
func BenchmarkCommitWith1000Snapshots(b *testing.B) {
	ctx := context.Background()
	root := benchDir(b)
	const name = "commit-1000-v1"
	src := filepath.Join(root, name)
	if _, err := os.Stat(filepath.Join(src, "READY")); err != nil {
		if err := os.RemoveAll(src); err != nil {
			b.Fatal(err)
		}
		fsys, err := localfs.New(root, nil)
		if err != nil {
			b.Fatal(err)
		}
		ts := scanSchema()
		ts.Options = map[string]string{"write-only": "true"}
		if _, err := testtable.Create(ctx, fsys, name, ts); err != nil {
			b.Fatal(err)
		}
		tbl, err := paimon.OpenTable(ctx, fsys, name, nil)
		if err != nil {
			b.Fatal(err)
		}
		c, err := tbl.NewCommit(nil)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 1000; i++ {
			commitOne(b, ctx, tbl, c, int64(i))
		}
		if err := os.WriteFile(filepath.Join(src, "READY"), nil, 0o644); err != nil {
			b.Fatal(err)
		}
		fsys.Close()
	}
	dst := filepath.Join(b.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	fsys, err := localfs.New(filepath.Dir(dst), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer fsys.Close()
	tbl, err := paimon.OpenTable(ctx, fsys, name, nil)
	if err != nil {
		b.Fatal(err)
	}
	c, err := tbl.NewCommit(nil)
	if err != nil {
		b.Fatal(err)
	}
	// The data files are written outside the timer: only the commit counts.
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		msgs := writeOne(b, ctx, tbl, int64(10_000+i))
		b.StartTimer()
		if _, err := c.Commit(ctx, paimon.BatchCommitIdentifier, msgs); err != nil {
			b.Fatal(err)
		}
	}
}

func writeOne(b *testing.B, ctx context.Context, tbl *paimon.Table, row int64) []paimon.CommitMessage {
	sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
	if err != nil {
		b.Fatal(err)
	}
	rec := scanBatch(sc, row, 10)
	defer rec.Release()
	w, err := tbl.NewWriter(nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(ctx, rec); err != nil {
		b.Fatal(err)
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		b.Fatal(err)
	}
	return msgs
}

func commitOne(b *testing.B, ctx context.Context, tbl *paimon.Table, c *paimon.TableCommit, row int64) {
	if _, err := c.Commit(ctx, paimon.BatchCommitIdentifier, writeOne(b, ctx, tbl, row)); err != nil {
		b.Fatal(err)
	}
}

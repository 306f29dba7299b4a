package mergetree_test

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// benchRun is one sorted run written as a zstd Parquet data file in the
// thin KeyValue layout (_SEQUENCE_NUMBER, _VALUE_KIND, value fields).
type benchRun struct {
	meta manifest.DataFileMeta
	data []byte
}

// writeBenchRuns writes runs sorted runs of rows distinct keys each, drawn
// from a key space of 3×rows so that the runs overlap heavily (about 70% of
// a run's keys appear in another run).
func writeBenchRuns(b *testing.B, ts *schema.TableSchema, runs, rows int) []benchRun {
	b.Helper()
	fields := mergetree.ReadFields(ts)
	sc, err := schema.ToArrowSchema(fields)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(20261202, 5))
	props := pq.NewWriterProperties(pq.WithCompression(compress.Codecs.Zstd), pq.WithMaxRowGroupLength(256<<10))
	var out []benchRun
	seq := int64(0)
	for r := 0; r < runs; r++ {
		// A sorted sample of rows keys out of 3*rows.
		keys := make([]int64, 0, rows)
		space := int64(3 * rows)
		need := rows
		for k := int64(0); k < space && need > 0; k++ {
			if rng.Int64N(space-k) < int64(need) {
				keys = append(keys, k)
				need--
			}
		}
		var buf bytes.Buffer
		w, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.NewArrowWriterProperties())
		if err != nil {
			b.Fatal(err)
		}
		bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		minSeq := seq
		for i, k := range keys {
			bld.Field(0).(*array.Int64Builder).Append(seq)
			seq++
			bld.Field(1).(*array.Int8Builder).Append(0)
			bld.Field(2).(*array.Int64Builder).Append(k)
			bld.Field(3).(*array.StringBuilder).Append(fmt.Sprintf("value-%012d-%d", k, r))
			bld.Field(4).(*array.Float64Builder).Append(rng.Float64())
			if (i+1)%65536 == 0 || i == len(keys)-1 {
				rec := bld.NewRecordBatch()
				if err := w.Write(rec); err != nil {
					b.Fatal(err)
				}
				rec.Release()
			}
		}
		bld.Release()
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		out = append(out, benchRun{data: buf.Bytes(), meta: manifest.DataFileMeta{
			FileName: fmt.Sprintf("run-%d.parquet", r), FileSize: int64(buf.Len()), RowCount: int64(len(keys)),
			MinKey: serializedKey(b, keyTypes(ts), []any{keys[0]}), MaxKey: serializedKey(b, keyTypes(ts), []any{keys[len(keys)-1]}),
			MinSequenceNumber: minSeq, MaxSequenceNumber: seq - 1, Level: int32(r % 2),
		}})
	}
	return out
}

// peakTracker samples the Go heap in use while a benchmark iteration runs.
type peakTracker struct {
	stop chan struct{}
	wg   sync.WaitGroup
	peak atomic.Uint64
}

func startPeak() *peakTracker {
	runtime.GC()
	p := &peakTracker{stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > p.peak.Load() {
				p.peak.Store(ms.HeapInuse)
			}
			select {
			case <-p.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return p
}

func (p *peakTracker) done() uint64 { close(p.stop); p.wg.Wait(); return p.peak.Load() }

// peakAllocator counts the Arrow memory in use and its peak: the buffers of
// decoded batches and merge output, which is what bounded memory is about
// (Go heap figures also count garbage not yet collected).
type peakAllocator struct {
	memory.Allocator
	cur, peak atomic.Int64
}

func (a *peakAllocator) add(n int64) {
	c := a.cur.Add(n)
	for {
		p := a.peak.Load()
		if c <= p || a.peak.CompareAndSwap(p, c) {
			return
		}
	}
}

func (a *peakAllocator) Allocate(n int) []byte {
	a.add(int64(n))
	return a.Allocator.Allocate(n)
}

func (a *peakAllocator) Reallocate(n int, b []byte) []byte {
	a.add(int64(n - len(b)))
	return a.Allocator.Reallocate(n, b)
}

func (a *peakAllocator) Free(b []byte) {
	a.add(-int64(len(b)))
	a.Allocator.Free(b)
}

// BenchmarkMergeFiles merges 5 overlapping sorted runs of 2 million rows
// each, stored as zstd Parquet files, with the deduplicate engine, beside
// the raw decode of the same files (same reader, same columns, no merge).
// It reports input rows/s, the peak Go heap in use (the 200 MB of file
// bytes held in memory included) and the peak Arrow memory in use.
func BenchmarkMergeFiles(b *testing.B) {
	if testing.Short() {
		b.Skip("large benchmark")
	}
	const runs, rows = 5, 2_000_000
	ts := &schema.TableSchema{
		Fields: []schema.DataField{
			schema.NewField(0, "k", schema.BigIntType().NotNull()),
			schema.NewField(1, "v", schema.StringType()),
			schema.NewField(2, "d", schema.DoubleType()),
		},
		PrimaryKeys: []string{"k"},
		Options:     map[string]string{},
	}
	start := time.Now()
	files := writeBenchRuns(b, ts, runs, rows)
	var bytesTotal int64
	metas := make([]manifest.DataFileMeta, len(files))
	byName := map[string][]byte{}
	for i, f := range files {
		bytesTotal += f.meta.FileSize
		metas[i] = f.meta
		byName[f.meta.FileName] = f.data
	}
	b.Logf("generated %d runs × %d rows, %.1f MB, in %s", runs, rows, float64(bytesTotal)/1e6, time.Since(start).Round(time.Millisecond))
	fields := mergetree.ReadFields(ts)
	mem := &peakAllocator{Allocator: memory.NewGoAllocator()}
	open := func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		return func(yield func(arrow.RecordBatch, error) bool) {
			data := byName[f.FileName]
			r, err := parquet.Open(ctx, bytes.NewReader(data), int64(len(data)), &parquet.ReadOptions{Name: f.FileName})
			if err != nil {
				yield(nil, err)
				return
			}
			for rec, err := range r.Read(ctx, fields, &parquet.ReadRequest{Allocator: mem}) {
				if !yield(rec, err) || err != nil {
					return
				}
			}
		}
	}
	factory, err := mergefunc.NewFactory(ts)
	if err != nil {
		b.Fatal(err)
	}
	report := func(b *testing.B, peak uint64) {
		secs := b.Elapsed().Seconds() / float64(b.N)
		b.ReportMetric(float64(runs*rows)/secs, "input-rows/s")
		b.ReportMetric(float64(bytesTotal)/1e6/secs, "MB/s")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(mem.peak.Load())/(1<<20), "peak-arrow-MiB")
		mem.peak.Store(0)
	}
	b.Run("raw-decode", func(b *testing.B) {
		var peak uint64
		for b.Loop() {
			p := startPeak()
			var n int64
			for i := range metas {
				for rec, err := range open(context.Background(), &metas[i]) {
					if err != nil {
						b.Fatal(err)
					}
					n += rec.NumRows()
					rec.Release()
				}
			}
			peak = max(peak, p.done())
			if n != runs*rows {
				b.Fatalf("read %d rows", n)
			}
		}
		report(b, peak)
	})
	b.Run("merge-dedup", func(b *testing.B) {
		var peak uint64
		for b.Loop() {
			p := startPeak()
			var n int64
			for rec, err := range mergetree.Read(context.Background(), metas, open, &mergetree.Options{Schema: ts, Merge: factory, Allocator: mem}) {
				if err != nil {
					b.Fatal(err)
				}
				n += rec.NumRows()
				rec.Release()
			}
			peak = max(peak, p.done())
			b.ReportMetric(float64(n), "output-rows")
		}
		report(b, peak)
	})
}

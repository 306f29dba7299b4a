package ops

// The suite's Go measurements in go test -bench form, so benchstat can
// compare two commits on the same Java-generated tables:
//
//	bash bench/run.sh --scale small --tables-only   # prints the warehouse
//	PAIMON_BENCH_WAREHOUSE=<warehouse> go test ./bench/ops -run '^$' -bench . -count 6 > new.txt
//	benchstat old.txt new.txt
//
// Without PAIMON_BENCH_WAREHOUSE every benchmark skips.

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

func benchWarehouse(b *testing.B) (string, Meta) {
	b.Helper()
	wh := os.Getenv("PAIMON_BENCH_WAREHOUSE")
	if wh == "" {
		b.Skip("PAIMON_BENCH_WAREHOUSE is not set (bash bench/run.sh --tables-only prints one)")
	}
	m, err := LoadMeta(wh)
	if err != nil {
		b.Fatal(err)
	}
	return wh, m
}

// BenchmarkRead times every read operation with each Go implementation.
func BenchmarkRead(b *testing.B) {
	wh, meta := benchWarehouse(b)
	lo, hi := FilterRange(meta["scan"].FileRows)
	ctx := context.Background()
	for _, op := range []string{OpScanAll, OpScan2Col, OpFilter, OpPKDedup, OpPKDV, OpScan1k, OpScan1kCompacted, OpScanAllORC, OpFilterORC,
		OpScanPKRuns, OpScanPKCompacted} {
		for _, impl := range []string{ImplGo, ImplGoParallel, ImplRaw} {
			body, err := prepare(ctx, op, impl, Options{Warehouse: wh, Lo: lo, Hi: hi})
			if err != nil {
				continue // unsupported pairs
			}
			b.Run(op+"/"+impl, func(b *testing.B) {
				var rows int64
				for range b.N {
					n, _, err := body(ctx)
					if err != nil {
						b.Fatal(err)
					}
					rows = n
				}
				b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

// BenchmarkPlan times planning the 10k- and 100k-file tables.
func BenchmarkPlan(b *testing.B) {
	wh, _ := benchWarehouse(b)
	ctx := context.Background()
	for _, op := range []string{OpPlan10k, OpPlan100k} {
		body, err := prepare(ctx, op, ImplGo, Options{Warehouse: wh})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(op, func(b *testing.B) {
			for range b.N {
				if _, _, err := body(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWrite appends the scan table's row count into a fresh copy of
// the empty bench.write table (Parquet) or bench.write_orc (ORC) per
// iteration (the copy is not timed), with the columns of each Parquet file
// encoded on one goroutine (workers=1) and on GOMAXPROCS (workers=default).
func BenchmarkWrite(b *testing.B) {
	wh, meta := benchWarehouse(b)
	ctx := context.Background()
	rows := meta["scan"].FileRows
	sc := appendArrowSchemaOf(b, wh)
	recs, err := GenerateAppend(sc, rows)
	if err != nil {
		b.Fatal(err)
	}
	for _, table := range []string{"write", "write_orc"} {
		if _, err := os.Stat(filepath.Join(wh, DB+".db", table)); err != nil {
			continue // tables generated before the ORC ones existed
		}
		for _, workers := range []int{1, 0} {
			b.Run(table+"/workers="+workersName(workers), func(b *testing.B) {
				for range b.N {
					b.StopTimer()
					dst := copyTable(b, wh, table)
					tbl, err := OpenTable(ctx, dst, table)
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					if _, err := WriteAndCommit(ctx, tbl, recs, &paimon.WriterOptions{Workers: workers}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

func workersName(n int) string {
	if n == 0 {
		return "default"
	}
	return strconv.Itoa(n)
}

// BenchmarkWriteStream is streaming ingest: each iteration generates the
// scan table's row count batch by batch into WriteStream (nothing is held
// beforehand) on a fresh copy of bench.write. It reports the process's
// peak RSS over the iterations (VmHWM, reset first through
// /proc/self/clear_refs; Linux only, else not reported) and the peak Go
// heap sampled every 5 ms: the writer's own footprint plus the generator's
// one batch.
func BenchmarkWriteStream(b *testing.B) {
	wh, meta := benchWarehouse(b)
	ctx := context.Background()
	rows := meta["scan"].FileRows
	if n, err := strconv.ParseInt(os.Getenv("PAIMON_BENCH_STREAM_ROWS"), 10, 64); err == nil && n > 0 {
		rows = n // e.g. 10000000 for the full-scale target of 256 MiB
	}
	for _, workers := range []int{1, 0} {
		b.Run("workers="+workersName(workers), func(b *testing.B) {
			runtime.GC()
			debug.FreeOSMemory()
			resetPeakRSS := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
			stop := make(chan struct{})
			peakHeap := make(chan uint64)
			go func() {
				sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
				var peak uint64
				tick := time.NewTicker(5 * time.Millisecond)
				defer tick.Stop()
				for {
					metrics.Read(sample)
					peak = max(peak, sample[0].Value.Uint64())
					select {
					case <-stop:
						peakHeap <- peak
						return
					case <-tick.C:
					}
				}
			}()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				dst := copyTable(b, wh, "write")
				tbl, err := OpenTable(ctx, dst, "write")
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := WriteStream(ctx, tbl, rows, &paimon.WriterOptions{Workers: workers}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			close(stop)
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(<-peakHeap)/(1<<20), "peak-heap-MiB")
			if resetPeakRSS {
				if hwm, ok := peakRSS(); ok {
					b.ReportMetric(float64(hwm)/(1<<20), "peak-RSS-MiB")
				}
			}
		})
	}
}

// peakRSS reads VmHWM of /proc/self/status in bytes.
func peakRSS() (int64, bool) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// BenchmarkPKWrite is pk-write: upserts into a fresh copy of bench.pk_write
// (made by PaimonBench gen-pkwrite; skipped when the warehouse lacks it).
func BenchmarkPKWrite(b *testing.B) {
	wh, meta := benchWarehouse(b)
	ctx := context.Background()
	rows := meta["scan"].FileRows
	if _, err := os.Stat(filepath.Join(wh, DB+".db", "pk_write")); err != nil {
		b.Skip("no bench.pk_write: run bench/run.sh --ops pk-write once")
	}
	for range b.N {
		b.StopTimer()
		dst := copyTable(b, wh, "pk_write")
		tbl, err := OpenTable(ctx, dst, "pk_write")
		if err != nil {
			b.Fatal(err)
		}
		sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := PKWriteAndCommit(ctx, tbl, sc, rows); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkWriteRaw encodes the same generated rows with pqarrow alone, one
// file per day: the limit BenchmarkWrite is compared against.
func BenchmarkWriteRaw(b *testing.B) {
	wh, meta := benchWarehouse(b)
	rows := meta["scan"].FileRows
	recs, err := GenerateAppend(appendArrowSchemaOf(b, wh), rows)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := WriteParquetByDay(b.TempDir(), recs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCommit times one commit of a 10-row file on a copy of the table
// with the generated snapshots; writing the file is not timed.
func BenchmarkCommit(b *testing.B) {
	wh, _ := benchWarehouse(b)
	ctx := context.Background()
	tbl, err := OpenTable(ctx, copyTable(b, wh, "commit"), "commit")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		msgs, err := WriteSmall(ctx, tbl, 1_000_000_000+int64(i)*commitBatch)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := CommitOnce(ctx, tbl, msgs); err != nil {
			b.Fatal(err)
		}
	}
}

// copyTable copies bench.<name> of wh into a fresh warehouse and returns it.
func copyTable(b *testing.B, wh, name string) string {
	b.Helper()
	dst := b.TempDir()
	rel := filepath.Join(DB+".db", name)
	if err := os.CopyFS(filepath.Join(dst, rel), os.DirFS(filepath.Join(wh, rel))); err != nil {
		b.Fatal(err)
	}
	return dst
}

func appendArrowSchemaOf(b *testing.B, wh string) *arrow.Schema {
	b.Helper()
	tbl, err := OpenTable(context.Background(), wh, "write")
	if err != nil {
		b.Fatal(err)
	}
	sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkCompact times the compaction of the 1,000-file append table
// (compact-1k) and the full compaction of the primary-key table of 5 sorted
// runs per bucket (compact-pk), each iteration on a fresh copy (copying is
// not timed). A table the warehouse lacks (its generation was not asked
// for) is skipped.
func BenchmarkCompact(b *testing.B) {
	wh, meta := benchWarehouse(b)
	ctx := context.Background()
	for _, op := range []string{OpCompact, OpCompactPK} {
		table := map[string]string{OpCompact: "compact", OpCompactPK: "compact_pk"}[op]
		if _, ok := meta[table]; !ok {
			continue
		}
		for _, impl := range []string{ImplGo, ImplGoParallel} {
			b.Run(op+"/"+impl, func(b *testing.B) {
				var rows int64
				for range b.N {
					b.StopTimer()
					copyWH := b.TempDir()
					src := filepath.Join(wh, DB+".db", table)
					if err := os.CopyFS(filepath.Join(copyWH, DB+".db", table), os.DirFS(src)); err != nil {
						b.Fatal(err)
					}
					body, err := prepare(ctx, op, impl, Options{Warehouse: copyWH, Iters: 1})
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					n, _, err := body(ctx)
					if err != nil {
						b.Fatal(err)
					}
					rows = n
				}
				b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

// BenchmarkWriteLocal is write-10m without the Java warehouse: it creates
// bench.write's schema (PaimonBench.appendSchema: 7 columns, partitioned by
// day, bucket -1, Parquet with zstd) in a fresh directory per iteration
// (not timed) and appends $PAIMON_BENCH_WRITE_ROWS rows (default 1,000,000,
// in five day partitions as GenerateAppend cuts them), generated once
// beforehand, through one TableWriter and one commit. Besides ns/op it
// reports cpu-s/op (the process's CPU seconds per write) and P-busy (the
// share of the Ps' time the write kept busy), which say more than wall
// times on a shared machine. It is the profile target of the writer:
//
//	go test ./bench/ops -run '^$' -bench WriteLocal -benchmem -count 6 -cpuprofile cpu.out
func BenchmarkWriteLocal(b *testing.B) {
	ctx := context.Background()
	rows := int64(1_000_000)
	if n, err := strconv.ParseInt(os.Getenv("PAIMON_BENCH_WRITE_ROWS"), 10, 64); err == nil && n > 0 {
		rows = n
	}
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("qty", schema.IntType()).
		Column("price", schema.DoubleType()).
		Column("name", schema.StringType()).
		Column("amount", schema.DecimalType(18, 2)).
		Column("ts", schema.TimestampType(6)).
		Column("day", schema.DateType()).
		PartitionKeys("day").
		Option("bucket", "-1").
		Option("file.format", "parquet").
		Option("file.compression", "zstd").
		Build()
	if err != nil {
		b.Fatal(err)
	}
	var recs []arrow.RecordBatch
	b.ReportAllocs()
	var busy, total float64
	var cpu time.Duration
	for range b.N {
		b.StopTimer()
		fsys, err := localfs.New(b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		tbl, err := paimon.CreateTable(ctx, fsys, DB+".db/write", s)
		if err != nil {
			b.Fatal(err)
		}
		if recs == nil {
			sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
			if err != nil {
				b.Fatal(err)
			}
			if recs, err = GenerateAppend(sc, rows); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC() // the runtime's CPU classes are brought up to date by a GC
		before := cpuClasses()
		cpu0, cpuOK := processCPU()
		b.StartTimer()
		if _, err := WriteAndCommit(ctx, tbl, recs, nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if cpu1, ok := processCPU(); ok && cpuOK {
			cpu += cpu1 - cpu0
		}
		runtime.GC()
		after := cpuClasses()
		busy += (after[1] - after[0]) - (before[1] - before[0])
		total += after[1] - before[1]
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	// The share of the Ps' time the write kept busy: 1 means every
	// GOMAXPROCS was running Go code throughout, whatever else the machine
	// ran (a P counts as busy while its thread waits for a CPU), so it
	// measures the write's parallelism on a loaded machine where wall
	// times do not.
	if total > 0 {
		b.ReportMetric(busy/total, "P-busy")
	}
	// CPU seconds of the process per write (user and system, GC
	// included): what the write costs, less sensitive than the wall time
	// to what else the machine runs.
	if cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
}

// cpuClasses reads the runtime's idle and total CPU seconds.
func cpuClasses() [2]float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/idle:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}}
	metrics.Read(s)
	return [2]float64{s[0].Value.Float64(), s[1].Value.Float64()}
}

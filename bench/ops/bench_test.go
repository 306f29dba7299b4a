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
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/schema"
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
	for _, op := range []string{OpScanAll, OpScan2Col, OpFilter, OpPKDedup, OpPKDV, OpScan1k, OpScan1kCompacted, OpScanAllORC, OpFilterORC} {
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
// iteration (the copy is not timed).
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
		b.Run(table, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				dst := copyTable(b, wh, table)
				tbl, err := OpenTable(ctx, dst, table)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := WriteAndCommit(ctx, tbl, recs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
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

// BenchmarkCompact times the compaction of the 1,000-file append table,
// each iteration on a fresh copy (copying is not timed).
func BenchmarkCompact(b *testing.B) {
	wh, _ := benchWarehouse(b)
	ctx := context.Background()
	for _, impl := range []string{ImplGo, ImplGoParallel} {
		b.Run(impl, func(b *testing.B) {
			var rows int64
			for range b.N {
				b.StopTimer()
				copyWH := b.TempDir()
				src := filepath.Join(wh, DB+".db", "compact")
				if err := os.CopyFS(filepath.Join(copyWH, DB+".db", "compact"), os.DirFS(src)); err != nil {
					b.Fatal(err)
				}
				body, err := prepare(ctx, OpCompact, impl, Options{Warehouse: copyWH})
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

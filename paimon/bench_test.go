package paimon_test

// Benchmarks of planning and reading, on tables written by
// internal/testtable. They run only with -bench (and never in -short mode):
//
//	go test ./paimon -run '^$' -bench 'ScanAppend10M|Plan10kFiles' -benchtime 3x
//
// The tables are generated once, deterministically, into
// $PAIMON_BENCH_DIR (default <user cache dir>/paimon-go-bench) and reused;
// delete that directory, or bump the version in a table's name below, to
// regenerate.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// benchBatchSize is the batch size of every read, Paimon's and the raw
// pqarrow baseline alike.
const benchBatchSize = 4096

// benchDir returns the cache directory of the benchmark tables.
func benchDir(b *testing.B) string {
	b.Helper()
	if d := os.Getenv("PAIMON_BENCH_DIR"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		b.Skipf("no cache directory for benchmark tables (set PAIMON_BENCH_DIR): %v", err)
	}
	return filepath.Join(d, "paimon-go-bench")
}

// cachedTable returns the local file system and table directory of a
// benchmark table, generating it first when the cache lacks a complete copy
// (a READY marker is written last).
func cachedTable(b *testing.B, name string, generate func(ctx context.Context, t *testtable.Table) error, sch *schema.TableSchema) (*localfs.FS, string) {
	b.Helper()
	root := benchDir(b)
	dir := filepath.Join(root, name)
	ready := filepath.Join(dir, "READY")
	if _, err := os.Stat(ready); err != nil {
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		if err := os.MkdirAll(root, 0o755); err != nil {
			b.Fatal(err)
		}
		fsys, err := localfs.New(root, nil)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		ctx := context.Background()
		t, err := testtable.Create(ctx, fsys, name, sch)
		if err != nil {
			b.Fatal(err)
		}
		// A fixed clock keeps snapshots byte-identical across
		// regenerations (file names still get fresh uuids).
		t.SetClock(func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) })
		if err := generate(ctx, t); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(ready, []byte(time.Since(start).String()+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Logf("generated %s in %s", dir, time.Since(start).Round(time.Millisecond))
	} else if took, err := os.ReadFile(ready); err == nil {
		b.Logf("reusing %s (generated in %s)", dir, strings.TrimSpace(string(took)))
	}
	fsys, err := localfs.New(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	return fsys, name
}

// dataFiles lists the Parquet data files under a table directory and their
// total size.
func dataFiles(b *testing.B, dir string) ([]string, int64) {
	b.Helper()
	var files []string
	var size int64
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, p)
		size += fi.Size()
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return files, size
}

// Shape of the 10M-row table: 5 day partitions × 2 files × 1M rows, each file
// in 4 row groups. Ids are the global row number, so an id range selects a
// contiguous slice of one file.
const (
	scanRows         = 10_000_000
	scanPartitions   = 5
	scanFilesPerPart = 2
	scanRowsPerFile  = scanRows / (scanPartitions * scanFilesPerPart)
	scanBatchRows    = 1 << 16
	scanRowGroupRows = 256 * 1024
	scanFirstDay     = 19_900
	scanSeed         = 20_250_101
)

func scanSchema() *schema.TableSchema {
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("qty", schema.IntType()).
		Column("price", schema.DoubleType()).
		Column("name", schema.StringType()).
		Column("amount", schema.DecimalType(18, 2)).
		Column("ts", schema.TimestampType(6)).
		Column("day", schema.DateType()).
		PartitionKeys("day").
		Build()
	if err != nil {
		panic(err)
	}
	ts, err := schema.NewTableSchema(0, s, 1_735_689_600_000)
	if err != nil {
		panic(err)
	}
	return ts
}

// scanBatch builds rows [from, from+n) of the 10M-row table. Values are a
// pure function of the row number and the seed.
func scanBatch(sc *arrow.Schema, from, n int64) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(scanSeed, uint64(from)))
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	ids := b.Field(0).(*array.Int64Builder)
	qty := b.Field(1).(*array.Int32Builder)
	price := b.Field(2).(*array.Float64Builder)
	names := b.Field(3).(*array.StringBuilder)
	amount := b.Field(4).(*array.Decimal128Builder)
	tss := b.Field(5).(*array.TimestampBuilder)
	days := b.Field(6).(*array.Date32Builder)
	day := arrow.Date32(scanFirstDay + from/(scanRowsPerFile*scanFilesPerPart))
	var name [16]byte
	copy(name[:], "user-")
	for i := from; i < from+n; i++ {
		ids.Append(i)
		if r.IntN(20) == 0 {
			qty.AppendNull()
		} else {
			qty.Append(int32(r.IntN(1000)))
		}
		price.Append(r.Float64() * 1000)
		for j := 5; j < len(name); j++ {
			name[j] = byte('a' + r.IntN(26))
		}
		names.Append(string(name[:]))
		amount.Append(decimal128.FromI64(r.Int64N(100_000_000)))
		tss.Append(arrow.Timestamp(1_735_689_600_000_000 + i*1_000 + r.Int64N(1_000)))
		days.Append(day)
	}
	return b.NewRecordBatch()
}

func generateScanTable(ctx context.Context, t *testtable.Table) error {
	sc := t.ArrowSchema()
	row := int64(0)
	for p := range scanPartitions {
		var files []testtable.DataFile
		var batches []arrow.RecordBatch
		for range scanFilesPerPart {
			var recs []arrow.RecordBatch
			for n := int64(0); n < scanRowsPerFile; n += scanBatchRows {
				rec := scanBatch(sc, row+n, min(scanBatchRows, scanRowsPerFile-n))
				recs = append(recs, rec)
				batches = append(batches, rec)
			}
			files = append(files, testtable.DataFile{
				Partition:    []any{int32(scanFirstDay + p)},
				Records:      recs,
				RowGroupRows: scanRowGroupRows,
			})
			row += scanRowsPerFile
		}
		_, err := t.Commit(ctx, files...)
		for _, r := range batches {
			r.Release()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// reportScan reports rows/s and, through SetBytes, MB/s of data files.
func reportScan(b *testing.B, rowsPerOp int64) {
	b.ReportMetric(float64(rowsPerOp)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkScanAppend10M reads a 10,000,000-row, 7-column append table of
// zstd Parquet files: through Scan.Records (all columns, two columns, and a
// 1% id range that statistics prune), and with arrow-go's pqarrow directly
// over the same files (no Paimon logic), the raw limit. MB/s is over the
// total size of the data files whatever the columns read.
func BenchmarkScanAppend10M(b *testing.B) {
	if testing.Short() {
		b.Skip("benchmark table generation is slow; not in -short mode")
	}
	fsys, dir := cachedTable(b, "scan-append-10m-v1", generateScanTable, scanSchema())
	files, size := dataFiles(b, filepath.Join(fsys.Root(), dir))
	if len(files) != scanPartitions*scanFilesPerPart {
		b.Fatalf("found %d data files", len(files))
	}
	ctx := context.Background()
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	const selFrom = 4_200_000 // 1% of the rows, inside one file
	cases := []struct {
		name string
		opts []paimon.ScanOption
		rows int64
	}{
		{"paimon/all-columns", nil, scanRows},
		{"paimon/2-columns", []paimon.ScanOption{paimon.WithColumns("id", "price")}, scanRows},
		{"paimon/filter-1pct", []paimon.ScanOption{paimon.WithFilter(predicate.And(
			predicate.GreaterOrEqual("id", int64(selFrom)), predicate.LessThan("id", int64(selFrom+scanRows/100))))}, scanRows / 100},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			opts := append([]paimon.ScanOption{paimon.WithBatchSize(benchBatchSize)}, c.opts...)
			scan := tbl.NewScan(opts...)
			plan, err := scan.Plan(ctx)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			b.ResetTimer() // also clears reported metrics: report after the loop
			for range b.N {
				var n int64
				for rec, err := range scan.Records(ctx) {
					if err != nil {
						b.Fatal(err)
					}
					n += rec.NumRows()
					rec.Release()
				}
				if n != c.rows {
					b.Fatalf("read %d rows, want %d", n, c.rows)
				}
			}
			reportScan(b, c.rows)
			b.ReportMetric(float64(plan.Stats.FilesPrunedByStats), "files-pruned")
		})
	}
	for _, c := range []struct {
		name string
		cols []int
	}{{"pqarrow/all-columns", nil}, {"pqarrow/2-columns", []int{0, 2}}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			for range b.N {
				var n int64
				for _, p := range files {
					n += readRaw(b, p, c.cols)
				}
				if n != scanRows {
					b.Fatalf("read %d rows", n)
				}
			}
			reportScan(b, scanRows)
		})
	}
}

// readRaw reads one Parquet file with pqarrow alone and returns its row
// count.
func readRaw(b *testing.B, path string, cols []int) int64 {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	pr, err := file.NewParquetReader(f)
	if err != nil {
		b.Fatal(err)
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: benchBatchSize}, memory.DefaultAllocator)
	if err != nil {
		b.Fatal(err)
	}
	rr, err := fr.GetRecordReader(context.Background(), cols, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	if err := rr.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}

// Shape of the planning table: 100 commits of 100 one-row-group files of 10
// rows. Commit c writes partition c/10, so each manifest covers one of 10
// partitions; ids are unique per file (file f holds ids f*10 .. f*10+9).
const (
	planCommits        = 100
	planFilesPerCommit = 100
	planRowsPerFile    = 10
)

func planSchema() *schema.TableSchema {
	s, err := schema.NewSchemaBuilder().
		Column("p", schema.IntType()).
		Column("id", schema.BigIntType()).
		Column("v", schema.StringType()).
		PartitionKeys("p").
		Build()
	if err != nil {
		panic(err)
	}
	ts, err := schema.NewTableSchema(0, s, 1_735_689_600_000)
	if err != nil {
		panic(err)
	}
	return ts
}

func generatePlanTable(ctx context.Context, t *testtable.Table) error {
	sc := t.ArrowSchema()
	for c := range planCommits {
		p := int32(c / 10)
		files := make([]testtable.DataFile, planFilesPerCommit)
		recs := make([]arrow.RecordBatch, planFilesPerCommit)
		for i := range files {
			f := int64(c*planFilesPerCommit + i)
			b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
			for r := range int64(planRowsPerFile) {
				b.Field(0).(*array.Int32Builder).Append(p)
				b.Field(1).(*array.Int64Builder).Append(f*planRowsPerFile + r)
				b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("value-%d", f*planRowsPerFile+r))
			}
			recs[i] = b.NewRecordBatch()
			b.Release()
			files[i] = testtable.DataFile{Partition: []any{p}, Records: recs[i : i+1]}
		}
		_, err := t.Commit(ctx, files...)
		for _, r := range recs {
			r.Release()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkPlan10kFiles measures Scan.Plan over 10,000 data files in 100
// manifests: without a filter, with a partition filter (prunes 90 manifests
// by their partition statistics), with an id filter that only file
// statistics can apply (all manifests read, one file kept), and both.
func BenchmarkPlan10kFiles(b *testing.B) {
	if testing.Short() {
		b.Skip("benchmark table generation is slow; not in -short mode")
	}
	fsys, dir := cachedTable(b, "plan-10k-files-v1", generatePlanTable, planSchema())
	ctx := context.Background()
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	idOf := func(file int64) *predicate.Predicate {
		return predicate.And(predicate.GreaterOrEqual("id", file*planRowsPerFile), predicate.LessThan("id", file*planRowsPerFile+planRowsPerFile))
	}
	cases := []struct {
		name   string
		filter *predicate.Predicate
		files  int
	}{
		{"no-filter", nil, planCommits * planFilesPerCommit},
		{"partition", predicate.Equal("p", int32(5)), 10 * planFilesPerCommit},
		{"stats", idOf(4_321), 1},
		{"partition+stats", predicate.And(predicate.Equal("p", int32(4)), idOf(4_321)), 1},
	}
	var once sync.Once
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var opts []paimon.ScanOption
			if c.filter != nil {
				opts = append(opts, paimon.WithFilter(c.filter))
			}
			scan := tbl.NewScan(opts...)
			var plan *paimon.Plan
			for range b.N {
				plan, err = scan.Plan(ctx)
				if err != nil {
					b.Fatal(err)
				}
			}
			kept := 0
			for _, s := range plan.Splits {
				kept += len(s.Files)
			}
			if kept != c.files {
				b.Fatalf("plan kept %d files, want %d (stats %+v)", kept, c.files, plan.Stats)
			}
			once.Do(func() { b.Logf("table: %d manifests, %d files", plan.Stats.Manifests, plan.Stats.Files) })
			b.ReportMetric(float64(plan.Stats.Manifests-plan.Stats.ManifestsPruned), "manifests-read")
			b.ReportMetric(float64(kept), "files-kept")
			b.ReportMetric(float64(planCommits*planFilesPerCommit)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
		})
	}
}

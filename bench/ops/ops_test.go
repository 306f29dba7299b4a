package ops

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestGenerateAppendKeepsDaysApart(t *testing.T) {
	sc := appendArrowSchema(t)
	for _, total := range []int64{1, 7, 5 * genBatchRows, 5*genBatchRows + 3, 3*genBatchRows + 11} {
		recs, err := GenerateAppend(sc, total)
		if err != nil {
			t.Fatal(err)
		}
		var next int64
		for _, rec := range recs {
			ids := rec.Column(0).(interface{ Value(int) int64 })
			day := rec.Column(dayColumn).(interface{ Value(int) arrow.Date32 })
			for i := range int(rec.NumRows()) {
				if ids.Value(i) != next {
					t.Fatalf("total %d: id %d at row %d", total, ids.Value(i), next)
				}
				want := arrow.Date32(firstDay + min(days-1, next/max(1, total/days)))
				if day.Value(i) != want || day.Value(i) != day.Value(0) {
					t.Fatalf("total %d: row %d has day %d, want %d (batch starts at %d)", total, next, day.Value(i), want, day.Value(0))
				}
				next++
			}
			rec.Release()
		}
		if next != total {
			t.Errorf("total %d: generated %d rows", total, next)
		}
	}
}

// TestRunOperations runs every Go operation on small tables this package
// writes itself (no Java needed): the plumbing, the row counts each reports
// and the unsupported combinations.
func TestRunOperations(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	const rows = 20_000
	for _, name := range []string{"scan", "plan_10k", "write", "commit", "scan_orc", "write_orc"} {
		createAppendTable(t, wh, name)
	}
	for _, name := range []string{"scan", "plan_10k", "scan_orc"} {
		tbl, err := OpenTable(ctx, wh, name)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := GenerateAppend(appendArrowSchema(t), rows)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := WriteAndCommit(ctx, tbl, recs, nil); err != nil || n != rows {
			t.Fatalf("write %s: %d rows, %v", name, n, err)
		}
	}
	listDataFiles(t, wh, "scan")
	lo, hi := FilterRange(rows)
	cases := []struct {
		op, impl string
		o        Options
		rows     int64
		err      error
	}{
		{OpScanAll, ImplGo, Options{}, rows, nil},
		{OpScanAll, ImplGoParallel, Options{Workers: 3}, rows, nil},
		{OpScanAll, ImplRaw, Options{}, rows, nil},
		{OpScan2Col, ImplGo, Options{Warmup: 1, Iters: 2}, rows, nil},
		{OpScan2Col, ImplRaw, Options{}, rows, nil},
		{OpFilter, ImplGo, Options{Lo: lo, Hi: hi}, hi - lo, nil},
		{OpFilter, ImplGoParallel, Options{Lo: lo, Hi: hi}, hi - lo, nil},
		{OpFilter, ImplRaw, Options{Lo: lo, Hi: hi}, 0, ErrUnsupported},
		{OpFilter, ImplGo, Options{Lo: hi, Hi: lo}, 0, ErrBadOptions},
		{OpPlan10k, ImplGo, Options{Iters: 3}, rows, nil},
		{OpPlan10k, ImplRaw, Options{}, 0, ErrUnsupported},
		{OpWrite, ImplGo, Options{Rows: 5_000}, 5_000, nil},
		{OpWrite, ImplRaw, Options{Rows: 5_000}, 5_000, nil},
		{OpWrite, ImplGo, Options{Rows: 5_000, Iters: 2}, 0, ErrBadOptions},
		{OpScanAllORC, ImplGo, Options{}, rows, nil},
		{OpScanAllORC, ImplGoParallel, Options{Workers: 2}, rows, nil},
		{OpScanAllORC, ImplRaw, Options{}, 0, ErrUnsupported},
		{OpFilterORC, ImplGo, Options{Lo: lo, Hi: hi}, hi - lo, nil},
		{OpFilterORC, ImplGoParallel, Options{Lo: lo, Hi: hi}, hi - lo, nil},
		{OpWriteORC, ImplGo, Options{Rows: 5_000}, 5_000, nil},
		{OpWriteORC, ImplRaw, Options{Rows: 5_000}, 0, ErrUnsupported},
		{OpCommit, ImplGo, Options{Warmup: 1, Iters: 2}, commitBatch, nil},
		{OpCommit, ImplGoParallel, Options{}, 0, ErrUnsupported},
		{"no-such-op", ImplGo, Options{}, 0, ErrUnsupported},
	}
	for _, c := range cases {
		c.o.Warehouse = wh
		res, err := Run(ctx, c.op, c.impl, c.o)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s/%s: err %v, want %v", c.op, c.impl, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s/%s: %v", c.op, c.impl, err)
			continue
		}
		if res.Rows != c.rows || len(res.Samples) != max(1, c.o.Iters) || len(res.Warmup) != c.o.Warmup {
			t.Errorf("%s/%s: %d rows, %d samples, %d warm-ups; want %d rows", c.op, c.impl, res.Rows, len(res.Samples), len(res.Warmup), c.rows)
		}
	}
	// The write landed in bench.write (once: the failing case wrote nothing),
	// the raw write beside it, and three commits (one warm-up) in
	// bench.commit.
	for name, want := range map[string]int64{"write": 5_000, "commit": 3 * commitBatch, "write_orc": 5_000} {
		tbl, err := OpenTable(ctx, wh, name)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := readAll(ctx, tbl.NewScan()); err != nil || n != want {
			t.Errorf("%s holds %d rows (%v), want %d", name, n, err, want)
		}
	}
	raw, _ := filepath.Glob(filepath.Join(wh, "raw-write", "day-*.parquet"))
	var n int64
	for _, p := range raw {
		m, err := ReadParquet(ctx, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		n += m
	}
	if len(raw) != days || n != 5_000 {
		t.Errorf("raw write: %d files, %d rows", len(raw), n)
	}
}

func TestDataFilesRefusesAnEmptyList(t *testing.T) {
	wh := t.TempDir()
	if _, err := DataFiles(wh, "scan"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing list: %v", err)
	}
	if err := os.WriteFile(filepath.Join(wh, "files-scan.txt"), []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := DataFiles(wh, "scan"); !errors.Is(err, ErrBadOptions) {
		t.Errorf("empty list: %v", err)
	}
}

// appendSchema is PaimonBench.appendSchema: the columns every append table
// of the suite has.
func appendSchema(t *testing.T) *schema.Schema { return appendSchemaFormat(t, "parquet") }

func appendSchemaFormat(t *testing.T, format string) *schema.Schema {
	t.Helper()
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
		Option("file.format", format).
		Option("file.compression", "zstd").
		Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func appendArrowSchema(t *testing.T) *arrow.Schema {
	t.Helper()
	sc, err := schema.ToArrowSchema(appendSchema(t).Fields)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func createAppendTable(t *testing.T, wh, name string) {
	t.Helper()
	fsys, err := localfs.New(wh, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := appendSchema(t)
	if strings.HasSuffix(name, "_orc") {
		sc = appendSchemaFormat(t, "orc")
	}
	if _, err := paimon.CreateTable(context.Background(), fsys, DB+".db/"+name, sc); err != nil {
		t.Fatal(err)
	}
}

// listDataFiles writes files-<name>.txt as the Java generator does: paths
// relative to the warehouse.
func listDataFiles(t *testing.T, wh, name string) {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(wh, DB+".db", name), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			rel, err := filepath.Rel(wh, p)
			files = append(files, rel)
			return err
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("%d data files: %v", len(files), err)
	}
	if err := os.WriteFile(filepath.Join(wh, "files-"+name+".txt"), []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

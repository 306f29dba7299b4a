package ops

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// ErrUnsupported marks an (operation, implementation) pair this package does
// not measure; the gobench command exits with status 3 for it, which the
// suite records as "unsupported".
var ErrUnsupported = errors.New("bench: unsupported")

// ErrBadOptions reports options an operation cannot run with.
var ErrBadOptions = errors.New("bench: bad options")

// Implementation names, as the suite's results show them.
const (
	ImplGo         = "go"          // Scan.Records: one reader goroutine
	ImplGoParallel = "go-parallel" // Scan.ReadSplits over the plan's splits, Workers goroutines
	ImplRaw        = "raw-pqarrow" // pqarrow alone over the same files: the limit
)

// Operation names, shared with the Java and Python programs.
const (
	OpScanAll  = "scan-all"
	OpScan2Col = "scan-2col"
	OpFilter   = "filter-1pct"
	OpPKDedup  = "pk-dedup"
	OpPKDV     = "pk-dv"
	OpPlan10k  = "plan-10k"
	OpPlan100k = "plan-100k"
	OpWrite    = "write-10m"
	OpCommit   = "commit"
	// OpCompact compacts an append table of 1,000 small files (issue 18);
	// OpScan1k and OpScan1kCompacted read that table before and after a
	// compaction (Java's, at generation time).
	OpCompact         = "compact-1k"
	OpScan1k          = "scan-1k"
	OpScan1kCompacted = "scan-1k-compacted"
	// OpCompactPK fully compacts a primary-key table of 5 overlapping
	// sorted runs per bucket (pk-dedup's layout, issue 18); OpScanPKRuns
	// and OpScanPKCompacted read it before and after a compaction (Java's,
	// at generation time).
	OpCompactPK       = "compact-pk"
	OpScanPKRuns      = "scan-pk-runs"
	OpScanPKCompacted = "scan-pk-compacted"
	// The ORC forms (issue 19): the same rows and options as scan-all,
	// filter-1pct and write-10m, in tables with file.format=orc
	// (bench.scan_orc, bench.write_orc).
	OpScanAllORC = "scan-all-orc"
	OpFilterORC  = "filter-1pct-orc"
	OpWriteORC   = "write-10m-orc"
	// OpPKWrite upserts rows (30% of them updates) into a primary-key
	// table of 4 buckets (issue 17; pkwrite.go).
	OpPKWrite = "pk-write"
	// OpWriteStream is streaming ingest (issue 23): write-10m's rows
	// generated batch by batch inside the timed loop straight into the
	// writer, nothing materialised beforehand, so the process's peak RSS
	// is the writer's own footprint (plus one generated batch).
	OpWriteStream = "write-stream-10m"
	DB            = "bench"
	commitBatch   = 10 // rows of each commit of the commit benchmark
)

// Options configures one run of an operation.
type Options struct {
	// Warehouse is the filesystem-catalog warehouse holding the database
	// "bench" (a plain local directory).
	Warehouse string
	// Lo and Hi bound the id range [Lo, Hi) of the filter operation.
	Lo, Hi int64
	// Rows is the number of rows the write operation appends.
	Rows int64
	// Warmup iterations run before the timed ones; Iters are timed (at
	// least one).
	Warmup, Iters int
	// Workers is the goroutine count of go-parallel; 0 means GOMAXPROCS.
	Workers int
}

// Result is the outcome of one run: the median of the timed iterations,
// every sample, and the rows the operation saw (for planning: the rows of
// the planned files).
type Result struct {
	Op      string    `json:"op"`
	Impl    string    `json:"impl"`
	Seconds float64   `json:"seconds"`
	Rows    int64     `json:"rows"`
	Samples []float64 `json:"samples"`
	Warmup  []float64 `json:"warmup_samples"`
}

// Run performs op with impl Warmup+Iters times and times the last Iters.
// Opening the table is not timed; planning is, since a read includes it.
func Run(ctx context.Context, op, impl string, o Options) (*Result, error) {
	if o.Iters <= 0 {
		o.Iters = 1
	}
	body, err := prepare(ctx, op, impl, o)
	if err != nil {
		return nil, err
	}
	var rows int64
	warm := make([]float64, 0, o.Warmup)
	for range o.Warmup {
		_, d, err := body(ctx)
		if err != nil {
			return nil, err
		}
		warm = append(warm, d.Seconds())
	}
	samples := make([]float64, 0, o.Iters)
	for range o.Iters {
		n, d, err := body(ctx)
		if err != nil {
			return nil, err
		}
		rows = n
		samples = append(samples, d.Seconds())
	}
	return &Result{Op: op, Impl: impl, Seconds: Median(samples), Rows: rows, Samples: samples, Warmup: warm}, nil
}

// timedBody runs one iteration and returns the rows it saw and the time it
// took (a body may exclude untimed preparation from the duration).
type timedBody func(ctx context.Context) (int64, time.Duration, error)

// timed wraps a body whose whole run is timed.
func timed(f func(ctx context.Context) (int64, error)) timedBody {
	return func(ctx context.Context) (int64, time.Duration, error) {
		start := time.Now()
		n, err := f(ctx)
		return n, time.Since(start), err
	}
}

// prepare opens what op needs (untimed) and returns its timed body.
func prepare(ctx context.Context, op, impl string, o Options) (timedBody, error) {
	if o.Warehouse == "" {
		return nil, fmt.Errorf("%w: no warehouse", ErrBadOptions)
	}
	switch op {
	case OpScanAll, OpScan2Col, OpFilter, OpPKDedup, OpPKDV, OpScan1k, OpScan1kCompacted, OpScanAllORC, OpFilterORC,
		OpScanPKRuns, OpScanPKCompacted:
		return prepareRead(ctx, op, impl, o)
	case OpCompact, OpCompactPK:
		return prepareCompact(ctx, op, impl, o)
	case OpPlan10k, OpPlan100k:
		if impl != ImplGo {
			return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, op, impl)
		}
		name := map[string]string{OpPlan10k: "plan_10k", OpPlan100k: "plan_100k"}[op]
		tbl, err := OpenTable(ctx, o.Warehouse, name)
		if err != nil {
			return nil, err
		}
		return timed(func(ctx context.Context) (int64, error) { return planRows(ctx, tbl) }), nil
	case OpWrite, OpWriteORC:
		return prepareWrite(ctx, op, impl, o)
	case OpWriteStream:
		return prepareWriteStream(ctx, impl, o)
	case OpPKWrite:
		return preparePKWrite(ctx, impl, o)
	case OpCommit:
		if impl != ImplGo {
			return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, op, impl)
		}
		tbl, err := OpenTable(ctx, o.Warehouse, "commit")
		if err != nil {
			return nil, err
		}
		return commitBody(tbl), nil
	}
	return nil, fmt.Errorf("%w: operation %q", ErrUnsupported, op)
}

// OpenTable opens bench.<name> of a filesystem-catalog warehouse.
func OpenTable(ctx context.Context, warehouse, name string) (*paimon.Table, error) {
	fsys, err := localfs.New(warehouse, nil)
	if err != nil {
		return nil, fmt.Errorf("bench: warehouse %s: %w", warehouse, err)
	}
	tbl, err := paimon.OpenTable(ctx, fsys, DB+".db/"+name, nil)
	if err != nil {
		return nil, fmt.Errorf("bench: table %s: %w", filepath.Join(warehouse, DB+".db", name), err)
	}
	return tbl, nil
}

// planRows plans a full scan and returns the rows of its data files (the
// count every implementation can report, as a check that all planned the
// same files).
func planRows(ctx context.Context, tbl *paimon.Table) (int64, error) {
	plan, err := tbl.NewScan().Plan(ctx)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, s := range plan.Splits {
		n += s.RowCount()
	}
	return n, nil
}

// Median returns the median of samples (the mean of the middle two for an
// even count), 0 for none.
func Median(samples []float64) float64 {
	if len(samples) == 0 {
		return 0
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

package ops

import (
	"context"
	"fmt"
	"runtime"

	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// readTables maps a read operation to its table.
var readTables = map[string]string{
	OpScanAll:  "scan",
	OpScan2Col: "scan",
	OpFilter:   "scan",
	OpPKDedup:  "pk",
	OpPKDV:     "pk_dv",

	OpScan1k:          "compact",
	OpScan1kCompacted: "compact_done",
	OpScanPKRuns:      "compact_pk",
	OpScanPKCompacted: "compact_pk_done",
	OpScanAllORC:      "scan_orc",
	OpFilterORC:       "scan_orc",
}

// projected is the two-column projection of scan-2col (Java projection
// [0, 2]).
var projected = []string{"id", "price"}

// prepareRead returns the body of a read operation: plan and read every
// row, counting rows; the consumer releases each batch at once.
func prepareRead(ctx context.Context, op, impl string, o Options) (timedBody, error) {
	name := readTables[op]
	if impl == ImplRaw {
		if op == OpScanAllORC || op == OpFilterORC {
			return nil, fmt.Errorf("%w: %s by %s (a Parquet decoder)", ErrUnsupported, op, impl)
		}
		return prepareRawRead(op, name, o)
	}
	if impl != ImplGo && impl != ImplGoParallel {
		return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, op, impl)
	}
	tbl, err := OpenTable(ctx, o.Warehouse, name)
	if err != nil {
		return nil, err
	}
	var opts []paimon.ScanOption
	switch op {
	case OpScan2Col:
		opts = append(opts, paimon.WithColumns(projected...))
	case OpFilter, OpFilterORC:
		if o.Hi <= o.Lo {
			return nil, fmt.Errorf("%w: filter range [%d, %d)", ErrBadOptions, o.Lo, o.Hi)
		}
		opts = append(opts, paimon.WithFilter(predicate.And(
			predicate.GreaterOrEqual("id", o.Lo), predicate.LessThan("id", o.Hi))))
	}
	if impl == ImplGo {
		return timed(func(ctx context.Context) (int64, error) {
			return readAll(ctx, tbl.NewScan(opts...))
		}), nil
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// The library's parallel read: workers each take the next unread split;
	// order does not matter to a count.
	opts = append(opts, paimon.WithWorkers(workers), paimon.WithUnordered())
	return timed(func(ctx context.Context) (int64, error) {
		return readAll(ctx, tbl.NewScan(opts...))
	}), nil
}

// readAll reads a scan with Scan.Records and counts its rows.
func readAll(ctx context.Context, scan *paimon.Scan) (int64, error) {
	var n int64
	for rec, err := range scan.Records(ctx) {
		if err != nil {
			return n, err
		}
		n += rec.NumRows()
		rec.Release()
	}
	return n, nil
}

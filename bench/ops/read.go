package ops

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

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
}

// projected is the two-column projection of scan-2col (Java projection
// [0, 2]).
var projected = []string{"id", "price"}

// prepareRead returns the body of a read operation: plan and read every
// row, counting rows; the consumer releases each batch at once.
func prepareRead(ctx context.Context, op, impl string, o Options) (timedBody, error) {
	name := readTables[op]
	if impl == ImplRaw {
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
	case OpFilter:
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
	return timed(func(ctx context.Context) (int64, error) {
		return readParallel(ctx, tbl.NewScan(opts...), workers)
	}), nil
}

// readAll reads a scan with Scan.Records, the single-reader path.
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

// readParallel plans once and reads the splits with `workers` goroutines,
// each taking the next unread split (as Java's parallel reader in the suite
// does with a thread pool).
func readParallel(ctx context.Context, scan *paimon.Scan, workers int) (int64, error) {
	plan, err := scan.Plan(ctx)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next  atomic.Int64
		total atomic.Int64
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for range min(workers, len(plan.Splits)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(plan.Splits) {
					return
				}
				for rec, err := range scan.ReadSplits(ctx, plan.Splits[i]) {
					if err != nil {
						once.Do(func() { first = err; cancel() })
						return
					}
					total.Add(rec.NumRows())
					rec.Release()
				}
			}
		}()
	}
	wg.Wait()
	return total.Load(), first
}

package ops

import (
	"context"
	"fmt"
	"runtime"

	"github.com/paimon-go/paimon-go/paimon"
)

// prepareCompact returns the body of the compaction benchmark: Table.Compact
// of bench.compact (a fresh copy per process: the suite copies it), one
// rewrite at a time (go) or GOMAXPROCS at once (go-parallel), and the
// commit. It reports the rows written.
func prepareCompact(ctx context.Context, impl string, o Options) (timedBody, error) {
	if o.Warmup+o.Iters != 1 {
		return nil, fmt.Errorf("%w: %s runs once per process", ErrBadOptions, OpCompact)
	}
	workers := 1
	switch impl {
	case ImplGo:
	case ImplGoParallel:
		workers = o.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
	default:
		return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, OpCompact, impl)
	}
	tbl, err := OpenTable(ctx, o.Warehouse, "compact")
	if err != nil {
		return nil, err
	}
	return timed(func(ctx context.Context) (int64, error) {
		res, err := tbl.Compact(ctx, &paimon.CompactOptions{Workers: workers})
		if err != nil {
			return 0, err
		}
		if res.Commit == nil {
			return 0, fmt.Errorf("bench: %s compacted nothing", OpCompact)
		}
		return res.RowsWritten, nil
	}), nil
}

package ops

import (
	"context"
	"fmt"
	"runtime"

	"github.com/paimon-go/paimon-go/paimon"
)

// prepareCompact returns the body of a compaction benchmark: Table.Compact
// of bench.compact (compact-1k: the append compaction by its rules) or
// bench.compact_pk (compact-pk: a full compaction of every bucket), a fresh
// copy per process (the suite copies it), one rewrite at a time (go) or
// GOMAXPROCS at once (go-parallel), and the commit. It reports the rows
// written.
func prepareCompact(ctx context.Context, op, impl string, o Options) (timedBody, error) {
	if o.Warmup+o.Iters != 1 {
		return nil, fmt.Errorf("%w: %s runs once per process", ErrBadOptions, op)
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
		return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, op, impl)
	}
	name, full := "compact", false
	if op == OpCompactPK {
		name, full = "compact_pk", true
	}
	tbl, err := OpenTable(ctx, o.Warehouse, name)
	if err != nil {
		return nil, err
	}
	return timed(func(ctx context.Context) (int64, error) {
		res, err := tbl.Compact(ctx, &paimon.CompactOptions{Workers: workers, Full: full})
		if err != nil {
			return 0, err
		}
		if res.Commit == nil {
			return 0, fmt.Errorf("bench: %s compacted nothing", op)
		}
		return res.RowsWritten, nil
	}), nil
}

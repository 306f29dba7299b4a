// Command gobench times one operation of the benchmark suite (bench/README.md)
// with paimon-go, or with pqarrow alone for the raw limits, and prints one
// JSON line: {"op", "impl", "seconds" (median of the timed iterations),
// "rows", "samples"}. The suite driver runs it once per measurement, each in
// its own process, and reads peak memory from the process's rusage.
//
//	gobench -op scan-all -impl go -warehouse /path/to/warehouse
//
// Exit status 3 means the implementation does not support the operation.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/paimon-go/paimon-go/bench/ops"
)

func main() {
	var (
		op      = flag.String("op", "", "operation: scan-all, scan-2col, filter-1pct, pk-dedup, pk-dv, plan-10k, plan-100k, write-10m, write-stream-10m, pk-write, commit, compact-1k, scan-1k, scan-1k-compacted, compact-pk, scan-pk-runs, scan-pk-compacted")
		impl    = flag.String("impl", ops.ImplGo, "implementation: go, go-parallel, raw-pqarrow")
		cpuprof = flag.String("cpuprofile", "", "write a CPU profile of the whole process to this file")
		o       ops.Options
	)
	flag.StringVar(&o.Warehouse, "warehouse", "", "filesystem-catalog warehouse holding database bench")
	flag.Int64Var(&o.Lo, "lo", 0, "filter-1pct: lowest id kept")
	flag.Int64Var(&o.Hi, "hi", 0, "filter-1pct: first id not kept")
	flag.Int64Var(&o.Rows, "rows", 0, "write-10m, write-stream-10m: rows to append; pk-write: rows to upsert")
	flag.IntVar(&o.Warmup, "warmup", 0, "untimed iterations first")
	flag.IntVar(&o.Iters, "iters", 1, "timed iterations (the median is reported)")
	flag.IntVar(&o.Workers, "workers", 0, "go-parallel: goroutines (0: GOMAXPROCS)")
	flag.Parse()
	if *cpuprof != "" {
		f, err := os.Create(*cpuprof)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gobench:", err)
			os.Exit(1)
		}
	}
	code := run(*op, *impl, o)
	if *cpuprof != "" {
		pprof.StopCPUProfile() // before os.Exit, which runs no deferred calls
	}
	os.Exit(code)
}

func run(op, impl string, o ops.Options) int {
	res, err := ops.Run(context.Background(), op, impl, o)
	if errors.Is(err, ops.ErrUnsupported) {
		fmt.Fprintln(os.Stderr, "unsupported:", err)
		return 3
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gobench:", err)
		return 1
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, "gobench:", err)
		return 1
	}
	return 0
}

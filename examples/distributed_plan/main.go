// Command distributed_plan shows how to spread the reading of a table over
// workers: a coordinator plans the scan once (reading only metadata),
// serializes each split with Split.MarshalBinary and hands the bytes out;
// each worker decodes its splits with Split.UnmarshalBinary, reads them
// with Scan.ReadSplits on a scan of its own and counts rows per group; the
// coordinator merges the counts.
//
// Here the workers are goroutines that open the warehouse themselves, as
// separate processes or machines would; the bytes could as well travel
// over a queue or RPC.
//
//	go run ./examples/distributed_plan                          # a demo table written to a temporary warehouse
//	go run ./examples/distributed_plan -workers 8 -where "page = 'home'"
//	go run ./examples/distributed_plan [flags] WAREHOUSE DATABASE.TABLE
//
// Rows are counted per value of -by (default: the first partition key).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "distributed_plan:", err)
		os.Exit(1)
	}
}

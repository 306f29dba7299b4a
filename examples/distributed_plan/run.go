package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // registers the "filesystem" metastore
	_ "github.com/paimon-go/paimon-go/fs/localfs"         // file:// URIs and plain paths
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// run parses the arguments, prepares the demo table when no table is
// given, and runs the coordinator.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("distributed_plan", flag.ContinueOnError)
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), "usage: distributed_plan [flags] [WAREHOUSE DATABASE.TABLE]")
		flags.PrintDefaults()
	}
	workers := flags.Int("workers", 4, "number of workers")
	by := flags.String("by", "", "column to count rows by (default: the first partition key; none for an unpartitioned table)")
	where := flags.String("where", "", `filter, e.g. "page = 'home'"`)
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *workers < 1 {
		return fmt.Errorf("-workers must be at least 1, not %d", *workers)
	}
	if *where != "" {
		if _, err := predicate.Parse(*where); err != nil {
			return err
		}
	}
	j := job{By: *by, Where: *where}
	switch flags.NArg() {
	case 0:
		dir, err := os.MkdirTemp("", "paimon-distributed-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		j.Warehouse, j.Table = dir, demoTable.String()
		if err := writeDemoTable(ctx, dir, stdout); err != nil {
			return err
		}
	case 2:
		j.Warehouse, j.Table = flags.Arg(0), flags.Arg(1)
	default:
		flags.Usage()
		return fmt.Errorf("want a warehouse and a table, or neither; got %d arguments", flags.NArg())
	}
	return coordinate(ctx, j, *workers, stdout)
}

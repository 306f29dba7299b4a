package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // registers the "filesystem" metastore
	_ "github.com/paimon-go/paimon-go/fs/localfs"         // file:// URIs and plain paths
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// The table read when no arguments are given: a partitioned append-only
// table Java Paimon 1.4.2 wrote in Avro.
const (
	defaultWarehouse = "testdata/golden/java-1.4.2/append-partitioned-avro/warehouse"
	defaultTable     = "interop.append_partitioned_avro"
)

// run parses the arguments, reads the table and prints it to stdout.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("read_table", flag.ContinueOnError)
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), "usage: read_table [flags] [WAREHOUSE DATABASE.TABLE]")
		flags.PrintDefaults()
	}
	sel := flags.String("select", "", "comma-separated columns to read (default: all)")
	where := flags.String("where", "", `filter, e.g. "hr = 23 AND msg IS NOT NULL" (default: none)`)
	limit := flags.Int64("limit", 0, "stop after about this many rows (0: no limit)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	var warehouse, table string
	switch flags.NArg() {
	case 0:
		warehouse, table = findDefault(), defaultTable
	case 2:
		warehouse, table = flags.Arg(0), flags.Arg(1)
	default:
		flags.Usage()
		return fmt.Errorf("want a warehouse and a table, or neither; got %d arguments", flags.NArg())
	}

	var opts []paimon.ScanOption
	if *sel != "" {
		opts = append(opts, paimon.WithColumns(strings.Split(*sel, ",")...))
	}
	if *where != "" {
		filter, err := predicate.Parse(*where)
		if err != nil {
			return err
		}
		opts = append(opts, paimon.WithFilter(filter))
	}
	if *limit > 0 {
		opts = append(opts, paimon.WithLimit(*limit))
	}
	return readTable(ctx, stdout, warehouse, table, opts)
}

// readTable opens the warehouse, loads the table and prints what the scan
// configured by opts returns.
func readTable(ctx context.Context, w io.Writer, warehouse, table string, opts []paimon.ScanOption) error {
	cat, err := catalog.Open(ctx, warehouse, nil)
	if err != nil {
		return err
	}
	defer cat.Close()
	id, err := paimon.ParseIdentifier(table)
	if err != nil {
		return err
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		return err
	}
	// Planning reads only metadata (snapshot, manifests) and decides which
	// files to read; the Records call below plans again and reads them.
	// A program that wants both could keep the plan and call ReadSplits.
	scan := tbl.NewScan(opts...)
	plan, err := scan.Plan(ctx)
	if err != nil {
		return err
	}
	s := tbl.Schema()
	fmt.Fprintf(w, "table %s (schema %d) in %s\n", id, s.ID, warehouse)
	for _, f := range s.Fields {
		fmt.Fprintf(w, "  %-10s %s\n", f.Name, f.Type)
	}
	if len(s.PartitionKeys) > 0 {
		fmt.Fprintf(w, "  partitioned by %s\n", strings.Join(s.PartitionKeys, ", "))
	}
	if len(s.PrimaryKeys) > 0 {
		fmt.Fprintf(w, "  primary key %s\n", strings.Join(s.PrimaryKeys, ", "))
	}

	if plan.SnapshotID == 0 {
		fmt.Fprintln(w, "\nthe table has no snapshot yet: nothing to read")
		return nil
	}
	spec := scan.Spec()
	cols := "*"
	if len(spec.Columns) > 0 {
		cols = strings.Join(spec.Columns, ", ")
	}
	fmt.Fprintf(w, "\nselect %s", cols)
	if spec.Filter != nil {
		fmt.Fprintf(w, " where %s", spec.Filter)
	}
	st := plan.Stats
	fmt.Fprintf(w, "\nsnapshot %d: %d data files, %d skipped by partition, %d by bucket, %d by statistics, %d by limit; splits to read: %d\n",
		plan.SnapshotID, st.Files, st.FilesPrunedByPartition, st.FilesPrunedByBucket, st.FilesPrunedByStats, st.FilesPrunedByLimit, len(plan.Splits))
	n, err := printScan(ctx, w, scan)
	if err != nil {
		return err
	}
	if n == 1 {
		fmt.Fprintln(w, "(1 row)")
	} else {
		fmt.Fprintf(w, "(%d rows)\n", n)
	}
	return nil
}

// findDefault locates the default warehouse from the working directory (go
// run from the repository root) or from this source file (tests).
func findDefault() string {
	if _, file, _, ok := runtime.Caller(0); ok {
		if _, err := os.Stat(defaultWarehouse); err != nil {
			return filepath.Join(filepath.Dir(file), "..", "..", defaultWarehouse)
		}
	}
	return defaultWarehouse
}

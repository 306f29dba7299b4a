// Command quickstart opens a warehouse written by Java Paimon, loads a table
// through the filesystem catalog and reads it into Arrow record batches: the
// whole table, then a projection with a filter (showing how planning pruned
// partitions and files), then the table as it was at its first snapshot,
// before its schema evolved.
//
//	go run ./examples/quickstart            # a table from the golden corpus
//	go run ./examples/quickstart -warehouse /path/to/warehouse -table db.table -where "id > 3"
//
// It uses only the public packages: catalog to open the warehouse, paimon to
// scan, paimon/predicate to filter.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/catalog"
	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // registers the "filesystem" metastore
	_ "github.com/paimon-go/paimon-go/fs/localfs"         // file:// URIs and plain paths
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

const (
	defaultWarehouse = "testdata/golden/java-1.4.2/schema-evolution-append-parquet/warehouse"
	defaultTable     = "interop.schema_evolution_append_parquet"
)

func main() {
	warehouse := flag.String("warehouse", defaultWarehouse, "warehouse URI or directory")
	table := flag.String("table", defaultTable, "table to read, as database.table")
	where := flag.String("where", "part = 'p1' AND small > 0", "filter for the second scan")
	flag.Parse()
	if err := run(context.Background(), *warehouse, *table, *where); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, warehouse, table, where string) error {
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
	s := tbl.Schema()
	fmt.Printf("table %s: schema %d, partition keys %v, primary keys %v\n", id, s.ID, s.PartitionKeys, s.PrimaryKeys)
	for _, f := range s.Fields {
		fmt.Printf("  %-8s %s\n", f.Name, f.Type)
	}

	fmt.Println("\nall rows of the latest snapshot:")
	if err := printScan(ctx, tbl.NewScan()); err != nil {
		return err
	}

	filter, err := predicate.Parse(where)
	if err != nil {
		return err
	}
	cols := []string{"id", "part", "small"}
	scan := tbl.NewScan(paimon.WithColumns(cols...), paimon.WithFilter(filter))
	plan, err := scan.Plan(ctx)
	if err != nil {
		return err
	}
	st := plan.Stats
	fmt.Printf("\n%v where %s (snapshot %d: %d files, %d pruned by partition, %d by statistics; %d splits):\n",
		cols, filter, plan.SnapshotID, st.Files, st.FilesPrunedByPartition, st.FilesPrunedByStats, len(plan.Splits))
	if err := printScan(ctx, scan); err != nil {
		return err
	}

	fmt.Println("\nthe table at snapshot 1, with the schema it had then:")
	return printScan(ctx, tbl.NewScan(paimon.WithSnapshotID(1)))
}

// printScan prints every row of a scan as an aligned text table.
func printScan(ctx context.Context, scan *paimon.Scan) error {
	sch, err := scan.ArrowSchema(ctx)
	if err != nil {
		return err
	}
	out := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	var names []string
	for _, f := range sch.Fields() {
		names = append(names, f.Name)
	}
	fmt.Fprintln(out, "  "+strings.Join(names, "\t"))
	for rec, err := range scan.Records(ctx) {
		if err != nil {
			return err
		}
		printBatch(out, rec)
		rec.Release() // the consumer releases every batch
	}
	return out.Flush()
}

func printBatch(out *tabwriter.Writer, rec arrow.RecordBatch) {
	for i := 0; i < int(rec.NumRows()); i++ {
		cells := make([]string, rec.NumCols())
		for c, col := range rec.Columns() {
			cells[c] = col.ValueStr(i)
		}
		fmt.Fprintln(out, "  "+strings.Join(cells, "\t"))
	}
}

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// readOrders reads shop.orders back: every row of the latest snapshot, then
// two columns of the rows a filter keeps, with what planning pruned.
func readOrders(ctx context.Context, cat catalog.Catalog, w io.Writer) error {
	section(w, 3, "Read "+ordersID.String()+" back")
	tbl, err := cat.LoadTable(ctx, ordersID)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "   all rows of the latest snapshot:")
	if err := printScan(ctx, w, tbl.NewScan()); err != nil {
		return err
	}

	// Filters are built with the predicate package or parsed from SQL-like
	// text (predicate.Parse). Planning uses them to skip partitions and
	// files; the rows read are then filtered exactly.
	filter := predicate.And(
		predicate.Equal("day", "2024-06-02"),
		predicate.GreaterThan("amount", 20.0))
	scan := tbl.NewScan(paimon.WithColumns("customer", "amount"), paimon.WithFilter(filter))
	plan, err := scan.Plan(ctx)
	if err != nil {
		return err
	}
	st := plan.Stats
	fmt.Fprintf(w, "\n   customer, amount where %s\n", filter)
	fmt.Fprintf(w, "   (planning kept %d of %d data files: %d skipped by partition, %d by column statistics)\n",
		st.Files-st.FilesPrunedByPartition-st.FilesPrunedByBucket-st.FilesPrunedByStats, st.Files,
		st.FilesPrunedByPartition, st.FilesPrunedByStats)
	return printScan(ctx, w, scan)
}

package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// The tables the quickstart creates.
var (
	ordersID    = paimon.Identifier{Database: "shop", Table: "orders"}
	customersID = paimon.Identifier{Database: "shop", Table: "customers"}
)

// ordersSchema is an append-only table (no primary key): every row written
// is kept, as in a log. It is partitioned by day, so each day's rows live
// in their own directory and filters on day skip the others.
func ordersSchema() (*schema.Schema, error) {
	return schema.NewSchemaBuilder().
		Column("order_id", schema.BigIntType().NotNull()).
		Column("customer", schema.StringType()).
		Column("amount", schema.DoubleType()).
		Column("day", schema.StringType().NotNull()).
		PartitionKeys("day").
		Comment("orders, one row per order").
		Build()
}

// customersSchema is a primary-key table: a write of an existing id
// replaces the row (the default "deduplicate" merge engine). A fixed bucket
// count spreads the keys over that many LSM trees.
func customersSchema() (*schema.Schema, error) {
	return schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("name", schema.StringType()).
		Column("city", schema.StringType()).
		PrimaryKey("id").
		Option(paimon.OptionBucket, "2").
		Build()
}

// createTables creates the database and both tables. Existing ones are
// kept, so the quickstart can run again on the same warehouse.
func createTables(ctx context.Context, cat catalog.Catalog, w io.Writer) error {
	section(w, 1, "Create a database and two tables")
	ddl, ok := cat.(catalog.DDL)
	if !ok {
		return errNoDDL
	}
	if err := ddl.CreateDatabase(ctx, ordersID.Database, true); err != nil {
		return err
	}
	for _, t := range []struct {
		id     paimon.Identifier
		schema func() (*schema.Schema, error)
	}{{ordersID, ordersSchema}, {customersID, customersSchema}} {
		s, err := t.schema()
		if err != nil {
			return err
		}
		if err := ddl.CreateTable(ctx, t.id, s, true); err != nil {
			return err
		}
	}
	var names []string
	for id, err := range cat.ListTables(ctx, ordersID.Database) {
		if err != nil {
			return err
		}
		names = append(names, id.String())
	}
	fmt.Fprintf(w, "   tables in database %q: %s\n", ordersID.Database, strings.Join(names, ", "))
	for _, id := range []paimon.Identifier{ordersID, customersID} {
		tbl, err := cat.LoadTable(ctx, id)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "   %-15s %s\n", id, describe(tbl))
	}
	return nil
}

// describe summarizes a table's kind, keys and columns in one line.
func describe(tbl *paimon.Table) string {
	s := tbl.Schema()
	kind := "append-only"
	if len(s.PrimaryKeys) > 0 {
		kind = "primary key (" + strings.Join(s.PrimaryKeys, ", ") + ")"
	}
	if len(s.PartitionKeys) > 0 {
		kind += ", partitioned by " + strings.Join(s.PartitionKeys, ", ")
	}
	cols := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		cols[i] = f.Name + " " + f.Type.String()
	}
	return kind + ": " + strings.Join(cols, ", ")
}

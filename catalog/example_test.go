package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/paimon-go/paimon-go/catalog"
	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // registers the "filesystem" metastore
	"github.com/paimon-go/paimon-go/format/schema"
	_ "github.com/paimon-go/paimon-go/fs/localfs" // plain paths and file:// URIs
	"github.com/paimon-go/paimon-go/paimon"
)

// Open a warehouse Java Paimon wrote, list what it holds and load a table.
func ExampleOpen() {
	ctx := context.Background()
	cat, err := catalog.Open(ctx, "../testdata/golden/java-1.4.2/pk-dedup/warehouse", nil)
	if err != nil {
		panic(err)
	}
	defer cat.Close()
	for db, err := range cat.ListDatabases(ctx) {
		if err != nil {
			panic(err)
		}
		for id, err := range cat.ListTables(ctx, db) {
			if err != nil {
				panic(err)
			}
			tbl, err := cat.LoadTable(ctx, id)
			if err != nil {
				panic(err)
			}
			fmt.Println(id, "primary key", tbl.PrimaryKeys(), "partitioned by", tbl.PartitionKeys())
		}
	}
	_, err = cat.LoadTable(ctx, paimon.Identifier{Database: "interop", Table: "missing"})
	fmt.Println(errors.Is(err, catalog.ErrTableNotFound))
	// Output:
	// interop.pk_dedup primary key [dt id] partitioned by [dt]
	// true
}

// Create a database and a table in a new warehouse through the optional
// DDL interface, which the filesystem catalog implements.
func ExampleDDL() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "paimon-warehouse-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	cat, err := catalog.Open(ctx, dir, nil) // "file://" + dir works too
	if err != nil {
		panic(err)
	}
	defer cat.Close()
	ddl, ok := cat.(catalog.DDL)
	if !ok {
		panic("no DDL")
	}
	if err := ddl.CreateDatabase(ctx, "sales", false); err != nil {
		panic(err)
	}
	s, err := schema.NewSchemaBuilder().
		Column("order_id", schema.BigIntType()).
		Column("day", schema.StringType()).
		Column("total", schema.DecimalType(12, 2)).
		PartitionKeys("day").
		PrimaryKey("day", "order_id").
		Option("bucket", "4").
		Build()
	if err != nil {
		panic(err)
	}
	id := paimon.Identifier{Database: "sales", Table: "orders"}
	if err := ddl.CreateTable(ctx, id, s, false); err != nil {
		panic(err)
	}
	err = ddl.CreateTable(ctx, id, s, false)
	fmt.Println("again:", errors.Is(err, catalog.ErrTableExists))
	fmt.Println("again, ignoreIfExists:", ddl.CreateTable(ctx, id, s, true))

	for db, err := range cat.ListDatabases(ctx) {
		if err != nil {
			panic(err)
		}
		for id, err := range cat.ListTables(ctx, db) {
			if err != nil {
				panic(err)
			}
			fmt.Println("table", id)
		}
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		panic(err)
	}
	for _, f := range tbl.Schema().Fields {
		fmt.Println(f.ID, f.Name, f.Type)
	}
	fmt.Println(tbl.Options())

	// Adding a column is a schema change; loading the table again sees it.
	err = ddl.AlterTable(ctx, id, []paimon.SchemaChange{
		paimon.AddColumn{FieldNames: []string{"note"}, Type: schema.StringType()},
	}, false)
	if err != nil {
		panic(err)
	}
	if tbl, err = cat.LoadTable(ctx, id); err != nil {
		panic(err)
	}
	fmt.Println("schema", tbl.Schema().ID, "has", len(tbl.Schema().Fields), "columns")

	if err := ddl.DropDatabase(ctx, "sales", false, false); err != nil {
		fmt.Println(errors.Is(err, catalog.ErrDatabaseNotEmpty))
	}
	// Output:
	// again: true
	// again, ignoreIfExists: <nil>
	// table sales.orders
	// 0 order_id BIGINT NOT NULL
	// 1 day STRING NOT NULL
	// 2 total DECIMAL(12, 2)
	// map[bucket:4]
	// schema 1 has 4 columns
	// true
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/paimon-go/paimon-go/catalog"
	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // registers the "filesystem" metastore
	_ "github.com/paimon-go/paimon-go/fs/localfs"         // file:// URIs and plain paths
)

// run is the whole quickstart; main only supplies the arguments and the
// output so that the test can run it in-process.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	warehouse := flags.String("warehouse", "", "warehouse directory or URI to create the tables in (default: a temporary directory, removed at exit)")
	golden := flags.String("golden", "", "warehouse of the Java-written primary-key table (default: "+goldenWarehouse+", found from the working directory or this source file)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *warehouse == "" && flags.NArg() > 0 {
		*warehouse = flags.Arg(0)
	}

	fmt.Fprintln(stdout, "paimon-go quickstart")
	if *warehouse == "" {
		dir, err := os.MkdirTemp("", "paimon-quickstart-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		*warehouse = dir
		fmt.Fprintf(stdout, "warehouse: %s (temporary; pass -warehouse DIR to keep it)\n", dir)
	} else {
		fmt.Fprintf(stdout, "warehouse: %s\n", *warehouse)
	}

	cat, err := catalog.Open(ctx, *warehouse, nil)
	if err != nil {
		return err
	}
	defer cat.Close()

	if err := createTables(ctx, cat, stdout); err != nil {
		return err
	}
	orders, err := writeOrders(ctx, cat, stdout)
	if err != nil {
		return err
	}
	if err := readOrders(ctx, cat, stdout); err != nil {
		return err
	}
	customers, err := writeCustomers(ctx, cat, stdout)
	if err != nil {
		return err
	}
	if err := readJavaPrimaryKeyTable(ctx, *golden, stdout); err != nil {
		return err
	}
	if orders+customers == 0 {
		fmt.Fprintf(stdout, "\nThis run committed nothing new: every commit of commit user %q was made by an earlier run on %s.\n", commitUser, *warehouse)
	}
	return nil
}

// section prints a numbered heading.
func section(w io.Writer, n int, title string) {
	fmt.Fprintf(w, "\n%d. %s\n", n, title)
}

// errNoDDL reports a catalog that cannot create tables; the filesystem
// catalog always can.
var errNoDDL = errors.New("the catalog cannot create tables (catalog.DDL not implemented)")

// Command read_table reads one table of a warehouse and prints its rows:
// optionally only some columns (a projection) and only the rows a filter
// keeps. It prints how planning used the filter to skip partitions and
// files before reading.
//
//	go run ./examples/read_table                                   # a golden table Java Paimon wrote
//	go run ./examples/read_table -select id,name -where "id >= 3"  # projection and filter
//	go run ./examples/read_table [flags] WAREHOUSE DATABASE.TABLE  # any warehouse (path or URI)
//
// Flags come before the two arguments. The filter is SQL-like text parsed
// by predicate.Parse: =, <>, <, <=, >, >=, IN, IS [NOT] NULL, LIKE 'x%',
// AND, OR, NOT and parentheses.
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
		fmt.Fprintln(os.Stderr, "read_table:", err)
		os.Exit(1)
	}
}

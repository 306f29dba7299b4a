// Command quickstart is a first tour of paimon-go. In a warehouse of its own
// (a temporary directory unless one is given) it:
//
//  1. creates a database, an append-only table and a primary-key table
//     through the filesystem catalog;
//  2. writes rows to the append-only table in two commits;
//  3. reads them back into Arrow record batches, whole and with a
//     projection and a filter;
//  4. upserts rows into the primary-key table, updates one and deletes one
//     by key, and reads the merged result (one row per key);
//  5. reads a primary-key table that Java Paimon wrote (from the golden
//     corpus in testdata/golden), where several commits of inserts, updates
//     and deletes are merged by key into the current rows.
//
// Run it from the repository root:
//
//	go run ./examples/quickstart                     # temporary warehouse, removed at exit
//	go run ./examples/quickstart -warehouse /tmp/wh  # keep the warehouse to look at its files
//
// Every commit has a stable commit user and a fixed identifier, so a second
// run on the same warehouse finds them committed, writes nothing, leaves no
// file behind and says it committed nothing new: what an ingester re-run
// over the same input must do.
//
// It uses only the public packages: catalog to create and open tables,
// paimon to write, commit and scan, paimon/predicate to filter.
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
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

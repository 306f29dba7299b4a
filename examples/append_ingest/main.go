// Command append_ingest is a long-running ingester for an append-only table,
// the shape of a streaming job: it generates rows on a ticker (standing in
// for a message queue), batches them into a TableWriter, and every
// -interval commits what it wrote as one snapshot.
//
// Each commit carries an increasing commit identifier under a stable commit
// user. Before committing, the ingester records the prepared commit in a
// small state file (its "checkpoint"); after a crash, the next run asks
// TableCommit.FilterCommitted whether that identifier reached the table and
// either skips it or commits it then. No row is lost or written twice.
//
//	go run ./examples/append_ingest -duration 3s                    # temporary warehouse
//	go run ./examples/append_ingest -warehouse /tmp/wh -duration 5s # run it again: it continues
//	go run ./examples/append_ingest -warehouse /tmp/wh              # until Ctrl-C
//
// Then read the table with
//
//	go run ./examples/read_table /tmp/wh ingest.events
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "append_ingest:", err)
		os.Exit(1)
	}
}

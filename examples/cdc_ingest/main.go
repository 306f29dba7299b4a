// Command cdc_ingest applies a stream of change events to a primary-key
// table, exactly once across restarts: the shape of a change-data-capture
// consumer (Debezium, a database's binlog, a Kafka topic of changes).
//
// The events are JSON lines in Debezium's envelope: {"op": "c", "after":
// {...}} creates a row, "u" updates it ({"before": ..., "after": ...}), "d"
// deletes it ({"before": ...}); "r" (a snapshot read) is a create. Each
// event becomes one or two rows of the table with a row kind: c and r give
// +I, u gives -U (before) and +U (after), d gives -D. The table keeps one
// row per key, the latest.
//
// The file stands in for a topic: an event's offset is its line number.
// Every -every events the consumer commits what it wrote as one snapshot,
// with an increasing commit identifier under a stable commit user; before
// committing it records the prepared commit and the offset after it in a
// state file (its checkpoint). After a crash the next run asks
// TableCommit.FilterCommitted whether the pending identifier landed, commits
// it if not, and goes on from the recorded offset: no event is lost or
// applied twice.
//
//	go run ./examples/cdc_ingest -generate 2000                  # demo events, temporary warehouse
//	go run ./examples/cdc_ingest -warehouse /tmp/wh -events /tmp/changes.jsonl -generate 500
//	go run ./examples/cdc_ingest -warehouse /tmp/wh -events /tmp/changes.jsonl   # again: nothing new
//	go run ./examples/read_table /tmp/wh cdc.customers
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
		fmt.Fprintln(os.Stderr, "cdc_ingest:", err)
		os.Exit(1)
	}
}

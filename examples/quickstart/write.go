package main

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

// order is one row of shop.orders.
type order struct {
	id       int64
	customer string
	amount   float64
	day      string
}

// orderCommits are the rows of the two commits the quickstart makes.
var orderCommits = [][]order{
	{
		{1, "alice", 12.50, "2024-06-01"},
		{2, "bob", 7.25, "2024-06-01"},
		{3, "carol", 30.00, "2024-06-01"},
		{4, "alice", 42.00, "2024-06-02"},
	},
	{
		{5, "dave", 18.75, "2024-06-02"},
		{6, "bob", 64.10, "2024-06-02"},
	},
}

// writeOrders writes each element of orderCommits and commits it as one
// snapshot. Writing and committing are separate steps: a TableWriter turns
// Arrow batches into data files and hands them over as commit messages,
// and a TableCommit publishes them atomically as a new snapshot. (The two
// may run in different processes; commit messages serialize.)
func writeOrders(ctx context.Context, cat catalog.Catalog, w io.Writer) error {
	section(w, 2, "Write to the append-only table "+ordersID.String())
	tbl, err := cat.LoadTable(ctx, ordersID)
	if err != nil {
		return err
	}
	commit, err := tbl.NewCommit(nil) // nil: a random commit user, the table's options
	if err != nil {
		return err
	}
	for i, rows := range orderCommits {
		writer, err := tbl.NewWriter(nil)
		if err != nil {
			return err
		}
		batch := ordersBatch(writer.ArrowSchema(), rows)
		err = writer.Write(ctx, batch)
		batch.Release()
		if err != nil {
			writer.Close(ctx)
			return err
		}
		msgs, err := writer.PrepareCommit(ctx)
		writer.Close(ctx)
		if err != nil {
			return err
		}
		// BatchCommitIdentifier marks a one-off write; a streaming job
		// would pass increasing identifiers instead (see
		// examples/append_ingest).
		res, err := commit.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
		if err != nil {
			return err
		}
		files := 0
		for _, m := range msgs {
			files += len(m.NewFiles)
		}
		fmt.Fprintf(w, "   commit %d: %d rows in %s -> snapshot %d\n", i+1, len(rows), plural(files, "data file"), res.Snapshot.ID)
	}
	return nil
}

// ordersBatch builds an Arrow record batch with the writer's schema, which
// is the table's columns in order with their Arrow types.
func ordersBatch(sch *arrow.Schema, rows []order) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		b.Field(1).(*array.StringBuilder).Append(r.customer)
		b.Field(2).(*array.Float64Builder).Append(r.amount)
		b.Field(3).(*array.StringBuilder).Append(r.day)
	}
	return b.NewRecordBatch()
}

// plural returns "1 data file" or "2 data files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

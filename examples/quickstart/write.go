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

// commitUser is the commit user of every commit the quickstart makes. It is
// the same on every run, and each commit has a fixed identifier (its
// position, from 1): a commit user commits an identifier at most once, so
// a re-run on the same warehouse recognizes what the first run committed
// and adds nothing, as an ingester re-run over the same input must. (With
// a random commit user, NewCommit(nil), a re-run would add every row
// again.)
const commitUser = "quickstart"

// committedBefore reports whether commitUser already committed identifier
// to the commit's table: then there is nothing to write, and no data file
// is written for nothing.
func committedBefore(ctx context.Context, commit *paimon.TableCommit, identifier int64) (bool, error) {
	left, err := commit.FilterCommitted(ctx, []int64{identifier})
	return len(left) == 0, err
}

// commitOnce commits msgs under identifier. When the identifier turns out
// to be committed already (another run got there between committedBefore
// and now), nothing is added; the data files just written are then
// nobody's, and Abort removes them so that no unreferenced file is left.
func commitOnce(ctx context.Context, commit *paimon.TableCommit, identifier int64, msgs []paimon.CommitMessage) (*paimon.CommitResult, error) {
	res, err := commit.Commit(ctx, identifier, msgs)
	if err != nil {
		return nil, err // Commit removed the files unless they may have landed
	}
	if res.AlreadyCommitted {
		if err := commit.Abort(ctx, msgs); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// nothingNew is what a commit that was made before prints.
func nothingNew(identifier int64) string {
	return fmt.Sprintf("identifier %d of commit user %q was committed before: nothing new", identifier, commitUser)
}

// writeOrders writes each element of orderCommits and commits it as one
// snapshot. Writing and committing are separate steps: a TableWriter turns
// Arrow batches into data files and hands them over as commit messages,
// and a TableCommit publishes them atomically as a new snapshot. (The two
// may run in different processes; commit messages serialize.) It returns
// how many commits added a snapshot.
func writeOrders(ctx context.Context, cat catalog.Catalog, w io.Writer) (int, error) {
	section(w, 2, "Write to the append-only table "+ordersID.String())
	tbl, err := cat.LoadTable(ctx, ordersID)
	if err != nil {
		return 0, err
	}
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: commitUser})
	if err != nil {
		return 0, err
	}
	added := 0
	for i, rows := range orderCommits {
		identifier := int64(i + 1)
		if done, err := committedBefore(ctx, commit, identifier); err != nil {
			return added, err
		} else if done {
			fmt.Fprintf(w, "   commit %d: %s\n", i+1, nothingNew(identifier))
			continue
		}
		writer, err := tbl.NewWriter(nil)
		if err != nil {
			return added, err
		}
		batch := ordersBatch(writer.ArrowSchema(), rows)
		err = writer.Write(ctx, batch)
		batch.Release()
		if err != nil {
			writer.Close(ctx)
			return added, err
		}
		msgs, err := writer.PrepareCommit(ctx)
		writer.Close(ctx)
		if err != nil {
			return added, err
		}
		res, err := commitOnce(ctx, commit, identifier, msgs)
		if err != nil {
			return added, err
		}
		if res.AlreadyCommitted {
			fmt.Fprintf(w, "   commit %d: %s\n", i+1, nothingNew(identifier))
			continue
		}
		added++
		files := 0
		for _, m := range msgs {
			files += len(m.NewFiles)
		}
		fmt.Fprintf(w, "   commit %d: %d rows in %s -> snapshot %d\n", i+1, len(rows), plural(files, "data file"), res.Snapshot.ID)
	}
	return added, nil
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

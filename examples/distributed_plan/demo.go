package main

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// The demo table: page views over four days, partitioned by day and hashed
// on user_id into four buckets, written in two commits, so that there are
// sixteen splits to share out.
var (
	demoTable   = paimon.Identifier{Database: "demo", Table: "page_views"}
	demoDays    = []string{"2024-06-01", "2024-06-02", "2024-06-03", "2024-06-04"}
	demoPages   = []string{"home", "search", "product", "cart", "checkout"}
	demoRows    = 2500 // per day and commit
	demoCommits = 2
)

// writeDemoTable creates demo.page_views in the warehouse and fills it.
func writeDemoTable(ctx context.Context, warehouse string, w io.Writer) error {
	cat, err := catalog.Open(ctx, warehouse, nil)
	if err != nil {
		return err
	}
	defer cat.Close()
	ddl, ok := cat.(catalog.DDL)
	if !ok {
		return fmt.Errorf("the catalog cannot create tables")
	}
	s, err := schema.NewSchemaBuilder().
		Column("day", schema.StringType().NotNull()).
		Column("user_id", schema.BigIntType().NotNull()).
		Column("page", schema.StringType()).
		Column("millis", schema.IntType()).
		PartitionKeys("day").
		Option(paimon.OptionBucket, "4").
		Option(paimon.OptionBucketKey, "user_id").
		Build()
	if err != nil {
		return err
	}
	if err := ddl.CreateDatabase(ctx, demoTable.Database, false); err != nil {
		return err
	}
	if err := ddl.CreateTable(ctx, demoTable, s, false); err != nil {
		return err
	}
	tbl, err := cat.LoadTable(ctx, demoTable)
	if err != nil {
		return err
	}
	commit, err := tbl.NewCommit(nil)
	if err != nil {
		return err
	}
	for c := 0; c < demoCommits; c++ {
		writer, err := tbl.NewWriter(nil)
		if err != nil {
			return err
		}
		batch := demoBatch(writer.ArrowSchema(), c)
		err = writer.Write(ctx, batch)
		batch.Release()
		var msgs []paimon.CommitMessage
		if err == nil {
			msgs, err = writer.PrepareCommit(ctx)
		}
		writer.Close(ctx)
		if err != nil {
			return err
		}
		if _, err := commit.Commit(ctx, paimon.BatchCommitIdentifier, msgs); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "wrote %d rows to %s in a temporary warehouse, in %d commits\n",
		len(demoDays)*demoRows*demoCommits, demoTable, demoCommits)
	return nil
}

// demoBatch returns the rows of one commit: demoRows per day, with user ids
// and pages derived from the row number.
func demoBatch(sch *arrow.Schema, commit int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for d, day := range demoDays {
		for i := 0; i < demoRows; i++ {
			n := (commit*len(demoDays)+d)*demoRows + i
			b.Field(0).(*array.StringBuilder).Append(day)
			b.Field(1).(*array.Int64Builder).Append(int64(n % 997))
			b.Field(2).(*array.StringBuilder).Append(demoPages[n%len(demoPages)])
			b.Field(3).(*array.Int32Builder).Append(int32(n % 3000))
		}
	}
	return b.NewRecordBatch()
}

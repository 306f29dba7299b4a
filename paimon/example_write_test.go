package paimon_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// printExampleRows prints every row of a scan, one line each, values
// separated by spaces.
func printExampleRows(ctx context.Context, scan *paimon.Scan) error {
	for rec, err := range scan.Records(ctx) {
		if err != nil {
			return err
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			cells := make([]string, rec.NumCols())
			for c, col := range rec.Columns() {
				cells[c] = col.ValueStr(i)
			}
			fmt.Println(strings.Join(cells, " "))
		}
		rec.Release()
	}
	return nil
}

// Create an append-only table in a directory, write an Arrow batch, commit
// it as a snapshot and read it back.
func ExampleTable_NewWriter() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "paimon-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	fsys, err := localfs.New(dir, nil)
	if err != nil {
		panic(err)
	}

	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("name", schema.StringType()).
		Build()
	if err != nil {
		panic(err)
	}
	tbl, err := paimon.CreateTable(ctx, fsys, "shop.db/customers", s)
	if err != nil {
		panic(err)
	}

	// The writer turns batches with the table's columns into data files.
	writer, err := tbl.NewWriter(nil)
	if err != nil {
		panic(err)
	}
	defer writer.Close(ctx)
	b := array.NewRecordBuilder(memory.DefaultAllocator, writer.ArrowSchema())
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"ada", "", "grace"}, []bool{true, false, true})
	batch := b.NewRecordBatch()
	defer batch.Release()
	if err := writer.Write(ctx, batch); err != nil {
		panic(err)
	}
	msgs, err := writer.PrepareCommit(ctx)
	if err != nil {
		panic(err)
	}

	// The commit publishes the files atomically as a new snapshot.
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "example"})
	if err != nil {
		panic(err)
	}
	res, err := commit.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	if err != nil {
		panic(err)
	}
	fmt.Println("snapshot", res.Snapshot.ID, "adds", res.Snapshot.DeltaRecordCount, "rows")

	if err := printExampleRows(ctx, tbl.NewScan()); err != nil {
		panic(err)
	}
	// Output:
	// snapshot 1 adds 3 rows
	// 1 ada
	// 2 (null)
	// 3 grace
}

// A streaming writer commits with increasing identifiers under a stable
// commit user. After a restart, FilterCommitted tells which identifiers
// of its own it still has to commit.
func ExampleTableCommit_FilterCommitted() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "paimon-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	fsys, err := localfs.New(dir, nil)
	if err != nil {
		panic(err)
	}
	s := &schema.Schema{Fields: schema.AssignFieldIDs([]schema.DataField{
		{Name: "v", Type: schema.IntType()},
	})}
	tbl, err := paimon.CreateTable(ctx, fsys, "db.db/t", s)
	if err != nil {
		panic(err)
	}
	commitRows := func(identifier int64, values ...int32) {
		writer, err := tbl.NewWriter(nil)
		if err != nil {
			panic(err)
		}
		defer writer.Close(ctx)
		b := array.NewInt32Builder(memory.DefaultAllocator)
		b.AppendValues(values, nil)
		col := b.NewArray()
		batch := array.NewRecordBatch(writer.ArrowSchema(), []arrow.Array{col}, int64(col.Len()))
		if err := writer.Write(ctx, batch); err != nil {
			panic(err)
		}
		batch.Release()
		col.Release()
		b.Release()
		msgs, err := writer.PrepareCommit(ctx)
		if err != nil {
			panic(err)
		}
		commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "ingester-1"})
		if err != nil {
			panic(err)
		}
		if _, err := commit.Commit(ctx, identifier, msgs); err != nil {
			panic(err)
		}
	}
	commitRows(1, 10, 11)
	commitRows(2, 20)

	// The ingester restarts with identifiers 2 and 3 prepared but their
	// outcome unknown: only 3 still needs committing.
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "ingester-1"})
	if err != nil {
		panic(err)
	}
	left, err := commit.FilterCommitted(ctx, []int64{2, 3})
	if err != nil {
		panic(err)
	}
	fmt.Println("to commit:", left)

	// Identifiers are per commit user.
	other, err := tbl.NewCommit(&paimon.CommitOptions{User: "ingester-2"})
	if err != nil {
		panic(err)
	}
	left, err = other.FilterCommitted(ctx, []int64{2, 3})
	if err != nil {
		panic(err)
	}
	fmt.Println("another user:", left)
	// Output:
	// to commit: [3]
	// another user: [2 3]
}

// Rows of a primary-key table carry a row kind. With a row-kind column the
// writer takes change events as they come (+I, -U, +U, -D); the table keeps
// one row per key.
func ExampleTable_NewWriter_primaryKey() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "paimon-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	fsys, err := localfs.New(dir, nil)
	if err != nil {
		panic(err)
	}
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType()).
		Column("name", schema.StringType()).
		PrimaryKey("id").
		Option("bucket", "4").
		Build()
	if err != nil {
		panic(err)
	}
	tbl, err := paimon.CreateTable(ctx, fsys, "db.db/users", s)
	if err != nil {
		panic(err)
	}
	fmt.Println("primary key:", tbl.PrimaryKeys(), "column id:", tbl.Schema().Fields[0].Type)

	// The batch has the table's columns plus "op", the row kinds.
	writer, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
	if err != nil {
		panic(err)
	}
	defer writer.Close(ctx)
	sch := arrow.NewSchema(append(writer.ArrowSchema().Fields(), arrow.Field{Name: "op", Type: arrow.BinaryTypes.String}), nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for _, ev := range []struct {
		id   int64
		name string
		op   string
	}{{1, "ann", "+I"}, {2, "bo", "+I"}, {1, "ann", "-U"}, {1, "anna", "+U"}, {2, "bo", "-D"}, {3, "cy", "+I"}} {
		b.Field(0).(*array.Int64Builder).Append(ev.id)
		b.Field(1).(*array.StringBuilder).Append(ev.name)
		b.Field(2).(*array.StringBuilder).Append(ev.op)
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	if err := writer.Write(ctx, batch); err != nil {
		panic(err)
	}
	msgs, err := writer.PrepareCommit(ctx)
	if err != nil {
		panic(err)
	}
	commit, err := tbl.NewCommit(nil)
	if err != nil {
		panic(err)
	}
	if _, err := commit.Commit(ctx, paimon.BatchCommitIdentifier, msgs); err != nil {
		panic(err)
	}
	var rows []string
	for rec, err := range tbl.NewScan().Records(ctx) {
		if err != nil {
			panic(err)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			rows = append(rows, fmt.Sprint(rec.Column(0).(*array.Int64).Value(i), " ", rec.Column(1).(*array.String).Value(i)))
		}
		rec.Release()
	}
	sort.Strings(rows)
	fmt.Println(rows)
	// Output:
	// primary key: [id] column id: BIGINT NOT NULL
	// [1 anna 3 cy]
}

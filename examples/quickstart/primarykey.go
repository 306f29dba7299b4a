package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

// goldenWarehouse holds interop.pk_dedup, a primary-key table Java Paimon
// 1.4.2 wrote in five commits: inserts, then updates and a delete, more
// inserts, a full compaction, and a last commit with a delete.
const (
	goldenWarehouse = "testdata/golden/java-1.4.2/pk-dedup/warehouse"
	goldenTable     = "interop.pk_dedup"
)

// customer is one row of shop.customers.
type customer struct {
	id   int64
	name string
	city string
}

// writeCustomers upserts customers and deletes one by key. A primary-key
// table keeps one row per key: a write of an existing id replaces the row
// (the default "deduplicate" merge engine), a delete removes it. Each row
// carries a row kind; Upsert writes +I rows and Delete -D rows (a batch of
// only the key columns is enough for that).
func writeCustomers(ctx context.Context, cat catalog.Catalog, w io.Writer) (int, error) {
	section(w, 4, "Write to the primary-key table "+customersID.String())
	tbl, err := cat.LoadTable(ctx, customersID)
	if err != nil {
		return 0, err
	}
	// The same stable commit user and fixed identifiers as writeOrders:
	// a re-run adds nothing.
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: commitUser})
	if err != nil {
		return 0, err
	}
	steps := []struct {
		what string
		rows []customer
		del  bool
	}{
		{"upsert ids 1, 2, 3", []customer{{1, "alice", "Lyon"}, {2, "bob", "Oslo"}, {3, "carol", "Porto"}}, false},
		{"upsert id 2 again (bob moved)", []customer{{2, "bob", "Riga"}}, false},
		{"delete id 3", []customer{{3, "", ""}}, true},
	}
	added := 0
	for i, st := range steps {
		identifier := int64(i + 1)
		if done, err := committedBefore(ctx, commit, identifier); err != nil {
			return added, err
		} else if done {
			fmt.Fprintf(w, "   %s: %s\n", st.what, nothingNew(identifier))
			continue
		}
		writer, err := tbl.NewWriter(nil)
		if err != nil {
			return added, err
		}
		if st.del {
			err = deleteCustomers(ctx, writer, st.rows)
		} else {
			batch := customersBatch(writer.ArrowSchema(), st.rows)
			err = writer.Upsert(ctx, batch)
			batch.Release()
		}
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
			fmt.Fprintf(w, "   %s: %s\n", st.what, nothingNew(identifier))
			continue
		}
		added++
		fmt.Fprintf(w, "   %s -> snapshot %d\n", st.what, res.Snapshot.ID)
	}
	fmt.Fprintln(w, "\n   one row per key, the latest version of each:")
	return added, printScan(ctx, w, tbl.NewScan())
}

func customersBatch(sch *arrow.Schema, rows []customer) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		b.Field(1).(*array.StringBuilder).Append(r.name)
		b.Field(2).(*array.StringBuilder).Append(r.city)
	}
	return b.NewRecordBatch()
}

// deleteCustomers deletes by key: the batch holds only the id column.
func deleteCustomers(ctx context.Context, writer *paimon.TableWriter, rows []customer) error {
	sch := arrow.NewSchema([]arrow.Field{writer.ArrowSchema().Field(0)}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	return writer.Delete(ctx, batch)
}

// readJavaPrimaryKeyTable reads a primary-key table Java Paimon wrote, at
// its first snapshot and at its latest. A primary-key table's files hold
// every version of a row (inserts, updates, deletes); a scan merges them by
// key, so the latest snapshot shows only the current rows.
func readJavaPrimaryKeyTable(ctx context.Context, warehouse string, w io.Writer) error {
	section(w, 5, "Read a primary-key table written by Java Paimon")
	if warehouse == "" {
		warehouse = findGolden()
		if warehouse == "" {
			fmt.Fprintf(w, "   skipped: %s not found; run from the repository root or pass -golden DIR\n", goldenWarehouse)
			return nil
		}
	}
	cat, err := catalog.Open(ctx, warehouse, nil)
	if err != nil {
		return err
	}
	defer cat.Close()
	id, err := paimon.ParseIdentifier(goldenTable)
	if err != nil {
		return err
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "   %s in %s\n", id, warehouse)
	fmt.Fprintf(w, "   %s\n", describe(tbl))

	fmt.Fprintln(w, "\n   at snapshot 1, after Java's first commit (4 inserts):")
	if err := printScan(ctx, w, tbl.NewScan(paimon.WithSnapshotID(1))); err != nil {
		return err
	}

	scan := tbl.NewScan()
	plan, err := scan.Plan(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "\n   Java's later commits updated (d1, 1) and (d1, 2), deleted (d2, 1) and (d2, 3),")
	fmt.Fprintln(w, "   inserted (d1, 4), (d2, 5) and (d1, 6), and compacted the files.")
	fmt.Fprintf(w, "   at the latest snapshot (%d) the files hold %d row versions; merged by key (%s) they give the current rows:\n",
		plan.SnapshotID, plan.Stats.RowCount, strings.Join(tbl.PrimaryKeys(), ", "))
	return printScan(ctx, w, scan)
}

// findGolden looks for the golden warehouse from the working directory (go
// run from the repository root) and then from this source file (tests, or
// go run from elsewhere in the repository). It returns "" when neither has
// it.
func findGolden() string {
	candidates := []string{goldenWarehouse}
	if _, file, _, ok := runtime.Caller(0); ok {
		candidates = append(candidates, filepath.Join(filepath.Dir(file), "..", "..", goldenWarehouse))
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			return c
		}
	}
	return ""
}

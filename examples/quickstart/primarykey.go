package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

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

// tryWriteCustomers shows the primary-key write path's current state:
// opening a writer fails with an error wrapping paimon.ErrUnsupported.
// This library never writes files Java might misread, so it refuses
// instead of guessing.
func tryWriteCustomers(ctx context.Context, cat catalog.Catalog, w io.Writer) error {
	section(w, 4, "Write to the primary-key table "+customersID.String())
	tbl, err := cat.LoadTable(ctx, customersID)
	if err != nil {
		return err
	}
	writer, err := tbl.NewWriter(nil)
	if err == nil {
		// A future release that writes primary-key tables gets here.
		writer.Close(ctx)
		fmt.Fprintln(w, "   this version can write primary-key tables")
		return nil
	}
	if !errors.Is(err, paimon.ErrUnsupported) {
		return err
	}
	fmt.Fprintf(w, "   refused: %v\n", err)
	fmt.Fprintln(w, "   errors.Is(err, paimon.ErrUnsupported) == true: primary-key tables can be created and read, not yet written")
	return nil
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

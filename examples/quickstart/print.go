package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/paimon"
)

// printScan prints every row a scan yields as an aligned text table.
func printScan(ctx context.Context, w io.Writer, scan *paimon.Scan) error {
	sch, err := scan.ArrowSchema(ctx)
	if err != nil {
		return err
	}
	out := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	names := make([]string, sch.NumFields())
	for i, f := range sch.Fields() {
		names[i] = f.Name
	}
	fmt.Fprintln(out, "     "+strings.Join(names, "\t"))
	for rec, err := range scan.Records(ctx) {
		if err != nil {
			return err
		}
		printBatch(out, rec)
		rec.Release() // the consumer releases every batch
	}
	return out.Flush()
}

// printBatch prints the rows of one batch, NULL for null values.
func printBatch(out io.Writer, rec arrow.RecordBatch) {
	for i := 0; i < int(rec.NumRows()); i++ {
		cells := make([]string, rec.NumCols())
		for c, col := range rec.Columns() {
			cells[c] = cell(col, i)
		}
		fmt.Fprintln(out, "     "+strings.Join(cells, "\t"))
	}
}

// cell formats one value: NULL for nulls, decimals with all their scale
// digits (Arrow's ValueStr drops trailing zeros), anything else as Arrow
// prints it.
func cell(col arrow.Array, i int) string {
	if col.IsNull(i) {
		return "NULL"
	}
	switch a := col.(type) {
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Decimal256:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal256Type).Scale)
	}
	return col.ValueStr(i)
}

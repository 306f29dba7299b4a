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

// printScan prints every row a scan yields as an aligned text table and
// returns how many there were.
func printScan(ctx context.Context, w io.Writer, scan *paimon.Scan) (int64, error) {
	sch, err := scan.ArrowSchema(ctx)
	if err != nil {
		return 0, err
	}
	out := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	names := make([]string, sch.NumFields())
	for i, f := range sch.Fields() {
		names[i] = f.Name
	}
	fmt.Fprintln(out, "  "+strings.Join(names, "\t"))
	var n int64
	for rec, err := range scan.Records(ctx) {
		if err != nil {
			return n, err
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			cells := make([]string, rec.NumCols())
			for c, col := range rec.Columns() {
				cells[c] = cell(col, i)
			}
			fmt.Fprintln(out, "  "+strings.Join(cells, "\t"))
		}
		n += rec.NumRows()
		rec.Release() // the consumer releases every batch
	}
	return n, out.Flush()
}

// cell formats one value: NULL for nulls, decimals with all their scale
// digits (Arrow's ValueStr drops trailing zeros), binary as hex, anything
// else as Arrow prints it.
func cell(col arrow.Array, i int) string {
	if col.IsNull(i) {
		return "NULL"
	}
	switch a := col.(type) {
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Decimal256:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal256Type).Scale)
	case *array.Binary:
		return fmt.Sprintf("x'%x'", a.Value(i))
	case *array.LargeBinary:
		return fmt.Sprintf("x'%x'", a.Value(i))
	case *array.FixedSizeBinary:
		return fmt.Sprintf("x'%x'", a.Value(i))
	}
	return col.ValueStr(i)
}

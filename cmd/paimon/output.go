package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// Output formats of scan and the system-table commands (rowio.Formats).
const (
	formatJSONL = rowio.FormatJSONL
	formatJSON  = rowio.FormatJSON
	formatCSV   = rowio.FormatCSV
	formatTable = rowio.FormatTable
	formatCanon = rowio.FormatCanon
)

var rowFormats = rowio.Formats

// stringNotNull is the type of the name columns of db list and table list.
var stringNotNull = schema.StringType().NotNull()

// tableView shapes the table output: wide prints cells uncut; columns,
// when set, picks and orders the columns printed (in every format).
type tableView struct {
	wide    bool
	columns []string
}

// printRecords prints the batches of rr in format (rowio.WriteRecords), at
// most limit rows (0: all), counting them on bar (which may be nil).
func printRecords(w io.Writer, format string, ts *schema.TableSchema, rr array.RecordReader, limit int64, bar *progress, view tableView) error {
	err := rowio.WriteRecords(w, format, ts, rr, rowio.PrintOptions{Limit: limit, Columns: view.columns, Wide: view.wide, Progress: bar.add})
	var nc *rowio.NoColumnError
	if errors.As(err, &nc) {
		return fmt.Errorf("--columns: no column %q%s; the columns are %s", nc.Name, didYouMean(nc.Name, nc.Columns), strings.Join(nc.Columns, ", "))
	}
	return err
}

// sanitizeCell keeps a cell on one line (rowio.SanitizeCell).
func sanitizeCell(s string) string { return rowio.SanitizeCell(s) }

package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// Output formats of scan.
const (
	formatJSONL = "jsonl"
	formatJSON  = "json"
	formatCSV   = "csv"
	formatTable = "table"
	// formatCanon is jsonl in the interop harness's canon-v1 encoding
	// (FLOAT/DOUBLE as IEEE bits, MAP entries sorted), comparable line by
	// line with what Java Paimon and pypaimon dump.
	formatCanon = "canon"
)

var rowFormats = []string{formatJSONL, formatJSON, formatCSV, formatTable, formatCanon}

// rowWriter prints rows in one output format. Values are in the format/data
// model, one per column.
type rowWriter interface {
	writeRow(values []any) error
	// close writes whatever the format needs at the end (a closing bracket,
	// buffered table rows) and flushes.
	close() error
}

// column is one output column.
type column struct {
	name string
	typ  schema.DataType
}

// stringNotNull is the type of the name columns of db list and table list.
var stringNotNull = schema.StringType().NotNull()

// tableView shapes the table output: wide prints cells uncut; columns,
// when set, picks and orders the columns printed (in every format).
type tableView struct {
	wide    bool
	columns []string
}

// printRecords prints the batches of rr in format, at most limit rows (0:
// all), counting them on bar (which may be nil). Column types come from ts
// where the Arrow field names a field of it (see columnTypes). The output
// is flushed even when reading fails part way, so the rows read so far are
// not lost.
func printRecords(w io.Writer, format string, ts *schema.TableSchema, rr array.RecordReader, limit int64, bar *progress, view tableView) (err error) {
	types, err := columnTypes(ts, rr.Schema())
	if err != nil {
		return err
	}
	all := make([]column, len(types))
	names := make([]string, len(types))
	for i, f := range rr.Schema().Fields() {
		all[i] = column{name: f.Name, typ: types[i]}
		names[i] = f.Name
	}
	// idx maps each printed column to its column in the batches.
	idx := make([]int, 0, len(all))
	if view.columns == nil {
		for i := range all {
			idx = append(idx, i)
		}
	}
	for _, name := range view.columns {
		i := slices.Index(names, name)
		if i < 0 {
			return fmt.Errorf("--columns: no column %q%s; the columns are %s", name, didYouMean(name, names), strings.Join(names, ", "))
		}
		idx = append(idx, i)
	}
	cols := make([]column, len(idx))
	for j, i := range idx {
		cols[j] = all[i]
	}
	out, err := newRowWriter(format, w, cols)
	if err != nil {
		return err
	}
	if tw, ok := out.(*tableWriter); ok && view.wide {
		tw.maxWidth = 0
	}
	defer func() {
		if cerr := out.close(); err == nil {
			err = cerr
		}
	}()
	var n int64
	values := make([]any, len(cols))
	for rr.Next() {
		rec := rr.RecordBatch()
		rows := int(rec.NumRows())
		if limit > 0 {
			rows = int(min(int64(rows), limit-n))
		}
		for i := range rows {
			for c := range cols {
				if values[c], err = rowio.Value(rec.Column(idx[c]), i, cols[c].typ); err != nil {
					return fmt.Errorf("column %s: %w", cols[c].name, err)
				}
			}
			if err := out.writeRow(values); err != nil {
				return err
			}
		}
		n += int64(rows)
		bar.add(int64(rows))
		if limit > 0 && n >= limit {
			return nil
		}
	}
	return rr.Err()
}

func newRowWriter(format string, w io.Writer, cols []column) (rowWriter, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	switch format {
	case formatJSONL:
		return &jsonWriter{w: bw, cols: cols, style: rowio.Text}, nil
	case formatJSON:
		return &jsonWriter{w: bw, cols: cols, style: rowio.Text, array: true}, nil
	case formatCanon:
		return &jsonWriter{w: bw, cols: cols, style: rowio.Canon}, nil
	case formatCSV:
		return newCSVWriter(bw, cols)
	case formatTable:
		return &tableWriter{w: bw, cols: cols, maxWidth: tableMaxWidth}, nil
	}
	return nil, fmt.Errorf("unknown output format %q", format)
}

// jsonWriter prints one object per row, one per line (jsonl, canon) or as
// the elements of one array (json), its values in plain JSON (rowio.Text)
// or canon-v1 (rowio.Canon).
type jsonWriter struct {
	w     *bufio.Writer
	cols  []column
	style rowio.Style
	array bool
	rows  int
}

func (j *jsonWriter) writeRow(values []any) error {
	obj := rowio.Object{Keys: make([]string, len(j.cols)), Values: make([]any, len(j.cols))}
	for i, c := range j.cols {
		x, err := rowio.EncodeJSON(c.typ, values[i], j.style)
		if err != nil {
			return fmt.Errorf("column %s: %w", c.name, err)
		}
		obj.Keys[i], obj.Values[i] = c.name, x
	}
	b, err := obj.MarshalJSON()
	if err != nil {
		return err
	}
	if j.array {
		if j.rows == 0 {
			j.w.WriteString("[\n")
		} else {
			j.w.WriteString(",\n")
		}
	}
	j.rows++
	j.w.Write(b)
	if !j.array {
		j.w.WriteByte('\n')
	}
	return nil
}

func (j *jsonWriter) close() error {
	if j.array {
		if j.rows == 0 {
			j.w.WriteString("[]\n")
		} else {
			j.w.WriteString("\n]\n")
		}
	}
	return j.w.Flush()
}

// csvWriter prints a header line and one RFC 4180 record per row; NULL is
// an empty field.
type csvWriter struct {
	bw     *bufio.Writer
	w      *csv.Writer
	cols   []column
	record []string
}

func newCSVWriter(bw *bufio.Writer, cols []column) (*csvWriter, error) {
	c := &csvWriter{bw: bw, w: csv.NewWriter(bw), cols: cols, record: make([]string, len(cols))}
	for i, col := range cols {
		c.record[i] = col.name
	}
	if err := c.w.Write(c.record); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *csvWriter) writeRow(values []any) error {
	for i, col := range c.cols {
		s, _, err := rowio.CellText(col.typ, values[i])
		if err != nil {
			return fmt.Errorf("column %s: %w", col.name, err)
		}
		c.record[i] = s
	}
	return c.w.Write(c.record)
}

func (c *csvWriter) close() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return err
	}
	return c.bw.Flush()
}

// Table layout: column widths are measured on the first tableSampleRows
// rows, which are held back until then; later rows are cut to those widths,
// so output starts before a large scan ends and memory stays bounded.
const (
	tableSampleRows = 1000
	tableMaxWidth   = 40 // cells wider than this are cut in the middle ("…"), unless --wide
	tableNull       = "NULL"
)

// tableWriter prints aligned text columns under a header and a rule line,
// numbers right-aligned, then a row count.
type tableWriter struct {
	w *bufio.Writer
	// maxWidth is the widest a cell prints (0: uncut).
	maxWidth int
	cols     []column
	pending  [][]string // rows held back until the widths are known
	widths   []int      // nil until the header has been written
	rows     int
}

func (t *tableWriter) writeRow(values []any) error {
	cells := make([]string, len(t.cols))
	for i, col := range t.cols {
		s, ok, err := rowio.CellText(col.typ, values[i])
		if err != nil {
			return fmt.Errorf("column %s: %w", col.name, err)
		}
		if !ok {
			s = tableNull
		}
		cells[i] = sanitizeCell(s)
	}
	t.rows++
	if t.widths != nil {
		t.printRow(cells)
		return nil
	}
	t.pending = append(t.pending, cells)
	if len(t.pending) >= tableSampleRows {
		t.flushPending()
	}
	return nil
}

func (t *tableWriter) flushPending() {
	t.widths = make([]int, len(t.cols))
	header := make([]string, len(t.cols))
	for i, c := range t.cols {
		header[i] = sanitizeCell(c.name)
		t.widths[i] = t.capWidth(utf8.RuneCountInString(header[i]))
	}
	for _, r := range t.pending {
		for i, s := range r {
			t.widths[i] = max(t.widths[i], t.capWidth(utf8.RuneCountInString(s)))
		}
	}
	t.printLine(header, false)
	rule := make([]string, len(t.cols))
	for i, w := range t.widths {
		rule[i] = strings.Repeat("-", w)
	}
	t.printLine(rule, false)
	for _, r := range t.pending {
		t.printRow(r)
	}
	t.pending = nil
}

func (t *tableWriter) capWidth(n int) int {
	if t.maxWidth > 0 {
		return min(n, t.maxWidth)
	}
	return n
}

func (t *tableWriter) printRow(cells []string) { t.printLine(cells, true) }

func (t *tableWriter) printLine(cells []string, data bool) {
	var sb strings.Builder
	for i, s := range cells {
		s = truncateCell(s, t.widths[i])
		pad := strings.Repeat(" ", t.widths[i]-utf8.RuneCountInString(s))
		if i > 0 {
			sb.WriteString("  ")
		}
		if data && rightAligned(t.cols[i].typ) {
			sb.WriteString(pad)
			sb.WriteString(s)
		} else {
			sb.WriteString(s)
			if i < len(cells)-1 {
				sb.WriteString(pad)
			}
		}
	}
	sb.WriteByte('\n')
	t.w.WriteString(sb.String())
}

func (t *tableWriter) close() error {
	if t.widths == nil {
		t.flushPending()
	}
	if t.rows == 1 {
		t.w.WriteString("(1 row)\n")
	} else {
		fmt.Fprintf(t.w, "(%d rows)\n", t.rows)
	}
	return t.w.Flush()
}

func rightAligned(t schema.DataType) bool {
	return t.Root.IsNumeric()
}

// truncateCell cuts s to at most width runes, replacing its middle with
// "…": the start and the end are what tell long values apart (file and
// manifest names share their prefix, differ in their UUID and end in
// their sequence number).
func truncateCell(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if n <= width {
		return s
	}
	if width <= 1 {
		return string([]rune(s)[:max(width, 0)])
	}
	r := []rune(s)
	head := (width - 1) / 2
	tail := width - 1 - head
	return string(r[:head]) + "…" + string(r[n-tail:])
}

// sanitizeCell keeps a cell on one line (rowio.SanitizeCell).
func sanitizeCell(s string) string { return rowio.SanitizeCell(s) }

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

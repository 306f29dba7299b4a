package rowio

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/schema"
)

// Output formats of a Writer.
const (
	FormatJSONL = "jsonl" // one JSON object per row and line (Text)
	FormatJSON  = "json"  // one JSON array of the row objects (Text)
	FormatCSV   = "csv"   // a header line, then one RFC 4180 record per row
	FormatTable = "table" // aligned text columns for people
	// FormatCanon is jsonl in the interop harness's canon-v1 encoding
	// (Canon: FLOAT/DOUBLE as IEEE bits, MAP entries sorted), comparable
	// line by line with what Java Paimon and pypaimon dump.
	FormatCanon = "canon"
)

// Formats lists the output formats, FormatJSONL first.
var Formats = []string{FormatJSONL, FormatJSON, FormatCSV, FormatTable, FormatCanon}

// Column is one printed column: its heading and the type of its values.
type Column struct {
	Name string
	Type schema.DataType
}

// Writer prints rows in one output format. Values are in the format/data
// model, one per column. A Writer buffers: Close writes whatever the format
// needs at the end (a closing bracket, held-back table rows) and flushes,
// and must be called also after an error, so that the rows written so far
// are not lost.
type Writer interface {
	WriteRow(values []any) error
	Close() error
}

// Table layout: column widths are measured on the first TableSampleRows
// rows, which are held back until then; later rows are cut to those widths,
// so output starts before a large scan ends and memory stays bounded.
const (
	TableSampleRows = 1000
	// TableMaxWidth is the widest a table cell prints unless the writer is
	// wide: longer cells are cut in the middle ("…").
	TableMaxWidth = 40
	// TableNull is how the table format prints NULL.
	TableNull = "NULL"
)

// NewWriter returns a Writer of format (one of Formats) on w for cols. wide
// prints table cells uncut (other formats never cut).
func NewWriter(format string, w io.Writer, cols []Column, wide bool) (Writer, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	switch format {
	case FormatJSONL:
		return &jsonWriter{w: bw, cols: cols, style: Text}, nil
	case FormatJSON:
		return &jsonWriter{w: bw, cols: cols, style: Text, array: true}, nil
	case FormatCanon:
		return &jsonWriter{w: bw, cols: cols, style: Canon}, nil
	case FormatCSV:
		return newCSVWriter(bw, cols)
	case FormatTable:
		t := &tableWriter{w: bw, cols: cols, maxWidth: TableMaxWidth}
		if wide {
			t.maxWidth = 0
		}
		return t, nil
	}
	return nil, fmt.Errorf("unknown output format %q", format)
}

// PrintOptions shape WriteRecords.
type PrintOptions struct {
	// Limit is the most rows printed (0: all).
	Limit int64
	// Columns, when set, picks and orders the columns printed by name.
	Columns []string
	// Wide prints table cells uncut.
	Wide bool
	// Progress, when set, is called with the number of rows of each batch
	// printed.
	Progress func(rows int64)
}

// NoColumnError is the error of WriteRecords for a PrintOptions.Columns
// name that is not a column of the records.
type NoColumnError struct {
	Name    string
	Columns []string // the columns there are
}

func (e *NoColumnError) Error() string {
	return fmt.Sprintf("no column %q; the columns are %s", e.Name, strings.Join(e.Columns, ", "))
}

// WriteRecords prints the batches of rr in format. Column types come from ts
// where the Arrow field names a field of it (see ColumnTypes); ts may be nil.
// The output is flushed even when reading fails part way, so the rows read
// so far are not lost.
func WriteRecords(w io.Writer, format string, ts *schema.TableSchema, rr array.RecordReader, opts PrintOptions) (err error) {
	types, err := ColumnTypes(ts, rr.Schema())
	if err != nil {
		return err
	}
	names := make([]string, len(types))
	for i, f := range rr.Schema().Fields() {
		names[i] = f.Name
	}
	// idx maps each printed column to its column in the batches.
	var idx []int
	if opts.Columns == nil {
		idx = make([]int, len(types))
		for i := range idx {
			idx[i] = i
		}
	}
	for _, name := range opts.Columns {
		i := slices.Index(names, name)
		if i < 0 {
			return &NoColumnError{Name: name, Columns: names}
		}
		idx = append(idx, i)
	}
	cols := make([]Column, len(idx))
	for j, i := range idx {
		cols[j] = Column{Name: names[i], Type: types[i]}
	}
	out, err := NewWriter(format, w, cols, opts.Wide)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	var n int64
	values := make([]any, len(cols))
	for rr.Next() {
		rec := rr.RecordBatch()
		rows := int(rec.NumRows())
		if opts.Limit > 0 {
			rows = int(min(int64(rows), opts.Limit-n))
		}
		for i := range rows {
			for c := range cols {
				if values[c], err = Value(rec.Column(idx[c]), i, cols[c].Type); err != nil {
					return fmt.Errorf("column %s: %w", cols[c].Name, err)
				}
			}
			if err := out.WriteRow(values); err != nil {
				return err
			}
		}
		n += int64(rows)
		if opts.Progress != nil {
			opts.Progress(int64(rows))
		}
		if opts.Limit > 0 && n >= opts.Limit {
			return nil
		}
	}
	return rr.Err()
}

// ColumnTypes returns the Paimon type of every column of a scan's Arrow
// schema. The scan names its columns by field id (schema.ParquetFieldIDKey),
// so the table schema's type is used when its Arrow form is the column's;
// otherwise (no ts, a ROW pruned to some fields, a column whose type evolved
// since) the type is derived from Arrow, which loses only details that do
// not change how values print (CHAR/VARCHAR length, MULTISET read as a MAP
// of counts).
func ColumnTypes(ts *schema.TableSchema, sch *arrow.Schema) ([]schema.DataType, error) {
	out := make([]schema.DataType, sch.NumFields())
	for i, af := range sch.Fields() {
		if t, ok := tableType(ts, af); ok {
			out[i] = t
			continue
		}
		t, err := schema.FromArrowType(af.Type, af.Nullable)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", af.Name, err)
		}
		out[i] = t
	}
	return out, nil
}

func tableType(ts *schema.TableSchema, af arrow.Field) (schema.DataType, bool) {
	if ts == nil {
		return schema.DataType{}, false
	}
	v, ok := af.Metadata.GetValue(schema.ParquetFieldIDKey)
	if !ok {
		return schema.DataType{}, false
	}
	id, err := strconv.Atoi(v)
	if err != nil {
		return schema.DataType{}, false
	}
	f, ok := ts.FieldByID(id)
	if !ok {
		return schema.DataType{}, false
	}
	at, err := schema.ToArrowType(f.Type)
	if err != nil || !arrow.TypeEqual(at, af.Type) {
		return schema.DataType{}, false
	}
	return f.Type, true
}

// jsonWriter prints one object per row, one per line (jsonl, canon) or as
// the elements of one array (json), its values in plain JSON (Text) or
// canon-v1 (Canon).
type jsonWriter struct {
	w     *bufio.Writer
	cols  []Column
	style Style
	array bool
	rows  int
}

func (j *jsonWriter) WriteRow(values []any) error {
	obj := Object{Keys: make([]string, len(j.cols)), Values: make([]any, len(j.cols))}
	for i, c := range j.cols {
		x, err := EncodeJSON(c.Type, values[i], j.style)
		if err != nil {
			return fmt.Errorf("column %s: %w", c.Name, err)
		}
		obj.Keys[i], obj.Values[i] = c.Name, x
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

func (j *jsonWriter) Close() error {
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
	cols   []Column
	record []string
}

func newCSVWriter(bw *bufio.Writer, cols []Column) (*csvWriter, error) {
	c := &csvWriter{bw: bw, w: csv.NewWriter(bw), cols: cols, record: make([]string, len(cols))}
	for i, col := range cols {
		c.record[i] = col.Name
	}
	if err := c.w.Write(c.record); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *csvWriter) WriteRow(values []any) error {
	for i, col := range c.cols {
		s, _, err := CellText(col.Type, values[i])
		if err != nil {
			return fmt.Errorf("column %s: %w", col.Name, err)
		}
		c.record[i] = s
	}
	return c.w.Write(c.record)
}

func (c *csvWriter) Close() error {
	c.w.Flush()
	return errors.Join(c.w.Error(), c.bw.Flush())
}

// tableWriter prints aligned text columns under a header and a rule line,
// numbers right-aligned, then a row count.
type tableWriter struct {
	w *bufio.Writer
	// maxWidth is the widest a cell prints (0: uncut).
	maxWidth int
	cols     []Column
	pending  [][]string // rows held back until the widths are known
	widths   []int      // nil until the header has been written
	rows     int
}

func (t *tableWriter) WriteRow(values []any) error {
	cells := make([]string, len(t.cols))
	for i, col := range t.cols {
		s, ok, err := CellText(col.Type, values[i])
		if err != nil {
			return fmt.Errorf("column %s: %w", col.Name, err)
		}
		if !ok {
			s = TableNull
		}
		cells[i] = SanitizeCell(s)
	}
	t.rows++
	if t.widths != nil {
		t.printLine(cells, true)
		return nil
	}
	t.pending = append(t.pending, cells)
	if len(t.pending) >= TableSampleRows {
		t.flushPending()
	}
	return nil
}

func (t *tableWriter) flushPending() {
	t.widths = make([]int, len(t.cols))
	header := make([]string, len(t.cols))
	for i, c := range t.cols {
		header[i] = SanitizeCell(c.Name)
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
		t.printLine(r, true)
	}
	t.pending = nil
}

func (t *tableWriter) capWidth(n int) int {
	if t.maxWidth > 0 {
		return min(n, t.maxWidth)
	}
	return n
}

// printLine prints one line of cells; data cells of numeric columns are
// right-aligned.
func (t *tableWriter) printLine(cells []string, data bool) {
	var sb strings.Builder
	for i, s := range cells {
		s = TruncateCell(s, t.widths[i])
		pad := strings.Repeat(" ", t.widths[i]-utf8.RuneCountInString(s))
		if i > 0 {
			sb.WriteString("  ")
		}
		if data && t.cols[i].Type.Root.IsNumeric() {
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

func (t *tableWriter) Close() error {
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

// TruncateCell cuts s to at most width runes, replacing its middle with
// "…": the start and the end are what tell long values apart (file and
// manifest names share their prefix, differ in their UUID and end in
// their sequence number).
func TruncateCell(s string, width int) string {
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

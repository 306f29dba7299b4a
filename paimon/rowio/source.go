package rowio

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
)

// Source yields the rows of one input (a CSV, JSON lines or Parquet file)
// as batches of a table's columns, ready for paimon.TableWriter.Write.
// Values are converted exactly or not at all: the first value that does
// not parse or fit fails the source with an error naming the input, the
// line (or row) and the column.
type Source interface {
	// Next returns the next batch, or nil at the end of the input. The
	// caller releases the batch.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Close releases what the source holds; it does not close the reader
	// it was given.
	Close()
}

// Input describes the table a source fills and how it reports.
type Input struct {
	// Name is the input's name in messages ("orders.csv").
	Name string
	// Table names the table in messages ("db.orders").
	Table string
	// Fields are the table's columns and Schema the Arrow schema of the
	// batches (paimon.TableWriter.ArrowSchema), one field per column.
	Fields []schema.DataField
	Schema *arrow.Schema
	// BatchRows is the most rows per batch; 0 means 65536.
	BatchRows int
	// Delimiter separates CSV fields; 0 means ','.
	Delimiter rune
	// Allocator allocates the batches; nil means memory.DefaultAllocator.
	Allocator memory.Allocator
	// Progress, when set, is told how many more bytes of the input were
	// consumed.
	Progress func(bytes int64)
}

func (in *Input) defaults() *Input {
	c := *in
	if c.BatchRows <= 0 {
		c.BatchRows = 65536
	}
	if c.Delimiter == 0 {
		c.Delimiter = ','
	}
	if c.Allocator == nil {
		c.Allocator = memory.DefaultAllocator
	}
	if c.Progress == nil {
		c.Progress = func(int64) {}
	}
	return &c
}

// rowBatcher builds batches of the input's schema row by row.
type rowBatcher struct {
	fields []schema.DataField
	rb     *array.RecordBuilder
	rows   int
}

func newRowBatcher(in *Input) *rowBatcher {
	return &rowBatcher{fields: in.Fields, rb: array.NewRecordBuilder(in.Allocator, in.Schema)}
}

// appendRow appends one row of values, one per table column; on failure it
// returns the index of the column whose value does not fit.
func (b *rowBatcher) appendRow(vals []any) (int, error) {
	for i, f := range b.fields {
		if err := arrowrow.AppendValue(b.rb.Field(i), f.Type, vals[i]); err != nil {
			return i, err
		}
	}
	b.rows++
	return -1, nil
}

// flush returns the rows appended since the last flush as a batch; nil
// when there are none.
func (b *rowBatcher) flush() arrow.RecordBatch {
	if b.rows == 0 {
		return nil
	}
	b.rows = 0
	return b.rb.NewRecordBatch()
}

func (b *rowBatcher) release() { b.rb.Release() }

// columnIndex maps the column names of an input to table columns: unknown
// and repeated names are errors, and so is a NOT NULL table column the
// input lacks.
func columnIndex(in *Input, names []string, where string) ([]int, error) {
	byName := map[string]int{}
	for i, f := range in.Fields {
		byName[f.Name] = i
	}
	seen := make([]bool, len(in.Fields))
	out := make([]int, len(names))
	for j, n := range names {
		i, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("%s: column %q is not a column of %s (columns: %s)", where, n, in.Table, strings.Join(fieldNames(in.Fields), ", "))
		}
		if seen[i] {
			return nil, fmt.Errorf("%s: column %q appears twice", where, n)
		}
		seen[i] = true
		out[j] = i
	}
	for i, f := range in.Fields {
		if !seen[i] && !f.Type.Nullable {
			return nil, fmt.Errorf("%s: no column %q, which is NOT NULL in %s", where, f.Name, in.Table)
		}
	}
	return out, nil
}

func fieldNames(fields []schema.DataField) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}

// countingReader reports the bytes read.
type countingReader struct {
	r        io.Reader
	progress func(int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.progress(int64(n))
	return n, err
}

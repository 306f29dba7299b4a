package testtable

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
)

// BuildRecord builds an Arrow batch of the given columns from rows of
// format/data values (nil is NULL; see package data for the Go type of each
// Paimon type). The batch has the schema schema.ToArrowSchema(fields) and is
// owned by the caller, who must Release it.
func BuildRecord(mem memory.Allocator, fields []schema.DataField, rows [][]any) (arrow.RecordBatch, error) {
	sc, err := schema.ToArrowSchema(fields)
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for r, row := range rows {
		if len(row) != len(fields) {
			return nil, fmt.Errorf("%w: row %d has %d values for %d columns", ErrInvalid, r, len(row), len(fields))
		}
		for c, f := range fields {
			if err := arrowrow.AppendValue(b.Field(c), f.Type, row[c]); err != nil {
				return nil, fmt.Errorf("%w: row %d column %s: %w", ErrInvalid, r, f.Name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

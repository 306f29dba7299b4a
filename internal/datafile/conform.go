package datafile

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// conform checks that rec has the table's columns (same count, Arrow types
// equal to schema.ToArrowSchema's up to field metadata, no NULL in a NOT
// NULL column) and returns it relabelled with the table's Arrow schema,
// whose field metadata carries the Parquet field ids. The result shares
// rec's arrays and must be released.
func conform(sc *arrow.Schema, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	fields := sc.Fields()
	if int(rec.NumCols()) != len(fields) {
		return nil, fmt.Errorf("%w: the batch has %d columns, the table %d", ErrInvalid, rec.NumCols(), len(fields))
	}
	for i, f := range fields {
		col := rec.Column(i)
		if !arrow.TypeEqual(col.DataType(), f.Type) {
			return nil, fmt.Errorf("%w: column %d (%s) is %s, the table wants %s", ErrInvalid, i, f.Name, col.DataType(), f.Type)
		}
		if !f.Nullable && col.NullN() > 0 {
			return nil, fmt.Errorf("%w: column %s is NOT NULL but the batch has %d nulls in it", ErrInvalid, f.Name, col.NullN())
		}
	}
	return array.NewRecordBatch(sc, rec.Columns(), rec.NumRows()), nil
}

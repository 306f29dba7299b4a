package paimon

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Row tracking (Java CoreOptions row-tracking.enabled, 1.4+): every row of
// an append table has a stable row id and the sequence number of the commit
// that last wrote it. Neither is stored in the files a writer adds: the
// commit gives each new file a first row id (DataFileMeta._FIRST_ROW_ID) and
// its own snapshot id as sequence numbers, and a reader derives
//
//	_ROW_ID          = _FIRST_ROW_ID + the row's position in the file
//	_SEQUENCE_NUMBER = the file's _MAX_SEQUENCE_NUMBER
//
// A compacted file mixes rows of several files, so it carries both as
// physical columns (its _WRITE_COLS name them); a non-null physical value
// wins over the derived one (Java DataFileRecordReader with
// ColumnarRowIterator.assignRowTracking / FallbackMappingRow).

const (
	rowIDFieldName    = "_ROW_ID"
	sequenceFieldName = "_SEQUENCE_NUMBER"
)

// The row-tracking system fields (Java SpecialFields.ROW_ID and
// SEQUENCE_NUMBER): the ids Java writes into compacted files and the types
// the $row_tracking table returns.
var (
	rowIDField    = schema.NewField(math.MaxInt32-5, rowIDFieldName, schema.BigIntType().NotNull())
	sequenceField = schema.NewField(math.MaxInt32-1, sequenceFieldName, schema.BigIntType().NotNull())
)

// isRowTrackingField reports whether f is one of the row-tracking system
// fields.
func isRowTrackingField(f schema.DataField) bool {
	return f.ID == rowIDField.ID || f.ID == sequenceField.ID
}

// rowTrackingFields are the system fields a read of a row-tracking table
// may select, after the table's own fields (Java
// SpecialFields.rowTypeWithRowTracking).
func rowTrackingFields(fields []schema.DataField) []schema.DataField {
	out := make([]schema.DataField, 0, len(fields)+2)
	out = append(out, fields...)
	return append(out, rowIDField, sequenceField)
}

// physicalFields are the columns a data file holds: the fields of the schema
// it was written with, or, when the file lists its columns (_WRITE_COLS: a
// partial-column file of a data-evolution table, or a compacted file of a
// row-tracking table), those fields in that order, with the row-tracking
// system fields (nullable) for the system names. A listed column the schema
// lacks is an error: the file does not fit its own schema.
func physicalFields(fileSchema *schema.TableSchema, f *manifest.DataFileMeta) ([]schema.DataField, error) {
	if f.WriteCols == nil {
		return fileSchema.Fields, nil
	}
	out := make([]schema.DataField, 0, len(f.WriteCols))
	for _, name := range f.WriteCols {
		if fld, ok := fileSchema.FieldByName(name); ok {
			out = append(out, fld)
			continue
		}
		switch name {
		case rowIDFieldName:
			fld := rowIDField
			fld.Type = fld.Type.Copy(true)
			out = append(out, fld)
		case sequenceFieldName:
			fld := sequenceField
			fld.Type = fld.Type.Copy(true)
			out = append(out, fld)
		default:
			return nil, fmt.Errorf("%w: data file %s lists column %q, which schema %d does not have",
				ErrCorrupt, f.FileName, name, fileSchema.ID)
		}
	}
	return out, nil
}

// rowTrackingFill completes the row-tracking columns of batches read from
// one data file: the positions of _ROW_ID and _SEQUENCE_NUMBER in the batch
// (-1 when not read) and the file's first row id and maximum sequence
// number.
type rowTrackingFill struct {
	rowIDCol, seqCol int
	file             *manifest.DataFileMeta
}

// newRowTrackingFill returns the fill for reading fields of file f, or nil
// when fields select no row-tracking column.
func newRowTrackingFill(fields []schema.DataField, f *manifest.DataFileMeta) *rowTrackingFill {
	fill := &rowTrackingFill{rowIDCol: -1, seqCol: -1, file: f}
	for i, fld := range fields {
		switch fld.ID {
		case rowIDField.ID:
			fill.rowIDCol = i
		case sequenceField.ID:
			fill.seqCol = i
		}
	}
	if fill.rowIDCol < 0 && fill.seqCol < 0 {
		return nil
	}
	return fill
}

// apply replaces the null values of the row-tracking columns of rec, whose
// first row is at file position pos, by the derived ones. It owns rec.
func (fill *rowTrackingFill) apply(rec arrow.RecordBatch, pos int64, mem memory.Allocator) (arrow.RecordBatch, error) {
	if fill == nil {
		return rec, nil
	}
	cols := rec.Columns()
	out := make([]arrow.Array, len(cols))
	copy(out, cols)
	var owned []arrow.Array
	defer func() {
		for _, a := range owned {
			a.Release()
		}
	}()
	if fill.rowIDCol >= 0 {
		first := fill.file.FirstRowID
		a, err := fillInt64(cols[fill.rowIDCol], mem, func(i int64) (int64, error) {
			if first == nil {
				return 0, fmt.Errorf("%w: data file %s of a row-tracking table has neither a first row id nor a _ROW_ID value",
					ErrCorrupt, fill.file.FileName)
			}
			return *first + pos + i, nil
		})
		if err != nil {
			rec.Release()
			return nil, err
		}
		owned = append(owned, a)
		out[fill.rowIDCol] = a
	}
	if fill.seqCol >= 0 {
		seq := fill.file.MaxSequenceNumber
		a, err := fillInt64(cols[fill.seqCol], mem, func(int64) (int64, error) { return seq, nil })
		if err != nil {
			rec.Release()
			return nil, err
		}
		owned = append(owned, a)
		out[fill.seqCol] = a
	}
	next := array.NewRecordBatch(rec.Schema(), out, rec.NumRows())
	rec.Release()
	return next, nil
}

// fillInt64 returns col (BIGINT) with each null at row i replaced by
// derive(i).
func fillInt64(col arrow.Array, mem memory.Allocator, derive func(i int64) (int64, error)) (arrow.Array, error) {
	in, ok := col.(*array.Int64)
	if !ok {
		return nil, fmt.Errorf("paimon: row-tracking column has type %s, want int64", col.DataType())
	}
	b := array.NewInt64Builder(mem)
	defer b.Release()
	n := in.Len()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if in.IsValid(i) {
			b.UnsafeAppend(in.Value(i))
			continue
		}
		v, err := derive(int64(i))
		if err != nil {
			return nil, err
		}
		b.UnsafeAppend(v)
	}
	return b.NewArray(), nil
}

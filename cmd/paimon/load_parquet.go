package main

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
)

// parquetSource reads a Parquet file with pqarrow and rebinds its columns,
// matched by name, to the table's.
type parquetSource struct {
	in        *loadInput
	f         *os.File
	pf        *file.Reader
	rr        pqarrow.RecordReader
	cols      []parquetColumn // one per table column
	rowsRead  int64
	totalRows int64
	size      int64
	reported  int64
}

// parquetColumn says where a table column comes from.
type parquetColumn struct {
	src     int // column of the file's batches; -1 when the file lacks it
	srcType schema.DataType
	// same is true when the file's Arrow type is the table's, so the
	// column is used as it is.
	same bool
}

func openParquetSource(ctx context.Context, in *loadInput) (_ loadSource, err error) {
	f, err := os.Open(in.path)
	if err != nil {
		return nil, err
	}
	s := &parquetSource{in: in, f: f}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	s.size = fi.Size()
	if s.pf, err = file.NewParquetReader(f); err != nil {
		return nil, fmt.Errorf("%s: not a Parquet file: %w", in.path, err)
	}
	s.totalRows = s.pf.NumRows()
	fr, err := pqarrow.NewFileReader(s.pf, pqarrow.ArrowReadProperties{BatchSize: int64(in.batchRows)}, in.mem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.path, err)
	}
	sch, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.path, err)
	}
	names := make([]string, sch.NumFields())
	for j, af := range sch.Fields() {
		names[j] = af.Name
	}
	idx, err := columnIndex(in, names, in.path)
	if err != nil {
		return nil, err
	}
	s.cols = make([]parquetColumn, len(in.fields))
	for i := range s.cols {
		s.cols[i].src = -1
	}
	for j, i := range idx {
		af, dst := sch.Field(j), in.fields[i]
		c := &s.cols[i]
		c.src = j
		if arrow.TypeEqual(af.Type, in.arrow.Field(i).Type) {
			c.same = true
			continue
		}
		if c.srcType, err = schema.FromArrowType(af.Type, af.Nullable); err != nil {
			return nil, fmt.Errorf("%s: column %s has Arrow type %s, which has no Paimon counterpart: %w", in.path, af.Name, af.Type, err)
		}
		if !castable(c.srcType, dst.Type) {
			return nil, fmt.Errorf("%s: column %s is %s in the file and cannot be cast safely to the table's %s",
				in.path, af.Name, c.srcType.String(), dst.Type.String())
		}
	}
	if s.rr, err = fr.GetRecordReader(ctx, nil, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", in.path, err)
	}
	return s, nil
}

func (s *parquetSource) next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !s.rr.Next() {
		if err := s.rr.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", s.in.path, err)
		}
		s.in.bar.add(s.size - s.reported)
		s.reported = s.size
		return nil, nil
	}
	rec := s.rr.RecordBatch()
	n := int(rec.NumRows())
	cols := make([]arrow.Array, len(s.cols))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range s.cols {
		var err error
		if cols[i], err = s.column(rec, i, c, n); err != nil {
			return nil, err
		}
	}
	out := array.NewRecordBatch(s.in.arrow, cols, int64(n))
	s.rowsRead += int64(n)
	if s.totalRows > 0 {
		want := s.size * s.rowsRead / s.totalRows
		s.in.bar.add(want - s.reported)
		s.reported = want
	}
	return out, nil
}

// column builds table column i of a batch of n rows.
func (s *parquetSource) column(rec arrow.RecordBatch, i int, c parquetColumn, n int) (arrow.Array, error) {
	dst := s.in.fields[i]
	dstArrow := s.in.arrow.Field(i).Type
	if c.src < 0 {
		return array.MakeArrayOfNull(s.in.mem, dstArrow, n), nil
	}
	src := rec.Column(c.src)
	if c.same {
		if !dst.Type.Nullable && src.NullN() > 0 {
			for r := range n {
				if src.IsNull(r) {
					return nil, s.rowError(r, dst.Name, badValue("column is NOT NULL but the value is null"))
				}
			}
		}
		src.Retain()
		return src, nil
	}
	b := array.NewBuilder(s.in.mem, dstArrow)
	defer b.Release()
	b.Reserve(n)
	for r := range n {
		v, err := parquet.ArrowValue(src, r, c.srcType)
		if err != nil {
			return nil, s.rowError(r, dst.Name, err)
		}
		if v, err = castValue(c.srcType, dst.Type, v); err != nil {
			return nil, s.rowError(r, dst.Name, err)
		}
		if err := notNull(dst.Type, v, "column"); err != nil {
			return nil, s.rowError(r, dst.Name, err)
		}
		if err := arrowrow.AppendValue(b, dst.Type, v); err != nil {
			return nil, s.rowError(r, dst.Name, err)
		}
	}
	return b.NewArray(), nil
}

func (s *parquetSource) rowError(r int, col string, err error) error {
	return fmt.Errorf("%s: row %d: column %s: %w", s.in.path, s.rowsRead+int64(r)+1, col, err)
}

func (s *parquetSource) close() {
	if s.rr != nil {
		s.rr.Release()
	}
	if s.pf != nil {
		s.pf.Close()
	}
	s.f.Close()
}

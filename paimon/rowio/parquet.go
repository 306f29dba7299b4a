package rowio

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	parquetio "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
)

// parquetSource reads a Parquet file with pqarrow and rebinds its columns,
// matched by name, to the table's.
type parquetSource struct {
	in        *Input
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

// NewParquet reads a Parquet file; its columns are matched to the table's
// by name, and a column whose type differs from the table's is cast when
// every value converts exactly (Castable, Cast).
func NewParquet(ctx context.Context, r parquetio.ReaderAtSeeker, input *Input) (_ Source, err error) {
	in := input.defaults()
	s := &parquetSource{in: in}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.size, err = r.Seek(0, io.SeekEnd); err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	// The file reader closes a reader that is an io.Closer: hide Close,
	// the caller owns r.
	if s.pf, err = file.NewParquetReader(struct{ parquetio.ReaderAtSeeker }{r}); err != nil {
		return nil, fmt.Errorf("%s: not a Parquet file: %w", in.Name, err)
	}
	s.totalRows = s.pf.NumRows()
	fr, err := pqarrow.NewFileReader(s.pf, pqarrow.ArrowReadProperties{BatchSize: int64(in.BatchRows)}, in.Allocator)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	sch, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	names := make([]string, sch.NumFields())
	for j, af := range sch.Fields() {
		names[j] = af.Name
	}
	idx, err := columnIndex(in, names, in.Name)
	if err != nil {
		return nil, err
	}
	s.cols = make([]parquetColumn, len(in.Fields))
	for i := range s.cols {
		s.cols[i].src = -1
	}
	for j, i := range idx {
		af, dst := sch.Field(j), in.Fields[i]
		c := &s.cols[i]
		c.src = j
		if arrow.TypeEqual(af.Type, in.Schema.Field(i).Type) {
			c.same = true
			continue
		}
		if c.srcType, err = schema.FromArrowType(af.Type, af.Nullable); err != nil {
			return nil, fmt.Errorf("%s: column %s has Arrow type %s, which has no Paimon counterpart: %w", in.Name, af.Name, af.Type, err)
		}
		if !Castable(c.srcType, dst.Type) {
			return nil, fmt.Errorf("%s: column %s is %s in the file and cannot be cast safely to the table's %s",
				in.Name, af.Name, c.srcType.String(), dst.Type.String())
		}
	}
	if s.rr, err = fr.GetRecordReader(ctx, nil, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	return s, nil
}

func (s *parquetSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !s.rr.Next() {
		if err := s.rr.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", s.in.Name, err)
		}
		s.in.Progress(s.size - s.reported)
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
	out := array.NewRecordBatch(s.in.Schema, cols, int64(n))
	s.rowsRead += int64(n)
	if s.totalRows > 0 {
		want := s.size * s.rowsRead / s.totalRows
		s.in.Progress(want - s.reported)
		s.reported = want
	}
	return out, nil
}

// column builds table column i of a batch of n rows.
func (s *parquetSource) column(rec arrow.RecordBatch, i int, c parquetColumn, n int) (arrow.Array, error) {
	dst := s.in.Fields[i]
	dstArrow := s.in.Schema.Field(i).Type
	if c.src < 0 {
		return array.MakeArrayOfNull(s.in.Allocator, dstArrow, n), nil
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
	b := array.NewBuilder(s.in.Allocator, dstArrow)
	defer b.Release()
	b.Reserve(n)
	for r := range n {
		v, err := parquet.ArrowValueView(src, r, c.srcType)
		if err != nil {
			return nil, s.rowError(r, dst.Name, err)
		}
		if v, err = Cast(c.srcType, dst.Type, v); err != nil {
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
	return fmt.Errorf("%s: row %d: column %s: %w", s.in.Name, s.rowsRead+int64(r)+1, col, err)
}

func (s *parquetSource) Close() {
	if s.rr != nil {
		s.rr.Release()
	}
	if s.pf != nil {
		s.pf.Close()
	}
}

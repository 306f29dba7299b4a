package rowio

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// csvSource reads CSV with a header line.
type csvSource struct {
	in   *Input
	r    *csv.Reader
	cols []int // table column of each CSV column
	b    *rowBatcher
	vals []any
}

// NewCSV reads CSV (RFC 4180 quoting) whose first line names the columns;
// an empty field is NULL, other fields are parsed with ParseText.
func NewCSV(rd io.Reader, input *Input) (Source, error) {
	in := input.defaults()
	r := csv.NewReader(bufio.NewReaderSize(&countingReader{r: rd, progress: in.Progress}, 256<<10))
	r.Comma = in.Delimiter
	r.ReuseRecord = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file: want a header line with column names", in.Name)
	}
	if err != nil {
		return nil, csvError(in.Name, err)
	}
	names := make([]string, len(header))
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\uFEFF") // a byte order mark
		}
		names[i] = strings.TrimSpace(h)
	}
	cols, err := columnIndex(in, names, in.Name+":1")
	if err != nil {
		return nil, err
	}
	return &csvSource{in: in, r: r, cols: cols, b: newRowBatcher(in), vals: make([]any, len(in.Fields))}, nil
}

func (s *csvSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for s.b.rows < s.in.BatchRows {
		rec, err := s.r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(s.in.Name, err)
		}
		clear(s.vals)
		for j, cell := range rec {
			i := s.cols[j]
			f := s.in.Fields[i]
			line, _ := s.r.FieldPos(j)
			if cell == "" {
				if !f.Type.Nullable {
					return nil, fmt.Errorf("%s:%d: column %s is NOT NULL but the value is empty", s.in.Name, line, f.Name)
				}
				continue
			}
			v, err := ParseText(f.Type, cell)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %s: %w", s.in.Name, line, f.Name, err)
			}
			s.vals[i] = v
		}
		if i, err := s.b.appendRow(s.vals); err != nil {
			line, _ := s.r.FieldPos(0)
			return nil, fmt.Errorf("%s:%d: column %s: %w", s.in.Name, line, s.in.Fields[i].Name, err)
		}
	}
	return s.b.flush(), nil
}

func (s *csvSource) Close() { s.b.release() }

// csvError puts a CSV syntax error on one line as FILE:LINE: message.
func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %w", path, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

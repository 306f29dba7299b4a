package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// csvSource reads a CSV file with a header line.
type csvSource struct {
	in   *loadInput
	f    *os.File
	r    *csv.Reader
	cols []int // table column of each CSV column
	b    *rowBatcher
	vals []any
}

func openCSVSource(in *loadInput) (loadSource, error) {
	f, err := os.Open(in.path)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bufio.NewReaderSize(&countingReader{r: f, bar: in.bar}, 256<<10))
	r.Comma = in.delimiter
	r.ReuseRecord = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		f.Close()
		return nil, fmt.Errorf("%s: empty file: want a header line with column names", in.path)
	}
	if err != nil {
		f.Close()
		return nil, csvError(in.path, err)
	}
	names := make([]string, len(header))
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\uFEFF") // a byte order mark
		}
		names[i] = strings.TrimSpace(h)
	}
	cols, err := columnIndex(in, names, in.path+":1")
	if err != nil {
		f.Close()
		return nil, err
	}
	return &csvSource{in: in, f: f, r: r, cols: cols, b: newRowBatcher(in), vals: make([]any, len(in.fields))}, nil
}

func (s *csvSource) next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for s.b.rows < s.in.batchRows {
		rec, err := s.r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(s.in.path, err)
		}
		clear(s.vals)
		for j, cell := range rec {
			i := s.cols[j]
			f := s.in.fields[i]
			line, _ := s.r.FieldPos(j)
			if cell == "" {
				if !f.Type.Nullable {
					return nil, fmt.Errorf("%s:%d: column %s is NOT NULL but the value is empty", s.in.path, line, f.Name)
				}
				continue
			}
			v, err := parseText(f.Type, cell)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %s: %w", s.in.path, line, f.Name, err)
			}
			s.vals[i] = v
		}
		if i, err := s.b.appendRow(s.vals); err != nil {
			line, _ := s.r.FieldPos(0)
			return nil, fmt.Errorf("%s:%d: column %s: %w", s.in.path, line, s.in.fields[i].Name, err)
		}
	}
	return s.b.flush(), nil
}

func (s *csvSource) close() {
	s.b.release()
	s.f.Close()
}

// csvError puts a CSV syntax error on one line as FILE:LINE: message.
func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %w", path, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// countingReader reports the bytes read to a progress bar.
type countingReader struct {
	r   io.Reader
	bar *progress
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bar.add(int64(n))
	return n, err
}

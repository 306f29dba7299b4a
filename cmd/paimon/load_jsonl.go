package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// jsonlSource reads a file of JSON objects, one per line.
type jsonlSource struct {
	in     *loadInput
	f      *os.File
	r      *bufio.Reader
	line   int
	byName map[string]int
	b      *rowBatcher
	vals   []any
}

func openJSONLSource(in *loadInput) (loadSource, error) {
	f, err := os.Open(in.path)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]int, len(in.fields))
	for i, fl := range in.fields {
		byName[fl.Name] = i
	}
	return &jsonlSource{
		in: in, f: f, r: bufio.NewReaderSize(&countingReader{r: f, bar: in.bar}, 256<<10),
		byName: byName, b: newRowBatcher(in), vals: make([]any, len(in.fields)),
	}, nil
}

func (s *jsonlSource) next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for s.b.rows < s.in.batchRows {
		text, err := s.r.ReadBytes('\n')
		if len(text) == 0 && errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", s.in.path, err)
		}
		s.line++
		text = bytes.TrimSpace(text)
		if s.line == 1 {
			text = bytes.TrimPrefix(text, []byte("\uFEFF"))
		}
		if len(text) == 0 {
			continue
		}
		if err := s.parseLine(text); err != nil {
			return nil, err
		}
	}
	return s.b.flush(), nil
}

func (s *jsonlSource) parseLine(text []byte) error {
	where := fmt.Sprintf("%s:%d", s.in.path, s.line)
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return fmt.Errorf("%s: not a JSON object: %s", where, jsonErrorText(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: more than one JSON value on the line", where)
	}
	clear(s.vals)
	for k, j := range obj {
		i, ok := s.byName[k]
		if !ok {
			return fmt.Errorf("%s: %q is not a column of %s (columns: %s)", where, k, s.in.table, strings.Join(fieldNames(s.in.fields), ", "))
		}
		v, err := decodeJSONValue(s.in.fields[i].Type, j)
		if err != nil {
			return fmt.Errorf("%s: column %s: %w", where, k, err)
		}
		s.vals[i] = v
	}
	for i, f := range s.in.fields {
		if s.vals[i] == nil && !f.Type.Nullable {
			return fmt.Errorf("%s: column %s is NOT NULL but the value is missing or null", where, f.Name)
		}
	}
	if i, err := s.b.appendRow(s.vals); err != nil {
		return fmt.Errorf("%s: column %s: %w", where, s.in.fields[i].Name, err)
	}
	return nil
}

func jsonErrorText(err error) string {
	if err == nil {
		return "null"
	}
	return err.Error()
}

func (s *jsonlSource) close() {
	s.b.release()
	s.f.Close()
}

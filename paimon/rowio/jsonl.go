package rowio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// jsonlSource reads JSON objects, one per line.
type jsonlSource struct {
	in     *Input
	r      *bufio.Reader
	line   int
	byName map[string]int
	b      *rowBatcher
	vals   []any
}

// NewJSONLines reads one JSON object per line, keyed by column name; a
// missing key is NULL, values are decoded with DecodeJSON. Blank lines are
// skipped.
func NewJSONLines(rd io.Reader, input *Input) (Source, error) {
	in := input.defaults()
	byName := make(map[string]int, len(in.Fields))
	for i, fl := range in.Fields {
		byName[fl.Name] = i
	}
	return &jsonlSource{
		in: in, r: bufio.NewReaderSize(&countingReader{r: rd, progress: in.Progress}, 256<<10),
		byName: byName, b: newRowBatcher(in), vals: make([]any, len(in.Fields)),
	}, nil
}

func (s *jsonlSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for s.b.rows < s.in.BatchRows {
		text, err := s.r.ReadBytes('\n')
		if len(text) == 0 && errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", s.in.Name, err)
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
	where := fmt.Sprintf("%s:%d", s.in.Name, s.line)
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return fmt.Errorf("%s: not a JSON object: %s", where, jsonErrorText(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: more than one JSON value on the line", where)
	}
	if k := duplicateKey(text); k != "" {
		// encoding/json keeps the last value: one of two values for a
		// column would be dropped silently.
		return fmt.Errorf("%s: column %q appears twice", where, k)
	}
	clear(s.vals)
	for k, j := range obj {
		i, ok := s.byName[k]
		if !ok {
			return fmt.Errorf("%s: %q is not a column of %s (columns: %s)", where, k, s.in.Table, strings.Join(fieldNames(s.in.Fields), ", "))
		}
		v, err := DecodeJSON(s.in.Fields[i].Type, j)
		if err != nil {
			return fmt.Errorf("%s: column %s: %w", where, k, err)
		}
		s.vals[i] = v
	}
	for i, f := range s.in.Fields {
		if s.vals[i] == nil && !f.Type.Nullable {
			return fmt.Errorf("%s: column %s is NOT NULL but the value is missing or null", where, f.Name)
		}
	}
	if i, err := s.b.appendRow(s.vals); err != nil {
		return fmt.Errorf("%s: column %s: %w", where, s.in.Fields[i].Name, err)
	}
	return nil
}

func jsonErrorText(err error) string {
	if err == nil {
		return "null"
	}
	return err.Error()
}

func (s *jsonlSource) Close() { s.b.release() }

// duplicateKey returns a member name that appears twice in the JSON object
// text (already known to be valid), or "".
func duplicateKey(text []byte) string {
	dec := json.NewDecoder(bytes.NewReader(text))
	if _, err := dec.Token(); err != nil { // '{'
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := tok.(string)
		if seen[k] {
			return k
		}
		seen[k] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return ""
		}
	}
	return ""
}

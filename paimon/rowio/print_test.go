package rowio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

func TestColumnTypes(t *testing.T) {
	ts := &schema.TableSchema{Fields: []schema.DataField{
		schema.NewField(0, "s", schema.CharType(3)),
		schema.NewField(1, "ms", schema.MultisetType(schema.StringType())),
		schema.NewField(2, "r", schema.RowType(schema.NewField(3, "a", schema.IntType()), schema.NewField(4, "b", schema.IntType()))),
	}}
	pruned := schema.NewField(2, "r", schema.RowType(schema.NewField(4, "b", schema.IntType())))
	fields := []schema.DataField{ts.Fields[0], ts.Fields[1], pruned}
	sch, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	types, err := ColumnTypes(ts, sch)
	require.NoError(t, err)
	require.Equal(t, schema.Char, types[0].Root, "table type used")
	require.Equal(t, schema.Multiset, types[1].Root, "table type used")
	require.Equal(t, schema.Row, types[2].Root)
	require.Len(t, types[2].Fields, 1, "pruned ROW derived from Arrow")

	// Without field ids every type comes from Arrow.
	plain := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	types, err = ColumnTypes(ts, plain)
	require.NoError(t, err)
	require.Equal(t, schema.BigInt, types[0].Root)
}

func TestRowWriters(t *testing.T) {
	cols := []Column{{Name: "id", Type: schema.IntType()}, {Name: "name", Type: schema.StringType()}, {Name: "score", Type: schema.DoubleType()}}
	rows := [][]any{{int32(1), "a,\"b\"", 1.5}, {int32(22), nil, nil}}
	tests := []struct {
		format string
		want   string
	}{
		{FormatJSONL, "{\"id\":1,\"name\":\"a,\\\"b\\\"\",\"score\":1.5}\n{\"id\":22,\"name\":null,\"score\":null}\n"},
		{FormatJSON, "[\n{\"id\":1,\"name\":\"a,\\\"b\\\"\",\"score\":1.5},\n{\"id\":22,\"name\":null,\"score\":null}\n]\n"},
		{FormatCanon, "{\"id\":1,\"name\":\"a,\\\"b\\\"\",\"score\":\"f64:3ff8000000000000\"}\n{\"id\":22,\"name\":null,\"score\":null}\n"},
		{FormatCSV, "id,name,score\n1,\"a,\"\"b\"\"\",1.5\n22,,\n"},
		{FormatTable, "" +
			"id  name   score\n" +
			"--  -----  -----\n" +
			" 1  a,\"b\"    1.5\n" +
			"22  NULL    NULL\n" +
			"(2 rows)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := NewWriter(tt.format, &buf, cols, false)
			require.NoError(t, err)
			for _, r := range rows {
				require.NoError(t, w.WriteRow(r))
			}
			require.NoError(t, w.Close())
			require.Equal(t, tt.want, buf.String())
		})
	}
	t.Run("empty", func(t *testing.T) {
		for format, want := range map[string]string{
			FormatJSONL: "",
			FormatJSON:  "[]\n",
			FormatCSV:   "id,name,score\n",
			FormatTable: "id  name  score\n--  ----  -----\n(0 rows)\n",
		} {
			var buf bytes.Buffer
			w, err := NewWriter(format, &buf, cols, false)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			require.Equal(t, want, buf.String(), format)
		}
	})
	t.Run("json output is valid", func(t *testing.T) {
		var buf bytes.Buffer
		w, err := NewWriter(FormatJSON, &buf, cols, false)
		require.NoError(t, err)
		for _, r := range rows {
			require.NoError(t, w.WriteRow(r))
		}
		require.NoError(t, w.Close())
		var v []map[string]any
		require.NoError(t, json.Unmarshal(buf.Bytes(), &v))
		require.Len(t, v, 2)
	})
}

// TestTableWriterStreams checks that rows after the width sample are cut to
// the sampled widths, so every line stays aligned.
func TestTableWriterStreams(t *testing.T) {
	cols := []Column{{Name: "n", Type: schema.IntType()}, {Name: "s", Type: schema.StringType()}}
	var buf bytes.Buffer
	w, err := NewWriter(FormatTable, &buf, cols, false)
	require.NoError(t, err)
	for i := range TableSampleRows + 5 {
		s := "x"
		if i >= TableSampleRows {
			s = strings.Repeat("y", 30) // wider than anything sampled
		}
		require.NoError(t, w.WriteRow([]any{int32(i), s}))
	}
	require.NoError(t, w.Close())
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, TableSampleRows+5+3)
	width := utf8.RuneCountInString(lines[1])
	for _, l := range lines[2 : len(lines)-1] {
		require.Equal(t, width, utf8.RuneCountInString(l), "%q", l)
	}
	require.Equal(t, fmt.Sprintf("(%d rows)", TableSampleRows+5), lines[len(lines)-1])
}

func TestTruncateAndSanitize(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 4, "a…ef"},
		{"abcdefg", 5, "ab…fg"},
		{"üüüüü", 3, "ü…ü"},
		{"manifest-6e44d227-47ee-4701-8ba9-522b2f834463-0", 40, "manifest-6e44d227-4…-8ba9-522b2f834463-0"},
		{"ab", 1, "a"},
		{"ab", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			require.Equal(t, tt.want, TruncateCell(tt.in, tt.width))
		})
	}
	require.Equal(t, `a\nb\tc?`, SanitizeCell("a\nb\tc\x00"))
	require.Equal(t, "plain", SanitizeCell("plain"))
}

func FuzzTableCell(f *testing.F) {
	for _, s := range []string{"", "abc", "a\nb", "üüü😀", "\x00\x7f\xff"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = max(0, width%100)
		c := TruncateCell(SanitizeCell(s), width)
		if utf8.RuneCountInString(c) > width {
			t.Fatalf("%q cut to %d runes is %q", s, width, c)
		}
		if strings.ContainsFunc(c, isControl) {
			t.Fatalf("control character left in %q", c)
		}
	})
}

package testtable_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/testtable"
)

// newSchema builds schema 0 of a table.
func newSchema(t *testing.T, build func(b *schema.SchemaBuilder)) *schema.TableSchema {
	t.Helper()
	b := schema.NewSchemaBuilder()
	build(b)
	s, err := b.Build()
	require.NoError(t, err)
	ts, err := schema.NewTableSchema(0, s, time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC).UnixMilli())
	require.NoError(t, err)
	return ts
}

// record builds a batch and releases it at the end of the test.
func record(t *testing.T, mem memory.Allocator, fields []schema.DataField, rows [][]any) arrow.RecordBatch {
	t.Helper()
	rec, err := testtable.BuildRecord(mem, fields, rows)
	require.NoError(t, err)
	t.Cleanup(rec.Release)
	return rec
}

// readRows reads a Parquet or Avro data file back with the table's columns.
func readRows(t *testing.T, fsys fs.FS, path string, fields []schema.DataField) [][]any {
	t.Helper()
	ctx := context.Background()
	raw, err := fs.ReadFile(ctx, fsys, path)
	require.NoError(t, err)
	var batches func(yield func(arrow.RecordBatch, error) bool)
	if strings.HasSuffix(path, ".avro") {
		r, err := avrofile.Open(ctx, bytes.NewReader(raw), int64(len(raw)), nil)
		require.NoError(t, err)
		batches = r.Read(ctx, fields, nil)
	} else {
		r, err := parquet.Open(ctx, bytes.NewReader(raw), int64(len(raw)), nil)
		require.NoError(t, err)
		batches = r.Read(ctx, fields, nil)
	}
	var rows [][]any
	for rec, err := range batches {
		require.NoError(t, err)
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]any, len(fields))
			for c, f := range fields {
				row[c], err = parquet.ArrowValue(rec.Column(c), i, f.Type)
				require.NoError(t, err)
			}
			rows = append(rows, row)
		}
		rec.Release()
	}
	return rows
}

// decodeStats decodes min/max rows of stats over the named columns.
func decodeStats(t *testing.T, fields []schema.DataField, cols []string, st manifest.SimpleStats) (mins, maxs []any) {
	t.Helper()
	var types []schema.DataType
	for _, f := range fields {
		if cols == nil {
			types = append(types, f.Type.Copy(true))
			continue
		}
		for _, c := range cols {
			if c == f.Name {
				types = append(types, f.Type.Copy(true))
			}
		}
	}
	dec := func(b []byte) []any {
		row, err := binaryrow.ParseSerialized(b)
		require.NoError(t, err)
		require.Equal(t, len(types), row.Arity())
		vs, err := row.Values(types)
		require.NoError(t, err)
		return vs
	}
	return dec(st.MinValues), dec(st.MaxValues)
}

// canonRows renders rows as canon-v1 lines, in order.
func canonRows(t *testing.T, fields []schema.DataField, rows [][]any) []string {
	t.Helper()
	out := make([]string, len(rows))
	for i, r := range rows {
		line, err := canon.EncodeRow(fields, r)
		require.NoError(t, err)
		out[i] = string(line)
	}
	return out
}

// canonLine renders one row as a canonical canon-v1 line.
func canonLine(t *testing.T, fields []schema.DataField, vals []any) string {
	t.Helper()
	line, err := canon.EncodeRow(fields, vals)
	require.NoError(t, err)
	s, err := canon.Canonicalize(line)
	require.NoError(t, err)
	return s
}

func counts(xs ...int64) []*int64 {
	out := make([]*int64, len(xs))
	for i := range xs {
		out[i] = &xs[i]
	}
	return out
}

func dec(unscaled int64, p, s int) data.Decimal { return data.NewDecimalFromInt64(unscaled, p, s) }

package datafile_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// clock is the fixed time tests stamp files with.
var clock = time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)

// tableSchema builds schema 3 of a table from columns and options.
func tableSchema(t *testing.T, opts map[string]string, cols ...schema.DataField) *schema.TableSchema {
	t.Helper()
	b := schema.NewSchemaBuilder().Options(opts)
	for _, c := range cols {
		b.Column(c.Name, c.Type)
	}
	s, err := b.Build()
	require.NoError(t, err)
	ts, err := schema.NewTableSchema(3, s, clock.UnixMilli())
	require.NoError(t, err)
	return ts
}

func col(name string, t schema.DataType) schema.DataField { return schema.NewField(0, name, t) }

// record builds a batch of format/data values, released at the end of the
// test.
func record(t *testing.T, mem memory.Allocator, fields []schema.DataField, rows [][]any) arrow.RecordBatch {
	t.Helper()
	sc, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	if mem == nil {
		mem = memcheck.New()
	}
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for _, row := range rows {
		for c, f := range fields {
			require.NoError(t, arrowrow.AppendValue(b.Field(c), f.Type, row[c]))
		}
	}
	rec := b.NewRecordBatch()
	t.Cleanup(rec.Release)
	return rec
}

// readRows reads a data file back with its format's reader.
func readRows(t *testing.T, fsys fs.FS, path string, fields []schema.DataField) [][]any {
	t.Helper()
	ctx := context.Background()
	raw, err := fs.ReadFile(ctx, fsys, path)
	require.NoError(t, err)
	var seq func(yield func(arrow.RecordBatch, error) bool)
	if strings.HasSuffix(path, ".avro") {
		r, err := avrofile.Open(ctx, bytes.NewReader(raw), int64(len(raw)), nil)
		require.NoError(t, err)
		seq = r.Read(ctx, fields, nil)
	} else {
		r, err := parquet.Open(ctx, bytes.NewReader(raw), int64(len(raw)), nil)
		require.NoError(t, err)
		seq = r.Read(ctx, fields, nil)
	}
	var rows [][]any
	for rec, err := range seq {
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

// decodeStats decodes the min/max rows of stats over the named columns
// (all when cols is nil).
func decodeStats(t *testing.T, fields []schema.DataField, cols []string, st manifest.SimpleStats) (mins, maxs []any) {
	t.Helper()
	var types []schema.DataType
	for _, f := range fields {
		keep := cols == nil
		for _, c := range cols {
			keep = keep || c == f.Name
		}
		if keep {
			types = append(types, f.Type.Copy(true))
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

func counts(xs ...int64) []*int64 {
	out := make([]*int64, len(xs))
	for i := range xs {
		out[i] = &xs[i]
	}
	return out
}

// listDir returns the names of the files in dir.
func listDir(t *testing.T, fsys fs.FS, dir string) []string {
	t.Helper()
	infos, err := fs.ReadDir(context.Background(), fsys, dir)
	require.NoError(t, err)
	var out []string
	for _, fi := range infos {
		out = append(out, fi.Name)
	}
	return out
}

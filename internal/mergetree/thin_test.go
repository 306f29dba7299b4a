package mergetree_test

import (
	"bytes"
	"context"
	"iter"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// writeParquet writes rows as a Parquet data file with the given columns
// (the full KeyValue layout or the thin one).
func writeParquet(t *testing.T, ts *schema.TableSchema, fields []schema.DataField, rows []kv) []byte {
	t.Helper()
	sc, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	b := array.NewRecordBuilder(memcheck.New(), sc)
	defer b.Release()
	keys := len(fields) - len(ts.Fields) - 2
	for _, r := range rows {
		key := keyOf(ts, r.values)
		for i := range keys {
			require.NoError(t, arrowrow.AppendValue(b.Field(i), fields[i].Type, key[i]))
		}
		b.Field(keys).(*array.Int64Builder).Append(r.seq)
		b.Field(keys + 1).(*array.Int8Builder).Append(int8(r.kind))
		for i, f := range ts.Fields {
			require.NoError(t, arrowrow.AppendValue(b.Field(keys+2+i), f.Type, r.values[i]))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, pq.NewWriterProperties(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// TestThinAndFullFiles merges a file with _KEY_ columns and a thin-mode file
// (data-file.thin-mode) of the same bucket: both are read through their
// ReadFields columns, the keys come from the value columns.
func TestThinAndFullFiles(t *testing.T) {
	mem := checked(t)
	ts := buildSchema(t, schema.NewSchemaBuilder().
		Column("k1", schema.StringType()).Column("v", schema.IntType()).Column("k2", schema.IntType()).
		PrimaryKey("k2", "k1"))
	full, err := mergetree.KeyValueFields(ts)
	require.NoError(t, err)
	thin := mergetree.ReadFields(ts)
	r := func(seq int64, kind data.RowKind, k1 string, v int32, k2 int32) kv {
		return kv{seq: seq, kind: kind, values: []any{k1, v, k2}}
	}
	fileRows := map[string][]kv{
		"full.parquet": {r(1, data.Insert, "a", 1, 1), r(2, data.Insert, "b", 2, 1), r(3, data.Insert, "a", 3, 2)},
		"thin.parquet": {r(4, data.UpdateAfter, "b", 20, 1), r(5, data.Delete, "a", 30, 2)},
	}
	contents := map[string][]byte{
		"full.parquet": writeParquet(t, ts, full, fileRows["full.parquet"]),
		"thin.parquet": writeParquet(t, ts, thin, fileRows["thin.parquet"]),
	}
	var files []manifest.DataFileMeta
	for _, name := range []string{"full.parquet", "thin.parquet"} {
		rows := fileRows[name]
		files = append(files, manifest.DataFileMeta{
			FileName: name,
			MinKey:   serializedKey(t, keyTypes(ts), keyOf(ts, rows[0].values)),
			MaxKey:   serializedKey(t, keyTypes(ts), keyOf(ts, rows[len(rows)-1].values)),
		})
	}
	open := func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		raw := contents[f.FileName]
		pr, err := parquet.Open(ctx, bytes.NewReader(raw), int64(len(raw)), &parquet.ReadOptions{Name: f.FileName})
		require.NoError(t, err)
		return pr.Read(ctx, mergetree.ReadFields(ts), &parquet.ReadRequest{Allocator: mem})
	}
	got, err := readAll(t, files, open, &mergetree.Options{Schema: ts, Merge: dedupFactory(), Allocator: mem, KeepDeletes: true})
	require.NoError(t, err)
	require.Equal(t, []string{
		`{"k1":"a","k2":1,"rowkind":"+I","v":1}`,
		`{"k1":"b","k2":1,"rowkind":"+U","v":20}`,
		`{"k1":"a","k2":2,"rowkind":"-D","v":30}`,
	}, got)
}

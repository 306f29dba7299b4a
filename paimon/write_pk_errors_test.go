package paimon_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// tableFiles lists the files under the table's bucket directories and index
// directory.
func tableFiles(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		for info, err := range fsys.List(context.Background(), dir) {
			require.NoError(t, err)
			p := dir + "/" + info.Name
			switch {
			case info.IsDir && info.Name != "schema":
				walk(p)
			case !info.IsDir && (strings.Contains(p, "/bucket-") || strings.Contains(p, "/index/")):
				out = append(out, p)
			}
		}
	}
	walk("db.db/t")
	return out
}

// TestWritePrimaryKeyBadInput gives the writer batches it must refuse:
// each fails with one clear error before anything is written, and nothing
// is committed or left behind.
func TestWritePrimaryKeyBadInput(t *testing.T) {
	ctx := context.Background()
	good := [][]any{{"2024-01-01", int64(1), "a", 1.0}}
	for _, c := range []struct {
		name  string
		batch func(tbl *paimon.Table) arrow.RecordBatch
		want  error
		msg   string
	}{
		{"no primary-key column", func(tbl *paimon.Table) arrow.RecordBatch {
			return columnsBatchOf(t, []arrow.Field{{Name: "dt", Type: arrow.BinaryTypes.String}, {Name: "name", Type: arrow.BinaryTypes.String},
				{Name: "score", Type: arrow.PrimitiveTypes.Float64}}, []any{"dt"}, []any{"name"}, []any{1.0})
		}, paimon.ErrSchemaMismatch, "batch columns"},
		{"null key", func(tbl *paimon.Table) arrow.RecordBatch {
			return nullKeyBatch(t, tbl)
		}, paimon.ErrSchemaMismatch, "NULL"},
		{"unknown row kind", func(tbl *paimon.Table) arrow.RecordBatch {
			return pkBatch(t, tbl, good, []string{"+X"})
		}, paimon.ErrSchemaMismatch, "unknown row kind"},
		{"null row kind", func(tbl *paimon.Table) arrow.RecordBatch {
			return kindBatch(t, tbl, arrow.BinaryTypes.String, true)
		}, paimon.ErrSchemaMismatch, "NULL row kind"},
		{"row kind of the wrong type", func(tbl *paimon.Table) arrow.RecordBatch {
			return kindBatch(t, tbl, arrow.PrimitiveTypes.Int8, false)
		}, paimon.ErrSchemaMismatch, "string column"},
		{"missing row-kind column", func(tbl *paimon.Table) arrow.RecordBatch {
			return pkBatch(t, tbl, good, nil)
		}, paimon.ErrSchemaMismatch, "no row-kind column"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tbl, fsys := newPKTable(t, true, nil)
			w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
			require.NoError(t, err)
			// A good batch first: the bad one must not spoil it.
			rec := pkBatch(t, tbl, good, []string{"+I"})
			require.NoError(t, w.Write(ctx, rec))
			rec.Release()
			bad := c.batch(tbl)
			err = w.Write(ctx, bad)
			bad.Release()
			require.ErrorIs(t, err, c.want)
			require.ErrorContains(t, err, c.msg)
			require.NoError(t, w.Close(ctx))
			require.Empty(t, tableFiles(t, fsys))
			_, ok, err := reopen(t, fsys).Meta().LatestSnapshotID(ctx)
			require.NoError(t, err)
			require.False(t, ok, "nothing committed")
		})
	}
}

// nullKeyBatch is a batch of the table's columns whose id is NULL (the
// Arrow field nullable, as a reader of a CSV file might make it).
func nullKeyBatch(t *testing.T, tbl *paimon.Table) arrow.RecordBatch {
	t.Helper()
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	defer w.Close(context.Background())
	fields := append([]arrow.Field(nil), w.ArrowSchema().Fields()...)
	fields = append(fields, arrow.Field{Name: "op", Type: arrow.BinaryTypes.String})
	b := array.NewRecordBuilder(memcheck.New(), arrow.NewSchema(fields, nil))
	defer b.Release()
	b.Field(0).(*array.StringBuilder).Append("2024-01-01")
	b.Field(1).(*array.Int64Builder).AppendNull()
	b.Field(2).(*array.StringBuilder).Append("x")
	b.Field(3).(*array.Float64Builder).Append(1)
	b.Field(4).(*array.StringBuilder).Append("+I")
	return b.NewRecordBatch()
}

// kindBatch is one good row with an "op" column of the given type, NULL or
// not.
func kindBatch(t *testing.T, tbl *paimon.Table, kindType arrow.DataType, null bool) arrow.RecordBatch {
	t.Helper()
	sc, err := schema.ToArrowSchema(tbl.Schema().Fields)
	require.NoError(t, err)
	fields := append(append([]arrow.Field(nil), sc.Fields()...), arrow.Field{Name: "op", Type: kindType, Nullable: true})
	b := array.NewRecordBuilder(memcheck.New(), arrow.NewSchema(fields, nil))
	defer b.Release()
	b.Field(0).(*array.StringBuilder).Append("2024-01-01")
	b.Field(1).(*array.Int64Builder).Append(1)
	b.Field(2).(*array.StringBuilder).Append("x")
	b.Field(3).(*array.Float64Builder).Append(1)
	switch kb := b.Field(4).(type) {
	case *array.StringBuilder:
		if null {
			kb.AppendNull()
		} else {
			kb.Append("+I")
		}
	case *array.Int8Builder:
		kb.Append(0)
	}
	return b.NewRecordBatch()
}

// TestWritePrimaryKeyRefusedTables: tables the writer cannot write
// correctly are refused when it opens.
func TestWritePrimaryKeyRefusedTables(t *testing.T) {
	ctx := context.Background()
	// A dynamic-bucket table whose primary key lacks the partition key: an
	// update may move a key across partitions (Java's global index).
	b := schema.NewSchemaBuilder().Column("dt", schema.StringType()).Column("id", schema.BigIntType().NotNull()).
		Column("v", schema.StringType()).PrimaryKey("id").PartitionKeys("dt").Option("bucket", "-1")
	s, err := b.Build()
	require.NoError(t, err)
	_, fsys := newPKTable(t, false, nil)
	tbl, err := paimon.CreateTable(ctx, fsys, "db.db/cross", s)
	require.NoError(t, err)
	_, err = tbl.NewWriter(nil)
	require.ErrorIs(t, err, paimon.ErrUnsupported)
	require.ErrorContains(t, err, "cross-partition")

	// rowkind.field naming a column not of a string type (Java's
	// RowKindGenerator; a missing column is refused when the table is
	// created).
	tbl, _ = newPKTable(t, true, map[string]string{"rowkind.field": "score"})
	_, err = tbl.NewWriter(nil)
	require.ErrorIs(t, err, paimon.ErrInvalidOption)
	require.ErrorContains(t, err, "string column")
}

// TestWritePrimaryKeyBucketCountChanged: after the bucket option changes,
// writing a partition written with the old count fails before anything is
// written (Java asks for a rescale by overwrite first); messages written
// for the old count are refused by the commit.
func TestWritePrimaryKeyBucketCountChanged(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newPKTable(t, true, nil)
	rows := [][]any{{"2024-01-01", int64(1), "a", 1.0}, {"2024-01-02", int64(2), "b", 2.0}}
	commitPK(t, tbl, rows, nil)
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	rec := pkBatch(t, tbl, rows[:1], nil)
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	old, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))

	_, err = alterTable(ctx, fsys, "db.db/t", paimon.SetOption{Key: "bucket", Value: "3"})
	require.NoError(t, err)
	tbl = reopen(t, fsys)
	before := tableFiles(t, fsys)
	w, err = tbl.NewWriter(nil)
	require.NoError(t, err)
	rec = pkBatch(t, tbl, rows[:1], nil)
	err = w.Write(ctx, rec)
	rec.Release()
	require.ErrorIs(t, err, paimon.ErrSchemaChanged)
	require.ErrorContains(t, err, "written with 2 buckets and the table now has 3")
	require.NoError(t, w.Close(ctx))

	c, err := tbl.NewCommit(nil)
	require.NoError(t, err)
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, old)
	require.ErrorIs(t, err, paimon.ErrSchemaChanged)
	require.Subset(t, before, tableFiles(t, fsys))
	require.Len(t, tableFiles(t, fsys), len(before)-len(old[0].NewFiles), "the refused message's files are removed")
	// A new partition takes the new bucket count.
	commitPK(t, tbl, [][]any{{"2024-01-09", int64(9), "n", 9.0}}, nil)
}

// commitPK writes rows (kinds nil: upserts) and commits them.
func commitPK(t *testing.T, tbl *paimon.Table, rows [][]any, kinds []string) *paimon.CommitResult {
	t.Helper()
	ctx := context.Background()
	opts := &paimon.WriterOptions{}
	if kinds != nil {
		opts.RowKindColumn = "op"
	}
	w, err := tbl.NewWriter(opts)
	require.NoError(t, err)
	defer w.Close(ctx)
	rec := pkBatch(t, tbl, rows, kinds)
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	c, err := tbl.NewCommit(nil)
	require.NoError(t, err)
	res, err := c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	require.NoError(t, err)
	return res
}

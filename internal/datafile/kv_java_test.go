package datafile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
)

// postponeBucketForTest is the bucket of postpone-bucket files (bucket -2).
const postponeBucketForTest = -2

// goldenPKTables lists the primary-key tables of a golden corpus.
func goldenPKTables(t *testing.T, producer string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", producer, "*", "warehouse", "*", "*", "schema"))
	require.NoError(t, err)
	var out []string
	for _, d := range dirs {
		table := filepath.Dir(d)
		if len(readSchema(t, table, 0).PrimaryKeys) > 0 {
			out = append(out, table)
		}
	}
	return out
}

// TestKeyValueFilesMatchJava rewrites every Parquet and Avro data and
// changelog file Java Paimon wrote into a primary-key table of the golden
// corpus with a key-value Writer (same rows, level, source and schema) and
// compares the DataFileMeta it produces with the one Java stored in the
// manifest: row count, min and max key, key and value statistics with
// _VALUE_STATS_COLS, sequence range, level, file source, delete row count,
// schema id and extra files, byte for byte. It also checks that the file
// holds the columns Java's files hold (_KEY_ columns, system columns, value
// columns, with their field ids).
func TestKeyValueFilesMatchJava(t *testing.T) {
	for _, producer := range []string{"java-1.4.2", "java-2.0.0"} {
		tables := goldenPKTables(t, producer)
		require.NotEmpty(t, tables)
		checked := map[string]int{}
		for _, table := range tables {
			forGoldenDataFiles(t, table, func(e manifest.ManifestEntry, path, format string) {
				name := producer + "/" + filepath.Base(table) + "/" + e.File.FileName
				t.Run(name, func(t *testing.T) { checkKVFile(t, producer, table, path, format, e.Bucket, e.File) })
				checked[format]++
			})
		}
		require.NotZero(t, checked[FormatParquet], producer)
		require.NotZero(t, checked[FormatAvro], producer)
		t.Logf("%s: %d Parquet and %d Avro key-value files", producer, checked[FormatParquet], checked[FormatAvro])
	}
}

func checkKVFile(t *testing.T, producer, table, path, format string, bucket int32, want manifest.DataFileMeta) {
	ts := readSchema(t, table, want.SchemaID)
	if bucket == postponeBucketForTest && format == FormatAvro {
		// PostponeBucketFileStoreWrite writes bucket-postpone files in
		// Avro without statistics (paimon's postponeSchema sets the same
		// options on the writer).
		ts = ts.Clone()
		opts := map[string]string{}
		for k, v := range ts.Options {
			opts[k] = v
		}
		opts["file.format"] = FormatAvro
		opts[optStatsMode] = "none"
		ts.Options = opts
	}
	kv := &KeyValue{Level: want.Level, Changelog: strings.HasPrefix(want.FileName, "changelog-"), Source: *want.FileSource}
	l, err := newKVLayout(ts, kv)
	require.NoError(t, err)
	if producer == "java-2.0.0" {
		for _, f := range ts.Fields {
			if f.Type.Root == schema.Binary || f.Type.Root == schema.VarBinary {
				t.Skip("Java 2.0.0 keeps min/max of binary columns, 1.4.2 (this package's reference) does not")
			}
		}
	}
	batches := readBatches(t, path, format, l.fileFields)
	fsys := memfs.New(nil)
	w, err := NewWriter(Options{FS: fsys, Dir: "b", Schema: ts, KeyValue: kv, Now: func() time.Time { return time.Unix(0, 0) }})
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("a column this package does not write: %v", err)
	}
	require.NoError(t, err)
	ctx := context.Background()
	for _, rec := range batches {
		// Drop the _KEY_ columns: the Writer takes the read layout.
		cols := rec.Columns()[l.keyCols():]
		in := array.NewRecordBatch(w.ArrowSchema(), cols, rec.NumRows())
		require.NoError(t, w.Write(ctx, in))
		in.Release()
	}
	metas, err := w.Close(ctx)
	require.NoError(t, err)
	require.Len(t, metas, 1, "one file (no roll)")
	got := metas[0]
	require.Equal(t, want.RowCount, got.RowCount, "row count")
	require.Equal(t, want.MinKey, got.MinKey, "min key")
	require.Equal(t, want.MaxKey, got.MaxKey, "max key")
	require.Equal(t, want.KeyStats, got.KeyStats, "key stats")
	require.Equal(t, want.ValueStatsCols, got.ValueStatsCols, "_VALUE_STATS_COLS")
	require.Equal(t, want.ValueStats, got.ValueStats, "value stats")
	require.Equal(t, want.MinSequenceNumber, got.MinSequenceNumber, "min seq")
	require.Equal(t, want.MaxSequenceNumber, got.MaxSequenceNumber, "max seq")
	require.Equal(t, want.Level, got.Level, "level")
	require.Equal(t, want.DeleteRowCount, got.DeleteRowCount, "delete rows")
	require.Equal(t, want.FileSource, got.FileSource, "file source")
	require.Equal(t, want.SchemaID, got.SchemaID, "schema id")
	require.Equal(t, want.ExtraFiles, got.ExtraFiles, "extra files")
	require.Nil(t, got.EmbeddedIndex)
	require.True(t, strings.HasSuffix(got.FileName, filepath.Ext(want.FileName)))
	require.Equal(t, strings.SplitN(want.FileName, "-", 2)[0], strings.SplitN(got.FileName, "-", 2)[0], "prefix")

	// The file we wrote reads back with Java's column layout.
	raw, err := fs.ReadFile(ctx, fsys, "b/"+got.FileName)
	require.NoError(t, err)
	tmp := filepath.Join(t.TempDir(), got.FileName)
	require.NoError(t, os.WriteFile(tmp, raw, 0o644))
	back := readBatches(t, tmp, format, l.fileFields)
	var n int64
	for _, rec := range back {
		n += rec.NumRows()
	}
	require.Equal(t, want.RowCount, n)
	requireSameRows(t, batches, back)
}

// requireSameRows compares two lists of batches row by row.
func requireSameRows(t *testing.T, a, b []arrow.RecordBatch) {
	t.Helper()
	flat := func(recs []arrow.RecordBatch) []string {
		var out []string
		for _, r := range recs {
			for i := 0; i < int(r.NumRows()); i++ {
				var sb strings.Builder
				for c := 0; c < int(r.NumCols()); c++ {
					sb.WriteString(r.Column(c).ValueStr(i))
					sb.WriteByte('|')
				}
				out = append(out, sb.String())
			}
		}
		return out
	}
	require.Equal(t, flat(a), flat(b))
}

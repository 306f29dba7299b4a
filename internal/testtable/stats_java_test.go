package testtable

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

// goldenAppendTables lists the append-only tables of the Java-written golden
// corpus: the directories holding a schema/ directory without primary keys.
func goldenAppendTables(t *testing.T, producer string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", producer, "*", "warehouse", "*", "*", "schema"))
	require.NoError(t, err)
	var out []string
	for _, d := range dirs {
		table := filepath.Dir(d)
		if len(readSchema(t, table, 0).PrimaryKeys) == 0 {
			out = append(out, table)
		}
	}
	return out
}

func readSchema(t *testing.T, table string, id int64) *schema.TableSchema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(table, "schema", "schema-"+strconv.FormatInt(id, 10)))
	require.NoError(t, err)
	s, err := schema.Decode(b)
	require.NoError(t, err)
	return s
}

// TestValueStatsMatchJava recomputes the value statistics of every Parquet
// data file Java Paimon wrote into an append table of the golden corpus, from
// the file's rows, and compares them with what Java stored in the manifest:
// min/max rows, null counts and _VALUE_STATS_COLS, byte for byte. The corpus
// covers every column type, NULLs, NaN and ±0.0, long strings (truncate(16))
// and per-table stats options.
func TestValueStatsMatchJava(t *testing.T) {
	// Java 2.0.0 is left out on purpose: it also keeps min/max of BINARY
	// and VARBINARY columns, which 1.4.2 (the reference) does not.
	for _, producer := range []string{"java-1.4.2"} {
		tables := goldenAppendTables(t, producer)
		require.NotEmpty(t, tables)
		checked := 0
		for _, table := range tables {
			manifests, err := filepath.Glob(filepath.Join(table, "manifest", "manifest-*"))
			require.NoError(t, err)
			for _, m := range manifests {
				if strings.HasPrefix(filepath.Base(m), "manifest-list-") {
					continue
				}
				raw, err := os.ReadFile(m)
				require.NoError(t, err)
				entries, err := manifest.ReadManifest(bytes.NewReader(raw))
				require.NoError(t, err)
				for _, e := range entries {
					if e.Kind != manifest.FileKindAdd || !strings.HasSuffix(e.File.FileName, ".parquet") {
						continue
					}
					path := findDataFile(t, table, e.File.FileName)
					if path == "" {
						continue // expired
					}
					name := producer + "/" + filepath.Base(table) + "/" + e.File.FileName
					t.Run(name, func(t *testing.T) {
						ts := readSchema(t, table, e.File.SchemaID)
						columns := readColumns(t, path, ts.Fields)
						modes, err := statsModes(ts)
						require.NoError(t, err)
						dense, err := denseStore(ts)
						require.NoError(t, err)
						got, cols, err := valueStats(ts.Fields, columns, modes, dense)
						require.NoError(t, err)
						want := e.File.ValueStats
						require.Equal(t, e.File.ValueStatsCols, cols, "_VALUE_STATS_COLS")
						require.Equal(t, want.NullCounts, got.NullCounts, "null counts")
						require.Equal(t, want.MinValues, got.MinValues, "min values")
						require.Equal(t, want.MaxValues, got.MaxValues, "max values")
					})
					checked++
				}
			}
		}
		require.NotZero(t, checked, producer)
	}
}

func findDataFile(t *testing.T, table, name string) string {
	t.Helper()
	var found string
	require.NoError(t, filepath.WalkDir(table, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name {
			found = p
		}
		return err
	}))
	return found
}

// readColumns reads a Parquet data file into per-column Arrow chunks.
func readColumns(t *testing.T, path string, fields []schema.DataField) [][]arrow.Array {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	ctx := context.Background()
	r, err := parquet.Open(ctx, bytes.NewReader(raw), int64(len(raw)), &parquet.ReadOptions{Name: path})
	require.NoError(t, err)
	columns := make([][]arrow.Array, len(fields))
	for rec, err := range r.Read(ctx, fields, nil) {
		require.NoError(t, err)
		for i := range fields {
			col := rec.Column(i)
			col.Retain()
			columns[i] = append(columns[i], col)
		}
		rec.Release()
	}
	t.Cleanup(func() {
		for _, cs := range columns {
			for _, c := range cs {
				c.Release()
			}
		}
	})
	return columns
}

// TestPartitionStatsMatchJava recomputes _PARTITION_STATS of every manifest
// in the Java golden corpus (all tables, partitioned or not) from the
// partitions of its entries and compares with what Java wrote.
func TestPartitionStatsMatchJava(t *testing.T) {
	tables, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "java-1.4.2", "*", "warehouse", "*", "*", "schema"))
	require.NoError(t, err)
	partitioned := 0
	for _, s := range tables {
		table := filepath.Dir(s)
		var types []schema.DataType
		for _, f := range readSchema(t, table, 0).PartitionFields() {
			types = append(types, f.Type.Copy(true))
		}
		if len(types) > 0 {
			partitioned++
		}
		lists, err := filepath.Glob(filepath.Join(table, "manifest", "manifest-list-*"))
		require.NoError(t, err)
		for _, l := range lists {
			raw, err := os.ReadFile(l)
			require.NoError(t, err)
			metas, err := manifest.ReadManifestList(bytes.NewReader(raw))
			require.NoError(t, err)
			for _, m := range metas {
				raw, err := os.ReadFile(filepath.Join(table, "manifest", m.FileName))
				if os.IsNotExist(err) {
					continue // expired
				}
				require.NoError(t, err)
				entries, err := manifest.ReadManifest(bytes.NewReader(raw))
				require.NoError(t, err)
				var parts [][]any
				for _, e := range entries {
					row, err := binaryrow.ParseSerialized(e.Partition)
					require.NoError(t, err)
					vals, err := row.Values(types)
					require.NoError(t, err)
					parts = append(parts, vals)
				}
				got, err := partitionStats(types, parts)
				require.NoError(t, err)
				require.Equal(t, m.PartitionStats, got, "%s: %s", filepath.Base(table), m.FileName)
			}
		}
	}
	require.GreaterOrEqual(t, partitioned, 3)
}

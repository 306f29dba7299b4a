package orc_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/format/schema"
)

const goldenRoot = "../../testdata/golden"

// goldenFile is an ORC data file of the golden corpus with the schema of
// its table (the latest: every golden ORC table's files are written with
// it, or with one its fields are a prefix of).
type goldenFile struct {
	path   string
	fields []schema.DataField
}

// goldenORCFiles returns every ORC data file of the golden corpus whose
// table never changed its fields (options may have changed).
func goldenORCFiles(t testing.TB) []goldenFile {
	t.Helper()
	tables, err := filepath.Glob(filepath.Join(goldenRoot, "*", "*", "warehouse", "*.db", "*"))
	require.NoError(t, err)
	var out []goldenFile
	for _, dir := range tables {
		schemas, _ := filepath.Glob(filepath.Join(dir, "schema", "schema-*"))
		var ts *schema.TableSchema
		for _, p := range schemas {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			s, err := schema.Decode(b)
			require.NoError(t, err)
			if ts != nil && !reflect.DeepEqual(ts.Fields, s.Fields) {
				ts = nil
				break
			}
			ts = s
		}
		if ts == nil {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*", "*.orc"))
		more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.orc"))
		files = append(files, more...)
		sort.Strings(files)
		fields := ts.Fields
		if len(ts.PrimaryKeys) > 0 {
			fields = nil // key columns and system fields: read by name below
		}
		for _, p := range files {
			out = append(out, goldenFile{path: p, fields: fields})
		}
	}
	require.NotEmpty(t, out)
	return out
}

// readAll opens and reads a file completely, returning the row count.
func readAll(ctx context.Context, data []byte, name string, fields []schema.DataField, batch int, mem memory.Allocator) (int64, error) {
	return readSome(ctx, data, name, fields, batch, -1, mem)
}

// readSome reads at most maxBatches batches (all when negative): damaged
// files may claim more rows than anyone wants to decode in a test.
func readSome(ctx context.Context, data []byte, name string, fields []schema.DataField, batch, maxBatches int, mem memory.Allocator) (int64, error) {
	r, err := orc.Open(ctx, bytes.NewReader(data), int64(len(data)), &orc.ReadOptions{Name: name})
	if err != nil {
		return 0, err
	}
	var rows int64
	for rec, err := range r.Read(ctx, fields, &orc.ReadRequest{BatchSize: batch, Allocator: mem}) {
		if err != nil {
			return rows, err
		}
		rows += rec.NumRows()
		touch(rec)
		rec.Release()
		if maxBatches--; maxBatches == 0 {
			break
		}
	}
	return rows, nil
}

// touch reads every value of a batch through Arrow's accessors, so that a
// malformed array (offsets beyond the data) shows up.
func touch(rec arrow.RecordBatch) {
	for _, c := range rec.Columns() {
		for i := 0; i < c.Len(); i++ {
			_ = c.ValueStr(i)
		}
	}
}

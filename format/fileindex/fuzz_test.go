package fileindex_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/fileindex"
	"github.com/paimon-go/paimon-go/format/schema"
)

// FuzzFileIndex decodes hostile file indexes: Parse and every index of
// every column, read as each of several column types, then every kind of
// test. Nothing may panic; a damaged index answers Remain or an error.
// Seeds: the indexes of every type our writers produce and the separate
// .index files Java wrote for the golden tables.
func FuzzFileIndex(f *testing.F) {
	var idx []fileindex.ColumnIndex
	for _, c := range []struct {
		typ  string
		t    schema.DataType
		vals []any
		opts map[string]string
	}{
		{"bsi", schema.BigIntType(), []any{int64(5), nil, int64(-70000), int64(1 << 40)}, nil},
		{"range-bitmap", schema.IntType(), []any{int32(3), int32(-1), nil, int32(3), int32(99)}, map[string]string{"chunk-size": "4"}},
		{"range-bitmap", schema.StringType(), []any{"a", "bb", nil, "ccc", "a"}, map[string]string{"chunk-size": "6"}},
		{"range-bitmap", schema.DoubleType(), []any{1.5, -2.0, nil}, nil},
		{"bitmap", schema.StringType(), []any{"x", nil, "y", "x"}, nil},
		{"bloom-filter", schema.StringType(), []any{"x", "y"}, map[string]string{"items": "10"}},
	} {
		w, err := fileindex.NewColumnWriter(c.typ, c.t, c.opts)
		if err != nil || w == nil {
			f.Fatalf("%s on %v: %v", c.typ, c.t, err)
		}
		for _, v := range c.vals {
			w.Add(v)
		}
		idx = append(idx, fileindex.ColumnIndex{Column: fmt.Sprintf("c%d", len(idx)), Type: c.typ, Bytes: w.Bytes()})
		f.Add(fileindex.Encode(idx[len(idx)-1:]))
	}
	f.Add(fileindex.Encode(idx))
	files, _ := filepath.Glob("../../testdata/golden/java-2.0.0/file-index-separate/warehouse/*/*/bucket-0/*.index")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	types := []schema.DataType{schema.BigIntType(), schema.IntType(), schema.StringType(), schema.DoubleType(),
		schema.TimestampType(6), schema.BooleanType(), schema.DecimalType(10, 2)}
	lits := []any{int64(5), int32(3), "a", 1.5, data.Timestamp{Millis: 7}, true, data.NewDecimalFromInt64(12, 10, 2)}
	ops := []fileindex.Op{fileindex.OpEqual, fileindex.OpNotEqual, fileindex.OpLessThan, fileindex.OpLessOrEqual,
		fileindex.OpGreaterThan, fileindex.OpGreaterOrEqual, fileindex.OpIn, fileindex.OpNotIn}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := fileindex.Parse(b)
		if err != nil {
			return
		}
		for _, col := range file.Columns() {
			for _, typ := range file.Types(col) {
				for i, ct := range types {
					ix := file.Index(col, typ, ct)
					if ix == nil {
						continue
					}
					ix.Test(fileindex.OpIsNull, nil)
					ix.Test(fileindex.OpIsNotNull, nil)
					for _, op := range ops {
						ix.Test(op, []any{lits[i]})
					}
				}
			}
		}
	})
}

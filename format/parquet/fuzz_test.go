package parquet_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// FuzzRead feeds mutated Parquet files to Open and Read with the golden
// tables' schemas: decoding must fail with an error, never panic, and must
// release every buffer it allocated.
func FuzzRead(f *testing.F) {
	var schemas [][]schema.DataField
	for _, g := range goldenTables {
		schemas = append(schemas, latestSchema(&testing.T{}, g.dir()).Fields)
		files, _ := filepath.Glob(filepath.Join(g.dir(), "bucket-*", "*.parquet"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		for _, fields := range schemas {
			mem := memcheck.New()
			r, err := parquet.Open(ctx, bytes.NewReader(data), int64(len(data)), nil)
			if err != nil {
				if !errors.Is(err, parquet.ErrCorrupt) {
					t.Fatalf("Open error %v does not wrap ErrCorrupt", err)
				}
				return
			}
			_ = r.RowGroups()
			for rec, err := range r.Read(ctx, fields, &parquet.ReadRequest{BatchSize: 2, Allocator: mem}) {
				if err != nil {
					break
				}
				for c, fd := range fields {
					for i := 0; i < int(rec.NumRows()); i++ {
						_, _ = parquet.ArrowValue(rec.Column(c), i, fd.Type)
					}
				}
				rec.Release()
			}
			mem.AssertSize(t, 0)
		}
	})
}

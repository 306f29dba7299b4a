package avrofile_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// FuzzRead feeds mutated Avro data files to Open and Read with the golden
// tables' schemas (and an empty projection): decoding must fail with an
// error, never panic, and must release every buffer it allocated.
func FuzzRead(f *testing.F) {
	schemas := [][]schema.DataField{nil}
	for _, g := range goldenTables {
		fields := fileFields(latestSchema(f, g.dir()), g.pk)
		schemas = append(schemas, fields)
		for _, p := range dataFiles(f, g.dir()) {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	var e enc
	e.long(1).long(3).long(1).long(2).long(0).long(0) // c_arr_int-like bytes
	f.Add(container(f, idSchema, "", idBlock(0, 3)))
	f.Add(container(f, idSchema, "deflate", idBlock(0, 3), idBlock(3, 4)))
	f.Add(container(f, `["null",`+idSchema+`]`, "snappy", block{1, e.b}))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		r, err := avrofile.Open(ctx, bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			if !errors.Is(err, avrofile.ErrCorrupt) {
				t.Fatalf("Open error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		for _, fields := range schemas {
			mem := memcheck.New()
			for rec, err := range r.Read(ctx, fields, &avrofile.ReadRequest{BatchSize: 2, Allocator: mem}) {
				if err != nil {
					if !errors.Is(err, avrofile.ErrCorrupt) && !errors.Is(err, avrofile.ErrSchema) {
						t.Fatalf("Read error %v wraps neither ErrCorrupt nor ErrSchema", err)
					}
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

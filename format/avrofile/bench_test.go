package avrofile_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/schema"
)

const benchRows = 1_000_000

// benchFields are format/parquet's benchmark columns, for comparable rows/s.
func benchFields() []schema.DataField {
	return []schema.DataField{
		{ID: 0, Name: "id", Type: schema.BigIntType().NotNull()},
		{ID: 1, Name: "i", Type: schema.IntType()},
		{ID: 2, Name: "d", Type: schema.DoubleType()},
		{ID: 3, Name: "s", Type: schema.StringType()},
		{ID: 4, Name: "ts", Type: schema.TimestampType(6)},
		{ID: 5, Name: "dec", Type: schema.DecimalType(18, 4)},
		{ID: 6, Name: "b", Type: schema.BooleanType()},
	}
}

// benchSchema is what Java's AvroSchemaConverter writes for benchFields.
var benchSchema = recordSchema(
	`{"name":"id","type":"long"}`,
	`{"name":"i","type":["null","int"],"default":null}`,
	`{"name":"d","type":["null","double"],"default":null}`,
	`{"name":"s","type":["null","string"],"default":null}`,
	`{"name":"ts","type":["null",{"type":"long","logicalType":"timestamp-micros"}],"default":null}`,
	`{"name":"dec","type":["null",{"type":"bytes","logicalType":"decimal","precision":18,"scale":4}],"default":null}`,
	`{"name":"b","type":["null","boolean"],"default":null}`)

// writeBenchFile writes rows rows in blocks of about 64000 bytes, as Java's
// DataFileWriter cuts them.
func writeBenchFile(tb testing.TB, codec string, rows int) []byte {
	var blocks []block
	var e enc
	n := 0
	for i := range rows {
		e.long(int64(i))
		if i%10 == 0 {
			e.long(0)
		} else {
			e.long(1).long(int64(i * 7))
		}
		e.long(1).double(float64(i) / 3)
		e.long(1).str(fmt.Sprintf("value-%d", i%5000))
		e.long(1).long(1_700_000_000_000_000 + int64(i)*1_000)
		e.long(1).bytes(twosComplement(fmt.Sprint(int64(i)*12345), 8))
		e.long(1).boolean(i%3 == 0)
		n++
		if len(e.b) >= 64000 {
			blocks = append(blocks, block{int64(n), e.b})
			e, n = enc{}, 0
		}
	}
	if n > 0 {
		blocks = append(blocks, block{int64(n), e.b})
	}
	return container(tb, benchSchema, codec, blocks...)
}

var benchFiles sync.Map // codec -> []byte

func benchFile(b *testing.B, codec string) []byte {
	if v, ok := benchFiles.Load(codec); ok {
		return v.([]byte)
	}
	data := writeBenchFile(b, codec, benchRows)
	benchFiles.Store(codec, data)
	return data
}

func BenchmarkRead(b *testing.B) {
	for _, codec := range []string{"null", "snappy", "zstandard"} {
		b.Run(codec, func(b *testing.B) {
			data := benchFile(b, codec)
			fields := benchFields()
			ctx := context.Background()
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for range b.N {
				r, err := avrofile.Open(ctx, bytes.NewReader(data), int64(len(data)), nil)
				if err != nil {
					b.Fatal(err)
				}
				var rows int64
				for rec, err := range r.Read(ctx, fields, &avrofile.ReadRequest{BatchSize: 4096}) {
					if err != nil {
						b.Fatal(err)
					}
					rows += rec.NumRows()
					rec.Release()
				}
				if rows != benchRows {
					b.Fatalf("rows %d", rows)
				}
			}
			b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkReadProjected reads two of the seven columns: the others are
// skipped without building anything.
func BenchmarkReadProjected(b *testing.B) {
	data := benchFile(b, "zstandard")
	fields := []schema.DataField{benchFields()[0], benchFields()[3]}
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		r, err := avrofile.Open(ctx, bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			b.Fatal(err)
		}
		for rec, err := range r.Read(ctx, fields, nil) {
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

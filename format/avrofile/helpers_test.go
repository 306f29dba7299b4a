package avrofile_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"math"
	"testing"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// enc builds the Avro binary encoding of values by hand, so that tests
// control every byte (block counts with sizes, both union orders, fixed).
type enc struct{ b []byte }

func (e *enc) long(v int64) *enc {
	e.b = binary.AppendVarint(e.b, v) // Avro's zig-zag varint
	return e
}

func (e *enc) bytes(v []byte) *enc {
	e.long(int64(len(v)))
	e.b = append(e.b, v...)
	return e
}

func (e *enc) str(s string) *enc { return e.bytes([]byte(s)) }

func (e *enc) raw(v ...byte) *enc {
	e.b = append(e.b, v...)
	return e
}

func (e *enc) float(v float32) *enc {
	e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(v))
	return e
}

func (e *enc) double(v float64) *enc {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
	return e
}

func (e *enc) boolean(v bool) *enc {
	if v {
		return e.raw(1)
	}
	return e.raw(0)
}

// block is one container block: its record count and encoded records.
type block struct {
	count int64
	data  []byte
}

// container writes an Avro object container file with the given schema,
// codec ("" means none) and blocks, compressing as Java's codecs do.
func container(t testing.TB, schemaJSON, codec string, blocks ...block) []byte {
	t.Helper()
	sync := []byte("0123456789abcdef")
	var e enc
	e.raw('O', 'b', 'j', 1)
	meta := [][2]string{{"avro.schema", schemaJSON}}
	if codec != "" {
		meta = append(meta, [2]string{"avro.codec", codec})
	}
	e.long(int64(len(meta)))
	for _, kv := range meta {
		e.str(kv[0]).str(kv[1])
	}
	e.long(0)
	e.raw(sync...)
	for _, b := range blocks {
		data := compress(t, codec, b.data)
		e.long(b.count).long(int64(len(data))).raw(data...).raw(sync...)
	}
	return e.b
}

func compress(t testing.TB, codec string, data []byte) []byte {
	t.Helper()
	switch codec {
	case "", "null":
		return data
	case "deflate":
		var buf bytes.Buffer
		w, err := flate.NewWriter(&buf, flate.DefaultCompression)
		require.NoError(t, err)
		_, err = w.Write(data)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		return buf.Bytes()
	case "snappy":
		out := snappy.Encode(nil, data)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(data))
	case "zstandard":
		w, err := zstd.NewWriter(nil)
		require.NoError(t, err)
		defer w.Close()
		return w.EncodeAll(data, nil)
	}
	t.Fatalf("codec %s", codec)
	return nil
}

// recordSchema wraps field schemas (JSON) into a top-level record schema.
func recordSchema(fields ...string) string {
	s := `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[`
	for i, f := range fields {
		if i > 0 {
			s += ","
		}
		s += f
	}
	return s + "]}"
}

// readValues reads a file and returns the values of every row (via
// parquet.ArrowValue, the shared Arrow-to-data bridge), checking the batch
// schema and that every buffer is released.
func readValues(t testing.TB, file []byte, fields []schema.DataField, batch int) ([][]any, error) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	r, err := avrofile.Open(ctx, bytes.NewReader(file), int64(len(file)), &avrofile.ReadOptions{Name: "test.avro"})
	if err != nil {
		return nil, err
	}
	want, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	var rows [][]any
	for rec, err := range r.Read(ctx, fields, &avrofile.ReadRequest{BatchSize: batch, Allocator: mem}) {
		if err != nil {
			return rows, err
		}
		require.True(t, want.Equal(rec.Schema()), "schema\n got %s\nwant %s", rec.Schema(), want)
		for i := 0; i < int(rec.NumRows()); i++ {
			vals := make([]any, len(fields))
			for c, f := range fields {
				v, err := parquet.ArrowValue(rec.Column(c), i, f.Type)
				require.NoError(t, err)
				vals[c] = v
			}
			rows = append(rows, vals)
		}
		rec.Release()
	}
	return rows, nil
}

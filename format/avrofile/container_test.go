package avrofile_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/avro"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

var idField = []schema.DataField{{ID: 0, Name: "id", Type: schema.BigIntType().NotNull()}}

const idSchema = `{"type":"record","name":"record","fields":[{"name":"id","type":"long"}]}`

// idBlock encodes the ids from..to-1 as one block.
func idBlock(from, to int64) block {
	var e enc
	for i := from; i < to; i++ {
		e.long(i)
	}
	return block{to - from, e.b}
}

// TestBlocksAndBatches checks that rows flow across block and batch
// boundaries in order, empty blocks included.
func TestBlocksAndBatches(t *testing.T) {
	file := container(t, idSchema, "snappy", idBlock(0, 5), block{0, nil}, idBlock(5, 6), idBlock(6, 13))
	for _, batch := range []int{0, 1, 2, 5, 6, 13, 100} {
		mem := memcheck.New()
		ctx := context.Background()
		r, err := avrofile.Open(ctx, bytes.NewReader(file), int64(len(file)), nil)
		require.NoError(t, err)
		var got []int64
		for rec, err := range r.Read(ctx, idField, &avrofile.ReadRequest{BatchSize: batch, Allocator: mem}) {
			require.NoError(t, err)
			if batch > 0 {
				require.LessOrEqual(t, rec.NumRows(), int64(batch))
			}
			for i := 0; i < int(rec.NumRows()); i++ {
				got = append(got, rec.Column(0).(interface{ Value(int) int64 }).Value(i))
			}
			rec.Release()
		}
		require.Len(t, got, 13, "batch %d", batch)
		for i, v := range got {
			require.Equal(t, int64(i), v)
		}
		mem.AssertSize(t, 0)
	}
}

// TestEmptyProjection counts rows without reading a column.
func TestEmptyProjection(t *testing.T) {
	file := container(t, idSchema, "", idBlock(0, 3), idBlock(3, 10))
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	r, err := avrofile.Open(ctx, bytes.NewReader(file), int64(len(file)), nil)
	require.NoError(t, err)
	var rows int64
	for rec, err := range r.Read(ctx, nil, &avrofile.ReadRequest{BatchSize: 4, Allocator: mem}) {
		require.NoError(t, err)
		require.Equal(t, 0, int(rec.NumCols()))
		rows += rec.NumRows()
		rec.Release()
	}
	require.Equal(t, int64(10), rows)
}

// TestNoRows reads a file with a header and no blocks.
func TestNoRows(t *testing.T) {
	file := container(t, idSchema, "zstandard")
	rows, err := readValues(t, file, idField, 0)
	require.NoError(t, err)
	require.Empty(t, rows)
}

// TestNullableRoot reads Paimon < 0.9 files, whose rows are a
// ["null", record] union; a null row is corrupt, as in Java.
func TestNullableRoot(t *testing.T) {
	s := `["null",` + idSchema + `]`
	file := container(t, s, "", block{2, new(enc).long(1).long(7).long(1).long(8).b})
	rows, err := readValues(t, file, idField, 0)
	require.NoError(t, err)
	require.Equal(t, [][]any{{int64(7)}, {int64(8)}}, rows)

	file = container(t, s, "", block{1, new(enc).long(0).b})
	_, err = readValues(t, file, idField, 0)
	require.ErrorIs(t, err, avrofile.ErrCorrupt)
}

// TestWrittenByLibrary reads a data file written through internal/avro (the
// Avro library's encoder), with a Paimon-style schema, in every codec.
func TestWrittenByLibrary(t *testing.T) {
	s := recordSchema(`{"name":"id","type":"int"}`,
		`{"name":"s","type":["null","string"],"default":null}`,
		`{"name":"ts","type":["null",{"type":"long","logicalType":"timestamp-micros"}],"default":null}`,
		`{"name":"arr","type":["null",{"type":"array","items":["null","long"]}],"default":null}`,
		`{"name":"m","type":["null",{"type":"map","values":["null","double"]}],"default":null}`)
	fields := []schema.DataField{
		{ID: 0, Name: "id", Type: schema.IntType().NotNull()},
		{ID: 1, Name: "s", Type: schema.StringType()},
		{ID: 2, Name: "ts", Type: tsType(schema.Timestamp, 6)},
		{ID: 3, Name: "arr", Type: arrayOf(typ(schema.BigInt))},
		{ID: 4, Name: "m", Type: mapOf(schema.StringType().NotNull(), typ(schema.Double))},
	}
	for _, codec := range []string{"null", "deflate", "snappy", "zstd"} {
		t.Run(codec, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := avro.NewWriter(&buf, avro.MustParseSchema(s), &avro.WriterOptions{Codec: codec})
			require.NoError(t, err)
			const n = 5000 // several 64000-byte blocks
			for i := range n {
				rec := map[string]any{"id": int32(i), "s": nil, "ts": nil, "arr": nil, "m": nil}
				if i%2 == 0 {
					rec["s"] = "row"
					rec["ts"] = int64(i) * 1_000_001
					rec["arr"] = []any{int64(i), nil}
					rec["m"] = map[string]any{"k": float64(i)}
				}
				require.NoError(t, w.Encode(rec))
			}
			require.NoError(t, w.Close())
			rows, err := readValues(t, buf.Bytes(), fields, 1000)
			require.NoError(t, err)
			require.Len(t, rows, n)
			for i, row := range rows {
				require.Equal(t, int32(i), row[0])
				if i%2 == 1 {
					require.Equal(t, []any{int32(i), nil, nil, nil, nil}, row)
					continue
				}
				require.Equal(t, "row", row[1])
				require.Equal(t, int64(i)*1_000_001, row[2].(interface{ Micros() int64 }).Micros())
				require.Equal(t, []any{int64(i), nil}, row[3])
			}
		})
	}
}

// TestCorruptContainer damages the container framing.
func TestCorruptContainer(t *testing.T) {
	good := container(t, idSchema, "snappy", idBlock(0, 3))
	patch := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	tests := []struct {
		name    string
		file    []byte
		wantErr error
		atOpen  bool
	}{
		{"empty", nil, avrofile.ErrCorrupt, true},
		{"bad magic", patch(func(b []byte) []byte { b[3] = 2; return b }), avrofile.ErrCorrupt, true},
		{"truncated header", good[:20], avrofile.ErrCorrupt, true},
		{"not a record", container(t, `"long"`, ""), avrofile.ErrCorrupt, true},
		{"bad schema", container(t, `{"type":"nope"}`, ""), avrofile.ErrCorrupt, true},
		{"unknown codec", container(t, idSchema, "lzo"), avrofile.ErrCorrupt, true},
		{"bzip2", container(t, idSchema, "bzip2"), avrofile.ErrCorrupt, true},
		{"truncated block", good[:len(good)-5], avrofile.ErrCorrupt, false},
		{"sync mismatch", patch(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), avrofile.ErrCorrupt, false},
		{"snappy checksum", patch(func(b []byte) []byte { b[len(b)-17] ^= 1; return b }), avrofile.ErrCorrupt, false},
		{"block count beyond data", container(t, idSchema, "", block{100000, []byte{0}}), avrofile.ErrCorrupt, false},
		{"block short of rows", container(t, idSchema, "", block{2, []byte{0}}), avrofile.ErrCorrupt, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			_, err := avrofile.Open(ctx, bytes.NewReader(tc.file), int64(len(tc.file)), &avrofile.ReadOptions{Name: "x.avro"})
			if tc.atOpen {
				require.ErrorIs(t, err, tc.wantErr)
				require.Contains(t, err.Error(), "x.avro")
				return
			}
			require.NoError(t, err)
			_, err = readValues(t, tc.file, idField, 0)
			require.ErrorIs(t, err, tc.wantErr)
		})
	}
}

type failingReaderAt struct{ err error }

func (f failingReaderAt) ReadAt([]byte, int64) (int, error) { return 0, f.err }

// TestIOErrorPassesThrough checks that a failing source is reported as
// such, not as corruption.
func TestIOErrorPassesThrough(t *testing.T) {
	boom := errors.New("boom")
	_, err := avrofile.Open(context.Background(), failingReaderAt{boom}, 100, &avrofile.ReadOptions{Name: "x.avro"})
	require.ErrorIs(t, err, boom)
	require.NotErrorIs(t, err, avrofile.ErrCorrupt)
	require.Contains(t, err.Error(), "x.avro")

	// A source that fails after the header.
	file := container(t, idSchema, "", idBlock(0, 3))
	flaky := &flakyReaderAt{data: file, failAfter: int64(len(file) - 3), err: boom}
	r, err := avrofile.Open(context.Background(), flaky, int64(len(file)), nil)
	require.NoError(t, err)
	var errs int
	for _, err := range r.Read(context.Background(), idField, nil) {
		require.ErrorIs(t, err, boom)
		require.NotErrorIs(t, err, avrofile.ErrCorrupt)
		errs++
	}
	require.Equal(t, 1, errs)
}

// flakyReaderAt serves data but fails reads reaching past failAfter.
type flakyReaderAt struct {
	data      []byte
	failAfter int64
	err       error
}

func (f *flakyReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.failAfter {
		n := copy(p, f.data[off:f.failAfter])
		return n, f.err
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

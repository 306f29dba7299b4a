package avro_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/avro"
)

type stats struct {
	Min    []byte   `avro:"min"`
	Counts []*int64 `avro:"counts"`
}

type rec struct {
	Version int32    `avro:"v"`
	Name    string   `avro:"name"`
	Size    int64    `avro:"size"`
	Stats   stats    `avro:"stats"`
	Created *int64   `avro:"created"`
	Cols    []string `avro:"cols"`
	Extra   *string  `avro:"extra"`
}

const readerJSON = `{"type":"record","name":"record","namespace":"ns","fields":[` +
	`{"name":"v","type":"int"},{"name":"name","type":"string"},{"name":"size","type":"long"},` +
	`{"name":"stats","type":{"type":"record","name":"record_stats","fields":[{"name":"min","type":"bytes"},` +
	`{"name":"counts","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},` +
	`{"name":"created","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},` +
	`{"name":"cols","type":["null",{"type":"array","items":"string"}],"default":null},` +
	`{"name":"extra","type":["null","string"],"default":null}]}`

var readerSchema = avro.MustParseSchema(readerJSON)

func i64(v int64) *int64   { return &v }
func str(v string) *string { return &v }

func sample() []rec {
	return []rec{
		{Version: 2, Name: "a", Size: 1, Stats: stats{Min: []byte{1, 2}, Counts: []*int64{i64(3), nil}},
			Created: i64(1725608755039), Cols: []string{"x"}, Extra: str("e")},
		{Version: 2, Name: "b", Size: -5, Stats: stats{Min: []byte{}, Counts: []*int64{}}, Cols: []string{}},
		{Version: 2, Name: "c", Stats: stats{Min: []byte{9}}, Created: i64(-1)},
	}
}

func write(t testing.TB, schemaJSON, codec string, recs ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := avro.NewWriter(&buf, avro.MustParseSchema(schemaJSON), &avro.WriterOptions{Codec: codec})
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Encode(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func readAll(t testing.TB, data []byte) ([]rec, *avro.Reader) {
	t.Helper()
	r, err := avro.NewReader(bytes.NewReader(data), readerSchema)
	require.NoError(t, err)
	defer r.Close()
	var out []rec
	for {
		var v rec
		err := r.Decode(&v)
		if err == io.EOF {
			return out, r
		}
		require.NoError(t, err)
		out = append(out, v)
	}
}

func TestRoundTripCodecs(t *testing.T) {
	tests := []struct {
		codec, header string
	}{
		{"", "null"},
		{"null", "null"},
		{"deflate", "deflate"},
		{"snappy", "snappy"},
		{"zstandard", "zstandard"},
		{"zstd", "zstandard"},
		{"ZSTD", "zstandard"},
	}
	for _, tt := range tests {
		t.Run(tt.codec, func(t *testing.T) {
			var recs []any
			for _, r := range sample() {
				recs = append(recs, &r)
			}
			data := write(t, readerJSON, tt.codec, recs...)
			got, r := readAll(t, data)
			require.Equal(t, sample(), got)
			require.Equal(t, tt.header, r.Codec())
			require.Equal(t, readerJSON, r.WriterSchema())
			// The null codec leaves the optional avro.codec key out.
			require.Equal(t, tt.header != "null", bytes.Contains(data, []byte("avro.codec")))
		})
	}
}

func TestManyBlocks(t *testing.T) {
	// Enough records for several 64000-byte blocks.
	var recs []any
	var want []rec
	for i := range 5000 {
		r := rec{Version: 2, Name: strings.Repeat("n", 40), Size: int64(i), Stats: stats{Min: []byte{byte(i)}}}
		recs = append(recs, r)
		want = append(want, r)
	}
	for _, codec := range []string{"null", "deflate", "snappy", "zstandard"} {
		t.Run(codec, func(t *testing.T) {
			got, _ := readAll(t, write(t, readerJSON, codec, recs...))
			require.Equal(t, want, got)
		})
	}
}

func TestSchemaEvolution(t *testing.T) {
	tests := []struct {
		name   string
		writer string
		record any
		want   rec
	}{
		{
			// An older writer: fewer fields, an int where the reader has a
			// long, and another record name.
			name: "older writer",
			writer: `{"type":"record","name":"Old","fields":[{"name":"v","type":"int"},{"name":"name","type":"string"},` +
				`{"name":"size","type":"int"},{"name":"stats","type":{"type":"record","name":"S","fields":[` +
				`{"name":"min","type":"bytes"}]}}]}`,
			record: map[string]any{"v": 2, "name": "x", "size": 7, "stats": map[string]any{"min": []byte{1}}},
			want:   rec{Version: 2, Name: "x", Size: 7, Stats: stats{Min: []byte{1}}},
		},
		{
			// Paimon before 0.9: nullable records, top level included.
			name: "nullable records",
			writer: `["null",{"type":"record","name":"record","namespace":"ns","fields":[{"name":"v","type":"int"},` +
				`{"name":"name","type":"string"},{"name":"size","type":"long"},{"name":"stats","type":["null",` +
				`{"type":"record","name":"record_stats","fields":[{"name":"min","type":"bytes"},` +
				`{"name":"counts","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}],"default":null},` +
				`{"name":"created","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null}]}]`,
			record: map[string]any{"v": 2, "name": "y", "size": 8,
				"stats": map[string]any{"min": []byte{2}, "counts": []any{int64(1), nil}}, "created": int64(99)},
			want: rec{Version: 2, Name: "y", Size: 8, Stats: stats{Min: []byte{2}, Counts: []*int64{i64(1), nil}}, Created: i64(99)},
		},
		{
			// A newer writer with a field the reader does not know.
			name: "newer writer",
			writer: `{"type":"record","name":"record","namespace":"ns","fields":[{"name":"v","type":"int"},` +
				`{"name":"name","type":"string"},{"name":"size","type":"long"},{"name":"stats","type":{"type":"record",` +
				`"name":"record_stats","fields":[{"name":"min","type":"bytes"}]}},{"name":"future","type":"string"}]}`,
			record: map[string]any{"v": 2, "name": "z", "size": 9, "stats": map[string]any{"min": []byte{}}, "future": "f"},
			want:   rec{Version: 2, Name: "z", Size: 9, Stats: stats{Min: []byte{}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 2 { // the second pass hits the aligned-schema cache
				got, _ := readAll(t, write(t, tt.writer, "snappy", tt.record))
				require.Equal(t, []rec{tt.want}, got)
			}
		})
	}
}

func TestIncompatibleSchema(t *testing.T) {
	tests := map[string]string{
		"missing required field": `{"type":"record","name":"r","fields":[{"name":"v","type":"int"}]}`,
		"wrong type": `{"type":"record","name":"r","fields":[{"name":"v","type":"int"},{"name":"name","type":"long"},` +
			`{"name":"size","type":"long"},{"name":"stats","type":{"type":"record","name":"s","fields":[{"name":"min","type":"bytes"}]}}]}`,
		"not a record": `"string"`,
	}
	for name, writer := range tests {
		t.Run(name, func(t *testing.T) {
			data := write(t, writer, "null")
			_, err := avro.NewReader(bytes.NewReader(data), readerSchema)
			require.ErrorIs(t, err, avro.ErrCorrupt)
			require.ErrorIs(t, err, avro.ErrIncompatibleSchema)
		})
	}
}

func TestCorrupt(t *testing.T) {
	r := sample()[0]
	good := write(t, readerJSON, "snappy", &r, &r)
	tests := map[string][]byte{
		"empty":       {},
		"bad magic":   append([]byte("Obj\x02"), good[4:]...),
		"truncated":   good[:len(good)-5],
		"flipped crc": flipLast(good, 17),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			err := func() error {
				rd, err := avro.NewReader(bytes.NewReader(data), readerSchema)
				if err != nil {
					return err
				}
				defer rd.Close()
				for {
					var v rec
					if err := rd.Decode(&v); err != nil {
						return err
					}
				}
			}()
			require.ErrorIs(t, err, avro.ErrCorrupt)
		})
	}
}

// flipLast flips a byte n bytes before the end of a copy of b.
func flipLast(b []byte, n int) []byte {
	c := bytes.Clone(b)
	c[len(c)-n] ^= 0xff
	return c
}

type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

func TestIOErrorPassesThrough(t *testing.T) {
	boom := errors.New("boom")
	_, err := avro.NewReader(failingReader{boom}, readerSchema)
	require.ErrorIs(t, err, boom)
	require.NotErrorIs(t, err, avro.ErrCorrupt)
}

func TestUnsupportedCodecFile(t *testing.T) {
	r := sample()[0]
	data := write(t, readerJSON, "deflate", &r)
	// Rename the codec in the header, fixing the zigzag length prefix of the
	// metadata value: "deflate" (7, 0x0e) becomes "bzip2" (5, 0x0a).
	i := bytes.Index(data, []byte("\x0edeflate"))
	require.Positive(t, i)
	patched := append(append(bytes.Clone(data[:i]), []byte("\x0abzip2")...), data[i+8:]...)
	rd, err := avro.NewReader(bytes.NewReader(patched), readerSchema)
	require.NoError(t, err)
	defer rd.Close()
	require.Equal(t, "bzip2", rd.Codec())
	var v rec
	err = rd.Decode(&v)
	require.ErrorIs(t, err, avro.ErrCorrupt)
	require.ErrorIs(t, err, avro.ErrUnsupportedCodec)
}

func TestCodecName(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"", "null", false},
		{"zstd", "zstandard", false},
		{"Zstd", "zstandard", false},
		{"zstandard", "zstandard", false},
		{"snappy", "snappy", false},
		{"deflate", "deflate", false},
		{"null", "null", false},
		{"none", "", true},
		{"bzip2", "", true},
		{"xz", "", true},
		{"lz4", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := avro.CodecName(tt.in)
			if tt.err {
				require.ErrorIs(t, err, avro.ErrUnsupportedCodec)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestWriterRejectsUnknownCodec(t *testing.T) {
	_, err := avro.NewWriter(io.Discard, readerSchema, &avro.WriterOptions{Codec: "xz"})
	require.ErrorIs(t, err, avro.ErrUnsupportedCodec)
}

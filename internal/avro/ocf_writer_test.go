package avro_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/avro"
)

const blockWriterSchema = `{"type":"record","name":"r","fields":[{"name":"a","type":"long"}]}`

// longs encodes values as consecutive Avro longs: one record each.
func longs(vs ...int64) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.AppendVarint(out, v)
	}
	return out
}

// TestBlockWriterHeader checks the header byte by byte: magic, a map of
// avro.schema then avro.codec (named even when "null", as Java writes it),
// the end of the map, and a 16-byte sync marker that also ends each block.
func TestBlockWriterHeader(t *testing.T) {
	var buf bytes.Buffer
	w, err := avro.NewBlockWriter(&buf, blockWriterSchema, nil)
	require.NoError(t, err)
	require.Equal(t, "null", w.Codec())
	var want []byte
	want = append(want, 'O', 'b', 'j', 1)
	want = binary.AppendVarint(want, 2)
	for _, s := range []string{"avro.schema", blockWriterSchema, "avro.codec", "null"} {
		want = binary.AppendVarint(want, int64(len(s)))
		want = append(want, s...)
	}
	want = binary.AppendVarint(want, 0)
	require.Equal(t, want, buf.Bytes()[:len(want)])
	require.Len(t, buf.Bytes(), len(want)+16)
	require.Equal(t, int64(buf.Len()), w.Written())
	sync := append([]byte(nil), buf.Bytes()[len(want):]...)

	require.NoError(t, w.WriteBlock(2, longs(7, -7)))
	block := append(binary.AppendVarint(binary.AppendVarint(nil, 2), 2), longs(7, -7)...)
	block = append(block, sync...)
	require.Equal(t, block, buf.Bytes()[len(want)+16:])
	require.Equal(t, int64(buf.Len()), w.Written())
	require.NoError(t, w.Close())
}

// TestBlockWriterCodecs writes blocks with every codec and reads them back.
func TestBlockWriterCodecs(t *testing.T) {
	for _, codec := range []string{"", "null", "deflate", "snappy", "zstandard"} {
		t.Run(codec, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := avro.NewBlockWriter(&buf, blockWriterSchema, &avro.BlockWriterOptions{Codec: codec, ZstdLevel: 3})
			require.NoError(t, err)
			require.NoError(t, w.WriteBlock(3, longs(1, 2, 3)))
			require.NoError(t, w.WriteBlock(0, nil), "empty blocks are skipped")
			require.NoError(t, w.WriteBlock(1, longs(-1)))
			require.NoError(t, w.Close())
			require.NoError(t, w.Close())
			require.Error(t, w.WriteBlock(1, longs(4)))

			br, err := avro.NewBlockReader(bytes.NewReader(buf.Bytes()), nil)
			require.NoError(t, err)
			defer br.Close()
			require.Equal(t, blockWriterSchema, br.WriterSchema())
			want := codec
			if want == "" {
				want = "null"
			}
			require.Equal(t, want, br.Codec())
			for _, b := range []struct {
				n    int64
				data []byte
			}{{3, longs(1, 2, 3)}, {1, longs(-1)}} {
				n, data, err := br.Next()
				require.NoError(t, err)
				require.Equal(t, b.n, n)
				require.Equal(t, b.data, data)
			}
			_, _, err = br.Next()
			require.Equal(t, io.EOF, err)
		})
	}
}

func TestBlockWriterErrors(t *testing.T) {
	for _, codec := range []string{"zstd", "none", "bzip2", "NULL"} {
		_, err := avro.NewBlockWriter(io.Discard, blockWriterSchema, &avro.BlockWriterOptions{Codec: codec})
		require.ErrorIs(t, err, avro.ErrUnsupportedCodec, codec)
	}

	w, err := avro.NewBlockWriter(io.Discard, blockWriterSchema, nil)
	require.NoError(t, err)
	require.Error(t, w.WriteBlock(-1, nil))

	boom := errors.New("boom")
	fw := &shortWriter{budget: 200, err: boom}
	w, err = avro.NewBlockWriter(fw, blockWriterSchema, nil)
	require.NoError(t, err)
	require.ErrorIs(t, w.WriteBlock(1, make([]byte, 200)), boom)
	require.ErrorIs(t, w.WriteBlock(1, longs(1)), boom, "errors stick")
	require.NoError(t, w.Close())
}

type shortWriter struct {
	budget int
	err    error
}

func (s *shortWriter) Write(p []byte) (int, error) {
	if len(p) > s.budget {
		n := s.budget
		s.budget = 0
		return n, s.err
	}
	s.budget -= len(p)
	return len(p), nil
}

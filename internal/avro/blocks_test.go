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

func TestParseNode(t *testing.T) {
	n, err := avro.ParseNode(`{"type":"record","name":"r","namespace":"ns","fields":[` +
		`{"name":"a","type":["null",{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}]},` +
		`{"name":"b","type":{"type":"array","logicalType":"map","items":{"type":"record","name":"kv","fields":[` +
		`{"name":"key","type":"int"},{"name":"value","type":{"type":"fixed","name":"f4","size":4}}]}}},` +
		`{"name":"c","type":{"type":"map","values":"kv"}},` +
		`{"name":"d","type":{"type":"enum","name":"e","symbols":["X","Y"]}},` +
		`{"name":"e","type":{"type":"long","logicalType":"timestamp-micros"}}]}`)
	require.NoError(t, err)
	require.Equal(t, "record", n.Type)
	require.Equal(t, "ns.r", n.Name)
	require.Len(t, n.Fields, 5)

	a := n.Fields[0].Type
	require.Equal(t, "union", a.Type)
	require.Equal(t, "null", a.Branches[0].Type)
	require.Equal(t, avro.Node{Type: "bytes", LogicalType: "decimal", Precision: 5, Scale: 2}, a.Branches[1])

	b := n.Fields[1].Type
	require.Equal(t, "array", b.Type)
	require.Equal(t, "map", b.LogicalType)
	require.Equal(t, "ns.kv", b.Items.Name)
	require.Equal(t, avro.Node{Type: "fixed", Name: "ns.f4", Size: 4}, b.Items.Fields[1].Type)

	// A reference to a named type is expanded in place.
	c := n.Fields[2].Type
	require.Equal(t, "map", c.Type)
	require.Equal(t, *b.Items, *c.Values)

	require.Equal(t, []string{"X", "Y"}, n.Fields[3].Type.Symbols)
	require.Equal(t, avro.Node{Type: "long", LogicalType: "timestamp-micros"}, n.Fields[4].Type)

	_, err = avro.ParseNode(`{"type":"nope"}`)
	require.ErrorIs(t, err, avro.ErrCorrupt)
}

func TestParseNodeRecursive(t *testing.T) {
	n, err := avro.ParseNode(`{"type":"record","name":"list","fields":[{"name":"v","type":"int"},` +
		`{"name":"next","type":["null","list"]}]}`)
	require.NoError(t, err)
	// The recursive reference cannot be expanded and stays a name.
	require.Equal(t, "list", n.Fields[1].Type.Branches[1].Type)
}

// TestBlockReaderCodecs reads containers written by Writer block by block
// and decodes the raw records by hand.
func TestBlockReaderCodecs(t *testing.T) {
	const s = `{"type":"record","name":"r","fields":[{"name":"v","type":"long"},{"name":"s","type":"string"}]}`
	type rec struct {
		V int64  `avro:"v"`
		S string `avro:"s"`
	}
	for _, codec := range []string{"null", "deflate", "snappy", "zstd"} {
		t.Run(codec, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := avro.NewWriter(&buf, avro.MustParseSchema(s), &avro.WriterOptions{Codec: codec})
			require.NoError(t, err)
			const n = 20000 // several blocks
			for i := range n {
				require.NoError(t, w.Encode(&rec{V: int64(i), S: "some text to fill blocks"}))
			}
			require.NoError(t, w.Close())

			br, err := avro.NewBlockReader(bytes.NewReader(buf.Bytes()), &avro.BlockReaderOptions{MaxBlockBytes: int64(buf.Len())})
			require.NoError(t, err)
			defer br.Close()
			require.Equal(t, s, br.WriterSchema())
			require.Equal(t, "record", br.Schema().Type)
			want, _ := avro.CodecName(codec)
			require.Equal(t, want, br.Codec())
			next, blocks := int64(0), 0
			for {
				count, data, err := br.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				blocks++
				for range count {
					v, k := binary.Varint(data)
					require.Positive(t, k)
					require.Equal(t, next, v)
					data = data[k:]
					l, k := binary.Varint(data)
					require.Positive(t, k)
					require.Equal(t, "some text to fill blocks", string(data[k:k+int(l)]))
					data = data[k+int(l):]
					next++
				}
				require.Empty(t, data)
			}
			require.Equal(t, int64(n), next)
			require.Greater(t, blocks, 1)
			// Next keeps reporting the end.
			_, _, err = br.Next()
			require.Equal(t, io.EOF, err)
		})
	}
}

func TestBlockReaderCorrupt(t *testing.T) {
	var buf bytes.Buffer
	w, err := avro.NewWriter(&buf, readerSchema, &avro.WriterOptions{Codec: "snappy"})
	require.NoError(t, err)
	r := sample()[0]
	require.NoError(t, w.Encode(&r))
	require.NoError(t, w.Close())
	good := buf.Bytes()
	buf.Reset()
	w, err = avro.NewWriter(&buf, readerSchema, nil)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	header := buf.Bytes() // no blocks
	withBlock := func(count, size int64) []byte {
		return binary.AppendVarint(binary.AppendVarint(bytes.Clone(header), count), size)
	}
	tests := map[string][]byte{
		"empty":          {},
		"bad magic":      append([]byte("Obj\x02"), good[4:]...),
		"truncated":      good[:len(good)-5],
		"flipped crc":    flipLast(good, 17),
		"flipped sync":   flipLast(good, 1),
		"truncated sync": good[:len(good)-1],
		"huge block":     withBlock(1, 1<<40),
		"negative size":  withBlock(1, -1),
		"no schema":      []byte("Obj\x01\x00" + "0123456789abcdef"),
		"bad metadata":   []byte("Obj\x01\x02\x7f"),
		"negative count": withBlock(-1, 0),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			err := func() error {
				br, err := avro.NewBlockReader(bytes.NewReader(data), &avro.BlockReaderOptions{MaxBlockBytes: int64(len(data))})
				if err != nil {
					return err
				}
				defer br.Close()
				for {
					if _, _, err := br.Next(); err != nil {
						return err
					}
				}
			}()
			require.ErrorIs(t, err, avro.ErrCorrupt)
		})
	}
}

func TestBlockReaderIOError(t *testing.T) {
	boom := errors.New("boom")
	_, err := avro.NewBlockReader(failingReader{boom}, nil)
	require.ErrorIs(t, err, boom)
	require.NotErrorIs(t, err, avro.ErrCorrupt)
}

func TestBlockReaderUnsupportedCodec(t *testing.T) {
	r := sample()[0]
	data := write(t, readerJSON, "deflate", &r)
	i := bytes.Index(data, []byte("\x0edeflate"))
	require.Positive(t, i)
	patched := append(append(bytes.Clone(data[:i]), []byte("\x0abzip2")...), data[i+8:]...)
	_, err := avro.NewBlockReader(bytes.NewReader(patched), nil)
	require.ErrorIs(t, err, avro.ErrCorrupt)
	require.ErrorIs(t, err, avro.ErrUnsupportedCodec)
}

// TestBlockReaderReuse closes readers while others are open: buffers handed
// from a closed reader to a new one never change what an open one reads,
// and a closed reader refuses Next.
func TestBlockReaderReuse(t *testing.T) {
	files := make([][]byte, 3)
	for i := range files {
		var buf bytes.Buffer
		w, err := avro.NewWriter(&buf, avro.MustParseSchema(`"long"`), &avro.WriterOptions{Codec: []string{"null", "zstd", "snappy"}[i]})
		require.NoError(t, err)
		for v := range 30000 {
			require.NoError(t, w.Encode(int64(v*(i+1))))
		}
		require.NoError(t, w.Close())
		files[i] = buf.Bytes()
	}
	sum := func(br *avro.BlockReader) int64 {
		var s int64
		for {
			count, data, err := br.Next()
			if err == io.EOF {
				return s
			}
			require.NoError(t, err)
			c := avro.NewCursor(data)
			for range count {
				v, err := c.Long()
				require.NoError(t, err)
				s += v
			}
		}
	}
	want := int64(30000 * 29999 / 2)
	open := make([]*avro.BlockReader, len(files))
	for round := range 3 {
		for i := range files {
			br, err := avro.NewBlockReader(bytes.NewReader(files[i]), nil)
			require.NoError(t, err)
			open[i] = br
		}
		for i, br := range open {
			require.Equal(t, want*int64(i+1), sum(br), "round %d file %d", round, i)
			require.NoError(t, br.Close())
			_, _, err := br.Next()
			require.Error(t, err)
			require.NoError(t, br.Close(), "Close twice")
		}
	}
}

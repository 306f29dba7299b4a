package avro_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/avro"
)

// skipSchema has a field of every kind a Skipper handles.
const skipSchema = `{"type":"record","name":"r","fields":[` +
	`{"name":"n","type":"null"},{"name":"b","type":"boolean"},{"name":"i","type":"int"},{"name":"l","type":"long"},` +
	`{"name":"f","type":"float"},{"name":"d","type":"double"},{"name":"by","type":"bytes"},{"name":"s","type":"string"},` +
	`{"name":"fx","type":{"type":"fixed","name":"fx","size":3}},{"name":"e","type":{"type":"enum","name":"e","symbols":["A","B"]}},` +
	`{"name":"a","type":{"type":"array","items":["null","string"]}},{"name":"m","type":{"type":"map","values":"long"}},` +
	`{"name":"rec","type":{"type":"record","name":"in","fields":[{"name":"x","type":"int"}]}}]}`

func TestSkipper(t *testing.T) {
	rec := map[string]any{"n": nil, "b": true, "i": int32(-7), "l": int64(1 << 40), "f": float32(1.5), "d": 2.5,
		"by": []byte{1, 2}, "s": "text", "fx": []byte{7, 8, 9}, "e": "B", "a": []any{"x", nil, "yz"},
		"m": map[string]any{"k": int64(3), "q": int64(-4)}, "rec": map[string]any{"x": int32(5)}}
	var buf bytes.Buffer
	w, err := avro.NewWriter(&buf, avro.MustParseSchema(skipSchema), nil)
	require.NoError(t, err)
	const n = 50
	for range n {
		require.NoError(t, w.Encode(rec))
	}
	require.NoError(t, w.Close())
	br, err := avro.NewBlockReader(bytes.NewReader(buf.Bytes()), nil)
	require.NoError(t, err)
	defer br.Close()
	sk, err := avro.NewSkipper(br.Schema())
	require.NoError(t, err)
	count, data, err := br.Next()
	require.NoError(t, err)
	require.Equal(t, int64(n), count)

	c := avro.NewCursor(data)
	for range count {
		require.NoError(t, sk.Skip(&c))
	}
	require.Zero(t, c.Len())
	// Every cut short of a record's end is an error, never a panic.
	one := len(data) / n
	for cut := range one {
		c := avro.NewCursor(data[:cut])
		require.ErrorIs(t, sk.Skip(&c), avro.ErrCorrupt, "cut at %d", cut)
	}
	_, _, err = br.Next()
	require.Equal(t, io.EOF, err)
}

func TestSkipperSkipsSizedBlocks(t *testing.T) {
	// An array block with a negative count carries its byte size and is
	// skipped whole; a zero-size item type does not loop per item.
	n, err := avro.ParseNode(`{"type":"array","items":"null"}`)
	require.NoError(t, err)
	sk, err := avro.NewSkipper(n)
	require.NoError(t, err)
	b := binary.AppendVarint(nil, -3)
	b = binary.AppendVarint(b, 0)
	b = binary.AppendVarint(b, 0)
	c := avro.NewCursor(b)
	require.NoError(t, sk.Skip(&c))
	require.Zero(t, c.Len())

	huge := binary.AppendVarint(nil, math.MaxInt32)
	c = avro.NewCursor(append(huge, 0))
	require.ErrorIs(t, sk.Skip(&c), avro.ErrCorrupt)
}

func TestNewSkipperRejectsRecursion(t *testing.T) {
	n, err := avro.ParseNode(`{"type":"record","name":"list","fields":[{"name":"next","type":["null","list"]}]}`)
	require.NoError(t, err)
	_, err = avro.NewSkipper(n)
	require.ErrorIs(t, err, avro.ErrCorrupt)
}

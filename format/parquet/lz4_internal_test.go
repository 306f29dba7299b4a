package parquet

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"
)

// TestHadoopLZ4RoundTrip encodes pages of several sizes, one spanning many
// Hadoop chunks, and decodes them back; every chunk's input fits Hadoop's
// 256 KiB decompressor buffer.
func TestHadoopLZ4RoundTrip(t *testing.T) {
	codec, err := compress.GetCodec(compress.Codecs.Lz4)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, hadoopLZ4MaxInput, hadoopLZ4MaxInput + 1, 3*hadoopLZ4MaxInput + 17} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte('a' + r.IntN(4)) // compressible, unlike noise
		}
		enc := codec.Encode(nil, src)
		require.LessOrEqual(t, int64(len(enc)), codec.CompressBound(int64(n)), "n=%d", n)
		// One chunk per frame, each within Hadoop's buffer and decoding
		// to the length its frame announces (what Arrow C++ requires).
		chunks, rest := 0, enc
		for len(rest) > 0 {
			u := int(binary.BigEndian.Uint32(rest))
			c := int(binary.BigEndian.Uint32(rest[4:]))
			out := make([]byte, hadoopLZ4MaxInput)
			got, err := lz4.UncompressBlock(rest[8:8+c], out)
			require.NoError(t, err)
			require.Equal(t, u, got)
			require.LessOrEqual(t, got, hadoopLZ4MaxInput)
			rest = rest[8+c:]
			chunks++
		}
		require.Equal(t, (n+hadoopLZ4MaxInput-1)/hadoopLZ4MaxInput, chunks, "n=%d", n)
		dec, err := compress.Decode(codec, make([]byte, n), enc)
		require.NoError(t, err, "n=%d", n)
		require.True(t, bytes.Equal(src, dec), "n=%d", n)
	}
}

// TestHadoopLZ4Fallback decodes a raw LZ4 block stored under the LZ4
// codec, as Arrow C++ does, and turns malformed input into errors.
func TestHadoopLZ4Fallback(t *testing.T) {
	codec, err := compress.GetCodec(compress.Codecs.Lz4)
	require.NoError(t, err)
	src := bytes.Repeat([]byte("paimon lz4 "), 100)
	raw := make([]byte, lz4.CompressBlockBound(len(src)))
	n, err := lz4.CompressBlock(src, raw, nil)
	require.NoError(t, err)
	dec, err := compress.Decode(codec, make([]byte, len(src)), raw[:n])
	require.NoError(t, err)
	require.Equal(t, src, dec)

	// Hadoop's own frames may hold several chunks.
	half := len(src) / 2
	var frame []byte
	frame = binary.BigEndian.AppendUint32(frame, uint32(len(src)))
	for _, part := range [][]byte{src[:half], src[half:]} {
		block := make([]byte, lz4.CompressBlockBound(len(part)))
		n, err := lz4.CompressBlock(part, block, nil)
		require.NoError(t, err)
		frame = binary.BigEndian.AppendUint32(frame, uint32(n))
		frame = append(frame, block[:n]...)
	}
	dec, err = compress.Decode(codec, make([]byte, len(src)), frame)
	require.NoError(t, err)
	require.Equal(t, src, dec)

	good := codec.Encode(nil, src)
	for _, bad := range [][]byte{
		{0, 0, 0},                               // short length
		{0, 0, 0, 9, 0, 0, 0, 100, 1},           // chunk longer than the input
		append([]byte{}, good[:len(good)-3]...), // truncated chunk
		{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0}, // absurd length
	} {
		_, err := compress.Decode(codec, make([]byte, len(src)), bad)
		require.Error(t, err, "%x", bad)
	}
}

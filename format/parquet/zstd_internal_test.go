package parquet

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"
)

// TestZstdCodec checks the registered zstd codec: pages up to zstdWindow
// compress into the bytes arrow-go's own encoders (8 MiB window, same
// options) give them, larger ones round-trip, and decoding is arrow-go's.
func TestZstdCodec(t *testing.T) {
	c, err := compress.GetCodec(compress.Codecs.Zstd)
	require.NoError(t, err)
	require.IsType(t, &zstdCodec{}, c)
	r := rand.New(rand.NewPCG(1, 2))
	page := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.IntN(4)) // compressible, with long-range matches
		}
		return b
	}
	for _, level := range []int{1, 3, compress.DefaultCompressionLevel} {
		l := zstd.SpeedDefault
		if level != compress.DefaultCompressionLevel {
			l = zstd.EncoderLevelFromZstd(level)
		}
		ref, err := zstd.NewWriter(nil, zstd.WithZeroFrames(true), zstd.WithEncoderLevel(l),
			zstd.WithEncoderConcurrency(1), zstd.WithAllLitEntropyCompression(true))
		require.NoError(t, err)
		for _, n := range []int{0, 100, 1 << 20, zstdWindow, zstdWindow + 1, 5 << 20} {
			src := page(n)
			got := c.EncodeLevel(nil, src, level)
			if n <= zstdWindow {
				require.True(t, bytes.Equal(ref.EncodeAll(src, nil), got), "level %d, %d bytes", level, n)
			}
			back, err := c.(compress.ErrorCodec).DecodeWithError(nil, got)
			require.NoError(t, err)
			require.True(t, bytes.Equal(src, back), "level %d, %d bytes", level, n)
		}
	}
}

package parquet

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
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

// TestZstdRawPages checks the incompressible-page path: a page of random
// bytes or random doubles is stored as one frame of raw blocks that the
// decoder reads back; random data that repeats within the probe, and pages
// too small or too large for the path, are compressed as before.
func TestZstdRawPages(t *testing.T) {
	c, err := compress.GetCodec(compress.Codecs.Zstd)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(3, 4))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	doubles := make([]byte, 0, 1<<20)
	for len(doubles) < 1<<20 {
		doubles = binary.LittleEndian.AppendUint64(doubles, math.Float64bits(r.Float64()*1000))
	}
	block := random(16 << 10)
	repeats := bytes.Repeat(block, 64) // 1 MiB, entropy near 8, compresses 64x
	rawSize := func(n int) int { return n + 9 + 3*((n+rawMaxBlock-1)/rawMaxBlock) }
	for _, tc := range []struct {
		name string
		src  []byte
		raw  bool
	}{
		{"random 1 MiB", random(1 << 20), true},
		{"random 200 KiB", random(200 << 10), true},
		{"random doubles", doubles, true},
		{"random smaller than rawMinPage", random(rawMinPage - 1), false},
		{"random larger than the window", random(zstdWindow + 1), false},
		{"repeated random block", repeats, false},
	} {
		got := c.EncodeLevel(make([]byte, 0, c.CompressBound(int64(len(tc.src)))), tc.src, 1)
		if tc.raw {
			require.Len(t, got, rawSize(len(tc.src)), tc.name)
			require.True(t, bytes.Equal(tc.src[:rawMaxBlock], got[12:12+rawMaxBlock]), tc.name)
		} else {
			require.NotEqual(t, rawSize(len(tc.src)), len(got), tc.name)
		}
		if tc.name == "repeated random block" {
			require.Less(t, len(got), len(tc.src)/16, tc.name)
		}
		back, err := c.(compress.ErrorCodec).DecodeWithError(nil, got)
		require.NoError(t, err, tc.name)
		require.True(t, bytes.Equal(tc.src, back), tc.name)
		// klauspost's streaming decoder, as parquet-java's zstd-jni
		// stream reads pages, also takes the frame.
		dec, err := zstd.NewReader(bytes.NewReader(got))
		require.NoError(t, err)
		back, err = io.ReadAll(dec)
		dec.Close()
		require.NoError(t, err, tc.name)
		require.True(t, bytes.Equal(tc.src, back), tc.name)
	}
}

// BenchmarkZstdPage compresses 1 MiB pages like write-10m's (PLAIN
// sequential BIGINT ids, random DOUBLE prices, 16-byte names) with the
// codec this package registers and with arrow-go's own (base), in the same
// run: the compressible pages cost the same, the random doubles take the
// raw-block path.
//
//	go test ./format/parquet -run '^$' -bench ZstdPage -count 6
func BenchmarkZstdPage(b *testing.B) {
	c, err := compress.GetCodec(compress.Codecs.Zstd)
	require.NoError(b, err)
	z := c.(*zstdCodec)
	r := rand.New(rand.NewPCG(5, 6))
	const n = 1 << 20
	pages := map[string][]byte{}
	var ids, prices, names []byte
	for i := 0; len(ids) < n; i++ {
		ids = binary.LittleEndian.AppendUint64(ids, uint64(i))
		prices = binary.LittleEndian.AppendUint64(prices, math.Float64bits(r.Float64()*1000))
	}
	for len(names) < n {
		names = binary.LittleEndian.AppendUint32(names, 16)
		names = append(names, "user-"...)
		for range 11 {
			names = append(names, byte('a'+r.IntN(26)))
		}
	}
	pages["ids"], pages["prices"], pages["names"] = ids[:n], prices[:n], names[:n]
	for _, kind := range []string{"ids", "prices", "names"} {
		src := pages[kind]
		for _, codec := range []struct {
			name string
			c    compress.Codec
		}{{"registered", z}, {"arrow-go", z.base}} {
			b.Run(kind+"/"+codec.name, func(b *testing.B) {
				dst := make([]byte, 0, c.CompressBound(n))
				b.SetBytes(n)
				for b.Loop() {
					dst = codec.c.EncodeLevel(dst[:0], src, 1)
				}
				b.ReportMetric(float64(len(dst))/n, "ratio")
			})
		}
	}
}

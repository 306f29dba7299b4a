package parquet

import (
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// zstdWindow is the window of the zstd encoders that compress Parquet
// pages. arrow-go's codec keeps a pool of klauspost encoders per level with
// the library's default window of 8 MiB, and a klauspost encoder allocates
// a history buffer of twice its window on first use: 16 MiB per encoder,
// one per page being compressed at once, for pages that are about 1 MiB
// (the data page size, and the dictionary page limit). That was 16 of the
// 113 MiB live at the peak of a 10M-row streaming write (issue 23). With a
// 2 MiB window the history is 4 MiB. A page of at most 2 MiB is compressed
// into the same bytes either way (matches never reach further back than the
// page's start, and such a page is a single-segment frame whose header
// carries its own size, not the window); a larger page may compress a
// little less well. A smaller window never keeps a decoder from reading a
// frame.
const zstdWindow = 2 << 20

// zstdCodec replaces arrow-go's zstd codec for encoding only: decoding,
// streams and bounds are arrow-go's own (base), so reads do not change.
// Like the Hadoop LZ4 codec in lz4.go it is registered with arrow-go's
// codec registry when this package is loaded; internal/datafile imports
// it for its writers.
type zstdCodec struct {
	base  zstdBase
	mu    sync.RWMutex
	pools map[zstd.EncoderLevel]*sync.Pool
}

// zstdBase is what arrow-go's zstd codec implements beyond compress.Codec.
type zstdBase interface {
	compress.ErrorCodec
	NewReader(r io.Reader) io.ReadCloser
	NewWriter(w io.Writer) io.WriteCloser
	NewWriterLevel(w io.Writer, level int) (io.WriteCloser, error)
}

func init() {
	c, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		return
	}
	base, ok := c.(zstdBase)
	if !ok {
		return // an arrow-go whose codec has another shape: keep it as it is
	}
	compress.RegisterCodec(compress.Codecs.Zstd, &zstdCodec{base: base, pools: map[zstd.EncoderLevel]*sync.Pool{}})
}

// pool returns the encoder pool of a level, with arrow-go's options
// (zero frames, one goroutine, entropy-coded literals) and zstdWindow.
func (z *zstdCodec) pool(level zstd.EncoderLevel) *sync.Pool {
	z.mu.RLock()
	p := z.pools[level]
	z.mu.RUnlock()
	if p != nil {
		return p
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if p = z.pools[level]; p == nil {
		p = &sync.Pool{New: func() any {
			enc, err := zstd.NewWriter(nil, zstd.WithZeroFrames(true), zstd.WithEncoderLevel(level),
				zstd.WithEncoderConcurrency(1), zstd.WithAllLitEntropyCompression(true), zstd.WithWindowSize(zstdWindow))
			if err != nil {
				panic(err) // constant options: cannot happen
			}
			return enc
		}}
		z.pools[level] = p
	}
	return p
}

func (z *zstdCodec) Encode(dst, src []byte) []byte {
	return z.EncodeLevel(dst, src, compress.DefaultCompressionLevel)
}

// EncodeLevel compresses src as one zstd frame at the zstd level given
// (arrow-go's mapping: the default level is klauspost's SpeedDefault).
func (z *zstdCodec) EncodeLevel(dst, src []byte, level int) []byte {
	l := zstd.SpeedDefault
	if level != compress.DefaultCompressionLevel {
		l = zstd.EncoderLevelFromZstd(level)
	}
	p := z.pool(l)
	enc := p.Get().(*zstd.Encoder)
	defer p.Put(enc)
	return enc.EncodeAll(src, dst[:0])
}

func (z *zstdCodec) CompressBound(n int64) int64 { return z.base.CompressBound(n) }

func (z *zstdCodec) Decode(dst, src []byte) []byte { return z.base.Decode(dst, src) }

func (z *zstdCodec) DecodeWithError(dst, src []byte) ([]byte, error) {
	return z.base.DecodeWithError(dst, src)
}

func (z *zstdCodec) NewReader(r io.Reader) io.ReadCloser { return z.base.NewReader(r) }

func (z *zstdCodec) NewWriter(w io.Writer) io.WriteCloser { return z.base.NewWriter(w) }

func (z *zstdCodec) NewWriterLevel(w io.Writer, level int) (io.WriteCloser, error) {
	return z.base.NewWriterLevel(w, level)
}

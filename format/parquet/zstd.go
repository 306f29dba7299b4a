package parquet

import (
	"encoding/binary"
	"io"
	"math"
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
	if incompressible(enc, dst, src) {
		return appendRawFrame(dst[:0], src)
	}
	return enc.EncodeAll(src, dst[:0])
}

// Pages that do not compress. A column of random doubles (prices, sensor
// readings) or of bit-packed dictionary indices over many values does not
// shrink under zstd: klauspost's encoder finds no matches, tries Huffman on
// the literals, gives up and stores the blocks raw, at the cost of a full
// compression (issue 23: the price and qty columns of write-10m were 17% of
// the page bytes, came out at 97-100% of their size, and cost a sixth of the
// zstd time of the write). A page that looks like such data is probed: when
// its first rawProbe bytes compress by less than a sixteenth (the least gain
// klauspost's own literal compression accepts), the page is written as a
// zstd frame of raw blocks, which every zstd decoder reads (zstd-jni in
// Java, arrow-go, Arrow C++) and which is what the encoder would mostly
// have produced anyway. The first test, the bytes' order-0 entropy, costs
// one pass over the probe and keeps the probe off pages that compress
// (integers, text, decimals: below 6 bits a byte); a page of high entropy
// with repeats (random strings that recur) passes the probe and is
// compressed as before.
const (
	rawMinPage = 128 << 10 // smaller pages are compressed as they are
	rawProbe   = 64 << 10
	// rawEntropy is the order-0 entropy, in bits per byte, from which a
	// page is probed.
	rawEntropy = 7.2
	// rawMaxBlock is a zstd block's largest size (Block_Maximum_Size).
	rawMaxBlock = 128 << 10
)

// incompressible reports whether src should be stored in raw blocks. dst's
// capacity (arrow-go passes the compress bound) holds the probe's output.
func incompressible(enc *zstd.Encoder, dst, src []byte) bool {
	if len(src) < rawMinPage || len(src) > zstdWindow {
		return false // a raw frame is single-segment: its window is the page
	}
	probe := src[:rawProbe]
	if entropy(probe) < rawEntropy {
		return false
	}
	out := enc.EncodeAll(probe, dst[:0])
	return len(out) > len(probe)-len(probe)/16
}

// entropy is the order-0 entropy of b in bits per byte.
func entropy(b []byte) float64 {
	var counts [256]int
	for _, c := range b {
		counts[c]++
	}
	n := float64(len(b))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// appendRawFrame appends src to dst as one zstd frame (RFC 8878 section 3.1.1)
// of raw blocks: the magic number; a frame header with the single-segment
// flag and a 4-byte content size, no dictionary and no checksum; blocks of
// at most rawMaxBlock bytes, each behind a 3-byte header (last-block bit,
// type 0 raw, size), the last one flagged. src is not empty and at most
// 4 GiB.
func appendRawFrame(dst, src []byte) []byte {
	dst = append(dst, 0x28, 0xb5, 0x2f, 0xfd, 0xa0) // magic; FCS 4 bytes, single segment
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
	for len(src) > 0 {
		n := min(len(src), rawMaxBlock)
		h := uint32(n) << 3 // block type 0: raw
		if n == len(src) {
			h |= 1 // last block
		}
		dst = append(dst, byte(h), byte(h>>8), byte(h>>16))
		dst = append(dst, src[:n]...)
		src = src[n:]
	}
	return dst
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

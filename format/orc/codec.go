package orc

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Compression framing (ORC specification, "Compression"): with a codec,
// every stream and the footer and metadata are a sequence of chunks, each a
// 3-byte little-endian header (length*2 + isOriginal) and that many bytes,
// compressed independently; a chunk that did not shrink is stored as is
// (isOriginal). A chunk never expands to more than the PostScript's
// compressionBlockSize. Java: org.apache.orc.impl.InStream / OutStream.

const (
	chunkHeaderSize = 3
	// maxBlockSize bounds the block size this package accepts from a file:
	// Java writes at most 256 KiB (OutStream.assertBufferSizeValid allows
	// up to 2^23 - 1), so a larger value is a corrupt PostScript, and
	// honouring it would let a file make every decompressed chunk that big.
	maxBlockSize = 1 << 23
	// maxSectionSize bounds what a footer, metadata, stripe footer or row
	// index decompresses to: Java parses them as protobuf messages of at
	// most 1 GiB (InStream.PROTOBUF_MESSAGE_MAX_LIMIT), so a section that
	// inflates beyond it (a few kilobytes of zstd chunks can claim
	// gigabytes) is corrupt.
	maxSectionSize = 1 << 30
)

// codec compresses and decompresses chunks of one CompressionKind.
type codec struct {
	kind      CompressionKind
	blockSize int
}

// newCodec checks that kind has a decoder here.
func newCodec(kind CompressionKind, blockSize uint64) (*codec, error) {
	switch kind {
	case CompressionNone:
		return &codec{kind: kind}, nil
	case CompressionZlib, CompressionSnappy, CompressionLZ4, CompressionZstd, CompressionLZO:
	default:
		return nil, unsupportedf("compression kind %d", int(kind))
	}
	if blockSize == 0 || blockSize > maxBlockSize {
		return nil, corruptf("compression block size %d", blockSize)
	}
	return &codec{kind: kind, blockSize: int(blockSize)}, nil
}

// decompressAll decodes a whole compressed section (footer, metadata, a
// stripe footer, an index stream) into one buffer. Each chunk yields at
// most the block size, and the whole at most maxSectionSize, checked as it
// goes.
func (c *codec) decompressAll(src []byte) ([]byte, error) {
	if c.kind == CompressionNone {
		return src, nil
	}
	var out []byte
	var scratch []byte
	for len(src) > 0 {
		data, original, rest, err := splitChunk(src)
		if err != nil {
			return nil, err
		}
		src = rest
		if original {
			if len(data) > c.blockSize {
				return nil, corruptf("uncompressed chunk of %d bytes exceeds the block size %d", len(data), c.blockSize)
			}
			out = append(out, data...)
			continue
		}
		scratch, err = c.decompress(scratch[:0], data)
		if err != nil {
			return nil, err
		}
		if len(out)+len(scratch) > maxSectionSize {
			return nil, corruptf("section decompresses to more than %d bytes", maxSectionSize)
		}
		out = append(out, scratch...)
	}
	return out, nil
}

// splitChunk splits the first chunk off src.
func splitChunk(src []byte) (data []byte, original bool, rest []byte, err error) {
	if len(src) < chunkHeaderSize {
		return nil, false, nil, corruptf("truncated compression chunk header")
	}
	h := int(src[0]) | int(src[1])<<8 | int(src[2])<<16
	n := h >> 1
	src = src[chunkHeaderSize:]
	if n > len(src) {
		return nil, false, nil, corruptf("compression chunk of %d bytes with %d left in the stream", n, len(src))
	}
	return src[:n:n], h&1 == 1, src[n:], nil
}

// decompress decodes one compressed chunk, appending to dst (whose
// capacity should be the block size). The result never exceeds the block
// size.
func (c *codec) decompress(dst, src []byte) ([]byte, error) {
	var err error
	switch c.kind {
	case CompressionZlib:
		dst, err = inflate(dst, src, c.blockSize)
	case CompressionSnappy:
		var n int
		n, err = snappy.DecodedLen(src)
		if err == nil && n > c.blockSize {
			err = fmt.Errorf("chunk decompresses to %d bytes, above the block size %d", n, c.blockSize)
		}
		if err == nil {
			dst = growTo(dst, n)
			_, err = snappy.Decode(dst[len(dst)-n:], src)
		}
	case CompressionLZ4:
		base := len(dst)
		dst = growTo(dst, c.blockSize)
		var n int
		n, err = lz4.UncompressBlock(src, dst[base:])
		dst = dst[:base+max(n, 0)]
	case CompressionZstd:
		var d *zstd.Decoder
		d, err = zstdDecoder()
		if err == nil {
			base := len(dst)
			dst, err = d.DecodeAll(src, dst)
			if err == nil && len(dst)-base > c.blockSize {
				err = fmt.Errorf("chunk decompresses to %d bytes, above the block size %d", len(dst)-base, c.blockSize)
			}
		}
	case CompressionLZO:
		base := len(dst)
		dst = growTo(dst, c.blockSize)
		var n int
		n, err = lzoDecompress(src, dst[base:])
		dst = dst[:base+n]
	default:
		err = fmt.Errorf("no decoder for %s", c.kind)
	}
	if err != nil {
		return dst, corruptf("%s chunk: %v", c.kind, err)
	}
	return dst, nil
}

// growTo extends b by n bytes.
func growTo(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), len(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}

var flatePool sync.Pool // io.ReadCloser implementing flate.Resetter

// inflate decodes raw deflate data (Java's Inflater with nowrap), at most
// limit bytes.
func inflate(dst, src []byte, limit int) ([]byte, error) {
	r, _ := flatePool.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(bytes.NewReader(src))
	} else if err := r.(flate.Resetter).Reset(bytes.NewReader(src), nil); err != nil {
		return dst, err
	}
	defer flatePool.Put(r)
	base := len(dst)
	dst = growTo(dst, limit+1)
	n, err := io.ReadFull(r, dst[base:])
	dst = dst[:base+n]
	switch err {
	case nil:
		return dst, fmt.Errorf("chunk decompresses to more than the block size %d", limit)
	case io.EOF, io.ErrUnexpectedEOF:
		return dst, nil
	}
	return dst, err
}

// zstdDecoder is shared by every reader: DecodeAll is safe for concurrent
// use, and a decoder is costly to build. Its memory limit bounds what one
// frame may claim; chunks are far smaller.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(min(runtime.GOMAXPROCS(0), 4)),
		zstd.WithDecoderMaxMemory(maxBlockSize*2),
		zstd.WithDecoderMaxWindow(maxBlockSize*2))
})

// zstdEncoders holds one shared encoder per level (EncodeAll is safe for
// concurrent use).
var zstdEncoders sync.Map // int -> *zstdEncoderEntry

type zstdEncoderEntry struct {
	once sync.Once
	enc  *zstd.Encoder
	err  error
}

func zstdEncoder(level int) (*zstd.Encoder, error) {
	v, _ := zstdEncoders.LoadOrStore(level, &zstdEncoderEntry{})
	e := v.(*zstdEncoderEntry)
	e.once.Do(func() {
		e.enc, e.err = zstd.NewWriter(nil,
			zstd.WithEncoderConcurrency(min(runtime.GOMAXPROCS(0), 4)),
			zstd.WithEncoderCRC(false),
			zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)))
	})
	return e.enc, e.err
}

// compressor compresses chunks for the writer. It is used by one goroutine.
type compressor struct {
	kind  CompressionKind
	level int
	zstd  *zstd.Encoder
	flate *flate.Writer
	buf   bytes.Buffer
	lz4   lz4.Compressor
}

func newCompressor(kind CompressionKind, zstdLevel int) (*compressor, error) {
	c := &compressor{kind: kind, level: zstdLevel}
	switch kind {
	case CompressionNone, CompressionSnappy, CompressionLZ4:
	case CompressionZlib:
		w, err := flate.NewWriter(&c.buf, flate.DefaultCompression)
		if err != nil {
			return nil, err
		}
		c.flate = w
	case CompressionZstd:
		enc, err := zstdEncoder(zstdLevel)
		if err != nil {
			return nil, err
		}
		c.zstd = enc
	default:
		return nil, unsupportedf("writing %s compression", kind)
	}
	return c, nil
}

// compress appends the compressed form of src to dst and reports whether
// it is smaller than src; when it is not, the caller stores src as an
// original chunk (Java OutStream does the same).
func (c *compressor) compress(dst, src []byte) ([]byte, bool) {
	base := len(dst)
	switch c.kind {
	case CompressionZlib:
		c.buf.Reset()
		c.flate.Reset(&c.buf)
		_, _ = c.flate.Write(src)
		_ = c.flate.Close()
		dst = append(dst, c.buf.Bytes()...)
	case CompressionSnappy:
		n := snappy.MaxEncodedLen(len(src))
		dst = growTo(dst, n)
		out := snappy.Encode(dst[base:], src)
		dst = dst[:base+len(out)]
	case CompressionLZ4:
		n := lz4.CompressBlockBound(len(src))
		dst = growTo(dst, n)
		m, err := c.lz4.CompressBlock(src, dst[base:])
		if err != nil || m == 0 {
			return dst[:base], false
		}
		dst = dst[:base+m]
	case CompressionZstd:
		dst = c.zstd.EncodeAll(src, dst)
	default:
		return dst, false
	}
	return dst, len(dst)-base < len(src)
}

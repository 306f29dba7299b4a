package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/pierrec/lz4/v4"
)

// Parquet's LZ4 codec (CompressionCodec LZ4, deprecated by the format in
// favour of LZ4_RAW) is, in every writer Java Paimon uses, Hadoop's
// Lz4Codec: parquet-java compresses each page through a
// BlockCompressorStream, which frames the LZ4 blocks as
//
//	page     := { be32(uncompressed length) chunk+ }+
//	chunk    := be32(compressed length) lz4-block
//
// with at most hadoopLZ4MaxInput input bytes per chunk (the stream's 256 KiB
// buffer less Lz4Codec's compression overhead), so that Hadoop's
// decompressor, whose buffer has the same size, can take every chunk. The
// encoder writes one chunk per frame ({be32(n) be32(c) block}, n at most
// hadoopLZ4MaxInput): Hadoop reads that like its own frames, and Arrow C++
// (pyarrow), whose reader takes exactly one chunk per frame, does too.
// arrow-go does not implement this codec; this file registers one with
// arrow-go's codec registry (compress.RegisterCodec) when the package is
// loaded, for reading and for internal/datafile's writer. Like Arrow C++, a
// page that does not parse as Hadoop frames is tried as one raw LZ4 block
// (what some older writers stored under this codec).

// hadoopLZ4MaxInput is the input of one Hadoop LZ4 chunk: Lz4Codec's buffer
// (io.compression.codec.lz4.buffersize, 256 KiB) less its compression
// overhead (buffer/255 + 16).
const hadoopLZ4MaxInput = 256<<10 - (256<<10/255 + 16)

// hadoopLZ4 is the Hadoop-framed LZ4 codec.
type hadoopLZ4 struct{}

func init() { compress.RegisterCodec(compress.Codecs.Lz4, hadoopLZ4{}) }

var errHadoopLZ4 = errors.New("parquet: malformed Hadoop LZ4 frame")

func (hadoopLZ4) Encode(dst, src []byte) []byte {
	out := dst[:0]
	if bound := (hadoopLZ4{}).CompressBound(int64(len(src))); int64(cap(out)) < bound {
		out = make([]byte, 0, bound)
	}
	if len(src) == 0 {
		return out
	}
	var c lz4.Compressor
	for len(src) > 0 {
		in := src[:min(len(src), hadoopLZ4MaxInput)]
		src = src[len(in):]
		out = binary.BigEndian.AppendUint32(out, uint32(len(in)))
		at := len(out)
		out = append(out, 0, 0, 0, 0)
		n, err := c.CompressBlock(in, out[len(out):cap(out)])
		if err != nil {
			// Cannot happen: out has CompressBound room for the rest.
			panic(fmt.Errorf("parquet: LZ4 compression: %w", err))
		}
		binary.BigEndian.PutUint32(out[at:], uint32(n))
		out = out[:len(out)+n]
	}
	return out
}

func (h hadoopLZ4) EncodeLevel(dst, src []byte, _ int) []byte { return h.Encode(dst, src) }

// CompressBound is the block bound of every chunk plus the frame headers.
func (hadoopLZ4) CompressBound(n int64) int64 {
	chunks := max((n+hadoopLZ4MaxInput-1)/hadoopLZ4MaxInput, 1)
	full := int64(lz4.CompressBlockBound(hadoopLZ4MaxInput))
	last := int64(lz4.CompressBlockBound(int(n - (chunks-1)*hadoopLZ4MaxInput)))
	return chunks*8 + (chunks-1)*full + last
}

func (h hadoopLZ4) Decode(dst, src []byte) []byte {
	out, err := h.DecodeWithError(dst, src)
	if err != nil {
		panic(err)
	}
	return out
}

// DecodeWithError decodes Hadoop frames, or src as one raw LZ4 block when
// it is not framed.
func (hadoopLZ4) DecodeWithError(dst, src []byte) ([]byte, error) {
	if out, err := decodeHadoopLZ4(dst[:0], src); err == nil {
		return out, nil
	}
	n, err := lz4.UncompressBlock(src, dst[:cap(dst)])
	if err != nil {
		return nil, fmt.Errorf("%w (nor a raw LZ4 block: %w)", errHadoopLZ4, err)
	}
	return dst[:n], nil
}

func decodeHadoopLZ4(out, src []byte) ([]byte, error) {
	for len(src) > 0 {
		if len(src) < 4 {
			return nil, errHadoopLZ4
		}
		want := int(binary.BigEndian.Uint32(src))
		src = src[4:]
		if want < 0 || want > 1<<30 {
			return nil, errHadoopLZ4
		}
		end := len(out) + want
		if cap(out) < end {
			grown := make([]byte, len(out), end)
			copy(grown, out)
			out = grown
		}
		for len(out) < end {
			if len(src) < 4 {
				return nil, errHadoopLZ4
			}
			n := int(binary.BigEndian.Uint32(src))
			src = src[4:]
			if n <= 0 || n > len(src) {
				return nil, errHadoopLZ4
			}
			got, err := lz4.UncompressBlock(src[:n], out[len(out):end])
			if err != nil || got == 0 {
				return nil, errHadoopLZ4
			}
			out = out[:len(out)+got]
			src = src[n:]
		}
	}
	return out, nil
}

package avro

import (
	"compress/flate"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/twmb/avro/ocf"
)

// Avro codec names, as they appear in the avro.codec header key.
const (
	CodecNull      = "null"
	CodecDeflate   = "deflate"
	CodecSnappy    = "snappy"
	CodecZstandard = "zstandard"
)

// DefaultZstdLevel is the zstd level Paimon uses when the option
// file.compression.zstd-level is not set (Java CoreOptions).
const DefaultZstdLevel = 1

// CodecName maps a Paimon compression option value (manifest.compression,
// or an explicit avro.codec) to the Avro codec name written in the header.
// It mirrors Java AvroFileFormat.createCodecFactory: "zstd" in any case
// becomes "zstandard", everything else must be an Avro codec name. Java's
// Avro lookup is case-sensitive; we accept any case since the mapping is
// unambiguous. The empty string means no compression ("null"). bzip2 and xz
// are valid Avro codecs but not implemented here, and "none" is not an Avro
// codec at all (Java fails on it too); both yield ErrUnsupportedCodec.
func CodecName(compression string) (string, error) {
	switch c := strings.ToLower(compression); c {
	case "":
		return CodecNull, nil
	case "zstd":
		return CodecZstandard, nil
	case CodecNull, CodecDeflate, CodecSnappy, CodecZstandard:
		return c, nil
	default:
		return "", fmt.Errorf("%w: %q", ErrUnsupportedCodec, compression)
	}
}

// sharedConcurrency bounds how many goroutines can compress or decompress at
// once through one shared zstd codec. Each slot owns a (de)compressor with
// its own buffers, so we keep the count modest on large machines.
func sharedConcurrency() int {
	return min(runtime.GOMAXPROCS(0), 4)
}

// zstdDecoder is one zstd codec shared by every Reader. Building a zstd
// decoder costs more than decoding a small manifest list, and klauspost's
// DecodeAll is safe for concurrent use, so readers borrow this one through
// ocf.NopCloser instead of each building (and closing) their own.
var zstdDecoder = sync.OnceValues(func() (ocf.Codec, error) {
	return ocf.ZstdCodec(
		[]zstd.EOption{zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true)},
		[]zstd.DOption{zstd.WithDecoderConcurrency(sharedConcurrency())},
	)
})

// zstdEncoders caches one shared zstd codec per compression level, for the
// same reason as zstdDecoder; EncodeAll is safe for concurrent use.
var zstdEncoders sync.Map // int level -> *zstdEncoderEntry

type zstdEncoderEntry struct {
	once  sync.Once
	codec ocf.Codec
	err   error
}

func zstdEncoder(level int) (ocf.Codec, error) {
	v, _ := zstdEncoders.LoadOrStore(level, &zstdEncoderEntry{})
	e := v.(*zstdEncoderEntry)
	e.once.Do(func() {
		e.codec, e.err = ocf.ZstdCodec([]zstd.EOption{
			zstd.WithEncoderConcurrency(sharedConcurrency()),
			// Java's Avro ZstandardCodec writes frames without a checksum.
			zstd.WithEncoderCRC(false),
			zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
		}, nil)
	})
	return e.codec, e.err
}

// writeCodec returns the codec for an Avro codec name (see CodecName). The
// result must not be closed by the ocf writer: shared codecs come wrapped in
// ocf.NopCloser.
func writeCodec(name string, zstdLevel int) (ocf.Codec, error) {
	switch name {
	case CodecNull:
		return nil, nil
	case CodecDeflate:
		// Java's Avro DeflateCodec defaults to Deflater.DEFAULT_COMPRESSION,
		// raw deflate (nowrap) like ocf's.
		return ocf.DeflateCodec(flate.DefaultCompression), nil
	case CodecSnappy:
		return ocf.SnappyCodec(), nil
	case CodecZstandard:
		if zstdLevel == 0 {
			zstdLevel = DefaultZstdLevel
		}
		c, err := zstdEncoder(zstdLevel)
		if err != nil {
			return nil, fmt.Errorf("avro: zstd encoder: %w", err)
		}
		return ocf.NopCloser(c), nil
	default:
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedCodec, name)
	}
}

// unsupportedCodec stands in for Avro codecs we know by name but cannot
// decode, so that reading such a file fails with ErrUnsupportedCodec rather
// than a generic "unknown codec" message.
type unsupportedCodec string

func (c unsupportedCodec) Name() string { return string(c) }
func (c unsupportedCodec) Compress([]byte) ([]byte, error) {
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedCodec, string(c))
}
func (c unsupportedCodec) Decompress([]byte) ([]byte, error) {
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedCodec, string(c))
}
func (c unsupportedCodec) DecompressBounded([]byte, int64) ([]byte, error) {
	return c.Decompress(nil)
}
func (unsupportedCodec) Close() error { return nil }

// readCodecOpts are the codec options every Reader passes to ocf.NewReader.
// The ocf reader picks the one whose name matches the header and falls back
// to its built-ins (null, deflate, snappy) otherwise.
func readCodecOpts() ([]ocf.ReaderOpt, error) {
	z, err := zstdDecoder()
	if err != nil {
		return nil, fmt.Errorf("avro: zstd decoder: %w", err)
	}
	return []ocf.ReaderOpt{
		ocf.WithCodec(ocf.NopCloser(z)),
		ocf.WithCodec(unsupportedCodec("bzip2")),
		ocf.WithCodec(unsupportedCodec("xz")),
	}, nil
}

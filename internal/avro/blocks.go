package avro

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
)

// MaxBlockBytes bounds the decompressed size of one container block, and its
// compressed size unless BlockReaderOptions.MaxBlockBytes is lower. Java's
// DataFileWriter cuts blocks at 64000 bytes (plus the record that crossed the
// line), so real blocks are far smaller; the bound exists so that a corrupt
// size field or a decompression bomb fails instead of exhausting memory.
const MaxBlockBytes = 256 << 20

// maxMetadataBytes bounds the header's metadata map (schema text included).
const maxMetadataBytes = 16 << 20

// BlockReaderOptions configures NewBlockReader. The zero value (or nil) is
// valid.
type BlockReaderOptions struct {
	// MaxBlockBytes bounds each block's compressed size; 0 (or more than
	// the package's MaxBlockBytes) means MaxBlockBytes. Callers that know
	// the file size pass it, so that an impossible size is rejected before
	// anything is allocated for it.
	MaxBlockBytes int64
}

// BlockReader reads an Avro object container file block by block, handing
// out each block's decompressed bytes undecoded. It is the low-level
// counterpart of Reader for callers that decode the Avro binary encoding
// themselves, driven by the writer schema (see Schema); format/avrofile uses
// it to read Paimon data files straight into Arrow builders, the way Java's
// AvroBulkFormat drives DataFileStream with its own FieldReaders.
//
// A BlockReader is not safe for concurrent use.
type BlockReader struct {
	r            *bufio.Reader
	src          *sourceReader
	schema       *Node
	writerSchema string
	codec        string
	sync         [16]byte
	maxBlock     int64

	raw, out []byte // reused between blocks
	flate    io.ReadCloser
	done     bool
	bufs     *blockBuffers // returned to blockPool by Close
}

// blockBuffers are what a BlockReader reuses from block to block. Close
// hands them to the next reader: planning opens one reader per manifest,
// and most manifests are smaller than the buffers.
type blockBuffers struct {
	r        *bufio.Reader
	raw, out []byte
}

// maxPooledBuffer bounds the buffers kept for the next reader, so that one
// huge block does not pin its memory.
const maxPooledBuffer = 1 << 20

var blockPool = sync.Pool{New: func() any { return &blockBuffers{r: bufio.NewReaderSize(nil, 64<<10)} }}

// errClosed is returned by Next after Close.
var errClosed = errors.New("avro: block reader is closed")

// NewBlockReader reads the container header from r: magic, metadata and sync
// marker. It parses the writer schema (see Schema) and checks that the codec
// is one this package can decompress (null, deflate, snappy, zstandard).
// Errors about the content wrap ErrCorrupt (and ErrUnsupportedCodec for a
// codec such as bzip2); errors of r pass through.
func NewBlockReader(r io.Reader, opts *BlockReaderOptions) (*BlockReader, error) {
	src := &sourceReader{r: r}
	bufs := blockPool.Get().(*blockBuffers)
	bufs.r.Reset(src)
	b := &BlockReader{r: bufs.r, src: src, maxBlock: MaxBlockBytes, raw: bufs.raw, out: bufs.out, bufs: bufs}
	if opts != nil && opts.MaxBlockBytes > 0 && opts.MaxBlockBytes < MaxBlockBytes {
		b.maxBlock = opts.MaxBlockBytes
	}
	if err := b.readHeader(); err != nil {
		b.release()
		return nil, err
	}
	return b, nil
}

// readHeader reads magic, metadata and sync marker (see NewBlockReader).
func (b *BlockReader) readHeader() error {
	var magic [4]byte
	if _, err := io.ReadFull(b.r, magic[:]); err != nil {
		return b.fail("reading magic", err)
	}
	if magic != [4]byte{'O', 'b', 'j', 1} {
		return fmt.Errorf("%w: not an Avro container file (magic %x)", ErrCorrupt, magic)
	}
	meta, err := b.readMetadata()
	if err != nil {
		return err
	}
	schemaJSON, ok := meta["avro.schema"]
	if !ok {
		return fmt.Errorf("%w: header has no avro.schema", ErrCorrupt)
	}
	b.writerSchema = string(schemaJSON)
	b.codec = CodecNull
	if c, ok := meta["avro.codec"]; ok && len(c) > 0 {
		b.codec = string(c)
	}
	switch b.codec {
	case CodecNull, CodecDeflate, CodecSnappy, CodecZstandard:
	case "bzip2", "xz":
		return fmt.Errorf("%w: %w: %s", ErrCorrupt, ErrUnsupportedCodec, b.codec)
	default:
		return fmt.Errorf("%w: unknown codec %q", ErrCorrupt, b.codec)
	}
	if _, err := io.ReadFull(b.r, b.sync[:]); err != nil {
		return b.fail("reading sync marker", err)
	}
	if b.schema, err = ParseNode(b.writerSchema); err != nil {
		return err
	}
	return nil
}

// Schema returns the writer schema from the header as a Node tree.
func (b *BlockReader) Schema() *Node { return b.schema }

// WriterSchema returns the writer schema JSON from the header.
func (b *BlockReader) WriterSchema() string { return b.writerSchema }

// Codec returns the codec named in the header ("null" when absent).
func (b *BlockReader) Codec() string { return b.codec }

// Next returns the next block: the number of records it holds and its
// decompressed bytes, which stay valid only until the following call. Empty
// blocks are skipped. Next returns io.EOF after the last block; a file that
// ends anywhere inside a block is corrupt.
func (b *BlockReader) Next() (count int64, data []byte, err error) {
	if b.bufs == nil {
		return 0, nil, errClosed
	}
	for {
		if b.done {
			return 0, nil, io.EOF
		}
		count, err = binary.ReadVarint(b.r)
		if errors.Is(err, io.EOF) && b.src.err == nil {
			b.done = true
			return 0, nil, io.EOF
		}
		if err != nil {
			return 0, nil, b.fail("reading block count", err)
		}
		size, err := binary.ReadVarint(b.r)
		if err != nil {
			return 0, nil, b.fail("reading block size", err)
		}
		if count < 0 || size < 0 {
			return 0, nil, fmt.Errorf("%w: negative block count %d or size %d", ErrCorrupt, count, size)
		}
		if size > b.maxBlock {
			return 0, nil, fmt.Errorf("%w: block of %d bytes exceeds the limit of %d", ErrCorrupt, size, b.maxBlock)
		}
		if int64(cap(b.raw)) < size {
			b.raw = make([]byte, size)
		}
		raw := b.raw[:size]
		if _, err := io.ReadFull(b.r, raw); err != nil {
			return 0, nil, b.fail("reading block", err)
		}
		var sync [16]byte
		if _, err := io.ReadFull(b.r, sync[:]); err != nil {
			return 0, nil, b.fail("reading block sync marker", err)
		}
		if sync != b.sync {
			return 0, nil, fmt.Errorf("%w: block sync marker mismatch", ErrCorrupt)
		}
		if count == 0 {
			continue
		}
		data, err = b.decompress(raw)
		if err != nil {
			return 0, nil, fmt.Errorf("%w: %s block: %w", ErrCorrupt, b.codec, err)
		}
		return count, data, nil
	}
}

// Close releases the reader's decompressor and buffers: the bytes Next
// returned last are invalid afterwards. It does not close the underlying
// io.Reader.
func (b *BlockReader) Close() error {
	b.release()
	if b.flate != nil {
		err := b.flate.Close()
		b.flate = nil
		return err
	}
	return nil
}

// release hands the buffers to the next reader.
func (b *BlockReader) release() {
	bufs := b.bufs
	if bufs == nil {
		return
	}
	b.bufs, b.r = nil, nil
	bufs.r.Reset(nil)
	bufs.raw, bufs.out = nil, nil
	if cap(b.raw) <= maxPooledBuffer {
		bufs.raw = b.raw[:0]
	}
	if cap(b.out) <= maxPooledBuffer {
		bufs.out = b.out[:0]
	}
	b.raw, b.out = nil, nil
	blockPool.Put(bufs)
}

// fail classifies a read error: an I/O error of the source passes through,
// anything else (a short read, a bad varint) means a corrupt file.
func (b *BlockReader) fail(what string, err error) error {
	if b.src.err != nil {
		return fmt.Errorf("avro: %s: %w", what, b.src.err)
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("%w: %s: %w", ErrCorrupt, what, err)
}

// readMetadata reads the header's metadata map (an Avro map<bytes>).
func (b *BlockReader) readMetadata() (map[string][]byte, error) {
	meta := map[string][]byte{}
	var total int64
	readBytes := func() ([]byte, error) {
		n, err := binary.ReadVarint(b.r)
		if err != nil {
			return nil, b.fail("reading metadata", err)
		}
		if n < 0 || total+n > maxMetadataBytes {
			return nil, fmt.Errorf("%w: metadata entry of %d bytes", ErrCorrupt, n)
		}
		total += n
		buf := make([]byte, n)
		if _, err := io.ReadFull(b.r, buf); err != nil {
			return nil, b.fail("reading metadata", err)
		}
		return buf, nil
	}
	for {
		n, err := binary.ReadVarint(b.r)
		if err != nil {
			return nil, b.fail("reading metadata", err)
		}
		if n == 0 {
			return meta, nil
		}
		if n < 0 {
			// A negative count is followed by the block's byte size.
			if _, err := binary.ReadVarint(b.r); err != nil {
				return nil, b.fail("reading metadata", err)
			}
			if n == -n { // math.MinInt64
				return nil, fmt.Errorf("%w: metadata count %d", ErrCorrupt, n)
			}
			n = -n
		}
		for ; n > 0; n-- {
			k, err := readBytes()
			if err != nil {
				return nil, err
			}
			v, err := readBytes()
			if err != nil {
				return nil, err
			}
			meta[string(k)] = v
		}
	}
}

func (b *BlockReader) decompress(raw []byte) ([]byte, error) {
	switch b.codec {
	case CodecNull:
		return raw, nil
	case CodecDeflate:
		// Java's DeflateCodec writes raw deflate (no zlib header).
		if b.flate == nil {
			b.flate = flate.NewReader(bytes.NewReader(raw))
		} else if err := b.flate.(flate.Resetter).Reset(bytes.NewReader(raw), nil); err != nil {
			return nil, err
		}
		buf := bytes.NewBuffer(b.out[:0])
		n, err := buf.ReadFrom(io.LimitReader(b.flate, MaxBlockBytes+1))
		b.out = buf.Bytes()
		if err != nil {
			return nil, err
		}
		if n > MaxBlockBytes {
			return nil, fmt.Errorf("decompresses beyond the limit of %d bytes", MaxBlockBytes)
		}
		return b.out, nil
	case CodecSnappy:
		// Java's SnappyCodec appends the big-endian CRC32 of the
		// uncompressed bytes.
		if len(raw) < 4 {
			return nil, errors.New("too short for its checksum")
		}
		body := raw[:len(raw)-4]
		n, err := snappy.DecodedLen(body)
		if err != nil {
			return nil, err
		}
		if n > MaxBlockBytes {
			return nil, fmt.Errorf("decompresses to %d bytes, beyond the limit of %d", n, MaxBlockBytes)
		}
		if cap(b.out) < n {
			b.out = make([]byte, n)
		}
		out, err := snappy.Decode(b.out[:n], body)
		if err != nil {
			return nil, err
		}
		if crc32.ChecksumIEEE(out) != binary.BigEndian.Uint32(raw[len(raw)-4:]) {
			return nil, errors.New("checksum mismatch")
		}
		return out, nil
	case CodecZstandard:
		dec, err := blockZstd()
		if err != nil {
			return nil, err
		}
		out, err := dec.DecodeAll(raw, b.out[:0])
		if err != nil {
			return nil, err
		}
		if len(out) > MaxBlockBytes {
			return nil, fmt.Errorf("decompresses beyond the limit of %d bytes", MaxBlockBytes)
		}
		b.out = out
		return out, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedCodec, b.codec)
}

// blockZstd is the zstd decoder every BlockReader shares (DecodeAll is safe
// for concurrent use). It is separate from the manifest readers' decoder
// because its memory bound is the data-block bound, MaxBlockBytes.
var blockZstd = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(sharedConcurrency()),
		zstd.WithDecoderMaxMemory(MaxBlockBytes))
})

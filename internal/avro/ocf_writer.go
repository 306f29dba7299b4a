package avro

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/twmb/avro/ocf"
)

// BlockWriterOptions configures NewBlockWriter. The zero value (or nil)
// writes uncompressed.
type BlockWriterOptions struct {
	// Codec is the Avro codec name written in the header and used for every
	// block: null, deflate, snappy or zstandard (exactly; callers map their
	// option names first, see CodecName). Empty means null.
	Codec string
	// ZstdLevel is the level of the zstandard codec; 0 means
	// DefaultZstdLevel.
	ZstdLevel int
}

// BlockWriter writes an Avro object container file whose blocks the caller
// has already encoded in the Avro binary encoding. It is the counterpart of
// BlockReader, for callers that encode rows themselves (format/avrofile
// writes Paimon data files straight from Arrow arrays, as Java's
// AvroRowDatumWriter drives DataFileWriter with its own FieldWriters).
//
// The header holds avro.schema then avro.codec, the codec always named
// (also "null"), which is what Java's DataFileWriter writes. Blocks are cut
// by the caller. A BlockWriter is not safe for concurrent use.
type BlockWriter struct {
	w       io.Writer
	codec   ocf.Codec
	name    string
	sync    [16]byte
	written int64
	scratch []byte // the block being written, reused
	err     error
	closed  bool
}

// NewBlockWriter writes the container header for schemaJSON (written
// verbatim, not parsed) to w. Codec names other than the four supported
// yield ErrUnsupportedCodec.
func NewBlockWriter(w io.Writer, schemaJSON string, opts *BlockWriterOptions) (*BlockWriter, error) {
	var o BlockWriterOptions
	if opts != nil {
		o = *opts
	}
	name := o.Codec
	if name == "" {
		name = CodecNull
	}
	switch name {
	case CodecNull, CodecDeflate, CodecSnappy, CodecZstandard:
	default:
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedCodec, o.Codec)
	}
	codec, err := writeCodec(name, o.ZstdLevel)
	if err != nil {
		return nil, err
	}
	b := &BlockWriter{w: w, codec: codec, name: name}
	if _, err := rand.Read(b.sync[:]); err != nil {
		return nil, fmt.Errorf("avro: generating sync marker: %w", err)
	}
	hdr := []byte{'O', 'b', 'j', 1}
	hdr = binary.AppendVarint(hdr, 2)
	hdr = appendString(hdr, "avro.schema")
	hdr = appendString(hdr, schemaJSON)
	hdr = appendString(hdr, "avro.codec")
	hdr = appendString(hdr, name)
	hdr = binary.AppendVarint(hdr, 0)
	hdr = append(hdr, b.sync[:]...)
	if err := b.write(hdr); err != nil {
		return nil, err
	}
	return b, nil
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendVarint(dst, int64(len(s)))
	return append(dst, s...)
}

// Codec returns the Avro codec name written in the header.
func (b *BlockWriter) Codec() string { return b.name }

// Written returns the number of bytes handed to the underlying io.Writer.
func (b *BlockWriter) Written() int64 { return b.written }

// WriteBlock compresses data, count records in the Avro binary encoding,
// and writes it as one block. Empty blocks (count 0) are skipped, as Java's
// DataFileWriter never writes them. After an error (of the codec or of the
// io.Writer) every later call returns it: the file is unusable.
func (b *BlockWriter) WriteBlock(count int64, data []byte) error {
	if b.closed {
		return errBlockWriterClosed
	}
	if b.err != nil {
		return b.err
	}
	if count < 0 {
		return errors.New("avro: negative block record count")
	}
	if count == 0 {
		return nil
	}
	payload := data
	if b.codec != nil {
		c, err := b.codec.Compress(data)
		if err != nil {
			b.err = fmt.Errorf("avro: compressing block: %w", err)
			return b.err
		}
		payload = c
	}
	out := binary.AppendVarint(b.scratch[:0], count)
	out = binary.AppendVarint(out, int64(len(payload)))
	out = append(out, payload...)
	out = append(out, b.sync[:]...)
	b.scratch = out
	return b.write(out)
}

func (b *BlockWriter) write(p []byte) error {
	n, err := b.w.Write(p)
	b.written += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		b.err = err
	}
	return err
}

// Close releases the codec and the block buffer. It writes nothing (blocks are written as they
// come) and does not close the underlying io.Writer.
// Later calls do nothing.
func (b *BlockWriter) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	b.scratch = nil
	if b.codec == nil {
		return nil
	}
	return b.codec.Close()
}

var errBlockWriterClosed = errors.New("avro: block writer is closed")

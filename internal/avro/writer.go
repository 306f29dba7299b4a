package avro

import (
	"errors"
	"fmt"
	"io"

	"github.com/twmb/avro/ocf"
)

// javaSyncInterval is the uncompressed block size at which Java's
// DataFileWriter cuts a block (DataFileConstants.DEFAULT_SYNC_INTERVAL).
const javaSyncInterval = 64000

// WriterOptions configures NewWriter. The zero value writes uncompressed.
type WriterOptions struct {
	// Codec is an Avro codec name or a Paimon compression name; see
	// CodecName. Empty means "null".
	Codec string
	// ZstdLevel is the zstd level for the zstandard codec; 0 means
	// DefaultZstdLevel (Paimon's file.compression.zstd-level default).
	ZstdLevel int
}

// Writer encodes records into an Avro object container file. It is not safe
// for concurrent use.
type Writer struct {
	w *ocf.Writer
}

// NewWriter writes the container header for schema s to w and returns a
// Writer for its records. Close must be called to flush the last block.
func NewWriter(w io.Writer, s *Schema, opts *WriterOptions) (*Writer, error) {
	if s == nil {
		return nil, errors.New("avro: NewWriter needs a schema")
	}
	var o WriterOptions
	if opts != nil {
		o = *opts
	}
	name, err := CodecName(o.Codec)
	if err != nil {
		return nil, err
	}
	codec, err := writeCodec(name, o.ZstdLevel)
	if err != nil {
		return nil, err
	}
	wopts := []ocf.WriterOpt{ocf.WithBlockBytes(javaSyncInterval)}
	if codec != nil {
		wopts = append(wopts, ocf.WithCodec(codec))
	}
	ow, err := ocf.NewWriter(w, s.s, wopts...)
	if err != nil {
		return nil, fmt.Errorf("avro: writing container header: %w", err)
	}
	return &Writer{w: ow}, nil
}

// Encode appends one record. v is typically a pointer to a struct whose
// `avro:"name"` tags cover every field of the schema; nil pointers and nil
// slices select the null branch of ["null", T] unions. A value that does not
// fit the schema is rejected and nothing of it is written.
func (w *Writer) Encode(v any) error {
	if err := w.w.Encode(v); err != nil {
		return fmt.Errorf("avro: encoding record: %w", err)
	}
	return nil
}

// Close flushes the last block. It does not close the underlying io.Writer.
func (w *Writer) Close() error {
	if err := w.w.Close(); err != nil {
		return fmt.Errorf("avro: finishing container: %w", err)
	}
	return nil
}

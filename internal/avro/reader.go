package avro

import (
	"errors"
	"fmt"
	"io"

	"github.com/twmb/avro"
	"github.com/twmb/avro/ocf"
)

// Reader decodes the records of one Avro object container file. It reads one
// block at a time from the underlying io.Reader. A Reader is not safe for
// concurrent use.
type Reader struct {
	src          *sourceReader
	r            *ocf.Reader
	writerSchema string
	codec        string
}

// NewReader reads the container header from r and prepares to decode its
// records into values shaped by the reader schema (see the package doc for
// how the file's writer schema is resolved against it). The caller must
// Close the Reader.
func NewReader(r io.Reader, reader *Schema) (*Reader, error) {
	if reader == nil {
		return nil, errors.New("avro: NewReader needs a reader schema")
	}
	opts, err := readCodecOpts()
	if err != nil {
		return nil, err
	}
	src := &sourceReader{r: r}
	rd := &Reader{src: src}
	var resolveErr error
	opts = append(opts,
		ocf.WithSchemaOpts(rawLogical...),
		ocf.WithReaderSchemaFunc(func(o *ocf.Reader) (*avro.Schema, error) {
			w := o.Schema()
			rd.writerSchema = w.String()
			aligned, err := reader.alignedFor(w)
			if err != nil {
				resolveErr = err
				return nil, err
			}
			// Check compatibility here, before ocf resolves, so that an
			// incompatible schema can be told apart from a damaged file.
			if err := avro.CheckCompatibility(w, aligned); err != nil {
				resolveErr = err
				return nil, err
			}
			return aligned, nil
		}),
	)
	o, err := ocf.NewReader(src, opts...)
	if err != nil {
		if resolveErr != nil {
			return nil, fmt.Errorf("%w: %w: %w", ErrCorrupt, ErrIncompatibleSchema, resolveErr)
		}
		return nil, src.wrap(err)
	}
	rd.r = o
	rd.codec = CodecNull
	if c, ok := o.Metadata()["avro.codec"]; ok {
		rd.codec = string(c)
	}
	return rd, nil
}

// Decode decodes the next record into v, which must be a non-nil pointer
// (typically to a struct whose fields carry `avro:"name"` tags covering
// every field of the reader schema). It returns io.EOF after the last
// record. Decode into a fresh value each time when the previous result is
// kept: slices in v may otherwise be reused.
func (r *Reader) Decode(v any) error {
	err := r.r.Decode(v)
	if err == nil || err == io.EOF {
		return err
	}
	return r.src.wrap(err)
}

// WriterSchema returns the schema JSON from the file header.
func (r *Reader) WriterSchema() string { return r.writerSchema }

// Codec returns the codec named in the file header ("null" when absent).
func (r *Reader) Codec() string { return r.codec }

// Close releases the Reader's resources. It does not close the underlying
// io.Reader.
func (r *Reader) Close() error { return r.r.Close() }

// sourceReader remembers the first error of the underlying reader other than
// io.EOF, so that an I/O failure is reported as such and not as corruption.
type sourceReader struct {
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// wrap classifies an error from the ocf library.
func (s *sourceReader) wrap(err error) error {
	if s.err != nil {
		return fmt.Errorf("avro: reading container: %w", s.err)
	}
	// ocf wraps the codec's error, so an unreadable codec still matches
	// ErrUnsupportedCodec besides ErrCorrupt.
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

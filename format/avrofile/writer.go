package avrofile

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/avro"
)

// ErrUnsupportedSchema reports columns Java Paimon cannot write as Avro
// either: VARIANT, TIME(p > 3), TIMESTAMP(p > 6), names that are not Avro
// names, and rows whose derived record names clash.
var ErrUnsupportedSchema = errors.New("avrofile: schema cannot be written as Avro")

// ErrUnsupportedCodec reports a compression the writer cannot apply.
var ErrUnsupportedCodec = errors.New("avrofile: unsupported compression")

// ErrInvalidBatch reports a record batch that does not fit the writer's
// columns: wrong column count or Arrow types, or a null in a NOT NULL
// column.
var ErrInvalidBatch = errors.New("avrofile: record batch does not fit the columns")

// ErrWriterClosed is returned by Write after Close.
var ErrWriterClosed = errors.New("avrofile: writer is closed")

// DefaultCompression is the file.compression Java Paimon applies when the
// option is unset (CoreOptions.FILE_COMPRESSION).
const DefaultCompression = "zstd"

// syncInterval is the uncompressed size at which Java's DataFileWriter
// ends a block (DataFileConstants.DEFAULT_SYNC_INTERVAL): after the row that
// makes the block reach it.
const syncInterval = 64000

// avroDefaultZstdLevel is the level Avro's CodecFactory registers for the
// codec name "zstandard" (DEFAULT_ZSTANDARD_LEVEL); Paimon's zstd level
// applies only to the name "zstd".
const avroDefaultZstdLevel = 3

// WriterOptions configures NewWriter. A nil *WriterOptions means defaults.
type WriterOptions struct {
	// Compression is the table's file.compression, interpreted as Java's
	// AvroFileFormat does: "zstd" in any case is the zstandard codec at
	// ZstdLevel; otherwise the value must be an Avro codec name, spelled
	// exactly: "null", "deflate", "snappy" or "zstandard" (Avro's default
	// level 3). Java rejects everything else ("none", "lz4", "gzip",
	// "SNAPPY", …) with "Unrecognized codec", and so do we
	// (ErrUnsupportedCodec); Avro's "bzip2" and "xz", which Java accepts,
	// are not implemented. Empty means DefaultCompression.
	Compression string
	// ZstdLevel is file.compression.zstd-level; 0 means Java's default, 1.
	ZstdLevel int
}

// Writer writes a Paimon Avro data file from Arrow record batches, the way
// Java's AvroFileFormat writer does (AvroSchemaConverter for the header
// schema, AvroRowDatumWriter and FieldWriterFactory for the rows,
// DataFileWriter for the container): Java reads the files it writes, and
// for the same rows the schema text and the uncompressed block bytes are
// identical to Java's. It is not safe for concurrent use.
type Writer struct {
	bw     *avro.BlockWriter
	fields []schema.DataField
	json   string

	buf    []byte // the block being filled, uncompressed
	count  int64  // rows in buf
	encs   []encoder
	err    error // sticky: an I/O or codec error
	closed bool
}

// NewWriter writes the container header for a data file with the given
// columns to w and returns a Writer for its rows. Columns Java cannot write
// as Avro yield ErrUnsupportedSchema, compressions it does not know
// ErrUnsupportedCodec. Close must be called to complete the file.
func NewWriter(w io.Writer, fields []schema.DataField, opts *WriterOptions) (*Writer, error) {
	var o WriterOptions
	if opts != nil {
		o = *opts
	}
	codec, level, err := avroCodec(o.Compression, o.ZstdLevel)
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if _, err := schema.ToArrowField(f); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupportedSchema, err)
		}
	}
	js, err := writerSchemaJSON(fields)
	if err != nil {
		return nil, err
	}
	bw, err := avro.NewBlockWriter(w, js, &avro.BlockWriterOptions{Codec: codec, ZstdLevel: level})
	if err != nil {
		if errors.Is(err, avro.ErrUnsupportedCodec) {
			return nil, fmt.Errorf("%w: %w", ErrUnsupportedCodec, err)
		}
		return nil, fmt.Errorf("avrofile: writing header: %w", err)
	}
	return &Writer{bw: bw, fields: slices.Clone(fields), json: js, encs: make([]encoder, len(fields))}, nil
}

// avroCodec maps file.compression to an Avro codec and level, as Java
// AvroFileFormat.createCodecFactory does (without its avro.codec override).
func avroCodec(compression string, zstdLevel int) (string, int, error) {
	if compression == "" {
		compression = DefaultCompression
	}
	if strings.EqualFold(compression, "zstd") {
		if zstdLevel == 0 {
			zstdLevel = avro.DefaultZstdLevel
		}
		return avro.CodecZstandard, zstdLevel, nil
	}
	switch compression {
	case avro.CodecNull, avro.CodecDeflate, avro.CodecSnappy:
		return compression, 0, nil
	case avro.CodecZstandard:
		return compression, avroDefaultZstdLevel, nil
	case "bzip2", "xz":
		return "", 0, fmt.Errorf("%w: Avro codec %q is not implemented", ErrUnsupportedCodec, compression)
	}
	return "", 0, fmt.Errorf("%w: %q is not an Avro codec (Java fails with \"Unrecognized codec\" too)", ErrUnsupportedCodec, compression)
}

// Schema returns the Avro schema JSON written in the header.
func (w *Writer) Schema() string { return w.json }

// Codec returns the Avro codec named in the header.
func (w *Writer) Codec() string { return w.bw.Codec() }

// Write appends the rows of rec, whose columns are the writer's fields in
// order, with the Arrow types schema.ToArrowSchema gives them (CHAR,
// VARCHAR and the binary types also accept any of utf8, large_utf8,
// binary and large_binary). A batch that does not fit is rejected with
// ErrInvalidBatch before any row is written; a NULL in a NOT NULL column
// (Java's "expected not null" failure) is found only when its row is
// encoded: the rows before it are written, that row and the rest are not,
// and the Writer stays usable. After an I/O or compression error every
// later call fails.
//
// A block is written to the underlying io.Writer each time about 64000
// uncompressed bytes have accumulated, like Java's DataFileWriter.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.closed {
		return ErrWriterClosed
	}
	if w.err != nil {
		return w.err
	}
	if int(rec.NumCols()) != len(w.fields) {
		return fmt.Errorf("%w: %d columns, want %d", ErrInvalidBatch, rec.NumCols(), len(w.fields))
	}
	for c, f := range w.fields {
		col := rec.Column(c)
		if int64(col.Len()) != rec.NumRows() {
			return fmt.Errorf("%w: column %q has %d rows, batch %d", ErrInvalidBatch, f.Name, col.Len(), rec.NumRows())
		}
		enc, err := bindField(f.Type, col, f.Name)
		if err != nil {
			return err
		}
		w.encs[c] = enc
	}
	defer clear(w.encs) // do not pin the batch's buffers
	return w.writeRows(int(rec.NumRows()))
}

// writeRows encodes rows [0, n) of the bound batch, flushing full blocks.
func (w *Writer) writeRows(n int) error {
	for row := range n {
		if err := w.encodeRow(row); err != nil {
			return fmt.Errorf("row %d of the batch: %w", row, err)
		}
		w.count++
		if len(w.buf) >= syncInterval {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// encodeRow appends one row to the block, or nothing if it fails. A panic
// (an Arrow array whose buffers contradict its type, e.g. list offsets
// beyond the child) rejects the row instead of crashing the caller.
func (w *Writer) encodeRow(row int) (err error) {
	mark := len(w.buf)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: malformed Arrow data: %v", ErrInvalidBatch, p)
		}
		if err != nil {
			w.buf = w.buf[:mark]
		}
	}()
	for _, enc := range w.encs {
		if w.buf, err = enc.encode(w.buf, row); err != nil {
			return err
		}
	}
	return nil
}

func (w *Writer) flush() error {
	if err := w.bw.WriteBlock(w.count, w.buf); err != nil {
		w.err = fmt.Errorf("avrofile: writing block: %w", err)
		return w.err
	}
	w.buf = w.buf[:0]
	w.count = 0
	return nil
}

// BytesWritten returns the number of bytes handed to the underlying
// io.Writer so far: the header and every complete block. Rows still
// buffered (less than one block) are not counted, as Java's position check
// sees only what DataFileWriter has flushed.
func (w *Writer) BytesWritten() int64 { return w.bw.Written() }

// Close writes the last block and releases the codec. It does not close
// the underlying io.Writer. Later calls return nil.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	var err error
	if w.err == nil && w.count > 0 {
		err = w.flush()
	}
	if cerr := w.bw.Close(); err == nil && w.err == nil && cerr != nil {
		err = fmt.Errorf("avrofile: closing codec: %w", cerr)
	}
	w.buf = nil
	if err == nil {
		err = w.err
	}
	return err
}

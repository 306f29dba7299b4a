package blobfile

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"iter"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
)

// ErrCorrupt reports a BLOB file that cannot be decoded.
var ErrCorrupt = errors.New("blobfile: corrupt file")

// ErrSchema reports a requested column that a BLOB file cannot return (more
// than one column, or a type other than BLOB).
var ErrSchema = errors.New("blobfile: schema mismatch")

// ErrPlaceholder reports a row whose value Java 2.0.0 left to another file
// (a placeholder, length -2 in the index) where the file is read alone.
// A data-evolution read resolves placeholders across the row-id group's
// BLOB files (IsPlaceholder, Value); Read returns this error, as Java's
// BlobPlaceholder fails when its bytes are asked for.
var ErrPlaceholder = errors.New("blobfile: placeholder value")

const (
	// Magic starts every record (Java BlobFormatWriter.MAGIC_NUMBER).
	Magic = 1481511375
	// Version is the footer's version byte.
	Version = 1
	// recordOverhead is magic, length and CRC around a value.
	recordOverhead = 4 + 8 + 4
	footerSize     = 4 + 1

	nullLength        = -1
	placeholderLength = -2
)

// DefaultBatchSize is the number of rows per batch when ReadRequest.BatchSize
// is zero.
const DefaultBatchSize = 1024

// ReadOptions tunes Open. The zero value (or nil) is valid.
type ReadOptions struct {
	// Name identifies the file in error messages (typically its path).
	Name string
}

// ReadRequest selects how Reader.Read returns rows. The zero value (or nil)
// is valid.
type ReadRequest struct {
	// BatchSize is the maximum number of rows per batch; 0 means
	// DefaultBatchSize.
	BatchSize int
	// Allocator allocates the batches' buffers; nil means memory.DefaultAllocator.
	Allocator memory.Allocator
}

// Reader is an open BLOB file: its index, read by Open. It holds no other
// resources and needs no Close; Reads may run concurrently when the
// io.ReaderAt allows it.
type Reader struct {
	name    string
	r       io.ReaderAt
	lengths []int64 // record length per row, nullLength or placeholderLength
	offsets []int64 // record offset per row, -1 without a record
}

// Open reads the footer and index of the BLOB file r of the given size.
// Errors wrap ErrCorrupt when r is not a BLOB file; I/O errors of r are
// passed through.
func Open(ctx context.Context, r io.ReaderAt, size int64, opts *ReadOptions) (*Reader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &ReadOptions{}
	}
	out := &Reader{name: opts.Name, r: r}
	if size < footerSize {
		return nil, out.corrupt(fmt.Errorf("%d bytes, shorter than the footer", size))
	}
	var footer [footerSize]byte
	if _, err := r.ReadAt(footer[:], size-footerSize); err != nil {
		return nil, out.ioErr(err)
	}
	if footer[4] != Version {
		return nil, out.corrupt(fmt.Errorf("version %d, want %d", footer[4], Version))
	}
	indexLen := int64(int32(binary.LittleEndian.Uint32(footer[:4])))
	if indexLen < 0 || indexLen > size-footerSize {
		return nil, out.corrupt(fmt.Errorf("index of %d bytes in a file of %d", indexLen, size))
	}
	index := make([]byte, indexLen)
	if _, err := r.ReadAt(index, size-footerSize-indexLen); err != nil {
		return nil, out.ioErr(err)
	}
	dataEnd := size - footerSize - indexLen
	var prev, off int64
	for len(index) > 0 {
		delta, n := binary.Varint(index)
		if n <= 0 {
			return nil, out.corrupt(errors.New("truncated index"))
		}
		index = index[n:]
		l := delta
		if len(out.lengths) > 0 {
			l = prev + delta
		}
		prev = l
		switch {
		case l == nullLength || l == placeholderLength:
			out.offsets = append(out.offsets, -1)
		case l < recordOverhead || l > dataEnd-off:
			return nil, out.corrupt(fmt.Errorf("row %d: record of %d bytes at %d, data ends at %d", len(out.lengths), l, off, dataEnd))
		default:
			out.offsets = append(out.offsets, off)
			off += l
		}
		out.lengths = append(out.lengths, l)
	}
	if off != dataEnd {
		return nil, out.corrupt(fmt.Errorf("records end at %d, index starts at %d", off, dataEnd))
	}
	return out, nil
}

// NumRows returns the number of rows (values, NULLs included) of the file.
func (r *Reader) NumRows() int64 { return int64(len(r.lengths)) }

// IsNull reports whether row i (0 <= i < NumRows) is NULL.
func (r *Reader) IsNull(i int64) bool { return r.lengths[i] == nullLength }

// IsPlaceholder reports whether row i (0 <= i < NumRows) is a placeholder:
// Java 2.0.0 wrote it for a row whose value an older file of the same
// row ids holds (BlobFormatWriter.PLACE_HOLDER_LENGTH).
func (r *Reader) IsPlaceholder(i int64) bool { return r.lengths[i] == placeholderLength }

// AppendValue reads and checks the value of row i, which is neither NULL
// nor a placeholder, and appends it to dst.
func (r *Reader) AppendValue(dst []byte, i int64) ([]byte, error) {
	if i < 0 || i >= int64(len(r.lengths)) {
		return dst, fmt.Errorf("blobfile: %s: row %d of %d", r.name, i, len(r.lengths))
	}
	switch r.lengths[i] {
	case nullLength:
		return dst, fmt.Errorf("blobfile: %s: row %d is NULL", r.name, i)
	case placeholderLength:
		return dst, fmt.Errorf("%w: %s row %d", ErrPlaceholder, r.name, i)
	}
	// Read the record into dst's spare room and move the value over the
	// magic (copy handles the overlap).
	n, l := len(dst), int(r.lengths[i])
	dst = slices.Grow(dst, l)
	v, err := r.record(int(i), dst[n:n+l])
	if err != nil {
		return dst[:n], err
	}
	return dst[:n+copy(dst[n:n+len(v)], v)], nil
}

// Read returns the file's rows as batches of fields: no field (batches of
// rows only) or one BLOB field. Every value is checked against its record's
// magic, length and CRC.
func (r *Reader) Read(ctx context.Context, fields []schema.DataField, req *ReadRequest) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		if req == nil {
			req = &ReadRequest{}
		}
		mem, batch := schema.ReadDefaults(req.Allocator, req.BatchSize, DefaultBatchSize)
		if len(fields) > 1 || (len(fields) == 1 && fields[0].Type.Root != schema.Blob) {
			yield(nil, fmt.Errorf("%w: %s holds one BLOB column, not %d column(s) %v", ErrSchema, r.name, len(fields), fieldNames(fields)))
			return
		}
		sch, err := schema.ToArrowSchema(fields)
		if err != nil {
			yield(nil, err)
			return
		}
		var buf []byte
		for start := 0; start < len(r.lengths); start += batch {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			end := min(start+batch, len(r.lengths))
			if len(fields) == 0 {
				if !yield(array.NewRecordBatch(sch, nil, int64(end-start)), nil) {
					return
				}
				continue
			}
			b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.LargeBinary)
			for i := start; i < end; i++ {
				switch r.lengths[i] {
				case nullLength:
					b.AppendNull()
					continue
				case placeholderLength:
					b.Release()
					yield(nil, fmt.Errorf("%w: %s row %d", ErrPlaceholder, r.name, i))
					return
				}
				var err error
				if buf, err = r.record(i, buf); err != nil {
					b.Release()
					yield(nil, err)
					return
				}
				b.Append(buf)
			}
			col := b.NewArray()
			b.Release()
			rec := array.NewRecordBatch(sch, []arrow.Array{col}, int64(end-start))
			col.Release()
			if !yield(rec, nil) {
				return
			}
		}
	}
}

// record reads and checks the record of row i into buf and returns the
// value's bytes.
func (r *Reader) record(i int, buf []byte) ([]byte, error) {
	l := r.lengths[i]
	if int64(cap(buf)) < l {
		buf = make([]byte, l)
	}
	buf = buf[:l]
	if _, err := r.r.ReadAt(buf, r.offsets[i]); err != nil {
		return nil, r.ioErr(err)
	}
	if m := binary.LittleEndian.Uint32(buf); m != Magic {
		return nil, r.corrupt(fmt.Errorf("row %d: magic %d at %d", i, m, r.offsets[i]))
	}
	if got := int64(binary.LittleEndian.Uint64(buf[l-12:])); got != l {
		return nil, r.corrupt(fmt.Errorf("row %d: record says %d bytes, index %d", i, got, l))
	}
	if got, want := crc32.ChecksumIEEE(buf[:l-4]), binary.LittleEndian.Uint32(buf[l-4:]); got != want {
		return nil, r.corrupt(fmt.Errorf("row %d: CRC %08x, record says %08x", i, got, want))
	}
	return buf[4 : l-12], nil
}

func (r *Reader) corrupt(err error) error {
	return fmt.Errorf("%w: %s: %v", ErrCorrupt, r.name, err)
}

func (r *Reader) ioErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return r.corrupt(err)
	}
	return fmt.Errorf("blobfile: %s: %w", r.name, err)
}

func fieldNames(fields []schema.DataField) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}

// Writer writes a BLOB file to an io.Writer: Add each row's value, then
// Close, which writes the index and footer (Java BlobFormatWriter).
type Writer struct {
	w       io.Writer
	pos     int64
	lengths []int64
	err     error
}

// NewWriter starts a BLOB file on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Add appends one row: its value, or NULL when null is set.
func (w *Writer) Add(value []byte, null bool) error {
	if w.err != nil {
		return w.err
	}
	if null {
		w.lengths = append(w.lengths, nullLength)
		return nil
	}
	l := int64(len(value)) + recordOverhead
	var head [4]byte
	binary.LittleEndian.PutUint32(head[:], Magic)
	var tail [12]byte
	binary.LittleEndian.PutUint64(tail[:8], uint64(l))
	h := crc32.NewIEEE()
	h.Write(head[:])
	h.Write(value)
	h.Write(tail[:8])
	binary.LittleEndian.PutUint32(tail[8:], h.Sum32())
	for _, p := range [][]byte{head[:], value, tail[:]} {
		if err := w.write(p); err != nil {
			return err
		}
	}
	w.lengths = append(w.lengths, l)
	return nil
}

// AddColumn appends every row of a BLOB (large binary or binary) column.
func (w *Writer) AddColumn(col arrow.Array) error {
	type binaryLike interface {
		arrow.Array
		Value(int) []byte
	}
	a, ok := col.(binaryLike)
	if !ok {
		return fmt.Errorf("%w: a BLOB column cannot come from Arrow %s", ErrSchema, col.DataType())
	}
	for i := 0; i < a.Len(); i++ {
		if err := w.Add(a.Value(i), a.IsNull(i)); err != nil {
			return err
		}
	}
	return nil
}

// NumRows returns the number of rows added.
func (w *Writer) NumRows() int64 { return int64(len(w.lengths)) }

// Pos returns the number of bytes written so far (records only before Close).
func (w *Writer) Pos() int64 { return w.pos }

// Close writes the index and footer; the Writer cannot be used after.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	var index []byte
	var prev int64
	for i, l := range w.lengths {
		d := l
		if i > 0 {
			d = l - prev
		}
		prev = l
		index = binary.AppendVarint(index, d)
	}
	var footer [footerSize]byte
	binary.LittleEndian.PutUint32(footer[:4], uint32(len(index)))
	footer[4] = Version
	if err := w.write(index); err != nil {
		return err
	}
	if err := w.write(footer[:]); err != nil {
		return err
	}
	w.err = errors.New("blobfile: writer is closed")
	return nil
}

func (w *Writer) write(p []byte) error {
	n, err := w.w.Write(p)
	w.pos += int64(n)
	if err != nil {
		w.err = err
	}
	return err
}

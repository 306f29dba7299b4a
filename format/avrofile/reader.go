package avrofile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/avro"
)

// DefaultBatchSize is the number of rows per batch when ReadRequest.BatchSize
// is zero, the same as format/parquet's.
const DefaultBatchSize = 4096

// ReadOptions tunes Open. The zero value (or nil) is valid.
type ReadOptions struct {
	// Name identifies the file in error messages (typically its path).
	Name string
}

// ReadRequest selects how Reader.Read returns rows. The zero value (or nil)
// reads with DefaultBatchSize and the default Go allocator.
type ReadRequest struct {
	// BatchSize is the maximum number of rows per batch; 0 means
	// DefaultBatchSize.
	BatchSize int
	// Allocator allocates the batches' buffers; nil means memory.DefaultAllocator.
	Allocator memory.Allocator
}

// Reader is an open Avro data file. It holds no resources beyond what Open
// learnt from the header, so it needs no Close. Every Read streams the
// file's blocks again through its own state, so a Reader may serve several
// Reads, concurrently too when the io.ReaderAt allows it (as io.ReaderAt's
// contract asks).
//
// An Avro container does not record its row count in the header (only each
// block does), so unlike format/parquet's Reader there is no NumRows.
type Reader struct {
	name  string
	r     io.ReaderAt
	size  int64
	codec string
}

// Open reads the header of the Avro object container file r of the given
// size. Errors wrap ErrCorrupt when r is not an Avro container of records
// (Java AvroBulkFormat's reader reads nothing else) or uses a codec other
// than null, deflate, snappy and zstandard; I/O errors of r are passed
// through.
func Open(ctx context.Context, r io.ReaderAt, size int64, opts *ReadOptions) (*Reader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &ReadOptions{}
	}
	out := &Reader{name: opts.Name, r: r, size: size}
	br, err := out.blocks()
	if err != nil {
		return nil, err
	}
	defer br.Close()
	if _, _, err := rootRecord(br.Schema()); err != nil {
		return nil, out.corrupt(err)
	}
	out.codec = br.Codec()
	return out, nil
}

// Codec returns the compression codec named in the header: "null",
// "deflate", "snappy" or "zstandard".
func (r *Reader) Codec() string { return r.codec }

func (r *Reader) blocks() (*avro.BlockReader, error) {
	br, err := avro.NewBlockReader(io.NewSectionReader(r.r, 0, r.size), &avro.BlockReaderOptions{MaxBlockBytes: r.size})
	if err != nil {
		return nil, r.wrap(err)
	}
	return br, nil
}

func (r *Reader) corrupt(err error) error {
	if r.name != "" {
		return fmt.Errorf("%w: %s: %w", ErrCorrupt, r.name, err)
	}
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

func (r *Reader) schemaErr(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if r.name != "" {
		return fmt.Errorf("%w: %s: %s", ErrSchema, r.name, msg)
	}
	return fmt.Errorf("%w: %s", ErrSchema, msg)
}

// wrap classifies an error met while reading: a writer schema that cannot
// yield the requested types (ErrSchema), an I/O error of the underlying
// reader (passed through, naming the file), or corruption (ErrCorrupt).
func (r *Reader) wrap(err error) error {
	var se *schemaError
	switch {
	case errors.Is(err, ErrCorrupt) || errors.Is(err, ErrSchema):
		return err
	case errors.As(err, &se):
		return r.schemaErr("%s", se.msg)
	case errors.Is(err, avro.ErrCorrupt), errors.Is(err, errDecode):
		return r.corrupt(err)
	}
	if r.name != "" {
		return fmt.Errorf("avrofile: %s: %w", r.name, err)
	}
	return fmt.Errorf("avrofile: %w", err)
}

// errDecode marks errors from decoding block contents (see decodeRows).
var errDecode = errors.New("decoding block")

// Read returns the requested fields, in the given order, as record batches
// whose schema is schema.ToArrowSchema(fields): the same columns, of the same
// types, as format/parquet returns for the same data. fields are matched to
// the file's columns by name (Paimon's Avro files carry no field ids; Java's
// FieldReaderFactory.RowReader matches by name too), so they must be the
// fields of the schema the file was written with. The consumer must Release
// every batch it receives; breaking out of the loop early releases
// everything else. Errors wrap ErrSchema for fields the file lacks or holds
// with an incompatible type, and ErrCorrupt for undecodable data; an error
// ends the sequence.
func (r *Reader) Read(ctx context.Context, fields []schema.DataField, req *ReadRequest) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		r.read(ctx, fields, req, yield)
	}
}

func (r *Reader) read(ctx context.Context, fields []schema.DataField, req *ReadRequest, yield func(arrow.RecordBatch, error) bool) {
	if req == nil {
		req = &ReadRequest{}
	}
	mem, batch := schema.ReadDefaults(req.Allocator, req.BatchSize, DefaultBatchSize)
	if err := ctx.Err(); err != nil {
		yield(nil, err)
		return
	}
	target, err := schema.ToArrowSchema(fields)
	if err != nil {
		yield(nil, r.schemaErr("%v", err))
		return
	}
	br, err := r.blocks()
	if err != nil {
		yield(nil, err)
		return
	}
	defer br.Close()
	w, nullIdx, err := rootRecord(br.Schema())
	if err != nil {
		yield(nil, r.corrupt(err))
		return
	}
	rb := array.NewRecordBuilder(mem, target)
	defer rb.Release()
	builders := make([]array.Builder, len(fields))
	for i := range builders {
		builders[i] = rb.Field(i)
	}
	var row *recordDecoder
	err = guard(func() error {
		var err error
		row, err = compiler{}.record(w, fields, builders, nil, "", 0)
		return err
	})
	if err != nil {
		yield(nil, r.wrap(err))
		return
	}

	rows := 0
	emit := func() bool {
		var rec arrow.RecordBatch
		err := guard(func() error {
			if len(fields) == 0 {
				rec = array.NewRecordBatch(target, nil, int64(rows))
			} else {
				rec = rb.NewRecordBatch()
			}
			return nil
		})
		rows = 0
		if err != nil {
			yield(nil, r.wrap(err))
			return false
		}
		return yield(rec, nil)
	}
	for {
		if err := ctx.Err(); err != nil {
			yield(nil, err)
			return
		}
		count, data, err := br.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			yield(nil, r.wrap(err))
			return
		}
		if count > int64(len(data))+avro.ZeroSizeSlack {
			yield(nil, r.corrupt(fmt.Errorf("block claims %d rows in %d bytes", count, len(data))))
			return
		}
		c := avro.NewCursor(data)
		for count > 0 {
			if rows == 0 {
				// Size the top-level columns for the rows in sight
				// rather than growing them row by row (not for the
				// whole batch: a small file must not pay for 4096).
				rb.Reserve(min(batch, int(count)))
			}
			n := min(int(count), batch-rows)
			if err := decodeRows(&c, row, nullIdx, n); err != nil {
				yield(nil, r.wrap(err))
				return
			}
			count -= int64(n)
			rows += n
			if rows == batch && !emit() {
				return
			}
		}
		if c.Len() != 0 {
			yield(nil, r.corrupt(fmt.Errorf("%d bytes left over after the block's last row", c.Len())))
			return
		}
	}
	if rows > 0 {
		emit()
	}
}

// decodeRows decodes n rows of the top-level record from c. A row written
// as the null branch of a ["null", record] root is corrupt, as in Java's
// AvroRowDatumReader.
func decodeRows(c *avro.Cursor, row *recordDecoder, nullIdx, n int) error {
	return guard(func() error {
		for range n {
			if nullIdx >= 0 {
				i, err := c.Index(2)
				if err != nil {
					return fmt.Errorf("%w at byte %d: %w", errDecode, c.Pos(), err)
				}
				if i == nullIdx {
					return fmt.Errorf("%w: null row", errDecode)
				}
			}
			if err := row.decode(c); err != nil {
				var se *schemaError
				if errors.As(err, &se) {
					return err
				}
				return fmt.Errorf("%w at byte %d: %w", errDecode, c.Pos(), err)
			}
		}
		return nil
	})
}

// guard runs f, turning a panic (a bug or an allocation failure on hostile
// input) into an error: corrupt input must never crash the caller.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: panic: %v", errDecode, p)
		}
	}()
	return f()
}

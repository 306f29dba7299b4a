package parquet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/schema"
)

// DefaultBatchSize is the number of rows per batch when ReadRequest.BatchSize
// is zero. Java's read.batch-size defaults to 1024; Arrow consumers amortise
// per-batch costs better with larger batches.
const DefaultBatchSize = 4096

// ReadOptions tunes Open. The zero value (or nil) is valid.
type ReadOptions struct {
	// Name identifies the file in error messages (typically its path).
	Name string
	// Parallel decodes the projected columns of a batch concurrently.
	Parallel bool
}

// ReadRequest selects what Reader.Read returns. The zero value (or nil) reads
// every row group with DefaultBatchSize and the default Go allocator.
type ReadRequest struct {
	// RowGroups lists the row groups to read, in order; nil means all.
	RowGroups []int
	// BatchSize is the maximum number of rows per batch; 0 means
	// DefaultBatchSize.
	BatchSize int
	// Allocator allocates the batches' buffers; nil means memory.DefaultAllocator.
	Allocator memory.Allocator
}

// Reader is an open Parquet file. It holds no resources beyond the parsed
// footer, so it needs no Close; a Reader may serve several sequential Reads.
type Reader struct {
	name     string
	rdr      *file.Reader
	parallel bool
}

// Open parses the footer of the Parquet file r of the given size. Errors wrap
// ErrCorrupt when the footer cannot be decoded, ErrUnsupported when a column
// chunk uses a compression codec this package cannot decode.
func Open(ctx context.Context, r io.ReaderAt, size int64, opts *ReadOptions) (_ *Reader, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &ReadOptions{}
	}
	out := &Reader{name: opts.Name, parallel: opts.Parallel}
	defer func() {
		// arrow-go panics on some malformed inputs; a corrupt file must
		// surface as an error, never crash the caller.
		if p := recover(); p != nil {
			err = out.corrupt(fmt.Errorf("panic: %v", p))
		}
	}()
	r, err = readTail(r, size)
	if errors.Is(err, errThrift) {
		return nil, out.corrupt(err)
	}
	if err != nil {
		return nil, err
	}
	rdr, err := file.NewParquetReader(io.NewSectionReader(r, 0, size))
	if err != nil {
		return nil, out.corrupt(err)
	}
	if err := validateFooter(rdr, size); err != nil {
		return nil, out.corrupt(err)
	}
	if err := checkCodecs(rdr, out.name); err != nil {
		return nil, err
	}
	out.rdr = rdr
	return out, nil
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

// NumRows returns the row count recorded in the footer.
func (r *Reader) NumRows() int64 { return r.rdr.NumRows() }

// NumRowGroups returns the number of row groups.
func (r *Reader) NumRowGroups() int { return r.rdr.NumRowGroups() }

// ColumnChunkInfo describes one leaf column of a row group, from the footer.
type ColumnChunkInfo struct {
	// Path is the dotted path of the leaf in the file's schema.
	Path string
	// HasNullCount reports whether NullCount is known.
	HasNullCount bool
	// NullCount is the number of null values in the chunk.
	NullCount int64
	// HasMinMax reports whether Min and Max are known. They are the
	// PLAIN-encoded physical values (e.g. 4 little-endian bytes for INT32,
	// 12 bytes for INT96, raw bytes for BINARY), as the footer holds them.
	HasMinMax bool
	Min, Max  []byte
}

// RowGroupInfo describes one row group, from the footer.
type RowGroupInfo struct {
	// NumRows is the row group's row count.
	NumRows int64
	// TotalByteSize is the uncompressed size of the row group's data.
	TotalByteSize int64
	// Columns has one entry per leaf column, in the file's column order.
	Columns []ColumnChunkInfo
}

// RowGroups returns the footer's description of every row group. Statistics
// that cannot be decoded are reported as absent rather than as an error:
// they are hints, and the data pages stay authoritative.
func (r *Reader) RowGroups() []RowGroupInfo {
	md := r.rdr.MetaData()
	out := make([]RowGroupInfo, md.NumRowGroups())
	for i := range out {
		rg := md.RowGroup(i)
		info := RowGroupInfo{NumRows: rg.NumRows(), TotalByteSize: rg.TotalByteSize()}
		for c := 0; c < rg.NumColumns(); c++ {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				continue
			}
			ci := ColumnChunkInfo{Path: cc.PathInSchema().String()}
			if ok, err := cc.StatsSet(); ok && err == nil {
				if st, err := statsOf(cc.Statistics); err == nil && st != nil {
					ci.HasNullCount = st.HasNullCount()
					ci.NullCount = st.NullCount()
					if st.HasMinMax() {
						ci.HasMinMax = true
						ci.Min = st.EncodeMin()
						ci.Max = st.EncodeMax()
					}
				}
			}
			info.Columns = append(info.Columns, ci)
		}
		out[i] = info
	}
	return out
}

// statsOf calls the footer's statistics decoder, turning a panic on malformed
// statistics into an error.
func statsOf[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}

// fieldIDOf returns the PARQUET:field_id of an Arrow field read from the file.
func fieldIDOf(f *arrow.Field) (int, bool) {
	if f == nil {
		return 0, false
	}
	v, ok := f.Metadata.GetValue(schema.ParquetFieldIDKey)
	if !ok {
		return 0, false
	}
	id, err := strconv.Atoi(v)
	if err != nil || id < 0 {
		// arrow-go reports an absent Parquet field_id as -1.
		return 0, false
	}
	return id, true
}

// resolve maps each requested field onto a top-level field of the file: by
// field id first (what Paimon writers record), then by name (files written
// without ids; Java itself matches by name).
func (r *Reader) resolve(m *pqarrow.SchemaManifest, fields []schema.DataField) ([]int, error) {
	byID := make(map[int]int, len(m.Fields))
	byName := make(map[string]int, len(m.Fields))
	for i := range m.Fields {
		f := m.Fields[i].Field
		if id, ok := fieldIDOf(f); ok {
			if _, dup := byID[id]; !dup {
				byID[id] = i
			}
		}
		if _, dup := byName[f.Name]; !dup {
			byName[f.Name] = i
		}
	}
	out := make([]int, len(fields))
	for i, f := range fields {
		idx, ok := byID[f.ID]
		if !ok {
			idx, ok = byName[f.Name]
			if ok {
				// A column of that name carrying another id is another
				// field (dropped and re-added): not a match.
				if id, has := fieldIDOf(m.Fields[idx].Field); has && id != f.ID {
					ok = false
				}
			}
		}
		if !ok {
			return nil, r.schemaErr("field %q (id %d) not in file", f.Name, f.ID)
		}
		out[i] = idx
	}
	return out, nil
}

func collectLeaves(f *pqarrow.SchemaField, out []int) []int {
	if f.IsLeaf() {
		return append(out, f.ColIndex)
	}
	for i := range f.Children {
		out = collectLeaves(&f.Children[i], out)
	}
	return out
}

// Read returns the requested fields, in the given order, as record batches
// whose schema is schema.ToArrowSchema(fields). fields name the columns as
// the file's own schema does (ids and names of the schema the file was
// written with). The consumer must Release every batch it receives; breaking
// out of the loop early releases everything else. Errors wrap ErrSchema for
// fields the file lacks or holds with an incompatible type, and ErrCorrupt
// for undecodable data.
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
	target, err := schema.ToArrowSchema(fields)
	if err != nil {
		yield(nil, r.schemaErr("%v", err))
		return
	}
	for _, g := range req.RowGroups {
		if g < 0 || g >= r.rdr.NumRowGroups() {
			yield(nil, fmt.Errorf("parquet: row group %d out of range [0, %d)", g, r.rdr.NumRowGroups()))
			return
		}
	}
	rowGroups := req.RowGroups
	if rowGroups == nil {
		rowGroups = make([]int, r.rdr.NumRowGroups())
		for i := range rowGroups {
			rowGroups[i] = i
		}
	}
	var total int64
	for _, g := range rowGroups {
		total += r.rdr.MetaData().RowGroup(g).NumRows()
	}
	if len(fields) == 0 || total == 0 {
		// Nothing to decode, but the row count still matters (e.g. a
		// count(*) projection): emit empty-schema batches of the rows.
		r.emitEmpty(target, mem, total, int64(batch), yield)
		return
	}

	var rr pqarrow.RecordReader
	defer func() {
		if rr != nil {
			rr.Release()
		}
	}()
	var fileIdx []int
	err = guard(func() error {
		fr, err := pqarrow.NewFileReader(r.rdr, pqarrow.ArrowReadProperties{Parallel: r.parallel, BatchSize: int64(batch)}, mem)
		if err != nil {
			return r.corrupt(err)
		}
		fileIdx, err = r.resolve(fr.Manifest, fields)
		if err != nil {
			return err
		}
		for i, f := range fields {
			if err := r.checkShredded(&fr.Manifest.Fields[fileIdx[i]], f); err != nil {
				return err
			}
		}
		for _, idx := range uniqueSorted(fileIdx) {
			patchInt96(&fr.Manifest.Fields[idx], r.rdr.MetaData().Schema)
		}
		var leaves []int
		for _, idx := range uniqueSorted(fileIdx) {
			leaves = collectLeaves(&fr.Manifest.Fields[idx], leaves)
		}
		rr, err = fr.GetRecordReader(ctx, leaves, rowGroups)
		if err != nil {
			return r.corrupt(err)
		}
		return nil
	})
	if err != nil {
		yield(nil, r.wrapCorrupt(err))
		return
	}
	// The record reader's columns come in file order of the distinct top
	// level fields; pos maps a file field index to its column.
	pos := make(map[int]int)
	for i, idx := range uniqueSorted(fileIdx) {
		pos[idx] = i
	}
	for {
		if err := ctx.Err(); err != nil {
			yield(nil, err)
			return
		}
		var rec arrow.RecordBatch
		err := guard(func() error {
			if !rr.Next() {
				if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
					return r.corrupt(err)
				}
				return nil
			}
			rec = rr.RecordBatch()
			return nil
		})
		if err != nil {
			yield(nil, r.wrapCorrupt(err))
			return
		}
		if rec == nil {
			return
		}
		out, err := r.conformBatch(rec, fields, target, fileIdx, pos, mem)
		if err != nil {
			yield(nil, err)
			return
		}
		if !yield(out, nil) {
			return
		}
	}
}

func (r *Reader) wrapCorrupt(err error) error {
	if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrSchema) || errors.Is(err, ErrUnsupported) {
		return err
	}
	return r.corrupt(err)
}

// guard runs f, turning a panic inside arrow-go (malformed pages) into an
// error.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: panic: %v", ErrCorrupt, p)
		}
	}()
	return f()
}

func (r *Reader) conformBatch(rec arrow.RecordBatch, fields []schema.DataField, target *arrow.Schema, fileIdx []int, pos map[int]int, mem memory.Allocator) (out arrow.RecordBatch, err error) {
	cols := make([]arrow.Array, len(fields))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, f := range fields {
		src := rec.Column(pos[fileIdx[i]])
		err := guard(func() error {
			var err error
			cols[i], err = conform(src, target.Field(i).Type, mem)
			return err
		})
		if err != nil {
			if errors.Is(err, ErrCorrupt) {
				return nil, r.corrupt(fmt.Errorf("column %q: %w", f.Name, err))
			}
			return nil, r.schemaErr("column %q: %v", f.Name, err)
		}
	}
	return array.NewRecordBatch(target, cols, rec.NumRows()), nil
}

func (r *Reader) emitEmpty(target *arrow.Schema, mem memory.Allocator, total, batch int64, yield func(arrow.RecordBatch, error) bool) {
	for total > 0 {
		n := min(total, batch)
		cols := make([]arrow.Array, len(target.Fields()))
		for i, f := range target.Fields() {
			cols[i] = array.MakeArrayOfNull(mem, f.Type, int(n))
		}
		rec := array.NewRecordBatch(target, cols, n)
		for _, c := range cols {
			c.Release()
		}
		if !yield(rec, nil) {
			return
		}
		total -= n
	}
}

func uniqueSorted(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

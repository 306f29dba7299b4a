package orc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
)

// DefaultBatchSize is the number of rows per batch when ReadRequest.BatchSize
// is zero, the same as format/parquet's.
const DefaultBatchSize = 4096

// tailReadSize is how much of the file's end Open reads at once, hoping it
// holds the PostScript, footer and metadata (Java reads 16 KiB too).
const tailReadSize = 16 << 10

// ReadOptions tunes Open. The zero value (or nil) is valid.
type ReadOptions struct {
	// Name identifies the file in error messages (typically its path).
	Name string
	// TimestampLTZ says how the file's TIMESTAMP_LTZ columns were written
	// (the table's orc.timestamp-ltz.legacy.type); the default is Java's.
	TimestampLTZ LTZMode
}

// ReadRequest selects what Reader.Read returns. The zero value (or nil) reads
// every row with DefaultBatchSize and the default Go allocator.
type ReadRequest struct {
	// BatchSize is the maximum number of rows per batch; 0 means
	// DefaultBatchSize.
	BatchSize int
	// Allocator allocates the batches' buffers; nil means
	// memory.DefaultAllocator.
	Allocator memory.Allocator
	// Select, when set, prunes by statistics: it is called for every
	// stripe with the stripe's row count and statistics, then, for the
	// stripes it keeps, for every row group of the row index (10,000 rows
	// in Java's files) with the group's. stats has one entry per requested
	// field, the statistics of the field's column, or nil when the file has
	// none. Returning false skips those rows. Select must be conservative:
	// false means no row of the group can match.
	Select func(rows int64, stats []*ColumnStatistics) bool
}

// Reader is an open ORC file. It holds no resources beyond the parsed tail,
// so it needs no Close; every Read decodes through its own state, so a
// Reader may serve several Reads, concurrently too when the io.ReaderAt
// allows it (as io.ReaderAt's contract asks).
type Reader struct {
	name    string
	r       io.ReaderAt
	size    int64
	ps      postScript
	ft      footer
	codec   *codec
	root    *node
	version fileVersion
	cfg     readConfig
	tailOff int64 // where the tail (metadata, footer, PostScript) starts

	metaOnce sync.Once
	meta     [][]ColumnStatistics
	metaErr  error
}

// fileVersion is the PostScript's file version.
type fileVersion struct{ major, minor uint64 }

// decimal64 reports whether decimals of up to 18 digits are stored as
// scaled longs: only in files of the "UNSTABLE-PRE-2.0" development version
// [1, 9999] (Java TreeReaderFactory).
func (v fileVersion) decimal64() bool { return v.major == 1 && v.minor == 9999 }

// Open reads the tail of the ORC file r of the given size: PostScript,
// footer and (on demand) the stripe statistics. Errors wrap ErrCorrupt when
// the tail cannot be decoded and ErrUnsupported for files this package
// cannot read (column encryption, an unknown compression kind, a file
// version other than 0.x and the pre-2.0 development version); I/O errors
// of r are passed through, naming the file.
func Open(ctx context.Context, r io.ReaderAt, size int64, opts *ReadOptions) (_ *Reader, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &ReadOptions{}
	}
	out := &Reader{name: opts.Name, r: r, size: size, cfg: readConfig{ltz: opts.TimestampLTZ}}
	defer func() {
		if p := recover(); p != nil {
			err = out.wrap(corruptf("panic: %v", p))
		}
	}()
	if err := out.readTail(); err != nil {
		return nil, out.wrap(err)
	}
	return out, nil
}

func (r *Reader) readTail() error {
	if r.size < 4 {
		return corruptf("file of %d bytes is too short for ORC", r.size)
	}
	n := min(r.size, tailReadSize)
	tail := make([]byte, n)
	if err := r.readAt(tail, r.size-n); err != nil {
		return err
	}
	psLen := int64(tail[n-1])
	if psLen+1 > n {
		return corruptf("PostScript of %d bytes in a file of %d", psLen, r.size)
	}
	ps, err := decodePostScript(tail[n-1-psLen : n-1])
	if err != nil {
		return within(err, "PostScript")
	}
	if string(ps.magic) != "ORC" {
		if len(ps.magic) != 0 {
			return corruptf("PostScript magic %q", ps.magic)
		}
		// Files of Hive 0.11 have no magic in the PostScript, only at the
		// start of the file.
		head := make([]byte, 3)
		if err := r.readAt(head, 0); err != nil {
			return err
		}
		if string(head) != "ORC" {
			return corruptf("not an ORC file (no ORC magic)")
		}
	}
	r.ps = ps
	switch {
	case len(ps.version) == 0:
		r.version = fileVersion{0, 11}
	case len(ps.version) >= 2:
		r.version = fileVersion{ps.version[0], ps.version[1]}
	default:
		r.version = fileVersion{ps.version[0], 0}
	}
	if r.version.major != 0 && !r.version.decimal64() {
		return unsupportedf("ORC file version %d.%d", r.version.major, r.version.minor)
	}
	if ps.stripeStatsLen != 0 {
		return unsupportedf("column encryption")
	}
	if r.codec, err = newCodec(ps.compression, ps.blockSize); err != nil {
		return within(err, "PostScript")
	}
	tailLen := uint64(psLen) + 1 + ps.footerLength + ps.metadataLength
	if ps.footerLength > uint64(r.size) || ps.metadataLength > uint64(r.size) || tailLen > uint64(r.size) {
		return corruptf("tail of %d bytes (footer %d, metadata %d) in a file of %d bytes",
			tailLen, ps.footerLength, ps.metadataLength, r.size)
	}
	r.tailOff = r.size - int64(tailLen)
	footerOff := r.size - 1 - psLen - int64(ps.footerLength)
	raw, err := r.section(tail, footerOff, int64(ps.footerLength))
	if err != nil {
		return err
	}
	raw, err = r.codec.decompressAll(raw)
	if err != nil {
		return within(err, "footer")
	}
	if r.ft, err = decodeFooter(raw); err != nil {
		return within(err, "footer")
	}
	if r.ft.encrypted {
		return unsupportedf("column encryption")
	}
	if r.root, err = buildTree(r.ft.types); err != nil {
		return within(err, "footer")
	}
	var rows uint64
	for i, s := range r.ft.stripes {
		if s.encrypted {
			return unsupportedf("column encryption")
		}
		end := s.offset + s.indexLength + s.dataLength + s.footerLength
		if end < s.offset || end > uint64(r.tailOff) || s.offset < 3 && s.numRows > 0 {
			return corruptf("stripe %d at %d..%d outside the file's body (0..%d)", i, s.offset, end, r.tailOff)
		}
		rows += s.numRows
		if rows < s.numRows {
			return corruptf("stripe row counts overflow")
		}
	}
	if rows != r.ft.numRows {
		return corruptf("stripes hold %d rows, footer says %d", rows, r.ft.numRows)
	}
	return nil
}

// section returns size bytes at off, from tail (the file's last bytes) when
// they lie there.
func (r *Reader) section(tail []byte, off, size int64) ([]byte, error) {
	tailStart := r.size - int64(len(tail))
	if off >= tailStart {
		return tail[off-tailStart : off-tailStart+size], nil
	}
	b := make([]byte, size)
	if err := r.readAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}

// ioError marks an error of the underlying io.ReaderAt.
type ioError struct{ err error }

func (e *ioError) Error() string { return e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

func (r *Reader) readAt(b []byte, off int64) error {
	n, err := r.r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return corruptf("file ends at %d, before %d", off+int64(n), off+int64(len(b)))
	}
	return &ioError{err}
}

// wrap turns an internal error into what leaves the package: corrupt input
// wraps ErrCorrupt naming the file, I/O errors pass through naming it.
func (r *Reader) wrap(err error) error {
	if err == nil {
		return nil
	}
	var ce *corruptError
	var ie *ioError
	switch {
	case errors.As(err, &ce):
		if r.name != "" {
			return fmt.Errorf("%w: %s: %s", ErrCorrupt, r.name, ce.msg)
		}
		return fmt.Errorf("%w: %s", ErrCorrupt, ce.msg)
	case errors.As(err, &ie):
		if r.name != "" {
			return fmt.Errorf("orc: read %s: %w", r.name, ie.err)
		}
		return fmt.Errorf("orc: read: %w", ie.err)
	case errors.Is(err, ErrUnsupported) || errors.Is(err, ErrSchema):
		if r.name != "" {
			return fmt.Errorf("%s: %w", r.name, err)
		}
	}
	return err
}

func (r *Reader) schemaErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrSchema, fmt.Sprintf(format, args...))
}

// NumRows returns the row count recorded in the footer.
func (r *Reader) NumRows() int64 { return int64(r.ft.numRows) }

// NumStripes returns the number of stripes.
func (r *Reader) NumStripes() int { return len(r.ft.stripes) }

// Compression returns the file's compression kind.
func (r *Reader) Compression() CompressionKind { return r.ps.compression }

// RowIndexStride returns the rows per row group of the row index (0: the
// file has no row index).
func (r *Reader) RowIndexStride() int { return int(r.ft.rowIndexStride) }

// FileStatistics returns the footer's statistics of the top-level column
// holding field f (matched as Read matches it), or false when the file has
// no such column or no statistics for it.
func (r *Reader) FileStatistics(f schema.DataField) (ColumnStatistics, bool) {
	c, ok := r.root.structChild(f)
	if !ok || c.id >= len(r.ft.statistics) {
		return ColumnStatistics{}, false
	}
	return r.ft.statistics[c.id], true
}

// stripeStatistics decodes the file Metadata once.
func (r *Reader) stripeStatistics() ([][]ColumnStatistics, error) {
	r.metaOnce.Do(func() {
		if r.ps.metadataLength == 0 {
			return
		}
		raw := make([]byte, r.ps.metadataLength)
		if err := r.readAt(raw, r.tailOff); err != nil {
			r.metaErr = err
			return
		}
		raw, err := r.codec.decompressAll(raw)
		if err != nil {
			r.metaErr = within(err, "metadata")
			return
		}
		r.meta, err = decodeMetadata(raw)
		r.metaErr = within(err, "metadata")
	})
	return r.meta, r.metaErr
}

// Read returns the requested fields, in the given order, as record batches
// whose schema is schema.ToArrowSchema(fields): the same columns, of the
// same types, as format/parquet returns for the same data. fields name the
// columns as the file's own schema does (ids and names of the schema the
// file was written with); they are matched to the file's columns by the
// paimon.id attribute, then by name. The consumer must Release every batch
// it receives; breaking out of the loop early releases everything else.
// Errors wrap ErrSchema for fields the file lacks or holds with an
// incompatible type, ErrCorrupt for undecodable data and ErrUnsupported
// for what this package cannot decode; an error ends the sequence.
func (r *Reader) Read(ctx context.Context, fields []schema.DataField, req *ReadRequest) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		if err := r.read(ctx, fields, req, yield); err != nil {
			yield(nil, r.wrap(err))
		}
	}
}

// errStop reports that the consumer stopped; it is never yielded.
var errStop = errors.New("stop")

func (r *Reader) read(ctx context.Context, fields []schema.DataField, req *ReadRequest, yield func(arrow.RecordBatch, error) bool) error {
	if req == nil {
		req = &ReadRequest{}
	}
	mem, batch := schema.ReadDefaults(req.Allocator, req.BatchSize, DefaultBatchSize)
	target, err := schema.ToArrowSchema(fields)
	if err != nil {
		return r.schemaErr("%v", err)
	}
	p, err := r.plan(fields, target)
	if err != nil {
		return err
	}
	for si := range r.ft.stripes {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := r.readStripe(ctx, si, p, req, mem, batch, target, yield)
		if err == errStop {
			return nil
		}
		if err != nil {
			return within(err, "stripe %d", si)
		}
	}
	return nil
}

// plan is what a Read decodes: a reader per field and the columns needed.
type plan struct {
	readers []columnReader
	tops    []int  // the top-level column id of each field
	needed  []bool // by column id: its streams are read
}

func (r *Reader) plan(fields []schema.DataField, target *arrow.Schema) (*plan, error) {
	p := &plan{needed: make([]bool, len(r.ft.types))}
	for i, f := range fields {
		col, ok := r.root.structChild(f)
		if !ok {
			return nil, r.schemaErr("field %q (id %d) not in file", f.Name, f.ID)
		}
		cr, err := r.columnReader(col, f.Type, target.Field(i).Type, f.Name, p.needed)
		if err != nil {
			return nil, err
		}
		p.readers = append(p.readers, cr)
		p.tops = append(p.tops, col.id)
	}
	return p, nil
}

// columnReader builds the reader of column n read as Paimon type t (Arrow
// type at), marking the columns it needs.
func (r *Reader) columnReader(n *node, t schema.DataType, at arrow.DataType, path string, needed []bool) (columnReader, error) {
	if !compatible(n.t.kind, t) {
		if t.Root == schema.Variant || t.Root == schema.Vector {
			return nil, unsupportedf("field %q: %s columns in ORC", path, t.Root)
		}
		return nil, r.schemaErr("field %q: file column of type %s cannot be read as %s", path, n.t.kind, t.Root)
	}
	needed[n.id] = true
	pr := presence{col: n.id}
	switch t.Root {
	case schema.Boolean:
		return &boolColumn{presence: pr}, nil
	case schema.TinyInt:
		return &intColumn{presence: pr, kind: n.t.kind, dt: at, width: 1}, nil
	case schema.SmallInt:
		return &intColumn{presence: pr, kind: n.t.kind, dt: at, width: 2}, nil
	case schema.Int, schema.Date, schema.Time:
		return &intColumn{presence: pr, kind: n.t.kind, dt: at, width: 4}, nil
	case schema.BigInt:
		return &intColumn{presence: pr, kind: n.t.kind, dt: at, width: 8}, nil
	case schema.Float:
		return &floatColumn{presence: pr, dt: at, width: 4}, nil
	case schema.Double:
		return &floatColumn{presence: pr, dt: at, width: 8}, nil
	case schema.Decimal:
		return &decimalColumn{presence: pr, dt: at.(*arrow.Decimal128Type),
			decimal64: r.version.decimal64() && n.t.precision <= 18, fileScale: int(n.t.scale)}, nil
	case schema.Char, schema.VarChar, schema.Binary, schema.VarBinary, schema.Blob:
		c := &bytesColumn{presence: pr, dt: at, kind: n.t.kind, large: t.Root == schema.Blob}
		if n.t.kind == kindChar || n.t.kind == kindVarchar {
			c.maxLen = int(min(n.t.maxLength, 1<<31-1))
		}
		return c, nil
	case schema.Timestamp, schema.TimestampLTZ:
		return &timestampColumn{presence: pr, dt: at.(*arrow.TimestampType),
			instant: n.t.kind == kindTimestampInstant, opts: &r.cfg}, nil
	case schema.Array:
		elem, err := r.columnReader(n.children[0], *t.Element, at.(*arrow.ListType).Elem(), path+".element", needed)
		if err != nil {
			return nil, err
		}
		return &listColumn{presence: pr, dt: at, children: []columnReader{elem}}, nil
	case schema.Map, schema.Multiset:
		mt := at.(*arrow.MapType)
		kt, vt := t.Key, t.Value
		if t.Root == schema.Multiset {
			kt = t.Element
			it := schema.IntType().NotNull()
			vt = &it
		}
		key, err := r.columnReader(n.children[0], *kt, mt.KeyType(), path+".key", needed)
		if err != nil {
			return nil, err
		}
		val, err := r.columnReader(n.children[1], *vt, mt.ItemType(), path+".value", needed)
		if err != nil {
			return nil, err
		}
		return &listColumn{presence: pr, dt: at, children: []columnReader{key, val}}, nil
	case schema.Row:
		st := at.(*arrow.StructType)
		sc := &structColumn{presence: pr, dt: st}
		for i, f := range t.Fields {
			child, ok := n.structChild(f)
			if !ok {
				return nil, r.schemaErr("field %q (id %d) not in file", path+"."+f.Name, f.ID)
			}
			cr, err := r.columnReader(child, f.Type, st.Field(i).Type, path+"."+f.Name, needed)
			if err != nil {
				return nil, err
			}
			sc.children = append(sc.children, cr)
		}
		return sc, nil
	}
	return nil, unsupportedf("field %q: %s columns in ORC", path, t.Root)
}

// stripeStats returns the statistics of the fields' columns for a
// stripe, nil where unknown.
func (r *Reader) stripeStats(si int, tops []int) ([]*ColumnStatistics, error) {
	out := make([]*ColumnStatistics, len(tops))
	meta, err := r.stripeStatistics()
	if err != nil {
		return nil, err
	}
	if si >= len(meta) {
		return out, nil
	}
	for i, c := range tops {
		if c < len(meta[si]) {
			out[i] = &meta[si][c]
		}
	}
	return out, nil
}

func (r *Reader) readStripe(ctx context.Context, si int, p *plan, req *ReadRequest, mem memory.Allocator,
	batch int, target *arrow.Schema, yield func(arrow.RecordBatch, error) bool) error {
	info := r.ft.stripes[si]
	rows := int64(info.numRows)
	if rows == 0 {
		return nil
	}
	if req.Select != nil {
		stats, err := r.stripeStats(si, p.tops)
		if err != nil {
			return err
		}
		if !req.Select(rows, stats) {
			return nil
		}
	}
	if len(p.readers) == 0 {
		return emitEmpty(target, mem, rows, int64(batch), yield)
	}
	var sf stripeFooter
	var streams []located
	if err := guard(func() (err error) { sf, streams, err = r.stripeFooter(info); return err }); err != nil {
		return err
	}
	// Row groups, when the caller prunes and the file has a row index.
	var positions [][][]uint64
	selected := []rowRange{{0, rows, -1}}
	if req.Select != nil && r.ft.rowIndexStride > 0 && rows > int64(r.ft.rowIndexStride) {
		err := guard(func() (err error) {
			selected, positions, err = r.selectGroups(info, sf, streams, p, rows, req.Select)
			return err
		})
		if err != nil {
			return err
		}
		if len(selected) == 0 {
			return nil
		}
	}
	st := &stripeState{codec: r.codec, streams: map[streamKey][]byte{}, encodings: sf.encodings,
		timezone: sf.timezone, mem: mem, version: r.version}
	if err := r.loadStreams(info, streams, p.needed, st); err != nil {
		return err
	}
	err := guard(func() error {
		for _, cr := range p.readers {
			if err := cr.startStripe(st); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, rr := range selected {
		if rr.group > 0 {
			err := guard(func() error {
				for _, cr := range p.readers {
					if err := cr.seek(positions[rr.group]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		for left := rr.end - rr.start; left > 0; {
			if err := ctx.Err(); err != nil {
				return err
			}
			n := int(min(int64(batch), left))
			var rec arrow.RecordBatch
			if err := guard(func() (err error) { rec, err = r.readBatch(p, target, n); return err }); err != nil {
				return err
			}
			if !yield(rec, nil) {
				return errStop
			}
			left -= int64(n)
		}
	}
	return nil
}

// guard runs f, turning a panic (a bug, or an allocation failure on hostile
// input) into a corrupt-file error: corrupt input must never crash the
// caller. It never wraps the consumer's code.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = corruptf("panic: %v", p)
		}
	}()
	return f()
}

// rowRange is a run of rows of a stripe to read; group is the row group it
// starts at (-1: the stripe's start, no seek needed).
type rowRange struct {
	start, end int64
	group      int
}

func (r *Reader) readBatch(p *plan, target *arrow.Schema, n int) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(p.readers))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, cr := range p.readers {
		d, err := cr.read(n, nil)
		if err != nil {
			return nil, within(err, "field %q", target.Field(i).Name)
		}
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	return array.NewRecordBatch(target, cols, int64(n)), nil
}

// located is a stream with its place in the file.
type located struct {
	streamInfo
	offset int64
}

// stripeFooter reads and decodes a stripe's footer and locates its streams:
// they follow one another from the stripe's start in the footer's order,
// index streams then data streams.
func (r *Reader) stripeFooter(info stripeInfo) (stripeFooter, []located, error) {
	off := int64(info.offset + info.indexLength + info.dataLength)
	raw := make([]byte, info.footerLength)
	if err := r.readAt(raw, off); err != nil {
		return stripeFooter{}, nil, err
	}
	raw, err := r.codec.decompressAll(raw)
	if err != nil {
		return stripeFooter{}, nil, within(err, "stripe footer")
	}
	sf, err := decodeStripeFooter(raw)
	if err != nil {
		return sf, nil, within(err, "stripe footer")
	}
	if sf.encrypted {
		return sf, nil, unsupportedf("column encryption")
	}
	streams := make([]located, len(sf.streams))
	pos := int64(info.offset)
	end := off
	for i, s := range sf.streams {
		if s.length > uint64(end-pos) {
			return sf, nil, corruptf("stream %d (%s of column %d, %d bytes) beyond the stripe", i, s.kind, s.column, s.length)
		}
		streams[i] = located{streamInfo: s, offset: pos}
		pos += int64(s.length)
	}
	return sf, streams, nil
}

// loadStreams reads the data streams of the needed columns, coalescing
// neighbouring ranges into one read.
func (r *Reader) loadStreams(info stripeInfo, streams []located, needed []bool, st *stripeState) error {
	var want []located
	for _, s := range streams {
		if s.column >= uint64(len(needed)) || !needed[s.column] || s.kind.isIndex() || s.length == 0 {
			continue
		}
		switch s.kind {
		case streamPresent, streamData, streamLength, streamDictionaryData, streamSecondary:
			want = append(want, s)
		}
	}
	slices.SortFunc(want, func(a, b located) int { return int(a.offset - b.offset) })
	const gap = 256 << 10 // read across gaps smaller than this
	for i := 0; i < len(want); {
		j := i + 1
		end := want[i].offset + int64(want[i].length)
		for j < len(want) && want[j].offset-end <= gap {
			end = max(end, want[j].offset+int64(want[j].length))
			j++
		}
		buf := make([]byte, end-want[i].offset)
		if err := r.readAt(buf, want[i].offset); err != nil {
			return err
		}
		for _, s := range want[i:j] {
			o := s.offset - want[i].offset
			st.streams[streamKey{int(s.column), s.kind}] = buf[o : o+int64(s.length) : o+int64(s.length)]
		}
		i = j
	}
	return nil
}

// selectGroups reads the row index of the needed columns, asks sel about
// every row group and returns the runs of selected groups with every
// group's positions (by group, then column id). Without a usable index it
// selects the whole stripe.
func (r *Reader) selectGroups(info stripeInfo, sf stripeFooter, streams []located, p *plan, rows int64,
	sel func(int64, []*ColumnStatistics) bool) ([]rowRange, [][][]uint64, error) {
	whole := []rowRange{{0, rows, -1}}
	stride := int64(r.ft.rowIndexStride)
	ngroups := int((rows + stride - 1) / stride)
	index := make(map[int][]rowIndexEntry)
	for _, s := range streams {
		if s.kind != streamRowIndex || s.column >= uint64(len(p.needed)) || !p.needed[s.column] {
			continue
		}
		raw := make([]byte, s.length)
		if err := r.readAt(raw, s.offset); err != nil {
			return nil, nil, err
		}
		raw, err := r.codec.decompressAll(raw)
		if err != nil {
			return nil, nil, within(err, "row index of column %d", s.column)
		}
		entries, err := decodeRowIndex(raw)
		if err != nil {
			return nil, nil, within(err, "row index of column %d", s.column)
		}
		if len(entries) != ngroups {
			return whole, nil, nil
		}
		index[int(s.column)] = entries
	}
	for c, need := range p.needed {
		if need {
			if _, ok := index[c]; !ok {
				return whole, nil, nil
			}
		}
	}
	positions := make([][][]uint64, ngroups)
	var out []rowRange
	stats := make([]*ColumnStatistics, len(p.tops))
	for g := range ngroups {
		positions[g] = make([][]uint64, len(p.needed))
		for c, entries := range index {
			positions[g][c] = entries[g].positions
		}
		start := int64(g) * stride
		end := min(start+stride, rows)
		for i, c := range p.tops {
			stats[i] = nil
			if e := &index[c][g]; e.hasStats {
				stats[i] = &e.stats
			}
		}
		if !sel(end-start, stats) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].end == start {
			out[n-1].end = end
		} else {
			out = append(out, rowRange{start, end, g})
		}
	}
	return out, positions, nil
}

// emitEmpty yields batches without columns for rows rows (a count(*)
// projection still needs the row count).
func emitEmpty(target *arrow.Schema, mem memory.Allocator, rows, batch int64, yield func(arrow.RecordBatch, error) bool) error {
	for rows > 0 {
		n := min(rows, batch)
		if !yield(array.NewRecordBatch(target, nil, n), nil) {
			return errStop
		}
		rows -= n
	}
	return nil
}

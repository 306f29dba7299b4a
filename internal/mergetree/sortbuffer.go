package mergetree

import (
	"context"
	"encoding/binary"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/offheap"
)

// SortBuffer holds the rows written to one bucket of a primary-key table
// until they are flushed as a sorted run (Java SortBufferWriteBuffer over
// BinaryInMemorySortBuffer). Rows are copied into off-heap memory
// (internal/offheap) as they arrive, one Arrow batch per Put; Flush sorts
// them by key, user-defined sequence fields and sequence number, merges the
// versions of each key with the table's merge function and hands the result
// over in the key-value layout, the raw sorted rows too when asked
// (changelog-producer=input).
//
// # Memory
//
// Size counts every byte the buffer holds: the copied columns, 9 bytes per
// row of sequence number and kind, and the 16 bytes per row the sort index
// takes at Flush. A caller bounding memory (write-buffer-size) checks
// EstimateSize before Put and flushes first when the sum would exceed its
// budget; nothing else of the buffer grows with the rows.
//
// A SortBuffer is not safe for concurrent use.
type SortBuffer struct {
	opts    Options
	schema  *arrow.Schema // ReadFields
	arena   *offheap.Arena
	batches []arrow.RecordBatch // ReadFields layout, arena memory
	rows    int
}

// sortIndexBytes is the size of one sort index entry.
const sortIndexBytes = int(unsafe.Sizeof(sortEntry{}))

// rowOverhead is what the buffer holds per row besides the columns:
// sequence number, kind and sort index entry.
const rowOverhead = 8 + 1 + sortIndexBytes

// sortEntry is one row of the sort index: a normalized prefix of the first
// key column, then where the row is.
type sortEntry struct {
	prefix uint64
	batch  uint32
	row    uint32
}

// NewSortBuffer returns an empty buffer for the rows of a table. opts is
// used as by Read (Schema, Merge, SequenceFields, SequenceDescending,
// BatchSize, Allocator for the output batches); KeyValues is implied. pool
// supplies the off-heap pages (nil: a pool of the buffer's own).
func NewSortBuffer(opts *Options, pool *offheap.Pool) (*SortBuffer, error) {
	if opts == nil {
		return nil, fmt.Errorf("%w: no options", ErrInvalid)
	}
	o := *opts
	o.KeyValues = true
	// Validate the options now rather than at the first flush.
	if _, err := newReader(noOpen, &o, func(arrow.RecordBatch, error) bool { return false }); err != nil {
		return nil, err
	}
	sc, err := schema.ToArrowSchema(ReadFields(o.Schema))
	if err != nil {
		return nil, fmt.Errorf("%w: schema %d: %w", ErrInvalid, o.Schema.ID, err)
	}
	if pool == nil {
		pool = offheap.NewPool(0)
	}
	return &SortBuffer{opts: o, schema: sc, arena: offheap.NewArena(pool)}, nil
}

func noOpen(context.Context, *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
	return func(func(arrow.RecordBatch, error) bool) {}
}

// Len is the number of rows held.
func (b *SortBuffer) Len() int { return b.rows }

// Size is the number of bytes the buffer holds, the sort index of a Flush
// included.
func (b *SortBuffer) Size() int64 { return b.arena.Used() + int64(b.rows*sortIndexBytes) }

// EstimateSize is how many bytes Put of these columns adds to Size (exact
// for the fixed-width and string types, close for nested ones).
func EstimateSize(cols []arrow.Array, rows int) int64 {
	n := int64(rows * rowOverhead)
	for _, c := range cols {
		n += arraySize(c.Data())
	}
	return n
}

// arraySize estimates the bytes array.Concatenate copies of an array
// (slice) into new buffers, with the arena's 64-byte rounding.
func arraySize(d arrow.ArrayData) int64 {
	n, off := int64(d.Len()), int64(d.Offset())
	round := func(x int64) int64 { return (x + 63) &^ 63 }
	size := round((n + 7) / 8) // validity
	switch t := d.DataType().(type) {
	case arrow.FixedWidthDataType:
		size += round((n*int64(t.BitWidth()) + 7) / 8)
	case *arrow.StringType, *arrow.BinaryType:
		size += round((n + 1) * 4)
		if bufs := d.Buffers(); len(bufs) > 1 && bufs[1] != nil && n > 0 {
			offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())
			if int(off+n) < len(offs) {
				size += round(int64(offs[off+n] - offs[off]))
			}
		}
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		size += round((n + 1) * 8)
		if bufs := d.Buffers(); len(bufs) > 1 && bufs[1] != nil && n > 0 {
			offs := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())
			if int(off+n) < len(offs) {
				size += round(offs[off+n] - offs[off])
			}
		}
	default:
		// Nested: offsets plus the children, whole (a slice's children
		// may be larger than what it uses, so this overestimates).
		size += round((n + 1) * 4)
		for _, c := range d.Children() {
			size += arraySize(c)
		}
	}
	return size
}

// Put copies rows into the buffer: cols are the table's fields (the Arrow
// types of ReadFields), kinds their row kinds and firstSeq the sequence
// number of the first row, the others following. The caller keeps
// ownership of cols.
func (b *SortBuffer) Put(cols []arrow.Array, kinds []int8, firstSeq int64) error {
	n := len(kinds)
	if n == 0 {
		return nil
	}
	if len(cols) != len(b.opts.Schema.Fields) {
		return fmt.Errorf("%w: %d columns for %d fields", ErrInvalid, len(cols), len(b.opts.Schema.Fields))
	}
	if uint64(len(b.batches)) >= 1<<32-1 || uint64(n) >= 1<<32-1 {
		return fmt.Errorf("%w: too many rows in one sort buffer", ErrInvalid)
	}
	out := make([]arrow.Array, 0, valueCol0+len(cols))
	defer func() {
		for _, c := range out {
			c.Release()
		}
	}()
	seqBuf := b.arena.Allocate(8 * n)
	seqs := arrow.Int64Traits.CastFromBytes(seqBuf)
	for i := range seqs {
		seqs[i] = firstSeq + int64(i)
	}
	out = append(out, array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(seqBuf)}, nil, 0, 0)))
	kindBuf := b.arena.Allocate(n)
	copy(kindBuf, unsafe.Slice((*byte)(unsafe.Pointer(&kinds[0])), n))
	out = append(out, array.NewInt8Data(array.NewData(arrow.PrimitiveTypes.Int8, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(kindBuf)}, nil, 0, 0)))
	for i, c := range cols {
		if c.Len() != n {
			return fmt.Errorf("%w: column %d has %d rows, want %d", ErrInvalid, i, c.Len(), n)
		}
		cp, err := array.Concatenate([]arrow.Array{c}, b.arena)
		if err != nil {
			return fmt.Errorf("mergetree: copy column %d into the write buffer: %w", i, err)
		}
		out = append(out, cp)
	}
	b.batches = append(b.batches, array.NewRecordBatch(b.schema, out, int64(n)))
	b.rows += n
	return nil
}

// Clear drops every row and makes the buffer's memory reusable.
func (b *SortBuffer) Clear() {
	for _, r := range b.batches {
		r.Release()
	}
	clear(b.batches)
	b.batches = b.batches[:0]
	b.rows = 0
	b.arena.Reset()
}

// Release clears the buffer and gives its memory back to the pool.
func (b *SortBuffer) Release() { b.Clear() }

// bufferFile names the buffer in errors of the merge function.
var bufferFile = &manifest.DataFileMeta{FileName: "(write buffer)"}

// Flush sorts and merges the rows and hands them over in batches of
// ReadFields(Schema) layout: merged gets the result of merging each key's
// versions in merge order (retractions included, keys without result
// left out), raw (if not nil) every row in merge order. Batches are lent:
// they are released after the call. The rows stay in the buffer until
// Clear.
func (b *SortBuffer) Flush(ctx context.Context, merged, raw func(arrow.RecordBatch) error) error {
	if b.rows == 0 {
		return nil
	}
	var cbErr error
	call := func(fn func(arrow.RecordBatch) error) func(arrow.RecordBatch, error) bool {
		return func(rec arrow.RecordBatch, err error) bool {
			if err == nil {
				err = fn(rec)
				rec.Release()
			}
			cbErr = err
			return err == nil
		}
	}
	r, err := newReader(noOpen, &b.opts, call(merged))
	if err != nil {
		return err
	}
	defer r.out.release()
	var rawOut *output
	if raw != nil {
		if rawOut, err = newOutput(b.opts.Schema, &b.opts, call(raw)); err != nil {
			return err
		}
		defer rawOut.release()
	}
	cursors, err := b.cursors(r)
	if err != nil {
		return err
	}
	var rawCursors []*runCursor
	if raw != nil {
		if rawCursors, err = b.cursors(r); err != nil {
			return err
		}
	}
	sorted := b.sortIndex(r, cursors)
	stopped := func(err error) error {
		if err == errStopped && cbErr != nil {
			return cbErr
		}
		return err
	}
	var group []sortEntry
	e, ok := sorted.next()
	for n := 0; ok; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		group = append(group[:0], e)
		for e, ok = sorted.next(); ok && b.sameKey(r, cursors, group[0], e); e, ok = sorted.next() {
			group = append(group, e)
		}
		if rawOut != nil {
			for _, g := range group {
				c := rawCursors[g.batch]
				if err := rawOut.copyRow(c, int(g.row), c.kindAt(int(g.row))); err != nil {
					return stopped(err)
				}
			}
		}
		if len(group) == 1 {
			if err := r.emitLone(cursors[group[0].batch], int(group[0].row)); err != nil {
				return stopped(err)
			}
		} else {
			r.versions = r.versions[:0]
			for _, g := range group {
				r.versions = append(r.versions, version{cursors[g.batch], int(g.row)})
			}
			if err := r.mergeGroup(r.versions); err != nil {
				return stopped(err)
			}
		}
	}
	if rawOut != nil {
		if err := rawOut.flush(); err != nil {
			return stopped(err)
		}
	}
	return stopped(r.out.flush())
}

// cursors makes a cursor over each batch of the buffer. The cursors do not
// own their batches.
func (b *SortBuffer) cursors(r *reader) ([]*runCursor, error) {
	out := make([]*runCursor, len(b.batches))
	for i, rec := range b.batches {
		c := &runCursor{r: r, idx: i, keys: make([]colView, len(r.keyIdx)), seqs: make([]colView, len(r.seqIdx))}
		if err := c.set(rec, bufferFile); err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// sortIndex returns the rows in merge order: key, user-defined sequence
// fields, sequence number (Java's SortBufferWriteBuffer sort fields). The
// index lives in the buffer's arena. A large index is sorted in chunks on
// several goroutines (sortedChunks) and merged as it is read, so the sort
// takes no memory beyond the index that Size already counts.
func (b *SortBuffer) sortIndex(r *reader, cursors []*runCursor) *sortedChunks {
	buf := b.arena.Allocate(b.rows * sortIndexBytes)
	entries := unsafe.Slice((*sortEntry)(unsafe.Pointer(&buf[0])), b.rows)
	k := 0
	for bi, c := range cursors {
		for row := 0; row < c.n; row++ {
			entries[k] = sortEntry{prefix: prefixOf(r, c, row), batch: uint32(bi), row: uint32(row)}
			k++
		}
	}
	cmp := func(x, y sortEntry) int {
		if x.prefix != y.prefix {
			if x.prefix < y.prefix {
				return -1
			}
			return 1
		}
		a, b := cursors[x.batch], cursors[y.batch]
		i, j := int(x.row), int(y.row)
		for k := range r.keyCmps {
			if c := r.keyCmps[k].compare(&a.keys[k], i, &b.keys[k], j); c != 0 {
				return c
			}
		}
		for k := range r.seqCmps {
			if c := r.seqCmps[k].compare(&a.seqs[k], i, &b.seqs[k], j); c != 0 {
				return c
			}
		}
		return cmpNum(a.seq[i], b.seq[j])
	}
	chunks := 1
	if b.rows >= parallelSortRows {
		chunks = min(runtime.GOMAXPROCS(0), maxSortChunks)
	}
	return sortChunks(entries, cmp, chunks)
}

// parallelSortRows is the buffer size from which the sort index is sorted
// on several goroutines: below it a goroutine costs more than it saves. At
// full scale the sort was an eighth of a primary-key write's CPU, all of
// it on the writing goroutine.
const parallelSortRows = 1 << 16

// maxSortChunks bounds the chunks of a parallel sort: reading them merged
// compares each entry with the head of every other chunk.
const maxSortChunks = 4

// sortedChunks yields the entries of chunks, each sorted by cmp, merged in
// cmp's order. cmp is a total order on the sort index (the sequence number
// breaks every tie), so the sequence is the one a single sort gives.
type sortedChunks struct {
	chunks [][]sortEntry
	cmp    func(x, y sortEntry) int
}

// sortChunks cuts entries into n chunks and sorts them at once, one
// goroutine each.
func sortChunks(entries []sortEntry, cmp func(x, y sortEntry) int, n int) *sortedChunks {
	n = max(1, min(n, len(entries)))
	s := &sortedChunks{chunks: make([][]sortEntry, n), cmp: cmp}
	for i := range n {
		s.chunks[i] = entries[len(entries)*i/n : len(entries)*(i+1)/n]
	}
	if n == 1 {
		slices.SortFunc(s.chunks[0], cmp)
		return s
	}
	var wg sync.WaitGroup
	for _, c := range s.chunks {
		wg.Go(func() { slices.SortFunc(c, cmp) })
	}
	wg.Wait()
	return s
}

// next returns the smallest entry not yet returned; false when none is left.
func (s *sortedChunks) next() (sortEntry, bool) {
	best := -1
	for i, c := range s.chunks {
		if len(c) > 0 && (best < 0 || s.cmp(c[0], s.chunks[best][0]) < 0) {
			best = i
		}
	}
	if best < 0 {
		return sortEntry{}, false
	}
	e := s.chunks[best][0]
	s.chunks[best] = s.chunks[best][1:]
	return e, true
}

// sameKey reports whether two index entries have equal keys.
func (b *SortBuffer) sameKey(r *reader, cursors []*runCursor, x, y sortEntry) bool {
	if x.prefix != y.prefix {
		return false
	}
	a, c := cursors[x.batch], cursors[y.batch]
	for k := range r.keyCmps {
		if r.keyCmps[k].compare(&a.keys[k], int(x.row), &c.keys[k], int(y.row)) != 0 {
			return false
		}
	}
	return true
}

// prefixOf is a normalized key of a row's first key column: unsigned
// integers ordered as the column's values (Java's NormalizedKeyComputer), so
// that most comparisons of the sort look at one integer. Keys are never
// NULL. Types without a prefix get 0, leaving the order to the full
// comparison.
func prefixOf(r *reader, c *runCursor, row int) uint64 {
	v := &c.keys[0]
	if v.hasNulls && v.arr.IsNull(row) {
		return 0
	}
	const flip = 1 << 63
	switch r.keyCmps[0].kind {
	case viewInt8:
		return uint64(int64(v.i8[row])) ^ flip
	case viewInt16:
		return uint64(int64(v.i16[row])) ^ flip
	case viewInt32:
		return uint64(int64(v.i32[row])) ^ flip
	case viewInt64:
		return uint64(v.i64[row]) ^ flip
	case viewDate:
		return uint64(int64(v.date[row])) ^ flip
	case viewTime:
		return uint64(int64(v.time[row])) ^ flip
	case viewTimestamp:
		return uint64(int64(v.ts[row])) ^ flip
	case viewString:
		return bytesPrefix(v.str.Value(row))
	case viewBinary:
		return bytesPrefix(string(v.bin.Value(row)))
	}
	return 0
}

// bytesPrefix is the first 8 bytes, big-endian, zero-padded: it never
// orders two strings against their unsigned byte order.
func bytesPrefix(s string) uint64 {
	var b [8]byte
	copy(b[:], s)
	return binary.BigEndian.Uint64(b[:])
}

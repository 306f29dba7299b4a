package mergetree

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

// output builds the batches Read yields. Merged rows are appended to a
// record builder, which is flushed every batchSize rows; single-run
// sections hand over whole batches (pass), after the pending rows.
type output struct {
	mem       memory.Allocator
	schema    *arrow.Schema
	types     []schema.DataType // value field types
	batchSize int
	keep      bool
	kv        bool // Options.KeyValues: ReadFields layout out
	yield     func(arrow.RecordBatch, error) bool

	b       *array.RecordBuilder
	kinds   *array.StringBuilder // rowkind column, when keep
	seqB    *array.Int64Builder  // _SEQUENCE_NUMBER, when kv
	kindB   *array.Int8Builder   // _VALUE_KIND, when kv
	fields  []array.Builder      // value columns
	copiers []copier
	gathers []gatherer
	n       int
	// Rows copied unchanged from their batch wait in pend, referring to
	// the batches retained in pendSrc, until materialize gathers them
	// column by column. A run cursor remembers where its batch sits in
	// pendSrc for the current epoch, which every materialize ends.
	pend    []rowRef
	pendSrc []arrow.RecordBatch
	epoch   uint64
	// dataHint is the data size of each variable-length column in the
	// previous batch.
	dataHint []int
}

func newOutput(ts *schema.TableSchema, opts *Options, yield func(arrow.RecordBatch, error) bool) (*output, error) {
	fields := OutputFields(ts, opts.KeepDeletes)
	if opts.KeyValues {
		fields = ReadFields(ts)
	}
	sc, err := schema.ToArrowSchema(fields)
	if err != nil {
		return nil, fmt.Errorf("%w: schema %d: %w", ErrInvalid, ts.ID, err)
	}
	o := &output{
		mem:       opts.Allocator,
		schema:    sc,
		batchSize: opts.BatchSize,
		keep:      opts.KeepDeletes || opts.KeyValues,
		kv:        opts.KeyValues,
		yield:     yield,
		epoch:     1,
	}
	if o.mem == nil {
		o.mem = memory.DefaultAllocator
	}
	if o.batchSize <= 0 {
		o.batchSize = DefaultBatchSize
	}
	off := 0
	if o.keep {
		off = 1
	}
	if o.kv {
		off = valueCol0
	}
	for i, f := range ts.Fields {
		o.types = append(o.types, f.Type)
		c, err := newCopier(sc.Field(off + i).Type)
		if err != nil {
			return nil, err
		}
		o.copiers = append(o.copiers, c)
		o.gathers = append(o.gathers, newGatherer(sc.Field(off+i).Type, c))
	}
	return o, nil
}

// builder creates the record builder on first use.
func (o *output) builder() {
	if o.b != nil {
		return
	}
	o.b = array.NewRecordBuilder(o.mem, o.schema)
	off := 0
	switch {
	case o.kv:
		o.seqB = o.b.Field(seqCol).(*array.Int64Builder)
		o.kindB = o.b.Field(kindCol).(*array.Int8Builder)
		off = valueCol0
	case o.keep:
		o.kinds = o.b.Field(0).(*array.StringBuilder)
		off = 1
	}
	o.fields = o.b.Fields()[off:]
	o.dataHint = make([]int, len(o.fields))
	o.reserve()
}

// reserve sizes the builders for a full batch, the variable-length data
// like the previous batch's, so that building a batch allocates each
// buffer once instead of growing it a dozen times.
func (o *output) reserve() {
	o.b.Reserve(o.batchSize)
	for k, f := range o.fields {
		n := o.dataHint[k] + o.dataHint[k]/8
		if n == 0 {
			continue
		}
		switch bb := f.(type) {
		case *array.BinaryBuilder:
			bb.ReserveData(n)
		case *array.StringBuilder:
			bb.ReserveData(n)
		}
	}
}

// copyRow appends a row of c's current batch with the given kind. The row
// is only noted (its batch retained) and copied by the next materialize.
func (o *output) copyRow(c *runCursor, row int, kind data.RowKind) error {
	if c.outEpoch != o.epoch {
		c.rec.Retain()
		o.pendSrc = append(o.pendSrc, c.rec)
		c.outSrc, c.outEpoch = int32(len(o.pendSrc)-1), o.epoch
	}
	o.pend = append(o.pend, rowRef{src: c.outSrc, row: int32(row), kind: int8(kind)})
	return o.rowDone()
}

// materialize copies the pending rows into the builders, column by column,
// and lets go of their batches.
func (o *output) materialize() {
	if len(o.pend) == 0 {
		return
	}
	o.builder()
	switch {
	case o.kv:
		seqs := make([][]int64, len(o.pendSrc))
		for i, src := range o.pendSrc {
			seqs[i] = src.Column(seqCol).(*array.Int64).Int64Values()
		}
		for _, p := range o.pend {
			o.seqB.Append(seqs[p.src][p.row])
			o.kindB.Append(p.kind)
		}
	case o.keep:
		for _, p := range o.pend {
			o.kinds.Append(data.RowKind(p.kind).String())
		}
	}
	for k, g := range o.gathers {
		g(o.fields[k], o.pendSrc, valueCol0+k, o.pend)
	}
	o.pend = o.pend[:0]
	o.releasePending()
}

func (o *output) releasePending() {
	for _, s := range o.pendSrc {
		s.Release()
	}
	clear(o.pendSrc)
	o.pendSrc = o.pendSrc[:0]
	o.epoch++
}

// appendRow appends a row the merge function computed.
func (o *output) appendRow(row *mergefunc.Row) error {
	if len(row.Values) != len(o.types) {
		return fmt.Errorf("%w: merge result has %d values for %d fields", ErrInvalid, len(row.Values), len(o.types))
	}
	o.materialize()
	o.builder()
	switch {
	case o.kv:
		o.seqB.Append(row.Seq)
		o.kindB.Append(int8(row.Kind))
	case o.keep:
		o.kinds.Append(row.Kind.String())
	}
	for k, t := range o.types {
		if err := arrowrow.AppendValue(o.fields[k], t, row.Values[k]); err != nil {
			// The builder's columns no longer line up; drop them.
			o.b.Release()
			o.b, o.n = nil, 0
			return fmt.Errorf("mergetree: merge result, field %d: %w", k, err)
		}
	}
	return o.rowDone()
}

func (o *output) rowDone() error {
	o.n++
	if o.n >= o.batchSize {
		return o.flush()
	}
	return nil
}

// flush yields the rows built so far.
func (o *output) flush() error {
	if o.n == 0 {
		return nil
	}
	o.materialize()
	rec := o.b.NewRecordBatch()
	o.n = 0
	off := int(rec.NumCols()) - len(o.fields)
	for k := range o.fields {
		if a, ok := rec.Column(off + k).(array.BinaryLike); ok {
			o.dataHint[k] = len(a.ValueBytes())
		}
	}
	o.reserve()
	return o.emit(rec)
}

// emit yields rec, which the consumer then owns.
func (o *output) emit(rec arrow.RecordBatch) error {
	if !o.yield(rec, nil) {
		return errStopped
	}
	return nil
}

// pass outputs a batch of a single-run section: its value columns as they
// are (shared, not copied), without retractions unless keep, with the
// rowkind column when keep, in slices of at most batchSize rows. The caller
// keeps ownership of rec.
func (o *output) pass(rec arrow.RecordBatch) error {
	if err := o.flush(); err != nil {
		return err
	}
	if o.kv {
		return o.passKeyValues(rec)
	}
	kinds := rec.Column(kindCol).(*array.Int8).Int8Values()
	cols := make([]arrow.Array, 0, o.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	if o.keep {
		kb := array.NewStringBuilder(o.mem)
		kb.Reserve(len(kinds))
		for _, k := range kinds {
			kb.Append(data.RowKind(k).String())
		}
		cols = append(cols, kb.NewArray())
		kb.Release()
	}
	for i := valueCol0; i < int(rec.NumCols()); i++ {
		c := rec.Column(i)
		c.Retain()
		cols = append(cols, c)
	}
	out := array.NewRecordBatch(o.schema, cols, int64(len(kinds)))
	if !o.keep && anyRetract(kinds) {
		filtered, err := dropRetractions(out, kinds, o.mem)
		out.Release()
		if err != nil {
			return err
		}
		out = filtered
	}
	defer out.Release()
	return o.emitSlices(out)
}

// passKeyValues outputs a batch of a single-run section in the key-value
// layout: the batch itself, relabelled.
func (o *output) passKeyValues(rec arrow.RecordBatch) error {
	out := array.NewRecordBatch(o.schema, rec.Columns(), rec.NumRows())
	defer out.Release()
	return o.emitSlices(out)
}

// emitSlices yields out in slices of at most batchSize rows (out itself
// when it fits); the caller keeps its reference.
func (o *output) emitSlices(out arrow.RecordBatch) error {
	n := int(out.NumRows())
	for lo := 0; lo < n; lo += o.batchSize {
		hi := min(lo+o.batchSize, n)
		var part arrow.RecordBatch
		if lo == 0 && hi == n {
			out.Retain()
			part = out
		} else {
			part = out.NewSlice(int64(lo), int64(hi))
		}
		if err := o.emit(part); err != nil {
			return err
		}
	}
	return nil
}

func anyRetract(kinds []int8) bool {
	for _, k := range kinds {
		if data.RowKind(k).IsRetract() {
			return true
		}
	}
	return false
}

// dropRetractions keeps the rows of rec whose kind adds (+I, +U), with
// Arrow's filter kernel.
func dropRetractions(rec arrow.RecordBatch, kinds []int8, mem memory.Allocator) (arrow.RecordBatch, error) {
	mb := array.NewBooleanBuilder(mem)
	defer mb.Release()
	mb.Reserve(len(kinds))
	for _, k := range kinds {
		mb.UnsafeAppend(!data.RowKind(k).IsRetract())
	}
	mask := mb.NewArray()
	defer mask.Release()
	ctx := compute.WithAllocator(context.Background(), mem)
	return compute.FilterRecordBatch(ctx, rec, mask, compute.DefaultFilterOptions())
}

// release frees the builder of a Read that ended early.
func (o *output) release() {
	o.pend = o.pend[:0]
	o.releasePending()
	if o.b != nil {
		o.b.Release()
		o.b = nil
	}
}

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
//
// With async set (Read with ReadAhead above zero), a full batch is built
// on a goroutine of its own while the merge goes on: the rows waiting in
// pend, their batches and the builder go to that goroutine, which gathers
// them column by column and finishes the batch, and the merge continues
// into a second builder. At most one batch is being built at a time, and
// it is yielded before anything after it (sync), so the batches, their
// order and their boundaries are those of a synchronous build. Gathering
// the output was a fifth of a deduplicating read's CPU, all of it on the
// merge's goroutine, which bounded how fast one bucket could be read.
type output struct {
	mem       memory.Allocator
	schema    *arrow.Schema
	types     []schema.DataType // value field types
	batchSize int
	keep      bool
	kv        bool // Options.KeyValues: ReadFields layout out
	yield     func(arrow.RecordBatch, error) bool
	copiers   []copier
	async     bool

	cur   *builderSet // the batch being filled
	spare *builderSet // the other builder in async mode, once made
	n     int
	// Rows copied unchanged from their batch wait in pend, referring to
	// the batches retained in pendSrc, until materialize gathers them
	// column by column. A run cursor remembers where its batch sits in
	// pendSrc for the current epoch, which every materialize (and every
	// hand-over to the building goroutine) ends.
	pend    []rowRef
	pendSrc []arrow.RecordBatch
	epoch   uint64
	// sparePend and spareSrc are the other pair of pend and pendSrc slices
	// in async mode, back from the last batch built on its own goroutine.
	sparePend []rowRef
	spareSrc  []arrow.RecordBatch
	// building is the batch being built on its own goroutine, if any.
	building *buildJob
}

// builderSet is one output batch's builders and the gatherers that fill
// them (a gatherer keeps scratch slices, so each set has its own).
type builderSet struct {
	b       *array.RecordBuilder
	kinds   *array.StringBuilder // rowkind column, when keep
	seqB    *array.Int64Builder  // _SEQUENCE_NUMBER, when kv
	kindB   *array.Int8Builder   // _VALUE_KIND, when kv
	fields  []array.Builder      // value columns
	gathers []gatherer
	// dataHint is the data size of each variable-length column in the
	// previous batch built with this set.
	dataHint []int
}

// buildJob is a batch being finished on its own goroutine: done receives
// the batch once, after which set may be filled again.
type buildJob struct {
	set  *builderSet
	pend []rowRef
	src  []arrow.RecordBatch
	done chan arrow.RecordBatch
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
	}
	return o, nil
}

// builder makes the current builder set on first use.
func (o *output) builder() *builderSet {
	if o.cur == nil {
		o.cur = o.newBuilderSet()
	}
	return o.cur
}

func (o *output) newBuilderSet() *builderSet {
	bs := &builderSet{b: array.NewRecordBuilder(o.mem, o.schema)}
	off := 0
	switch {
	case o.kv:
		bs.seqB = bs.b.Field(seqCol).(*array.Int64Builder)
		bs.kindB = bs.b.Field(kindCol).(*array.Int8Builder)
		off = valueCol0
	case o.keep:
		bs.kinds = bs.b.Field(0).(*array.StringBuilder)
		off = 1
	}
	bs.fields = bs.b.Fields()[off:]
	for i, c := range o.copiers {
		bs.gathers = append(bs.gathers, newGatherer(o.schema.Field(off+i).Type, c))
	}
	bs.dataHint = make([]int, len(bs.fields))
	bs.reserve(o.batchSize)
	return bs
}

// reserve sizes the builders for a full batch, the variable-length data
// like the previous batch's, so that building a batch allocates each
// buffer once instead of growing it a dozen times.
func (bs *builderSet) reserve(batchSize int) {
	bs.b.Reserve(batchSize)
	for k, f := range bs.fields {
		n := bs.dataHint[k] + bs.dataHint[k]/8
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

// finish returns the batch built so far and readies the builders for the
// next one.
func (bs *builderSet) finish(batchSize int) arrow.RecordBatch {
	rec := bs.b.NewRecordBatch()
	off := int(rec.NumCols()) - len(bs.fields)
	for k := range bs.fields {
		if a, ok := rec.Column(off + k).(array.BinaryLike); ok {
			bs.dataHint[k] = len(a.ValueBytes())
		}
	}
	bs.reserve(batchSize)
	return rec
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

// materialize copies the pending rows into the current builders, column by
// column, and lets go of their batches.
func (o *output) materialize() {
	if len(o.pend) == 0 {
		return
	}
	o.materializeInto(o.builder(), o.pend, o.pendSrc)
	o.pend = o.pend[:0]
	o.releasePending()
}

// materializeInto gathers the rows pend refers to, in srcs, into bs.
func (o *output) materializeInto(bs *builderSet, pend []rowRef, srcs []arrow.RecordBatch) {
	switch {
	case o.kv:
		seqs := make([][]int64, len(srcs))
		for i, src := range srcs {
			seqs[i] = src.Column(seqCol).(*array.Int64).Int64Values()
		}
		for _, p := range pend {
			bs.seqB.Append(seqs[p.src][p.row])
			bs.kindB.Append(p.kind)
		}
	case o.keep:
		for _, p := range pend {
			bs.kinds.Append(data.RowKind(p.kind).String())
		}
	}
	for k, g := range bs.gathers {
		g(bs.fields[k], srcs, valueCol0+k, pend)
	}
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
	bs := o.builder()
	switch {
	case o.kv:
		bs.seqB.Append(row.Seq)
		bs.kindB.Append(int8(row.Kind))
	case o.keep:
		bs.kinds.Append(row.Kind.String())
	}
	for k, t := range o.types {
		if err := arrowrow.AppendValue(bs.fields[k], t, row.Values[k]); err != nil {
			// The builder's columns no longer line up; drop them.
			bs.b.Release()
			o.cur, o.n = nil, 0
			return fmt.Errorf("mergetree: merge result, field %d: %w", k, err)
		}
	}
	return o.rowDone()
}

func (o *output) rowDone() error {
	o.n++
	if o.n < o.batchSize {
		return nil
	}
	if o.async && len(o.pend) > 0 {
		return o.handOver()
	}
	return o.flush()
}

// flush yields the rows built so far, after the batch being built on its
// own goroutine, if any.
func (o *output) flush() error {
	if err := o.sync(); err != nil {
		return err
	}
	if o.n == 0 {
		return nil
	}
	o.materialize()
	rec := o.cur.finish(o.batchSize)
	o.n = 0
	return o.emit(rec)
}

// handOver starts building the current batch on a goroutine of its own,
// once the previous one has been yielded, and continues into the other
// builder set. The pending rows' batches go with it (it releases them).
func (o *output) handOver() error {
	if err := o.sync(); err != nil {
		return err
	}
	job := &buildJob{set: o.builder(), pend: o.pend, src: o.pendSrc, done: make(chan arrow.RecordBatch, 1)}
	o.pend, o.pendSrc = o.sparePend[:0], o.spareSrc[:0]
	o.sparePend, o.spareSrc = nil, nil
	o.epoch++ // the cursors' batches are no longer in pendSrc
	o.cur, o.spare = o.spare, job.set
	o.n = 0
	o.building = job
	go func() {
		o.materializeInto(job.set, job.pend, job.src)
		for _, s := range job.src {
			s.Release()
		}
		job.done <- job.set.finish(o.batchSize)
	}()
	return nil
}

// wait returns the batch being built on its own goroutine once built, or
// nil when none is.
func (o *output) wait() arrow.RecordBatch {
	job := o.building
	if job == nil {
		return nil
	}
	o.building = nil
	rec := <-job.done
	clear(job.src)
	o.sparePend, o.spareSrc = job.pend[:0], job.src[:0]
	return rec
}

// sync yields the batch being built on its own goroutine, once built.
func (o *output) sync() error {
	if rec := o.wait(); rec != nil {
		return o.emit(rec)
	}
	return nil
}

// emit yields rec, which the consumer then owns. Callers sync first (pass
// does, through flush), so that nothing overtakes the batch being built.
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

// release frees the builders of a Read that ended, and the batch being
// built on its own goroutine if the Read ended early.
func (o *output) release() {
	if rec := o.wait(); rec != nil {
		rec.Release()
	}
	o.pend = o.pend[:0]
	o.releasePending()
	for _, bs := range []*builderSet{o.cur, o.spare} {
		if bs != nil {
			bs.b.Release()
		}
	}
	o.cur, o.spare = nil, nil
}

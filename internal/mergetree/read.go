package mergetree

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

// DefaultBatchSize is the number of rows per output batch when
// Options.BatchSize is zero, the file readers' default.
const DefaultBatchSize = 4096

// OpenFunc reads one data file of the bucket being merged. It yields the
// file's rows in file order as batches whose columns are exactly
// ReadFields(Options.Schema), each of the Arrow type schema.ToArrowField
// gives it: the caller picks the file format, maps the file's schema onto
// the current one (internal/evolution) and removes rows a deletion vector
// marks. Read owns every batch it receives and releases it; it may stop
// reading a file early. Errors are passed through unchanged, so they should
// name the file.
type OpenFunc func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error]

// Options configures Read. Schema and Merge are required; every other
// field has a usable zero value.
type Options struct {
	// Schema is the table's current schema: it gives the primary key, the
	// value fields and the output columns.
	Schema *schema.TableSchema
	// Merge creates the merge function (one per Read). A Function that also
	// implements Selector is driven without values.
	Merge mergefunc.Factory
	// SequenceFields are the indexes, among Schema.Fields, of the
	// sequence.field columns, in option order (mergefunc.SequenceFields);
	// versions of a key are ordered by them before _SEQUENCE_NUMBER (Java
	// UserDefinedSeqComparator). Types KeyComparator refuses are refused.
	SequenceFields []int
	// SequenceDescending orders the sequence fields descending
	// (sequence.field.sort-order = descending, mergefunc.SequenceDescending);
	// NULL still comes first, as in Java.
	SequenceDescending bool
	// KeepDeletes keeps results of kind -U and -D and adds the leading
	// rowkind column (the audit log); false drops them, as batch reads do
	// (Java DropDeleteReader).
	KeepDeletes bool
	// KeyValues yields batches of ReadFields(Schema), the layout of the
	// files: each result row with its _SEQUENCE_NUMBER and _VALUE_KIND,
	// retractions included. It is what a writer of data files merges into
	// (Java MergeTreeWriter's flush and compaction rewrites). KeepDeletes is
	// then ignored.
	KeyValues bool
	// BatchSize caps the rows of each output batch; 0 means
	// DefaultBatchSize.
	BatchSize int
	// Allocator allocates the output batches; nil means
	// memory.DefaultAllocator.
	Allocator memory.Allocator
	// LookupHighLevel merges a key's versions as Java's LookupMergeFunction
	// does on tables that need lookup (CoreOptions.needLookup: changelog-
	// producer = lookup, deletion vectors or force-lookup; not first-row,
	// which Java leaves unwrapped): every level-0 version, and of the
	// versions above level 0 only the one at the lowest level. A lookup
	// compaction writes a key's merged value, folded with what it looked up
	// in the levels above, to a lower level without rewriting those levels,
	// so merging every level again would count the older versions twice
	// (an aggregation's sums, for one). A key with one version passes
	// unchanged as before (Java ReducerMergeFunctionWrapper).
	LookupHighLevel bool
	// MergeLone runs the merge engine over every key, also a key with one
	// version, which otherwise passes unchanged: for a Merge made by
	// package mergefunc, the engine without its single-version shortcut
	// (mergefunc.NewEngine; first-row has none to remove). Java's lookup
	// compaction merges every key of a step with level-0 files through
	// LookupChangelogMergeFunctionWrapper, which has no shortcut for a lone
	// version, and the partial-update and aggregation engines change one:
	// an aggregation turns a lone retraction into an insert of its
	// retracted values (FieldSumAgg.retract of nothing is the negated
	// input), and both return +I for a lone +U.
	MergeLone bool
	// ReadAhead, when positive, reads each sorted run of a merged section
	// on a goroutine of its own, up to ReadAhead batches ahead of the merge,
	// so that decoding overlaps merging; the OpenFunc is then called from
	// several goroutines at once, and each full output batch is gathered on
	// a goroutine of its own while the merge goes on (the Allocator must
	// then be safe for concurrent use, as Arrow's are). Zero reads every run
	// on the goroutine consuming Read, one batch at a time.
	ReadAhead int
}

// Read merges the data files of one bucket (one partition, one bucket:
// every live file, all levels) into the table's rows, in key order.
//
// It yields batches of OutputFields(Schema, KeepDeletes), each with at most
// BatchSize rows; the consumer owns every batch and must Release it.
// Breaking out of the loop stops the file readers and releases everything
// Read holds. Errors: ErrInvalid for unusable Options, ErrCorrupt for bad
// keys or batches, ErrUnsupported for incomparable key types; errors of the
// OpenFunc and of the merge function are passed through (the latter with
// the file of the key). After an error nothing more is yielded.
func Read(ctx context.Context, files []manifest.DataFileMeta, open OpenFunc, opts *Options) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		r, err := newReader(open, opts, yield)
		if err != nil {
			yield(nil, err)
			return
		}
		defer r.out.release()
		// Output batches are finished on a goroutine of their own when
		// the runs may decode on theirs (output.go).
		r.out.async = opts.ReadAhead > 0
		if err := r.run(ctx, files); err != nil && !errors.Is(err, errStopped) {
			yield(nil, err)
		}
	}
}

// errStopped reports that the consumer stopped iterating.
var errStopped = errors.New("mergetree: consumer stopped")

// reader is the state of one Read.
type reader struct {
	open      OpenFunc
	keep      bool
	readAhead int  // Options.ReadAhead
	lookup    bool // Options.LookupHighLevel
	mergeLone bool // Options.MergeLone

	keyIdx   []int // trimmed primary-key positions among the value fields
	keyTypes []schema.DataType
	keyCmp   *KeyComparator
	keyCmps  []colCmp
	fastKey  func(a, b *runCursor) int // compareKeys of a one-column key, or nil
	seqIdx   []int
	seqCmps  []colCmp

	valueTypes []schema.DataType
	inTypes    []arrow.DataType // Arrow types of ReadFields

	fn       mergefunc.Function
	sel      Selector // fn as a Selector, or nil
	rows     []mergefunc.Row
	rowVals  [][]any
	heap     mergeHeap
	group    []*runCursor
	versions []version

	out *output
}

func newReader(open OpenFunc, opts *Options, yield func(arrow.RecordBatch, error) bool) (*reader, error) {
	if opts == nil || opts.Schema == nil {
		return nil, fmt.Errorf("%w: no table schema", ErrInvalid)
	}
	if opts.Merge == nil {
		return nil, fmt.Errorf("%w: no merge function", ErrInvalid)
	}
	if open == nil {
		return nil, fmt.Errorf("%w: no OpenFunc", ErrInvalid)
	}
	ts := opts.Schema
	keyIdx, keyTypes, err := keyIndexes(ts)
	if err != nil {
		return nil, err
	}
	keyCmp, err := NewKeyComparator(keyTypes)
	if err != nil {
		return nil, fmt.Errorf("primary key of schema %d: %w", ts.ID, err)
	}
	r := &reader{
		open:      open,
		keep:      opts.KeepDeletes || opts.KeyValues,
		readAhead: opts.ReadAhead,
		lookup:    opts.LookupHighLevel,
		mergeLone: opts.MergeLone,
		keyIdx:    keyIdx,
		keyTypes:  keyTypes,
		keyCmp:    keyCmp,
		seqIdx:    append([]int(nil), opts.SequenceFields...),
	}
	r.heap.r = r
	for _, t := range keyTypes {
		r.keyCmps = append(r.keyCmps, colCmp{kind: kindOf(t), typ: t})
	}
	r.fastKey = fastKeyCompare(r.keyCmps)
	for _, i := range r.seqIdx {
		if i < 0 || i >= len(ts.Fields) {
			return nil, fmt.Errorf("%w: sequence field index %d of %d fields", ErrInvalid, i, len(ts.Fields))
		}
		t := ts.Fields[i].Type
		if err := checkComparable(t, 0); err != nil {
			return nil, fmt.Errorf("sequence field %q: %w", ts.Fields[i].Name, err)
		}
		r.seqCmps = append(r.seqCmps, colCmp{kind: kindOf(t), typ: t, desc: opts.SequenceDescending})
	}
	for _, f := range ts.Fields {
		r.valueTypes = append(r.valueTypes, f.Type)
	}
	in, err := schema.ToArrowSchema(ReadFields(ts))
	if err != nil {
		return nil, fmt.Errorf("%w: schema %d: %w", ErrInvalid, ts.ID, err)
	}
	for _, f := range in.Fields() {
		r.inTypes = append(r.inTypes, f.Type)
	}
	r.fn = opts.Merge.New()
	if r.fn == nil {
		return nil, fmt.Errorf("%w: merge factory returned no function", ErrInvalid)
	}
	if opts.MergeLone {
		// The factory's functions pass a lone version through
		// (ReducerMergeFunctionWrapper); the engine itself does not.
		if e, ok := mergefunc.NewEngine(opts.Merge); ok {
			r.fn = e
		}
	}
	r.sel, _ = r.fn.(Selector)
	r.out, err = newOutput(ts, opts, yield)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// run merges every section in key order, then flushes the output.
func (r *reader) run(ctx context.Context, files []manifest.DataFileMeta) error {
	sections, err := Sections(files, r.keyCmp)
	if err != nil {
		return err
	}
	for _, sec := range sections {
		if len(sec) == 1 && !r.mergeLone {
			err = r.passSection(ctx, sec[0])
		} else {
			err = r.mergeSection(ctx, sec)
		}
		if err != nil {
			return err
		}
	}
	return r.out.flush()
}

// passSection copies a section of a single sorted run, where every key has
// one version: rows pass unchanged and only retractions are dropped (Java
// still runs such a section through SortMergeReader, whose wrapper returns
// lone versions as they are).
func (r *reader) passSection(ctx context.Context, run []manifest.DataFileMeta) error {
	c := r.openRun(ctx, 0, run)
	defer c.close()
	for {
		ok, err := c.load(ctx)
		if err != nil || !ok {
			return err
		}
		if err := r.out.pass(c.rec); err != nil {
			return err
		}
	}
}

// openSection opens a cursor on each sorted run of a section and fills the
// heap with those that have a row. The caller closes every cursor it
// returns (closeCursors), also when it returns an error.
func (r *reader) openSection(ctx context.Context, runs [][]manifest.DataFileMeta) ([]*runCursor, error) {
	cursors := make([]*runCursor, len(runs))
	for i, run := range runs {
		cursors[i] = r.openRun(ctx, i, run)
	}
	h := &r.heap
	h.items = h.items[:0]
	for _, c := range cursors {
		ok, err := c.load(ctx)
		if err != nil {
			return cursors, err
		}
		if ok {
			h.items = append(h.items, c)
		}
	}
	h.init()
	return cursors, nil
}

// closeCursors closes the cursors of a section.
func closeCursors(cursors []*runCursor) {
	for _, c := range cursors {
		c.close()
	}
}

// mergeSection merges the sorted runs of one section with the heap.
func (r *reader) mergeSection(ctx context.Context, runs [][]manifest.DataFileMeta) error {
	cursors, err := r.openSection(ctx, runs)
	defer closeCursors(cursors)
	if err != nil {
		return err
	}
	h := &r.heap
	for len(h.items) > 0 {
		top := h.items[0]
		if h.topIsUnique() {
			// The common case: the key has one version, which passes
			// unchanged (ReducerMergeFunctionWrapper) unless MergeLone,
			// and the root advances in place.
			var err error
			if r.mergeLone {
				r.versions = append(r.versions[:0], version{c: top, row: top.row})
				err = r.mergeGroup(r.versions)
			} else {
				err = r.emitLone(top, top.row)
			}
			if err != nil {
				return err
			}
			ok, err := top.advance(ctx)
			if err != nil {
				return err
			}
			if ok {
				h.fixTop()
			} else {
				h.pop()
			}
			continue
		}
		r.popGroup()
		if r.lookup {
			r.versions = lookupVersions(r.versions)
		}
		if err := r.mergeGroup(r.versions); err != nil {
			return err
		}
		if err := r.advanceGroup(ctx); err != nil {
			return err
		}
	}
	return nil
}

// popGroup takes the cursors at the heap's smallest key off the heap into
// r.group and their versions, in merge order, into r.versions.
func (r *reader) popGroup() {
	h := &r.heap
	group := r.group[:0]
	group = append(group, h.pop())
	for len(h.items) > 0 && r.compareKeys(h.items[0], group[0]) == 0 {
		group = append(group, h.pop())
	}
	r.group = group
	r.versions = r.versions[:0]
	for _, c := range group {
		r.versions = append(r.versions, version{c, c.row})
	}
}

// advanceGroup moves the cursors popGroup took past their key and puts
// those with rows left back on the heap.
func (r *reader) advanceGroup(ctx context.Context) error {
	for _, c := range r.group {
		ok, err := c.advance(ctx)
		if err != nil {
			return err
		}
		if ok {
			r.heap.push(c)
		}
	}
	return nil
}

// lookupVersions keeps, in place and in merge order, the versions Java's
// LookupMergeFunction merges: those of level 0 and the one of the lowest
// level above 0 (LookupMergeFunction.pickHighLevel; one level holds a key
// once, so there is no tie).
func lookupVersions(vs []version) []version {
	high := -1
	for i, v := range vs {
		if l := v.c.file.Level; l > 0 && (high < 0 || l < vs[high].c.file.Level) {
			high = i
		}
	}
	out := vs[:0]
	for i, v := range vs {
		if v.c.file.Level <= 0 || i == high {
			out = append(out, v)
		}
	}
	return out
}

// emitLone outputs a row of c's current batch, the only version of its
// key.
func (r *reader) emitLone(c *runCursor, row int) error {
	kind := c.kindAt(row)
	if !r.keep && kind.IsRetract() {
		return nil
	}
	return r.out.copyRow(c, row, kind)
}

// version is one version of a key: a row of a cursor's current batch.
type version struct {
	c   *runCursor
	row int
}

// mergeGroup runs the merge function over the versions of one key, given
// in merge order, and outputs its result.
func (r *reader) mergeGroup(group []version) error {
	if err := r.addVersions(group); err != nil {
		return err
	}
	fn := r.fn
	if r.sel != nil {
		i := r.sel.Selected()
		if i < 0 {
			return nil
		}
		if i >= len(group) {
			return fmt.Errorf("%w: merge function selected version %d of %d", ErrInvalid, i, len(group))
		}
		return r.emitLone(group[i].c, group[i].row)
	}
	res, err := fn.Result()
	if err != nil {
		return fmt.Errorf("mergetree: merging a key of data file %s: %w", group[0].c.file.FileName, err)
	}
	if res == nil || (!r.keep && res.Kind.IsRetract()) {
		return nil
	}
	return r.out.appendRow(res)
}

// addVersions resets the merge function and adds the versions of one key,
// in merge order (Java MergeFunction.reset and add); a Selector gets only
// their kinds and sequence numbers.
func (r *reader) addVersions(group []version) error {
	for len(r.rows) < len(group) {
		r.rows = append(r.rows, mergefunc.Row{})
		r.rowVals = append(r.rowVals, nil)
	}
	fn := r.fn
	fn.Reset()
	for i, v := range group {
		c := v.c
		row := &r.rows[i]
		*row = mergefunc.Row{Seq: c.seq[v.row], Kind: c.kindAt(v.row)}
		if r.sel == nil {
			vals, err := c.values(v.row, r.rowVals[i])
			if err != nil {
				return err
			}
			r.rowVals[i] = vals
			row.Values = vals
		}
		if err := fn.Add(row); err != nil {
			return fmt.Errorf("mergetree: merging a key of data file %s: %w", c.file.FileName, err)
		}
	}
	return nil
}

// less is the merge order of Java's SortMergeReaderWithMinHeap: key, then
// the user-defined sequence fields, then _SEQUENCE_NUMBER. Java leaves ties
// beyond that (which a correct table never has) unordered; the run index
// makes the order deterministic.
func (r *reader) less(a, b *runCursor) bool {
	if c := r.compareKeys(a, b); c != 0 {
		return c < 0
	}
	for k := range r.seqCmps {
		if c := r.seqCmps[k].compare(&a.seqs[k], a.row, &b.seqs[k], b.row); c != 0 {
			return c < 0
		}
	}
	if sa, sb := a.seq[a.row], b.seq[b.row]; sa != sb {
		return sa < sb
	}
	return a.idx < b.idx
}

// compareKeys compares the current keys of two cursors.
func (r *reader) compareKeys(a, b *runCursor) int {
	if a.intKey && b.intKey {
		return cmpNum(a.key, b.key)
	}
	if r.fastKey != nil {
		return r.fastKey(a, b)
	}
	for k := range r.keyCmps {
		if c := r.keyCmps[k].compare(&a.keys[k], a.row, &b.keys[k], b.row); c != 0 {
			return c
		}
	}
	return 0
}

// fastKeyCompare returns a comparison of the most common keys, one INT,
// BIGINT or STRING column, that skips the per-column loop and type switch
// of compareKeys (a third of the merge's time goes to comparisons). Nil
// means no fast path.
func fastKeyCompare(cmps []colCmp) func(a, b *runCursor) int {
	if len(cmps) != 1 {
		return nil
	}
	c := &cmps[0]
	switch c.kind {
	case viewInt64:
		return func(a, b *runCursor) int {
			x, y := &a.keys[0], &b.keys[0]
			if x.hasNulls || y.hasNulls {
				return c.compare(x, a.row, y, b.row)
			}
			return cmpNum(x.i64[a.row], y.i64[b.row])
		}
	case viewInt32:
		return func(a, b *runCursor) int {
			x, y := &a.keys[0], &b.keys[0]
			if x.hasNulls || y.hasNulls {
				return c.compare(x, a.row, y, b.row)
			}
			return cmpNum(x.i32[a.row], y.i32[b.row])
		}
	case viewString:
		return func(a, b *runCursor) int {
			x, y := &a.keys[0], &b.keys[0]
			if x.hasNulls || y.hasNulls {
				return c.compare(x, a.row, y, b.row)
			}
			return strings.Compare(x.str.Value(a.row), y.str.Value(b.row))
		}
	}
	return nil
}

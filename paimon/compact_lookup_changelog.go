package paimon

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/javacompat"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// The changelog of changelog-producer = lookup (Java
// LookupChangelogMergeFunctionWrapper.setChangelog, written by
// ChangelogMergeTreeRewriter.rewriteOrProduceChangelog): every compaction
// step that holds level-0 files emits, for each key of those files, the
// change from the key's newest version above level 0 (the "before": the
// one of the lowest level among the step's files above 0, else the first
// found in the levels above the output, LookupMergeFunction.pickHighLevel
// and LookupLevels.lookup, retractions included) to the merged result (the
// "after"):
//
//   - no before, or a retraction before: +I of the after if it adds;
//   - an added before and a retraction after: -D of the before;
//   - both added: -U of the before, +U of the after, unless
//     changelog-producer.row-deduplicate finds their values equal (Java's
//     value equaliser, mergefunc.ValueEqualiser, over the fields not in
//     changelog-producer.row-deduplicate-ignore-fields).
//
// The after is, per merge engine:
//
//   - deduplicate without sequence.field and ignore-delete: the newest
//     level-0 version, as level-0 versions are newer than every version
//     above level 0;
//   - otherwise (partial-update, aggregation, deduplicate with
//     sequence.field or ignore-delete): the engine run over the level-0
//     versions and the before in merge order (sequence.field, then
//     sequence number: LookupMergeFunction.insertInto with the wrapper's
//     UserDefinedSeqComparator), without the single-version shortcut
//     (LookupMergeFunction.getResult runs the engine it wraps even on one
//     version, mergefunc.NewEngine). With sequence.field the after may be
//     the before itself (then -U/+U of equal values, as Java emits them).
//
// first-row is not wrapped by LookupMergeFunction (Java
// FirstRowMergeFunctionWrapper, with LookupLevels reduced to a contains
// test, ContainsLevels in older releases): a key with a version above
// level 0 among the step's files (FirstRowMergeFunction.containsHighLevel,
// set by non-retractions only) has no changelog; else a key found in the
// levels above the output has neither changelog nor data row (its result
// is not written: the row above stays the first); else its first level-0
// version (in sequence order, retractions skipped under ignore-delete and
// refused without, as FirstRowMergeFunction.add) is emitted unchanged,
// kind included. first-row has no -U/+U. The data rows of the keys found
// above are dropped from the rewrite whether or not the changelog is
// produced: Java compacts every first-row table this way
// (CoreOptions.needLookup).
//
// Rows carry the before's or the after's sequence number and values, in
// key order, in changelog files at the output level (_FILE_SOURCE APPEND,
// KeyValueFileWriterFactory.createRollingChangelogFileWriter), one rolling
// file set per step as Java opens one writer per rewrite or upgrade.
//
// The data files still come from the merge (compact_lookup.go). Where
// Java's engine changes a key's only version and the merge here would
// pass it unchanged (ReducerMergeFunctionWrapper), the compaction is
// refused rather than written differently. Memory: every version of the
// step's level-0 files, and one row above level 0 per key.

// clRow is one captured version: all key-value columns in the value
// model, with its key and level.
type clRow struct {
	key   []any
	vals  []any // mergetree.ReadFields order: sequence, kind, fields
	level int32
}

func (c *clRow) seq() int64         { return c.vals[0].(int64) }
func (c *clRow) kind() data.RowKind { return data.RowKind(c.vals[1].(int8)) }

// clMode is how the after of a key is found.
type clMode int

const (
	clDeduplicate clMode = iota
	clEngine
	clFirstRow
)

// lookupChangelog gathers the versions of one step and derives its
// changelog.
type lookupChangelog struct {
	scan    *lookupScan
	types   []schema.DataType // mergetree.ReadFields types
	kc      *mergetree.KeyComparator
	arrowSc *arrow.Schema
	mode    clMode
	engine  mergefunc.Function             // clEngine
	order   func(a, b *clRow) (int, error) // merge order of a key's versions
	equal   func(a, b []any) (bool, error) // row-deduplicate, or nil
	ignDel  bool                           // first-row: ignore-delete
	level0  map[string][]*clRow            // the level-0 versions of each key
	before  map[string]*clRow              // lowest-level version above level 0
	high    map[string]bool                // first-row: a non-retraction above level 0 in the step
	above   map[string]bool                // first-row: found above the output level
	drop    map[string]bool                // first-row: keys whose data rows go
}

func newLookupChangelog(ts *schema.TableSchema, kc *mergetree.KeyComparator, merge mergefunc.Factory) (*lookupChangelog, error) {
	fields := mergetree.ReadFields(ts)
	sc, err := schema.ToArrowSchema(fields)
	if err != nil {
		return nil, fmt.Errorf("paimon: changelog schema: %w", err)
	}
	keyIdx, keyTypes := lookupKeyColumns(ts)
	c := &lookupChangelog{scan: &lookupScan{keyIdx: keyIdx, keyTypes: keyTypes}, kc: kc, arrowSc: sc}
	for _, f := range fields {
		c.types = append(c.types, f.Type)
	}
	o := tableOptions(ts.Options)
	order, err := mergefunc.VersionOrder(ts)
	if err != nil {
		return nil, fmt.Errorf("%w: compacting a primary-key table with %s=lookup: %w", ErrUnsupported, optChangelogProducer, err)
	}
	c.order = func(a, b *clRow) (int, error) {
		return order(&mergefunc.Row{Seq: a.seq(), Values: a.vals[2:]}, &mergefunc.Row{Seq: b.seq(), Values: b.vals[2:]})
	}
	switch e := o.mergeEngine(); {
	case e == "deduplicate" && o[coreoptions.SequenceField] == "" && !ignoreDeleteOption(o):
		c.mode = clDeduplicate
	case e == "first-row":
		c.mode = clFirstRow
		c.ignDel = ignoreDeleteOption(o)
	default:
		c.mode = clEngine
		var ok bool
		if c.engine, ok = mergefunc.NewEngine(merge); !ok {
			return nil, fmt.Errorf("%w: lookup changelog of merge engine %s", ErrUnsupported, o.mergeEngine())
		}
	}
	if o.boolean(coreoptions.ChangelogProducerRowDeduplicate, false) && c.mode != clFirstRow {
		if c.equal, err = rowDeduplicateEqualiser(ts, o); err != nil {
			return nil, fmt.Errorf("%w: compacting a primary-key table with %s=lookup: %w", ErrUnsupported, optChangelogProducer, err)
		}
	}
	return c, nil
}

// capture converts row i of rec.
func (c *lookupChangelog) capture(rec arrow.RecordBatch, i int, level int32) (*clRow, error) {
	r := &clRow{level: level, vals: make([]any, len(c.types))}
	for j, t := range c.types {
		v, err := parquet.ArrowValue(rec.Column(j), i, t)
		if err != nil {
			return nil, err
		}
		r.vals[j] = v
	}
	for _, j := range c.scan.keyIdx {
		r.key = append(r.key, r.vals[j])
	}
	if _, ok := r.vals[0].(int64); !ok {
		return nil, fmt.Errorf("%w: sequence number %T", ErrCorrupt, r.vals[0])
	}
	if _, ok := r.vals[1].(int8); !ok {
		return nil, fmt.Errorf("%w: row kind %T", ErrCorrupt, r.vals[1])
	}
	return r, nil
}

// collect reads the step's files: the level-0 ones give every version of
// their keys, the others (and the files above the output level, read with
// their vectors applied) the befores of the same keys.
func (c *lookupChangelog) collect(ctx context.Context, files, higher []manifest.DataFileMeta, open, openHigher mergetree.OpenFunc) error {
	c.level0, c.before = map[string][]*clRow{}, map[string]*clRow{}
	c.high, c.above, c.drop = map[string]bool{}, map[string]bool{}, map[string]bool{}
	each := func(f *manifest.DataFileMeta, src iter.Seq2[arrow.RecordBatch, error], fn func(k string, rec arrow.RecordBatch, i int) error) error {
		for rec, err := range src {
			if err != nil {
				return err
			}
			for i := 0; i < int(rec.NumRows()); i++ {
				k, err := c.scan.keyOf(rec, i)
				if err == nil {
					err = fn(k, rec, i)
				}
				if err != nil {
					rec.Release()
					return fmt.Errorf("paimon: data file %s: %w", f.FileName, err)
				}
			}
			rec.Release()
		}
		return nil
	}
	for i := range files {
		f := &files[i]
		if f.Level != 0 {
			continue
		}
		err := each(f, open(ctx, f), func(k string, rec arrow.RecordBatch, i int) error {
			r, err := c.capture(rec, i, 0)
			c.level0[k] = append(c.level0[k], r)
			return err
		})
		if err != nil {
			return err
		}
	}
	high := func(f *manifest.DataFileMeta, src iter.Seq2[arrow.RecordBatch, error], above bool) error {
		return each(f, src, func(k string, rec arrow.RecordBatch, i int) error {
			if c.level0[k] == nil {
				return nil
			}
			if c.mode == clFirstRow {
				if above {
					c.above[k] = true
				} else if kinds, ok := rec.Column(1).(*array.Int8); !ok {
					return fmt.Errorf("%w: row kind column of type %s", ErrCorrupt, rec.Column(1).DataType())
				} else if !data.RowKind(kinds.Value(i)).IsRetract() {
					c.high[k] = true
				}
				return nil
			}
			if old := c.before[k]; old != nil && old.level <= f.Level {
				return nil
			}
			r, err := c.capture(rec, i, f.Level)
			c.before[k] = r
			return err
		})
	}
	for i := range files {
		if f := &files[i]; f.Level != 0 {
			if err := high(f, open(ctx, f), false); err != nil {
				return err
			}
		}
	}
	for i := range higher {
		if err := high(&higher[i], openHigher(ctx, &higher[i]), true); err != nil {
			return err
		}
	}
	var err error
	for _, vs := range c.level0 {
		slices.SortFunc(vs, func(a, b *clRow) int {
			r, e := c.order(a, b)
			err = cmp.Or(err, e)
			return r
		})
	}
	return err
}

// engineAfter runs the engine over the level-0 versions and the before,
// in sequence order (LookupMergeFunction.insertInto and getResult).
func (c *lookupChangelog) engineAfter(vs []*clRow, before *clRow) (*clRow, error) {
	all := vs
	if before != nil {
		all = append(slices.Clone(vs), before)
		var err error
		slices.SortStableFunc(all, func(a, b *clRow) int {
			r, e := c.order(a, b)
			err = cmp.Or(err, e)
			return r
		})
		if err != nil {
			return nil, err
		}
	}
	c.engine.Reset()
	for _, v := range all {
		if err := c.engine.Add(&mergefunc.Row{Seq: v.seq(), Kind: v.kind(), Values: slices.Clone(v.vals[2:])}); err != nil {
			return nil, err
		}
	}
	res, err := c.engine.Result()
	if err != nil {
		return nil, err
	}
	if res == nil {
		// Java's wrapper dereferences the result: it throws.
		return nil, fmt.Errorf("%w: the merge engine returns no row for a key of level 0 (Java fails on it)", ErrUnsupported)
	}
	after := &clRow{key: vs[0].key, vals: append([]any{res.Seq, int8(res.Kind)}, res.Values...)}
	return after, nil
}

// firstRowAfter is the first version of the key among vs (sorted), or nil
// when every version is a retraction skipped by ignore-delete.
func (c *lookupChangelog) firstRowAfter(vs []*clRow) (*clRow, error) {
	for _, v := range vs {
		if !v.kind().IsRetract() {
			return v, nil
		}
		if !c.ignDel {
			return nil, fmt.Errorf("%w: by default, first row merge engine can not accept DELETE/UPDATE_BEFORE records (got %s in level 0); configure 'ignore-delete' to ignore them",
				mergefunc.ErrMerge, v.kind())
		}
	}
	return nil, nil
}

// batch builds the step's changelog rows in key order; nil when there are
// none. For first-row it also fills drop.
func (c *lookupChangelog) batch(mem memory.Allocator) (arrow.RecordBatch, error) {
	keys := make([]string, 0, len(c.level0))
	for k := range c.level0 {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return c.kc.Compare(c.level0[a][0].key, c.level0[b][0].key) })
	rb := array.NewRecordBuilder(mem, c.arrowSc)
	defer rb.Release()
	n := 0
	add := func(r *clRow, kind data.RowKind) error {
		n++
		for j, t := range c.types {
			v := r.vals[j]
			if j == 1 {
				v = int8(kind)
			}
			if err := arrowrow.AppendValue(rb.Field(j), t, v); err != nil {
				return fmt.Errorf("paimon: changelog row: %w", err)
			}
		}
		return nil
	}
	for _, k := range keys {
		vs, before := c.level0[k], c.before[k]
		var after *clRow
		var err error
		switch c.mode {
		case clFirstRow:
			if c.high[k] {
				continue
			}
			if after, err = c.firstRowAfter(vs); err != nil {
				return nil, err
			}
			if c.above[k] {
				c.drop[k] = true
				continue
			}
			if after == nil {
				return nil, fmt.Errorf("%w: first-row key at level 0 with only retractions (Java fails on it)", ErrUnsupported)
			}
			if err := add(after, after.kind()); err != nil {
				return nil, err
			}
			continue
		case clEngine:
			if after, err = c.engineAfter(vs, before); err != nil {
				return nil, err
			}
		default:
			after = vs[len(vs)-1]
		}
		switch {
		case before == nil || before.kind().IsRetract():
			if !after.kind().IsRetract() {
				err = add(after, data.Insert)
			}
		case after.kind().IsRetract():
			err = add(before, data.Delete)
		default:
			same := false
			if c.equal != nil {
				same, err = c.equal(before.vals[2:], after.vals[2:])
			}
			if err == nil && !same {
				if err = add(before, data.UpdateBefore); err == nil {
					err = add(after, data.UpdateAfter)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if n == 0 {
		return nil, nil
	}
	return rb.NewRecordBatch(), nil
}

// writeChangelog writes a step's changelog files at the output level.
func writeChangelog(ctx context.Context, rec arrow.RecordBatch, level int, o *mergetree.CompactOptions) ([]manifest.DataFileMeta, error) {
	w, err := datafile.NewWriter(datafile.Options{
		FS: o.FS, Dir: o.Dir, Schema: o.Schema, Allocator: o.Allocator, Now: o.Now, Names: o.Names,
		Budget: o.Budget, KeyValue: &datafile.KeyValue{Level: int32(level), Changelog: true, Source: manifest.FileSourceAppend}, Workers: o.Workers,
	})
	if err != nil {
		return nil, err
	}
	if err := w.Write(ctx, rec); err != nil {
		return nil, joinAbort(ctx, err, w)
	}
	out, err := w.Close(ctx)
	if err != nil {
		return nil, joinAbort(ctx, err, w)
	}
	return out, nil
}

func joinAbort(ctx context.Context, err error, w *datafile.Writer) error {
	if aerr := w.Abort(context.WithoutCancel(ctx)); aerr != nil {
		return fmt.Errorf("%w (and removing its files: %v)", err, aerr)
	}
	return err
}

// lookupChangelogSupported refuses the tables whose lookup changelog is
// not produced here: changelog-producer.row-deduplicate comparing a field
// whose equality is not reproduced (mergefunc.ValueEqualiser), and a
// sequence.field whose order is not (mergefunc.VersionOrder).
func lookupChangelogSupported(ts *schema.TableSchema) error {
	o := tableOptions(ts.Options)
	refuse := func(what string) error {
		return fmt.Errorf("%w: compacting a primary-key table with %s=lookup and %s", ErrUnsupported, optChangelogProducer, what)
	}
	if _, err := mergefunc.VersionOrder(ts); err != nil {
		return refuse(fmt.Sprintf("%s (%s)", coreoptions.SequenceField, internalDetail(mergefunc.ErrUnsupported, err)))
	}
	if o.boolean(coreoptions.ChangelogProducerRowDeduplicate, false) && o.mergeEngine() != "first-row" {
		if _, err := rowDeduplicateEqualiser(ts, o); err != nil {
			return refuse(fmt.Sprintf("%s (%s)", coreoptions.ChangelogProducerRowDeduplicate, internalDetail(mergefunc.ErrUnsupported, err)))
		}
	}
	return nil
}

// ignoreDeleteOption is ignore-delete, or else the first of its old names
// that is set (Java's fallback keys).
func ignoreDeleteOption(o tableOptions) bool {
	for _, k := range []string{optIgnoreDelete, "first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete"} {
		if _, ok := o[k]; ok {
			return o.boolean(k, false)
		}
	}
	return false
}

// rowDeduplicateEqualiser is the value equaliser of
// changelog-producer.row-deduplicate (Java
// ValueEqualiserSupplier.fromIgnoreFields with
// CoreOptions.changelogRowDeduplicateIgnoreFields: split at commas).
func rowDeduplicateEqualiser(ts *schema.TableSchema, o tableOptions) (func(a, b []any) (bool, error), error) {
	var ignore []string
	if v, ok := o[coreoptions.ChangelogProducerRowDeduplicateIgnoreFields]; ok {
		ignore = javacompat.Split(v, ",")
	}
	return mergefunc.ValueEqualiser(ts.Fields, ignore)
}

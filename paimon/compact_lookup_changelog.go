package paimon

import (
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
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// The changelog of changelog-producer = lookup (Java
// LookupChangelogMergeFunctionWrapper.setChangelog, written by
// ChangelogMergeTreeRewriter.rewriteOrProduceChangelog): every compaction
// step that holds level-0 files emits, for each key of those files, the
// change from the key's newest version above level 0 (the "before": the
// one of the lowest level among the step's files above 0, else the first
// found in the levels above the output, LookupMergeFunction.pickHighLevel
// and LookupLevels.lookup) to the merged result (the "after"):
//
//   - no before, or a retraction before: +I of the after if it adds;
//   - an added before and a retraction after: -D of the before;
//   - both added: -U of the before, +U of the after (changelog-producer
//     .row-deduplicate, which would skip equal pairs, is refused).
//
// Rows carry the before's or the after's sequence number and values, in
// key order, in changelog files at the output level (_FILE_SOURCE APPEND,
// KeyValueFileWriterFactory.createRollingChangelogFileWriter), one rolling
// file set per step as Java opens one writer per rewrite or upgrade.
//
// Only the deduplicate engine without sequence.field is done: its after is
// the newest level-0 version of the key (level-0 versions are newer than
// every version above level 0), so the changelog is computed from the
// versions alone while the data files come from the merge as before.
// Memory: one row per key of the step's level-0 files, twice.

// clRow is one captured version: all key-value columns in the value
// model, with its key and level.
type clRow struct {
	key   []any
	vals  []any // mergetree.ReadFields order: sequence, kind, fields
	level int32
}

func (c *clRow) seq() int64         { return c.vals[0].(int64) }
func (c *clRow) kind() data.RowKind { return data.RowKind(c.vals[1].(int8)) }

// lookupChangelog gathers the before and after versions of one step.
type lookupChangelog struct {
	scan    *lookupScan
	types   []schema.DataType // mergetree.ReadFields types
	kc      *mergetree.KeyComparator
	after   map[string]*clRow
	before  map[string]*clRow
	arrowSc *arrow.Schema
}

func newLookupChangelog(ts *schema.TableSchema, kc *mergetree.KeyComparator) (*lookupChangelog, error) {
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

// collect reads the step's files: the level-0 ones give the afters, the
// others (and the files above the output level, read with their vectors
// applied) the befores of the same keys.
func (c *lookupChangelog) collect(ctx context.Context, files, higher []manifest.DataFileMeta, open, openHigher mergetree.OpenFunc) error {
	c.after, c.before = map[string]*clRow{}, map[string]*clRow{}
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
			if old := c.after[k]; old != nil {
				seqs, ok := rec.Column(0).(*array.Int64)
				if !ok {
					return fmt.Errorf("%w: sequence number column of type %s", ErrCorrupt, rec.Column(0).DataType())
				}
				if old.seq() >= seqs.Value(i) {
					return nil
				}
			}
			r, err := c.capture(rec, i, 0)
			c.after[k] = r
			return err
		})
		if err != nil {
			return err
		}
	}
	high := func(f *manifest.DataFileMeta, src iter.Seq2[arrow.RecordBatch, error]) error {
		return each(f, src, func(k string, rec arrow.RecordBatch, i int) error {
			if c.after[k] == nil {
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
			if err := high(f, open(ctx, f)); err != nil {
				return err
			}
		}
	}
	for i := range higher {
		if err := high(&higher[i], openHigher(ctx, &higher[i])); err != nil {
			return err
		}
	}
	return nil
}

// batch builds the step's changelog rows in key order; nil when there are
// none.
func (c *lookupChangelog) batch(mem memory.Allocator) (arrow.RecordBatch, error) {
	keys := make([]string, 0, len(c.after))
	for k := range c.after {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return c.kc.Compare(c.after[a].key, c.after[b].key) })
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
		after, before := c.after[k], c.before[k]
		var err error
		switch {
		case before == nil || before.kind().IsRetract():
			if !after.kind().IsRetract() {
				err = add(after, data.Insert)
			}
		case after.kind().IsRetract():
			err = add(before, data.Delete)
		default:
			if err = add(before, data.UpdateBefore); err == nil {
				err = add(after, data.UpdateAfter)
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
// not produced here: merge engines other than deduplicate, a
// sequence.field (the after may then be a version above level 0),
// ignore-delete (retractions skipped by the merge) and
// changelog-producer.row-deduplicate (Java's value equaliser).
func lookupChangelogSupported(ts *schema.TableSchema) error {
	o := tableOptions(ts.Options)
	refuse := func(what string) error {
		return fmt.Errorf("%w: compacting a primary-key table with %s=lookup and %s", ErrUnsupported, optChangelogProducer, what)
	}
	if e := o.mergeEngine(); e != "deduplicate" {
		return refuse("merge-engine=" + e)
	}
	for _, k := range []string{coreoptions.SequenceField} {
		if v := o[k]; v != "" {
			return refuse(k)
		}
	}
	for _, k := range []string{optIgnoreDelete, "deduplicate.ignore-delete", coreoptions.ChangelogProducerRowDeduplicate} {
		if o.boolean(k, false) {
			return refuse(k)
		}
	}
	return nil
}

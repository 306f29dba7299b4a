package paimon

import (
	"context"
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// mergeSplit reads a split of a primary-key table that needs merging: every
// file of the bucket is read as KeyValue rows (sequence number, row kind and
// all value fields, mapped from each file's schema by field id), the LSM
// merge reader combines the versions of each key with the table's merge
// engine, and the merged rows go through the residual filter and the
// projection (Java KeyValueTableRead with MergeFileSplitRead).
func (r *splitReader) mergeSplit(ctx context.Context, sp *Split, dvs map[string]*index.DeletionVector, yield func(arrow.RecordBatch, error) bool) bool {
	st := r.st
	mc, err := st.mergeConfig()
	if err != nil {
		yield(nil, fmt.Errorf("paimon: %s: %w", r.scan.table.name(), err))
		return false
	}
	want := mergetree.ReadFields(st.schema)
	open := func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		return r.readMapped(ctx, sp, f, dvs[f.FileName], want, func(fs *schema.TableSchema, _ *manifest.DataFileMeta) ([]schema.DataField, error) {
			return mergetree.ReadFields(fs), nil
		}, false)
	}
	opts := &mergetree.Options{
		Schema:             st.schema,
		Merge:              mc.factory,
		SequenceFields:     mc.seqFields,
		SequenceDescending: mc.seqDesc,
		KeepDeletes:        st.kindCol >= 0,
		BatchSize:          r.scan.spec.BatchSize,
		Allocator:          r.mem,
		ReadAhead:          r.scan.spec.ReadAhead,
		LookupHighLevel:    mc.lookup,
	}
	switch {
	case opts.ReadAhead == 0:
		opts.ReadAhead = DefaultReadAhead
	case opts.ReadAhead < 0:
		opts.ReadAhead = 0
	}
	for rec, err := range mergetree.Read(ctx, sp.Files, open, opts) {
		if err != nil {
			yield(nil, fmt.Errorf("paimon: merge bucket %d of %s: %w", sp.Bucket, r.scan.table.name(), err))
			return false
		}
		cur, err := st.mergedToRead(rec)
		rec.Release()
		if err != nil {
			yield(nil, err)
			return false
		}
		out, err := r.finish(ctx, cur)
		if err != nil {
			yield(nil, err)
			return false
		}
		if !r.emit(out, yield) {
			return false
		}
	}
	return true
}

// mergeConfig is the merge engine of the scan's schema.
type mergeConfig struct {
	factory   mergefunc.Factory
	seqFields []int
	seqDesc   bool
	// lookup is Java's LookupMergeFunction wrapping of the engine
	// (PrimaryKeyFileStoreTable: CoreOptions.needLookup, except
	// first-row): see mergetree.Options.LookupHighLevel.
	lookup bool
}

func (st *scanState) mergeConfig() (*mergeConfig, error) {
	st.mergeOnce.Do(func() {
		var mc mergeConfig
		var err error
		if mc.factory, err = mergefunc.NewFactory(st.schema); err != nil {
			st.mergeErr = err
			return
		}
		if mc.seqFields, err = mergefunc.SequenceFields(st.schema); err != nil {
			st.mergeErr = err
			return
		}
		if mc.seqDesc, err = mergefunc.SequenceDescending(st.schema); err != nil {
			st.mergeErr = err
			return
		}
		if mc.lookup, err = mergefunc.LookupMerge(st.schema); err != nil {
			st.mergeErr = err
			return
		}
		st.merge = &mc
	})
	return st.merge, st.mergeErr
}

// mergedToRead selects the readFields columns from a batch of the merge
// reader's output (an optional leading rowkind column, then every value
// field). The audit log's kind column takes the rowkind strings.
func (st *scanState) mergedToRead(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	keep := st.kindCol >= 0
	off := 0
	if keep {
		off = 1
	}
	pos := st.fieldPos
	cols := make([]arrow.Array, len(st.readFields))
	fields := make([]arrow.Field, len(st.readFields))
	for j, f := range st.readFields {
		var c int
		if keep && j == st.kindCol {
			c = 0
		} else {
			i, ok := pos[f.ID]
			if !ok {
				return nil, fmt.Errorf("paimon: merged rows lack field %s", f.Name)
			}
			c = i + off
		}
		if c >= int(rec.NumCols()) {
			return nil, fmt.Errorf("paimon: merged batch has %d columns", rec.NumCols())
		}
		cols[j] = rec.Column(c)
		fields[j] = rec.Schema().Field(c)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows()), nil
}

var _ = schema.DataField{}

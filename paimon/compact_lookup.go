package paimon

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// Lookup compaction of primary-key tables with deletion vectors (Java
// LookupMergeTreeCompactRewriter with LookupChangelogMergeFunctionWrapper,
// LookupMergeFunction and LookupLevels).
//
// When level-0 files go to a level below the highest, Java merges each key
// of the level-0 files with the newest version above level 0: the one in
// the files being compacted, or else the one LookupLevels finds in the
// levels above the output level (searched level by level, files read with
// their deletion vectors applied). A version found by lookup joins the
// merge in sequence order, and its row position is marked in its file's
// deletion vector (BucketedDvMaintainer.notifyNewDeletion); the higher
// levels are not rewritten.
//
// Here the lookup is a scan instead of Java's local lookup files: the keys
// of the step's level-0 files are collected (a hash set of their BinaryRow
// bytes, so memory grows with the keys of one step's level-0 files, which
// a writer's buffer bounds), and each file above the output level is read
// once with its vector applied, keeping the rows whose key is in the set.
// The result equals Java's because a deletion-vector table keeps, among
// the levels above 0 and with vectors applied, at most one live version of
// each key (every compaction into a level above 0 drops retractions and
// marks the versions it replaces), and no retraction: a key with a version
// in the files being compacted above level 0 has none above the output
// level, and a key without has at most one there, the one Java's lookup
// returns. Merging the level-0 versions with the rows kept is then Java's
// LookupMergeFunction: the level-0 versions and the one higher version, in
// sequence order.

// pkLookup is what a lookup compaction task needs beyond its steps.
type pkLookup struct {
	// higher are the bucket's files above the output level.
	higher []manifest.DataFileMeta
	// mark: the table has deletion vectors and the output level is below
	// the highest, so versions found above are marked deleted and merged
	// with the step's level-0 keys.
	mark bool
	// changelog: changelog-producer = lookup (compact_lookup_changelog.go).
	changelog bool
	// top: the output level is the highest.
	top bool
	// keepLevel0 is part of Java's CHANGELOG_NO_REWRITE for a level-0
	// file that would only change level (LookupMergeTreeCompactRewriter
	// .upgradeStrategy): deduplicate without sequence.field keeps the
	// file as is (its keys are still looked up and the versions found
	// marked); other merge engines rewrite it merged with what the lookup
	// finds.
	keepLevel0 bool
	dv         bool
	// mergeHigher: the version a lookup finds above the output level is
	// merged into the rewritten data (Java LookupChangelogMergeFunctionWrapper
	// inserts it among the key's versions whether or not it is then marked
	// deleted): with vectors (mark), and for the lookup changelog of the
	// engines whose result depends on it (partial-update, aggregation).
	mergeHigher bool
	// firstRow: the first-row engine, whose rewrite drops the keys found
	// above the output level (FirstRowMergeFunctionWrapper).
	firstRow bool
}

// newPKLookup plans the lookup of a unit.
func (c *pkCompactConfig) newPKLookup(levels *mergetree.Levels, outputLevel int) *pkLookup {
	l := &pkLookup{keepLevel0: c.mergeEngine == "deduplicate" && len(c.merge.SequenceFields) == 0,
		dv: c.deletionVectors, changelog: c.lookupChangelog, top: outputLevel == levels.MaxLevel()}
	l.mark = l.dv && !l.top
	l.firstRow = c.mergeEngine == "first-row"
	// Deduplicate with ignore-delete: a key whose level-0 versions are all
	// retractions merges to the version found above, which Java writes.
	dedupIgnore := c.mergeEngine == "deduplicate" && c.ignoreDelete
	l.mergeHigher = l.mark || (l.changelog && (!l.keepLevel0 || dedupIgnore) && !l.firstRow && !l.top)
	for lv := outputLevel + 1; lv <= levels.MaxLevel(); lv++ {
		l.higher = append(l.higher, levels.Level(lv)...)
	}
	return l
}

// keepUpgrade is Java's upgrade strategy for a level-0 file: true when it
// only changes level (CHANGELOG_NO_REWRITE), false when it is rewritten
// (CHANGELOG_WITH_REWRITE).
func (l *pkLookup) keepUpgrade(f *manifest.DataFileMeta) bool {
	if l.dv && (f.DeleteRowCount == nil || *f.DeleteRowCount > 0) {
		return false
	}
	return l.top || l.keepLevel0
}

// lookupResult is what a lookup compaction task produced.
type lookupResult struct {
	mergetree.CompactResult
	// marks are the row positions to mark deleted in the files above the
	// output level.
	marks map[string][]int64
	// changelog are the changelog files written.
	changelog []manifest.DataFileMeta
}

// lookupCompaction runs the steps of a lookup compaction task, as Java's
// MergeTreeCompactTask drives a LookupMergeTreeCompactRewriter: steps
// without level-0 files run as usual; a rewrite with level-0 files merges
// them with the versions the lookup finds (with deletion vectors below
// the highest level) and emits their changelog (changelog-producer =
// lookup); a level-0 file that only changes level is looked up and,
// unless keepUpgrade, rewritten.
func (r *compactRun) lookupCompaction(ctx context.Context, tk *compactTask, sr *splitReader, sp *Split, open mergetree.OpenFunc, opts *mergetree.CompactOptions) (*lookupResult, error) {
	lk := tk.pk.lookup
	o := *opts
	if o.Names == nil {
		o.Names = datafile.NewFileNames()
	}
	res := &lookupResult{marks: map[string][]int64{}}
	fail := func(err error) (*lookupResult, error) {
		cleanup := context.WithoutCancel(ctx)
		return nil, errors.Join(err, mergetree.RemoveCompactOutput(cleanup, o.FS, o.Dir, res.Written),
			mergetree.RemoveCompactOutput(cleanup, o.FS, o.Dir, res.changelog))
	}
	// The files above the output level are read with their own vectors
	// but without removing rows, so that row positions are known.
	hsp := *sp
	hsp.Files, hsp.DeletionFiles = nil, nil
	bk := bucketKey{string(tk.partition), tk.bucket}
	for _, f := range lk.higher {
		hsp.Files = append(hsp.Files, f)
		if r.dvs != nil {
			hsp.DeletionFiles = append(hsp.DeletionFiles, r.dvs.deletionFile(bk, f.FileName))
		} else {
			hsp.DeletionFiles = append(hsp.DeletionFiles, nil)
		}
	}
	hdvs, err := sr.readDeletionFiles(ctx, &hsp)
	if err != nil {
		return nil, err
	}
	want := mergetree.ReadFields(r.ts)
	keyValues := func(fs *schema.TableSchema, _ *manifest.DataFileMeta) ([]schema.DataField, error) {
		return mergetree.ReadFields(fs), nil
	}
	keyIdx, keyTypes := lookupKeyColumns(r.ts)
	lu := &lookupScan{keyIdx: keyIdx, keyTypes: keyTypes, marks: res.marks}
	higherOpen := func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		return lu.filter(ctx, f, hdvs[f.FileName], sr.readMapped(ctx, &hsp, f, nil, want, keyValues, false), r.mem)
	}
	// The same files with their vectors applied, for the changelog.
	higherRows := func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		return sr.readMapped(ctx, &hsp, f, hdvs[f.FileName], want, keyValues, false)
	}
	var cl *lookupChangelog
	if lk.changelog || lk.firstRow {
		if cl, err = newLookupChangelog(r.ts, r.pk.kc, r.pk.merge.Merge); err != nil {
			return nil, err
		}
	}
	if lk.mark || lk.mergeHigher || cl != nil {
		o.ReadAhead = 0 // the lookup's filter records positions on one goroutine
	}
	isHigher := map[string]bool{}
	for _, f := range lk.higher {
		isHigher[f.FileName] = true
	}
	run := func(st mergetree.CompactStep, o *mergetree.CompactOptions) error {
		part, err := mergetree.RunCompactTask(ctx, []mergetree.CompactStep{st}, tk.pk.outputLevel, tk.pk.dropDelete, o)
		if err != nil {
			return err
		}
		appendCompactResult(&res.CompactResult, part)
		return nil
	}
	plain := func(st mergetree.CompactStep) error { return run(st, &o) }
	// A step with level-0 files runs every key through the merge engine,
	// also a key with one version (mergetree.Options.MergeLone): Java
	// merges such a step through LookupChangelogMergeFunctionWrapper
	// (LookupMergeTreeCompactRewriter.rewriteChangelog), and the
	// partial-update and aggregation engines change lone versions.
	// Deduplicate returns a lone version as it is; first-row is not wrapped.
	withLevel0 := o
	withLevel0.MergeLone = r.pk.mergeEngine == "partial-update" || r.pk.mergeEngine == "aggregation"
	changelog := func(files []manifest.DataFileMeta) error {
		if cl == nil {
			return nil
		}
		higher, err := r.overlapping(lk.higher, files)
		if err != nil {
			return err
		}
		if err := cl.collect(ctx, files, higher, open, higherRows); err != nil {
			return err
		}
		rec, err := cl.batch(r.mem)
		if err != nil || rec == nil {
			return err
		}
		if !lk.changelog {
			rec.Release()
			return nil
		}
		defer rec.Release()
		out, err := writeChangelog(ctx, rec, tk.pk.outputLevel, &o)
		res.changelog = append(res.changelog, out...)
		return err
	}
	// merged runs a step with level-0 files: merged with the versions
	// found above when they are marked, else as usual.
	merged := func(st mergetree.CompactStep) error {
		var files []manifest.DataFileMeta
		for _, section := range st.Rewrite {
			for _, rn := range section {
				files = append(files, rn...)
			}
		}
		if err := changelog(files); err != nil {
			return err
		}
		if lk.firstRow && len(cl.drop) > 0 {
			o2 := withLevel0
			o2.Open = dropKeys(open, cl.drop, r.ts, r.mem)
			part, err := mergetree.RunCompactTask(ctx, []mergetree.CompactStep{st}, tk.pk.outputLevel, tk.pk.dropDelete, &o2)
			if err != nil {
				return err
			}
			appendCompactResult(&res.CompactResult, part)
			return nil
		}
		if !lk.mark && !lk.mergeHigher {
			return run(st, &withLevel0)
		}
		if err := lu.collectKeys(ctx, files, open); err != nil {
			return err
		}
		higher, err := r.overlapping(lk.higher, files)
		if err != nil {
			return err
		}
		// The files above are merged with the step's files; only the rows
		// the lookup keeps come out of them.
		o2 := withLevel0
		o2.Open = func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
			if isHigher[f.FileName] && f.Level > int32(tk.pk.outputLevel) {
				return higherOpen(ctx, f)
			}
			return open(ctx, f)
		}
		step := mergetree.CompactStep{Rewrite: [][][]manifest.DataFileMeta{{append(slices.Clone(files), higher...)}}}
		part, err := mergetree.RunCompactTask(ctx, []mergetree.CompactStep{step}, tk.pk.outputLevel, tk.pk.dropDelete, &o2)
		if err != nil {
			return err
		}
		part.Before = slices.DeleteFunc(part.Before, func(f manifest.DataFileMeta) bool {
			return isHigher[f.FileName] && f.Level > int32(tk.pk.outputLevel)
		})
		appendCompactResult(&res.CompactResult, part)
		return nil
	}
	for _, st := range tk.pk.steps {
		var err error
		switch {
		case st.Upgrade != nil && st.Upgrade.Level != 0:
			err = plain(st)
		case st.Upgrade != nil && lk.keepUpgrade(st.Upgrade):
			// CHANGELOG_NO_REWRITE: the keys are looked up (marked, and
			// their changelog written), the file moves up.
			f := []manifest.DataFileMeta{*st.Upgrade}
			err = changelog(f)
			if err == nil && lk.mark {
				var higher []manifest.DataFileMeta
				if err = lu.collectKeys(ctx, f, open); err == nil {
					higher, err = r.overlapping(lk.higher, f)
				}
				if err == nil {
					err = lu.markOnly(ctx, higher, higherOpen)
				}
			}
			if err == nil {
				err = plain(st)
			}
		case st.Upgrade != nil:
			err = merged(mergetree.CompactStep{Rewrite: [][][]manifest.DataFileMeta{{{*st.Upgrade}}}})
		default:
			hasLevel0 := false
			for _, section := range st.Rewrite {
				for _, rn := range section {
					for _, f := range rn {
						hasLevel0 = hasLevel0 || f.Level == 0
					}
				}
			}
			if hasLevel0 {
				err = merged(st)
			} else {
				err = plain(st)
			}
		}
		if err != nil {
			return fail(err)
		}
	}
	return res, nil
}

// overlapping returns the files of higher whose key range meets the range
// of a level-0 file among files: only they can hold a key to look up
// (Java's LookupUtils search a level's files by key range).
func (r *compactRun) overlapping(higher, files []manifest.DataFileMeta) ([]manifest.DataFileMeta, error) {
	types := r.pk.kc.Types()
	decode := func(f *manifest.DataFileMeta) (lo, hi []any, err error) {
		for i, b := range [][]byte{f.MinKey, f.MaxKey} {
			row, err := binaryrow.ParseSerialized(b)
			if err == nil && row.Arity() != len(types) {
				err = fmt.Errorf("key row has %d fields, the primary key %d", row.Arity(), len(types))
			}
			var vals []any
			if err == nil {
				vals, err = row.Values(types)
			}
			if err != nil {
				return nil, nil, corrupt(f.FileName, fmt.Errorf("key range: %w", err))
			}
			if i == 0 {
				lo = vals
			} else {
				hi = vals
			}
		}
		return lo, hi, nil
	}
	type span struct{ lo, hi []any }
	var level0 []span
	for i := range files {
		if files[i].Level != 0 {
			continue
		}
		lo, hi, err := decode(&files[i])
		if err != nil {
			return nil, err
		}
		level0 = append(level0, span{lo, hi})
	}
	var out []manifest.DataFileMeta
	for i := range higher {
		lo, hi, err := decode(&higher[i])
		if err != nil {
			return nil, err
		}
		for _, s := range level0 {
			if r.pk.kc.Compare(hi, s.lo) >= 0 && r.pk.kc.Compare(lo, s.hi) <= 0 {
				out = append(out, higher[i])
				break
			}
		}
	}
	return out, nil
}

func appendCompactResult(res, part *mergetree.CompactResult) {
	res.Before = append(res.Before, part.Before...)
	res.After = append(res.After, part.After...)
	res.Written = append(res.Written, part.Written...)
}

// lookupKeyColumns returns the columns of the trimmed primary key in the
// key-value layout (mergetree.ReadFields: sequence, kind, then the fields)
// and their types.
func lookupKeyColumns(ts *schema.TableSchema) ([]int, []schema.DataType) {
	var idx []int
	var types []schema.DataType
	for _, k := range ts.TrimmedPrimaryKeyFields() {
		for i, f := range ts.Fields {
			if f.ID == k.ID {
				idx = append(idx, 2+i)
				types = append(types, f.Type)
			}
		}
	}
	return idx, types
}

// lookupScan is the lookup of one step: the keys of its level-0 files, and
// the positions found above the output level.
type lookupScan struct {
	keyIdx   []int
	keyTypes []schema.DataType
	keys     map[string]bool
	marks    map[string][]int64
	vals     []any
}

// keyOf encodes the key of row i of a key-value batch as BinaryRow bytes.
func (l *lookupScan) keyOf(rec arrow.RecordBatch, i int) (string, error) {
	l.vals = l.vals[:0]
	for j, c := range l.keyIdx {
		v, err := parquet.ArrowValue(rec.Column(c), i, l.keyTypes[j])
		if err != nil {
			return "", err
		}
		l.vals = append(l.vals, v)
	}
	b, err := binaryrow.Encode(data.Insert, l.keyTypes, l.vals)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// collectKeys replaces the key set with the keys of the level-0 files
// among files.
func (l *lookupScan) collectKeys(ctx context.Context, files []manifest.DataFileMeta, open mergetree.OpenFunc) error {
	l.keys = map[string]bool{}
	for i := range files {
		f := &files[i]
		if f.Level != 0 {
			continue
		}
		for rec, err := range open(ctx, f) {
			if err != nil {
				return err
			}
			for row := 0; row < int(rec.NumRows()); row++ {
				k, err := l.keyOf(rec, row)
				if err != nil {
					rec.Release()
					return fmt.Errorf("paimon: data file %s: %w", f.FileName, err)
				}
				l.keys[k] = true
			}
			rec.Release()
		}
	}
	return nil
}

// filter reads a file above the output level (all its rows, in file
// order), drops the rows its vector deletes and those whose key is not
// looked up, and records the positions of the rows it keeps.
func (l *lookupScan) filter(ctx context.Context, f *manifest.DataFileMeta, dv *index.DeletionVector,
	src iter.Seq2[arrow.RecordBatch, error], mem memory.Allocator) iter.Seq2[arrow.RecordBatch, error] {
	var pos int64
	return filterRows(ctx, f, src, mem, func(rec arrow.RecordBatch, row int) (bool, error) {
		p := pos
		pos++
		if dv != nil && dv.IsDeleted(p) {
			return false, nil
		}
		k, err := l.keyOf(rec, row)
		if err != nil || !l.keys[k] {
			return false, err
		}
		l.marks[f.FileName] = append(l.marks[f.FileName], p)
		return true, nil
	})
}

// filterRows yields the batches of src with only the rows keep accepts;
// keep is called once for every row, in order.
func filterRows(ctx context.Context, f *manifest.DataFileMeta, src iter.Seq2[arrow.RecordBatch, error], mem memory.Allocator,
	keep func(rec arrow.RecordBatch, row int) (bool, error)) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		for rec, err := range src {
			if err != nil {
				yield(nil, err)
				return
			}
			n := int(rec.NumRows())
			mb := array.NewBooleanBuilder(mem)
			kept := 0
			for row := 0; row < n; row++ {
				ok, err := keep(rec, row)
				if err != nil {
					mb.Release()
					rec.Release()
					yield(nil, fmt.Errorf("paimon: data file %s: %w", f.FileName, err))
					return
				}
				if ok {
					kept++
				}
				mb.Append(ok)
			}
			var out arrow.RecordBatch
			switch kept {
			case 0:
				mb.Release()
				rec.Release()
				continue
			case n:
				mb.Release()
				out = rec
			default:
				mask := mb.NewArray()
				mb.Release()
				out, err = compute.FilterRecordBatch(compute.WithAllocator(ctx, mem), rec, mask, compute.DefaultFilterOptions())
				mask.Release()
				rec.Release()
				if err != nil {
					yield(nil, fmt.Errorf("paimon: data file %s: %w", f.FileName, err))
					return
				}
			}
			if !yield(out, nil) {
				return
			}
		}
	}
}

// markOnly looks the collected keys up in the files above the output
// level without merging (a level-0 file that moves up unchanged).
func (l *lookupScan) markOnly(ctx context.Context, higher []manifest.DataFileMeta, open mergetree.OpenFunc) error {
	for i := range higher {
		for rec, err := range open(ctx, &higher[i]) {
			if err != nil {
				return err
			}
			rec.Release()
		}
	}
	return nil
}

// dropAndMark is drop for a lookup compaction: the vectors of the
// rewritten files go, and the positions the lookups found are added to
// the vectors of the files above the output level (new vectors in the
// table's format, deletion-vectors.bitmap64), in the bucket's new index
// file (Java BucketedDvMaintainer.notifyNewDeletion and
// writeDeletionVectorsIndex).
func (d *compactDVs) dropAndMark(ctx context.Context, bk bucketKey, files []*manifest.DataFileMeta, marks map[string][]int64, bitmap64 bool, written *[]string) (added, deleted []manifest.IndexFileMeta, err error) {
	if len(marks) == 0 {
		return d.drop(ctx, bk, files, written)
	}
	removed := map[string]bool{}
	for _, f := range files {
		removed[f.FileName] = true
	}
	d.mu.RLock()
	entries := slices.Clone(d.byBucket[bk])
	d.mu.RUnlock()
	var keep []index.NamedDV
	have := map[string]*index.DeletionVector{}
	for _, e := range entries {
		kept, err := d.keptVectors(ctx, e, removed)
		if err != nil {
			return nil, nil, err
		}
		for _, v := range kept {
			have[v.DataFile] = v.DV
		}
		keep = append(keep, kept...)
	}
	names := make([]string, 0, len(marks))
	for n := range marks {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		dv := have[n]
		if dv == nil {
			if bitmap64 {
				dv = index.NewDeletionVector64()
			} else {
				dv = index.NewDeletionVector()
			}
			keep = append(keep, index.NamedDV{DataFile: n, DV: dv})
		}
		for _, p := range marks[n] {
			if err := dv.Add(p); err != nil {
				return nil, nil, fmt.Errorf("paimon: deletion vector of %s: %w", n, err)
			}
		}
	}
	meta, err := d.writeBucket(ctx, bk, keep, written)
	if err != nil {
		return nil, nil, err
	}
	return []manifest.IndexFileMeta{meta}, nil, nil
}

// dropKeys reads the files through open without the rows whose key is in
// drop: the first-row keys of a step that the levels above the output
// already hold (Java FirstRowMergeFunctionWrapper returns no result for
// them, so the rewrite does not write them).
func dropKeys(open mergetree.OpenFunc, drop map[string]bool, ts *schema.TableSchema, mem memory.Allocator) mergetree.OpenFunc {
	keyIdx, keyTypes := lookupKeyColumns(ts)
	return func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		lu := &lookupScan{keyIdx: keyIdx, keyTypes: keyTypes}
		return filterRows(ctx, f, open(ctx, f), mem, func(rec arrow.RecordBatch, row int) (bool, error) {
			k, err := lu.keyOf(rec, row)
			return err == nil && !drop[k], err
		})
	}
}

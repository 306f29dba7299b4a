package paimon

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// Options of primary-key compaction (Java CoreOptions).
const (
	optNumLevels           = coreoptions.NumLevels
	optSortedRunTrigger    = coreoptions.NumSortedRunsCompactionTrigger
	optMaxSizeAmp          = coreoptions.CompactionMaxSizeAmplificationPercent
	optSizeRatio           = coreoptions.CompactionSizeRatio
	optRecordLevelExpire   = coreoptions.RecordLevelExpireTime
	optForceUpLevel0       = coreoptions.CompactionForceUpLevel0
	optForceLookup         = coreoptions.ForceLookup
	optLookupCompact       = coreoptions.LookupCompact
	optCompactionOptimize  = coreoptions.CompactionOptimizationInterval
	optCompactionTotalSize = coreoptions.CompactionTotalSizeThreshold
	optCompactionIncrSize  = coreoptions.CompactionIncrementalSizeThreshold
	optOffPeakStart        = coreoptions.CompactOffpeakStartHour
	optOffPeakEnd          = coreoptions.CompactOffpeakEndHour
)

// pkCompactConfig is how a primary-key table's buckets are compacted (Java
// MergeTreeCompactManager with UniversalCompaction and
// MergeTreeCompactRewriter).
type pkCompactConfig struct {
	numLevels   int
	universal   *mergetree.Universal
	minFileSize int64 // compaction.file-size: 70% of target-file-size
	kc          *mergetree.KeyComparator
	merge       mergetree.Options
	// deletionVectors: the table keeps deletion vectors, so Java compacts
	// it with lookups (ForceUpLevel0Compaction picking, dropDelete at
	// every output level above 0, LookupMergeTreeCompactRewriter).
	deletionVectors bool
	forceUp         *mergetree.ForceUpLevel0
	// mergeEngine and bitmap64 (deletion-vectors.bitmap64) serve the
	// lookup compaction (compact_lookup.go).
	mergeEngine string
	bitmap64    bool
	// ignoreDelete: ignore-delete (or one of its old names).
	ignoreDelete bool
	// lookupChangelog: changelog-producer = lookup.
	lookupChangelog bool
	// fullChangelog: changelog-producer = full-compaction (compact_fullcl.go).
	fullChangelog bool
}

// newPKCompactConfig refuses what the compaction of a primary-key table
// does not do as Java does, and reads the options of what it does.
func newPKCompactConfig(ts *schema.TableSchema) (*pkCompactConfig, error) {
	o := tableOptions(ts.Options)
	lookupChangelog, fullChangelog := false, false
	switch cp := o.str(optChangelogProducer, "none"); cp {
	case "none", "input":
	case "lookup":
		if err := lookupChangelogSupported(ts); err != nil {
			return nil, err
		}
		lookupChangelog = true
	case "full-compaction":
		if err := checkFullChangelog(o); err != nil {
			return nil, err
		}
		fullChangelog = true
	default:
		return nil, fmt.Errorf("%w: compacting a primary-key table with %s=%s (changelog files produced by compaction)", ErrUnsupported, optChangelogProducer, cp)
	}
	if o[optBucket] == "-2" {
		return nil, fmt.Errorf("%w: compacting a postpone-bucket table (bucket = -2)", ErrUnsupported)
	}
	for _, k := range []string{optRecordLevelExpire, optForceUpLevel0, optForceLookup, optLookupCompact, optCompactionOptimize,
		optCompactionTotalSize, optCompactionIncrSize, optOffPeakStart, optOffPeakEnd, optForceRewriteAll} {
		if _, ok := o[k]; ok && !(k == optForceRewriteAll && !o.boolean(k, false)) {
			return nil, fmt.Errorf("%w: compacting a primary-key table with %s", ErrUnsupported, k)
		}
	}
	if err := datafile.ValidateKeyValue(ts, datafile.KeyValue{Level: 1, Source: manifest.FileSourceCompact}); err != nil {
		if errors.Is(err, datafile.ErrUnsupported) {
			return nil, fromInternal(ErrUnsupported, datafile.ErrUnsupported, err)
		}
		return nil, fromInternal(ErrInvalidOption, datafile.ErrInvalid, err)
	}
	bad := func(err error) (*pkCompactConfig, error) { return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err) }
	c := &pkCompactConfig{universal: &mergetree.Universal{}, deletionVectors: o.deletionVectors(),
		mergeEngine: o.mergeEngine(), bitmap64: o.boolean(optDVBitmap64, false), lookupChangelog: lookupChangelog, fullChangelog: fullChangelog,
		ignoreDelete: ignoreDeleteOption(o)}
	if _, ok := o[coreoptions.FileFormatPerLevel]; ok && c.deletionVectors {
		// LookupMergeTreeCompactRewriter rewrites a level-0 file that
		// changes format on its way up; not followed here.
		return nil, fmt.Errorf("%w: compacting a primary-key table with %s and %s", ErrUnsupported, optDeletionVectors, coreoptions.FileFormatPerLevel)
	}
	if c.deletionVectors && c.mergeEngine == "first-row" {
		// Java's MergeTreeCompactManagerFactory.createRewriter throws: "First
		// row merge engine does not need deletion vectors".
		return nil, fmt.Errorf("%w: compacting a first-row table with %s", ErrUnsupported, optDeletionVectors)
	}
	// lookup-compact is radical by default (and refused above when set).
	c.forceUp = &mergetree.ForceUpLevel0{Universal: c.universal}
	var err error
	if c.universal.RunTrigger, err = o.integer(optSortedRunTrigger, 5); err != nil {
		return bad(err)
	}
	if c.numLevels, err = o.integer(optNumLevels, c.universal.RunTrigger+1); err != nil {
		return bad(err)
	}
	if c.universal.MaxSizeAmp, err = o.integer(optMaxSizeAmp, 200); err != nil {
		return bad(err)
	}
	if c.universal.SizeRatio, err = o.integer(optSizeRatio, 1); err != nil {
		return bad(err)
	}
	if c.universal.RunTrigger < 1 || c.numLevels < 2 {
		return bad(fmt.Errorf("%s must be at least 1 and %s at least 2", optSortedRunTrigger, optNumLevels))
	}
	target, err := o.memory(optTargetFileSize, datafile.DefaultPrimaryKeyTargetFileSize)
	if err != nil {
		return bad(err)
	}
	c.minFileSize = target / 10 * 7
	keyTypes := make([]schema.DataType, 0, len(ts.PrimaryKeys))
	for _, f := range ts.TrimmedPrimaryKeyFields() {
		keyTypes = append(keyTypes, f.Type)
	}
	if c.kc, err = mergetree.NewKeyComparator(keyTypes); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	f, err := mergefunc.NewFactory(ts)
	if err != nil {
		if errors.Is(err, mergefunc.ErrUnsupported) {
			return nil, fromInternal(ErrUnsupported, mergefunc.ErrUnsupported, err)
		}
		return nil, fromInternal(ErrInvalidOption, mergefunc.ErrInvalid, err)
	}
	seqFields, err := mergefunc.SequenceFields(ts)
	if err != nil {
		return bad(err)
	}
	desc, err := mergefunc.SequenceDescending(ts)
	if err != nil {
		return bad(err)
	}
	lookup, err := mergefunc.LookupMerge(ts)
	if err != nil {
		return bad(err)
	}
	c.merge = mergetree.Options{Schema: ts, Merge: f, SequenceFields: seqFields, SequenceDescending: desc, LookupHighLevel: lookup}
	return c, nil
}

// needLookup is Java's CoreOptions.needLookup (LookupStrategy): deletion
// vectors, changelog-producer = lookup or the first-row engine (the
// force-lookup option is refused). Such tables are compacted with
// ForceUpLevel0Compaction and LookupMergeTreeCompactRewriter.
func (c *pkCompactConfig) needLookup() bool {
	return c.deletionVectors || c.lookupChangelog || c.mergeEngine == "first-row"
}

// pkTask is the primary-key side of a compactTask: the planned steps of one
// bucket's compaction unit.
type pkTask struct {
	steps       []mergetree.CompactStep
	outputLevel int
	maxLevel    int
	dropDelete  bool
	lookup      *pkLookup // nil: no lookup compaction
}

// planPK picks, in each bucket, what Java's compaction would: with Full
// every sorted run into one at the highest level (CompactStrategy
// .pickFullCompaction), else what UniversalCompaction picks
// (MergeTreeCompactManager.triggerCompaction). A bucket whose files no
// longer form valid levels is corrupt.
func (r *compactRun) planPK(live []manifest.ManifestEntry) ([]compactTask, error) {
	var order []bucketKey
	groups := map[bucketKey][]manifest.DataFileMeta{}
	partitions := map[string][]byte{}
	for i := range live {
		e := &live[i]
		if e.Bucket < 0 {
			continue // postpone files wait for the postpone compaction
		}
		if e.File.ExternalPath != nil && *e.File.ExternalPath != "" {
			return nil, fmt.Errorf("%w: data file %s has external path %s", ErrUnsupported, e.File.FileName, *e.File.ExternalPath)
		}
		if r.buckets > 0 && e.TotalBuckets != r.totalBuckets {
			return nil, fmt.Errorf("%w: file %s of bucket %d was written for %d buckets, the table has %d: rescale the partition (overwrite it) before compacting",
				ErrUnsupported, e.File.FileName, e.Bucket, e.TotalBuckets, r.buckets)
		}
		k := bucketKey{string(e.Partition), e.Bucket}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			partitions[k.partition] = e.Partition
		}
		groups[k] = append(groups[k], e.File)
	}
	var tasks []compactTask
	for _, k := range order {
		files := groups[k]
		numLevels := r.pk.numLevels
		for _, f := range files {
			numLevels = max(numLevels, int(f.Level)+1) // Java: the restored files' levels count
		}
		levels, err := mergetree.NewLevels(r.pk.kc, files, numLevels)
		if err != nil {
			return nil, fmt.Errorf("paimon: bucket %d of %s: %w", k.bucket, r.t.name(), err)
		}
		var hasDV func(string) bool
		if r.dvs != nil {
			info := r.dvs.info(k)
			hasDV = func(name string) bool { f, _ := info(name); return f != "" }
		}
		var u *mergetree.CompactUnit
		switch {
		case r.opts.Full:
			u = mergetree.PickFullCompaction(levels.NumLevels(), levels.SortedRuns(), hasDV, false)
		case r.pk.needLookup():
			// Java's needLookup tables (CoreOptions.needLookup).
			u = r.pk.forceUp.Pick(levels.NumLevels(), levels.SortedRuns())
		default:
			u = r.pk.universal.Pick(levels.NumLevels(), levels.SortedRuns())
		}
		if !r.opts.Full && !mergetree.AcceptPick(u) {
			u = nil
		}
		if u == nil {
			continue
		}
		// With deletion vectors Java merges level-0 records with what a
		// lookup finds in the levels above the output
		// (LookupMergeTreeCompactRewriter, compact_lookup.go). At the
		// highest level there is nothing above to look up, but a step with
		// level-0 files still runs every key through the merge engine.
		var lookup *pkLookup
		if r.pk.deletionVectors || r.pk.lookupChangelog || r.pk.mergeEngine == "first-row" {
			lookup = r.pk.newPKLookup(levels, u.OutputLevel)
			if r.dvs == nil && r.pk.deletionVectors {
				r.dvs = newCompactDVs(r.t.meta, nil, true, r.cfg.dvTargetSize)
			}
		}
		steps, err := mergetree.PlanCompactTask(u, r.pk.kc, r.pk.minFileSize, levels.MaxLevel(), false)
		if err != nil {
			return nil, fmt.Errorf("paimon: bucket %d of %s: %w", k.bucket, r.t.name(), err)
		}
		tk := compactTask{partition: partitions[k.partition], bucket: k.bucket,
			pk: &pkTask{steps: steps, outputLevel: u.OutputLevel, maxLevel: r.pk.numLevels - 1, lookup: lookup, dropDelete: mergetree.DropDelete(u, levels.NonEmptyHighestLevel(), r.pk.deletionVectors, false)}}
		for i := range u.Files {
			tk.files = append(tk.files, &u.Files[i])
		}
		tasks = append(tasks, tk)
	}
	return tasks, nil
}

// rewritePK runs the steps of one bucket (mergetree.RunCompactTask): files
// read through the table's readers and schema evolution, merged with the
// table's merge engine, written at the output level.
func (r *compactRun) rewritePK(ctx context.Context, tk *compactTask) (*CompactIncrement, error) {
	rw := r.rewriter()
	dir, err := rw.bucketDir(tk.partition, tk.bucket)
	if err != nil {
		return nil, err
	}
	scan := r.t.NewScan(WithAllocator(r.mem))
	sp := Split{SnapshotID: r.snap.ID, Partition: tk.partition, Bucket: tk.bucket, TotalBuckets: r.totalBuckets, BucketPath: dir}
	bk := bucketKey{string(tk.partition), tk.bucket}
	if r.dvs != nil {
		// The files are read with their deletion vectors applied, as Java's
		// compaction reader (KeyValueFileReaderFactory with the bucket's
		// BucketedDvMaintainer) does.
		for _, f := range tk.files {
			sp.Files = append(sp.Files, *f)
			sp.DeletionFiles = append(sp.DeletionFiles, r.dvs.deletionFile(bk, f.FileName))
		}
	}
	st, err := scan.stateForSplits(ctx, []Split{sp})
	if err != nil {
		return nil, err
	}
	sr := &splitReader{scan: scan, st: st, mem: r.mem}
	dvs, err := sr.readDeletionFiles(ctx, &sp)
	if err != nil {
		return nil, err
	}
	want := mergetree.ReadFields(r.ts)
	keyValues := func(fs *schema.TableSchema, _ *manifest.DataFileMeta) ([]schema.DataField, error) {
		return mergetree.ReadFields(fs), nil
	}
	open := func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		return sr.readMapped(ctx, &sp, f, dvs[f.FileName], want, keyValues, false)
	}
	opts := &mergetree.CompactOptions{Options: r.pk.merge, Open: open, FS: r.t.meta.fsys, Dir: r.t.meta.Path(dir), Now: r.now}
	opts.Allocator = r.mem
	opts.Workers = r.colWorkers
	if r.budgetShare > 0 {
		opts.Budget = datafile.NewBudget(r.budgetShare)
	}
	var res *mergetree.CompactResult
	var marks map[string][]int64
	var changelog []manifest.DataFileMeta
	if tk.pk.lookup != nil {
		var lr *lookupResult
		if lr, err = r.lookupCompaction(ctx, tk, sr, &sp, open, opts); err == nil {
			res, marks, changelog = &lr.CompactResult, lr.marks, lr.changelog
		}
	} else if r.pk.fullChangelog {
		if res, err = mergetree.RunFullChangelogTask(ctx, tk.pk.steps, tk.pk.outputLevel, tk.pk.maxLevel, tk.pk.dropDelete, opts); err == nil {
			changelog = res.Changelog
		}
	} else {
		res, err = mergetree.RunCompactTask(ctx, tk.pk.steps, tk.pk.outputLevel, tk.pk.dropDelete, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("paimon: compact bucket %d of %s: %w", tk.bucket, r.t.name(), err)
	}
	inc := &CompactIncrement{Before: res.Before, After: res.After, Changelog: changelog}
	if r.dvs != nil {
		// The vectors of the rewritten files go (Java
		// LookupMergeTreeCompactRewriter.notifyRewriteCompactBefore), an
		// upgraded file keeps its own; the bucket's index file is written
		// anew (CompactDeletionFile.generateFiles). Java's
		// FileRewriteCompactTask (a full compaction of a bucket already at
		// the highest level) leaves the index of that commit as it was,
		// naming files no longer live until the next compaction of the
		// bucket; dropping them at once reads the same.
		after := map[string]bool{}
		for _, f := range res.After {
			after[f.FileName] = true
		}
		var rewritten []*manifest.DataFileMeta
		for i := range res.Before {
			if !after[res.Before[i].FileName] {
				rewritten = append(rewritten, &res.Before[i])
			}
		}
		var index []string
		if inc.NewIndexFiles, inc.DeletedIndexFiles, err = r.dvs.dropAndMark(ctx, bk, rewritten, marks, r.pk.bitmap64, &index); err != nil {
			errs := []error{err, mergetree.RemoveCompactOutput(context.WithoutCancel(ctx), r.t.meta.fsys, r.t.meta.Path(dir), res.Written),
				mergetree.RemoveCompactOutput(context.WithoutCancel(ctx), r.t.meta.fsys, r.t.meta.Path(dir), changelog)}
			for _, p := range index {
				errs = append(errs, r.t.meta.fsys.Remove(context.WithoutCancel(ctx), p))
			}
			return nil, fmt.Errorf("paimon: compact bucket %d of %s: %w", tk.bucket, r.t.name(), errors.Join(errs...))
		}
	}
	r.report(func(p *CompactProgress) {
		for _, f := range tk.files {
			p.FilesDone++
			p.BytesDone += f.FileSize
		}
		for _, f := range res.Written {
			p.RowsWritten += f.RowCount
		}
	})
	return inc, nil
}

package paimon

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// CompactOptions configures Table.Compact. A nil *CompactOptions means
// defaults: a compaction by trigger of every partition.
type CompactOptions struct {
	// Full asks for a full compaction, as Flink's and Spark's compact
	// procedures do by default (Java write.compact(partition, bucket,
	// true)): in a fixed-bucket table every bucket whose small files
	// outnumber its large ones is rewritten whole. Without it a bucket is
	// compacted when its writer would: once compaction.min.file-num
	// consecutive files fit in twice target-file-size (Java
	// BucketedAppendCompactManager.pickCompactBefore). Unaware-bucket
	// tables (bucket = -1) are compacted the same way either way, as in
	// Java (AppendCompactCoordinator): the small files of each partition
	// are packed into rewrites of about twice the target size. In a
	// primary-key table, Full merges every sorted run of each bucket into
	// one at the highest level; without it a bucket is compacted when
	// Java's UniversalCompaction picks something.
	Full bool
	// Partitions restricts the compaction to the partitions it matches: a
	// predicate over partition columns only (Java's compact procedure
	// "where" / "partitions"). Nil compacts every partition.
	Partitions *predicate.Predicate
	// Workers is how many rewrites run at once; 0 means GOMAXPROCS. Each
	// holds one output file's encoder (up to a Parquet row group) and one
	// input batch in memory.
	Workers int
	// MemoryBudget bounds the memory of the files being written, across
	// workers (each worker gets its share): a file's Parquet row groups
	// are cut at the share instead of at the block size, and a file that
	// still outgrows it is finished early, as a TableWriter does (datafile
	// Budget). 0 means 48 MiB (datafile.DefaultMemoryBudget); a negative
	// value turns the bound off (one row group buffers up to the block
	// size, 128 MiB by default, per worker).
	MemoryBudget int64
	// Progress, when set, is called after planning and after each input
	// file is rewritten, from the worker goroutines but never
	// concurrently. It must not block for long.
	Progress func(CompactProgress)
	// Commit configures the commit of the compaction (commit user,
	// retries, ...); nil means the table's options.
	Commit *CommitOptions
	// Allocator allocates the batches read and written; nil means
	// memory.DefaultAllocator.
	Allocator memory.Allocator
	// Now stamps the creation time of the files written; nil means
	// time.Now.
	Now func() time.Time
}

// CompactProgress is a compaction's state, as reported to
// CompactOptions.Progress.
type CompactProgress struct {
	// Tasks is the number of rewrites planned, TasksDone those finished.
	Tasks, TasksDone int
	// Files and Bytes are the data files (and their size) the plan
	// rewrites; FilesDone and BytesDone those rewritten so far.
	Files, FilesDone int
	Bytes, BytesDone int64
	// RowsWritten counts the rows written so far.
	RowsWritten int64
}

// CompactResult describes a finished compaction.
type CompactResult struct {
	// Commit is the result of the COMPACT commit; nil when there was
	// nothing to compact.
	Commit *CommitResult
	// Tasks is the number of rewrites (a rewrite turns some files of one
	// bucket into fewer).
	Tasks int
	// FilesBefore and BytesBefore are the live data files (and their
	// size) of the partitions in scope before the compaction;
	// FilesAfter and BytesAfter after it.
	FilesBefore, FilesAfter int
	BytesBefore, BytesAfter int64
	// FilesRewritten and BytesRewritten are the files the compaction
	// replaced; FilesWritten and BytesWritten the files it wrote.
	FilesRewritten, FilesWritten int
	BytesRewritten, BytesWritten int64
	// RowsWritten counts the rows of the files written (rows removed by
	// deletion vectors are not written).
	RowsWritten int64
	// Duration is the wall time of planning, rewriting and committing.
	Duration time.Duration
}

// Compact rewrites small data files of the table into fewer, larger ones
// and commits the result as a COMPACT snapshot, the way Java's dedicated
// compaction (Flink's compact action, Spark's compact procedure) does:
// append tables with Java's AppendCompactCoordinator rules (bucket = -1) or
// BucketedAppendCompactManager rules (fixed buckets). Deletion vectors are
// applied while rewriting and the vectors of the rewritten files dropped.
// write-only does not stop it: it is the separate compaction job a
// write-only table expects.
//
// The commit runs Java's conflict checks: if a concurrent commit removed a
// file the compaction rewrote (another compaction, an overwrite) or changed
// its deletion vector, Compact fails with ErrCommitConflict and removes the
// files it wrote; concurrent appends do not conflict. Every failure leaves
// the table as it was.
//
// Primary-key tables are compacted as Java's MergeTreeCompactManager does
// in each bucket: by trigger what UniversalCompaction picks
// (num-sorted-run.compaction-trigger, compaction.max-size-amplification
// -percent, compaction.size-ratio, num-levels), with Full every sorted run
// into one at the highest level; sections of overlapping runs are merged
// with the table's merge engine, large files only change level, and
// retractions are dropped at the highest level (MergeTreeCompactTask,
// MergeTreeCompactRewriter). Primary-key tables with deletion vectors are
// read with their vectors applied, pick by Java's ForceUpLevel0Compaction
// and drop retractions at every level above 0; the vectors of rewritten
// files leave the bucket's index file. A pick below the highest level is
// merged with lookups into the levels above, whose replaced rows get
// deletion vectors instead of being rewritten, as Java's
// LookupMergeTreeCompactRewriter does (compact_lookup.go). With
// changelog-producer = lookup (every merge engine) the compaction also
// writes the changelog of the level-0 keys it merges, as Java's
// LookupChangelogMergeFunctionWrapper (first-row:
// FirstRowMergeFunctionWrapper) does, committed in the COMPACT snapshot's
// changelog manifest list (compact_lookup_changelog.go); the version the
// lookup finds above the output level is merged into the rewritten data,
// and first-row tables drop from the rewrite the keys found there. With
// changelog-producer = full-compaction a compaction into the highest level
// also writes the changelog of the bucket, as Java's
// FullChangelogMergeTreeCompactRewriter does (compact_fullcl.go).
//
// Tables Compact cannot compact exactly as Java does (row tracking, data
// evolution, incremental clustering, external data paths; primary-key
// tables with changelog-producer lookup and
// changelog-producer.row-deduplicate over a FLOAT, DOUBLE, MAP or MULTISET
// field, or a key whose only version is a level-0 row the engine changes;
// first-row with deletion vectors; postpone buckets, record-level
// expiration, off-peak or early-full-compaction
// options) are refused with ErrUnsupported before anything is written.
func (t *Table) Compact(ctx context.Context, opts *CompactOptions) (*CompactResult, error) {
	start := time.Now()
	if opts == nil {
		opts = &CompactOptions{}
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("%w: negative compaction worker count %d", ErrInvalidOption, opts.Workers)
	}
	// Compact with the latest schema, as a compaction job opened now
	// would: files of older schemas are read through schema evolution.
	latestSchema, err := t.meta.LatestSchema(ctx)
	if err != nil {
		return nil, err
	}
	tbl := t
	if latestSchema.ID != t.schema.ID {
		tbl = &Table{id: t.id, meta: t.meta, schema: latestSchema, manifests: t.manifests, blobOpener: t.blobOpener}
	}
	run, err := tbl.newCompactRun(ctx, opts)
	if err != nil {
		return nil, err
	}
	res, err := run.run(ctx)
	if res != nil {
		res.Duration = time.Since(start)
	}
	return res, err
}

// compactRun is one Table.Compact call.
type compactRun struct {
	t      *Table
	ts     *schema.TableSchema
	opts   *CompactOptions
	cfg    *appendCompactConfig
	mem    memory.Allocator
	now    func() time.Time
	pather *partitionPather

	buckets      int   // the table's bucket option: -1 unaware, N fixed
	totalBuckets int32 // TotalBuckets of the messages
	snap         *snapshot.Snapshot
	dvs          *compactDVs // nil without deletion vectors

	mu       sync.Mutex // guards progress and the calls of opts.Progress
	progress CompactProgress
	// candidates counts the files the unaware-bucket planner took, for
	// compaction.file-num-limit.
	candidates int
	// budgetShare is each worker's memory budget, 0 for none.
	budgetShare int64
	// colWorkers is each rewrite's column-encoding goroutines: the cores
	// left to it by the rewrites running at once.
	colWorkers int
	// pk is the compaction of a primary-key table; nil for append tables.
	pk *pkCompactConfig
}

// compactTask is one rewrite: files of one partition and bucket, in the
// order they are read.
type compactTask struct {
	partition []byte
	bucket    int32
	files     []*manifest.DataFileMeta
	// pk, for a primary-key table, is the bucket's planned compaction
	// (files are then the unit's files).
	pk *pkTask
}

func (t *Table) newCompactRun(ctx context.Context, opts *CompactOptions) (*compactRun, error) {
	ts := t.schema
	if err := checkOptions(ts, coreoptions.Write, t.name()); err != nil {
		return nil, err
	}
	o := tableOptions(ts.Options)
	pk := len(ts.PrimaryKeys) > 0
	for _, k := range []string{optRowTracking, optDataEvolution} {
		if o.boolean(k, false) {
			return nil, fmt.Errorf("%w: compacting a table with %s", ErrUnsupported, k)
		}
	}
	if o[optDataFileExternal] != "" {
		return nil, fmt.Errorf("%w: compacting a table with %s (compaction output would go to external paths)", ErrUnsupported, optDataFileExternal)
	}
	buckets, err := ts.Bucket()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	var pkc *pkCompactConfig
	if pk {
		if pkc, err = newPKCompactConfig(ts); err != nil {
			return nil, err
		}
	} else if buckets == 0 || buckets < -1 {
		return nil, fmt.Errorf("%w: compacting an append table with bucket=%d", ErrUnsupported, buckets)
	}
	// Java compacts these with clustering (sorting) rewrites.
	if !pk && o.boolean(optClusteringIncr, false) && (buckets == -1 || (!o.boolean(optBucketAppendOrdered, true) && !o.deletionVectors())) {
		return nil, fmt.Errorf("%w: compacting a table with %s (clustering compaction)", ErrUnsupported, optClusteringIncr)
	}
	if err := datafile.Validate(ts); !pk && err != nil {
		if errors.Is(err, datafile.ErrUnsupported) {
			return nil, fromInternal(ErrUnsupported, datafile.ErrUnsupported, err)
		}
		return nil, fromInternal(ErrInvalidOption, datafile.ErrInvalid, err)
	}
	cfg, err := newAppendCompactConfig(o)
	if err != nil {
		return nil, err
	}
	r := &compactRun{t: t, ts: ts, opts: opts, cfg: cfg, mem: opts.Allocator, now: opts.Now, buckets: buckets, totalBuckets: int32(buckets), pk: pkc}
	if r.mem == nil {
		r.mem = memory.DefaultAllocator
	}
	if r.now == nil {
		r.now = time.Now
	}
	if r.pather, err = newPartitionPather(ts); err != nil {
		return nil, err
	}
	if opts.Partitions != nil {
		if err := checkPartitionPredicate(opts.Partitions, ts); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// checkPartitionPredicate refuses a partition filter that names other
// columns than partition keys (it could not be decided per partition).
func checkPartitionPredicate(p *predicate.Predicate, ts *schema.TableSchema) error {
	parts := ts.PartitionFields()
	if _, err := predicate.Bind(p, parts); err != nil {
		if len(parts) == 0 {
			return fmt.Errorf("%w: a partition filter on table without partitions: %w", ErrInvalidPartition, err)
		}
		return fmt.Errorf("%w: the partition filter must name partition columns only: %w", ErrInvalidPartition, err)
	}
	return nil
}

func (r *compactRun) run(ctx context.Context) (*CompactResult, error) {
	snap, err := latestSnapshotOf(ctx, r.t.meta)
	if err != nil || snap == nil {
		return &CompactResult{}, err
	}
	r.snap = snap
	live, err := r.liveFiles(ctx)
	if err != nil {
		return nil, err
	}
	res := &CompactResult{}
	for _, e := range live {
		res.FilesBefore++
		res.BytesBefore += e.File.FileSize
	}
	if r.cfg.deletionVectors && snap.IndexManifest != nil && *snap.IndexManifest != "" {
		idx, err := r.t.meta.ReadIndexManifest(ctx, *snap.IndexManifest)
		if err != nil {
			return nil, err
		}
		// Primary-key tables keep one index file per bucket, dynamic
		// buckets too (BucketedDvMaintainer).
		r.dvs = newCompactDVs(r.t.meta, idx, r.buckets > 0 || r.pk != nil, r.cfg.dvTargetSize)
	}
	var tasks []compactTask
	if r.pk != nil {
		tasks, err = r.planPK(live)
	} else {
		tasks, err = r.plan(live)
	}
	if err != nil {
		return nil, err
	}
	res.Tasks = len(tasks)
	res.FilesAfter, res.BytesAfter = res.FilesBefore, res.BytesBefore
	if len(tasks) == 0 {
		return res, nil
	}
	for _, tk := range tasks {
		r.progress.Tasks++
		for _, f := range tk.files {
			r.progress.Files++
			r.progress.Bytes += f.FileSize
		}
	}
	r.report(func(*CompactProgress) {})
	msgs, err := r.rewriteAll(ctx, tasks)
	if err != nil {
		return nil, err
	}
	committer, err := r.t.NewCommit(r.opts.Commit)
	if err != nil {
		_ = r.abort(ctx, msgs)
		return nil, err
	}
	cres, err := committer.Commit(ctx, BatchCommitIdentifier, msgs)
	if err != nil {
		return nil, err // the committer removed the files it did not publish
	}
	res.Commit = cres
	for _, m := range msgs {
		// A file a primary-key compaction only moved to another level is
		// neither rewritten nor written.
		for _, f := range m.Compact.Before {
			if containsFile(m.Compact.After, f.FileName) {
				continue
			}
			res.FilesRewritten++
			res.BytesRewritten += f.FileSize
		}
		for _, f := range m.Compact.After {
			if containsFile(m.Compact.Before, f.FileName) {
				continue
			}
			res.FilesWritten++
			res.BytesWritten += f.FileSize
			res.RowsWritten += f.RowCount
		}
	}
	res.FilesAfter = res.FilesBefore - res.FilesRewritten + res.FilesWritten
	res.BytesAfter = res.BytesBefore - res.BytesRewritten + res.BytesWritten
	return res, nil
}

// liveFiles reads the live data files of the latest snapshot in the
// partitions in scope, in manifest order.
func (r *compactRun) liveFiles(ctx context.Context) ([]manifest.ManifestEntry, error) {
	var match func([]byte) (bool, error)
	if r.opts.Partitions != nil {
		b, err := predicate.Bind(r.opts.Partitions, r.ts.PartitionFields())
		if err != nil {
			return nil, err
		}
		cache := map[string]bool{}
		match = func(p []byte) (bool, error) {
			if ok, seen := cache[string(p)]; seen {
				return ok, nil
			}
			values, err := r.pather.values(p)
			if err != nil {
				return false, fmt.Errorf("%w: partition of a manifest entry: %w", ErrCorrupt, err)
			}
			ok := b.Test(values)
			cache[string(p)] = ok
			return ok, nil
		}
	}
	return liveEntries(ctx, r.t.meta, r.t.manifests, r.snap, match)
}

// plan groups the live files by partition and bucket and picks the files
// to rewrite.
func (r *compactRun) plan(live []manifest.ManifestEntry) ([]compactTask, error) {
	var order []bucketKey
	groups := map[bucketKey][]*manifest.DataFileMeta{}
	partitions := map[string][]byte{}
	for i := range live {
		e := &live[i]
		if e.File.ExternalPath != nil && *e.File.ExternalPath != "" {
			return nil, fmt.Errorf("%w: data file %s has external path %s", ErrUnsupported, e.File.FileName, *e.File.ExternalPath)
		}
		if r.buckets > 0 && e.TotalBuckets != r.totalBuckets {
			return nil, fmt.Errorf("%w: file %s of bucket %d was written for %d buckets, the table has %d: rescale the partition (overwrite it) before compacting",
				ErrUnsupported, e.File.FileName, e.Bucket, e.TotalBuckets, r.buckets)
		}
		k := bucketKey{string(e.Partition), e.Bucket}
		if r.buckets < 0 {
			// Java's batch coordinator reads, in manifest order, at
			// most compaction.file-num-limit files worth compacting.
			var dv dvInfo
			if r.dvs != nil {
				dv = r.dvs.info(k)
			}
			if r.candidates >= r.cfg.fileNumLimit || !r.cfg.shouldCompactUnaware(&e.File, dv) {
				continue
			}
			r.candidates++
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			partitions[k.partition] = e.Partition
		}
		groups[k] = append(groups[k], &e.File)
	}
	var tasks []compactTask
	for _, k := range order {
		files := groups[k]
		var dv dvInfo
		if r.dvs != nil {
			dv = r.dvs.info(k)
		}
		add := func(picked []*manifest.DataFileMeta) {
			if len(picked) > 0 {
				tasks = append(tasks, compactTask{partition: partitions[k.partition], bucket: k.bucket, files: picked})
			}
		}
		if r.buckets < 0 {
			for _, picked := range r.cfg.planUnawarePartition(files, dv) {
				add(picked)
			}
			continue
		}
		sorted := bySequence(files)
		if r.opts.Full {
			var hasDV func(string) bool
			if dv != nil {
				hasDV = func(name string) bool { idx, _ := dv(name); return idx != "" }
			}
			add(r.cfg.fullBucketed(sorted, hasDV))
		} else {
			add(r.cfg.pickBucketed(sorted))
		}
	}
	return tasks, nil
}

// report updates the progress under the lock and calls the callback.
func (r *compactRun) report(update func(*CompactProgress)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	update(&r.progress)
	if r.opts.Progress != nil {
		r.opts.Progress(r.progress)
	}
}

// rewriteAll runs the tasks on the workers and returns one message per
// task. On failure everything written is removed.
func (r *compactRun) rewriteAll(ctx context.Context, tasks []compactTask) ([]CommitMessage, error) {
	workers := r.opts.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(tasks))
	r.colWorkers = max(1, runtime.GOMAXPROCS(0)/max(workers, 1))
	switch budget := r.opts.MemoryBudget; {
	case budget == 0:
		r.budgetShare = datafile.DefaultMemoryBudget / int64(workers)
	case budget > 0:
		r.budgetShare = max(budget/int64(workers), 1)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	msgs := make([]CommitMessage, len(tasks))
	errs := make([]error, len(tasks))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				msgs[i], errs[i] = r.rewrite(ctx, &tasks[i])
				if errs[i] != nil {
					cancel()
				}
			}
		}()
	}
feed:
	for i := range tasks {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := firstError(ctx, errs); err != nil {
		var done []CommitMessage
		for i := range msgs {
			if msgs[i].Compact != nil {
				done = append(done, msgs[i])
			}
		}
		return nil, errors.Join(err, r.abort(context.WithoutCancel(ctx), done))
	}
	return msgs, nil
}

// firstError is the error that stopped the workers: a task's own error
// rather than the cancellation it caused in others.
func firstError(ctx context.Context, errs []error) error {
	var cancelled error
	for _, err := range errs {
		if err == nil {
			continue
		}
		if !errors.Is(err, context.Canceled) {
			return err
		}
		cancelled = err
	}
	if cancelled != nil {
		return cancelled
	}
	return ctx.Err()
}

// abort removes the files of rewrites that will not be committed.
func (r *compactRun) abort(ctx context.Context, msgs []CommitMessage) error {
	if len(msgs) == 0 {
		return nil
	}
	c, err := r.t.NewCommit(&CommitOptions{SkipExpire: true})
	if err != nil {
		return err
	}
	return c.abortCompaction(ctx, msgs)
}

// rewrite runs one task and reports its progress.
func (r *compactRun) rewrite(ctx context.Context, tk *compactTask) (CommitMessage, error) {
	if tk.pk != nil {
		inc, err := r.rewritePK(ctx, tk)
		if err != nil {
			return CommitMessage{}, err
		}
		r.report(func(p *CompactProgress) { p.TasksDone++ })
		return CommitMessage{Partition: tk.partition, Bucket: tk.bucket, TotalBuckets: r.totalBuckets, Compact: inc}, nil
	}
	rw := r.rewriter()
	inc, err := rw.rewrite(ctx, tk.partition, tk.bucket, tk.files, func(f *manifest.DataFileMeta, rows int64) {
		r.report(func(p *CompactProgress) {
			p.FilesDone++
			p.BytesDone += f.FileSize
			p.RowsWritten += rows
		})
	})
	if err != nil {
		return CommitMessage{}, err
	}
	r.report(func(p *CompactProgress) { p.TasksDone++ })
	return CommitMessage{Partition: tk.partition, Bucket: tk.bucket, TotalBuckets: r.totalBuckets, Compact: inc}, nil
}

func (r *compactRun) rewriter() *compactRewriter {
	return &compactRewriter{t: r.t, ts: r.ts, mem: r.mem, now: r.now, pather: r.pather, totalBuckets: r.totalBuckets, dvs: r.dvs,
		budget: r.budgetShare, workers: r.colWorkers}
}

package paimon

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Plan is the result of planning a scan: the snapshot it reads and the splits
// that hold the rows. Splits can be read in any order and by different
// processes.
type Plan struct {
	// SnapshotID is the snapshot planned, 0 when the table has none (the
	// plan is then empty).
	SnapshotID int64
	// SchemaID is the id of the schema the rows are returned in.
	SchemaID int64
	// Splits are the units of reading work.
	Splits []Split
	// Stats counts what each pruning step kept and removed.
	Stats PlanStats

	state *scanState
}

// PlanStats is the pruning funnel of a plan.
type PlanStats struct {
	// Manifests is the number of data manifests of the snapshot, and
	// ManifestsPruned those skipped by their partition statistics.
	Manifests, ManifestsPruned int
	// Files is the number of live data files after merging ADD and DELETE
	// entries of the manifests read.
	Files int
	// FilesPrunedByPartition, FilesPrunedByBucket and FilesPrunedByStats
	// count the files removed by each step; FilesPrunedByLimit those not
	// needed to reach the limit.
	FilesPrunedByPartition, FilesPrunedByBucket, FilesPrunedByStats, FilesPrunedByLimit int
	// FilesSkippedLevel0 counts level-0 files of primary-key tables a batch
	// scan does not read because deletion vectors or the first-row engine
	// make the higher levels complete (Java KeyValueFileStoreScan).
	FilesSkippedLevel0 int
	// RowCount is the number of rows in the planned files.
	RowCount int64
}

// Plan reads the snapshot's manifests and returns the splits to read.
func (s *Scan) Plan(ctx context.Context) (*Plan, error) {
	st, err := s.resolve(ctx)
	if err != nil {
		return nil, err
	}
	plan := &Plan{SchemaID: st.schema.ID, state: st}
	if s.incremental() {
		if err := s.planIncremental(ctx, st, plan); err != nil {
			return nil, err
		}
		return plan, nil
	}
	if st.snapshot == nil {
		return plan, nil
	}
	plan.SnapshotID = st.snapshot.ID
	meta := s.table.meta
	manifests, err := meta.DataManifests(ctx, st.snapshot)
	if err != nil {
		return nil, err
	}
	plan.Stats.Manifests = len(manifests)
	kept := manifests[:0:0]
	for i := range manifests {
		if st.pruner.keepManifest(&manifests[i]) {
			kept = append(kept, manifests[i])
		} else {
			plan.Stats.ManifestsPruned++
		}
	}
	entries, err := readManifests(ctx, meta, kept)
	if err != nil {
		return nil, err
	}
	var merger manifest.Merger
	for _, es := range entries {
		if err := merger.Add(es...); err != nil {
			return nil, fmt.Errorf("paimon: merge manifests of snapshot %d: %w", plan.SnapshotID, err)
		}
	}
	live := merger.Result()
	files := live[:0]
	skipLevel0 := st.skipLevel0()
	for i := range live {
		e := &live[i]
		if e.Kind != manifest.FileKindAdd {
			continue
		}
		if len(st.schema.PrimaryKeys) > 0 && e.Bucket == postponeBucket {
			continue // not visible to batch reads until compacted into a bucket
		}
		if skipLevel0 && e.File.Level == 0 {
			plan.Stats.FilesSkippedLevel0++
			continue
		}
		files = append(files, *e)
	}
	plan.Stats.Files = len(files)
	files, err = st.pruner.pruneEntries(ctx, files, &plan.Stats)
	if err != nil {
		return nil, err
	}
	splits, err := st.makeSplits(files, plan.SnapshotID)
	if err != nil {
		return nil, err
	}
	if err := st.attachDeletionFiles(ctx, meta, splits); err != nil {
		return nil, err
	}
	if s.spec.Limit > 0 && st.filter == nil {
		splits = limitSplits(splits, s.spec.Limit, &plan.Stats)
	}
	for i := range splits {
		plan.Stats.RowCount += splits[i].RowCount()
	}
	plan.Splits = splits
	return plan, nil
}

// readManifests reads manifest files concurrently and returns their entries
// in manifest order (the order matters for merging).
func readManifests(ctx context.Context, meta *TableMeta, metas []manifest.ManifestFileMeta) ([][]manifest.ManifestEntry, error) {
	out := make([][]manifest.ManifestEntry, len(metas))
	if len(metas) == 0 {
		return out, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := min(runtime.GOMAXPROCS(0)*2, len(metas), 16)
	next := make(chan int)
	// The first failure is the one to report: the others may only be the
	// cancellation it caused.
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				es, err := meta.ReadManifest(ctx, metas[i].FileName)
				if err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					continue
				}
				out[i] = es
			}
		}()
	}
feed:
	for i := range metas {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// makeSplits groups files by partition and bucket and packs each group into
// splits of about source.split.target-size bytes, counting each file as at
// least source.split.open-file-cost (Java AppendOnlySplitGenerator with
// BinPacking.packForOrdered).
func (st *scanState) makeSplits(files []manifest.ManifestEntry, snapshotID int64) ([]Split, error) {
	opts := tableOptions(st.schema.Options)
	target, err := opts.memory(optSplitTargetSize, defaultSplitTarget)
	if err != nil {
		return nil, err
	}
	openCost, err := opts.memory(optSplitOpenFileCost, defaultOpenFileCost)
	if err != nil {
		return nil, err
	}
	type groupKey struct {
		partition string
		bucket    int32
	}
	groups := map[groupKey][]manifest.ManifestEntry{}
	var order []groupKey
	for _, e := range files {
		k := groupKey{string(e.Partition), e.Bucket}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	var splits []Split
	pk := len(st.schema.PrimaryKeys) > 0
	for _, k := range order {
		es := groups[k]
		if pk {
			sp, err := st.primaryKeySplits(es, snapshotID, target, openCost)
			if err != nil {
				return nil, err
			}
			splits = append(splits, sp...)
			continue
		}
		sort.SliceStable(es, func(i, j int) bool {
			return es[i].File.MinSequenceNumber < es[j].File.MinSequenceNumber
		})
		dir, err := st.bucketDir(es[0].Partition, es[0].Bucket)
		if err != nil {
			return nil, err
		}
		newSplit := func() Split {
			return Split{
				SnapshotID:     snapshotID,
				Partition:      es[0].Partition,
				Bucket:         es[0].Bucket,
				TotalBuckets:   es[0].TotalBuckets,
				BucketPath:     dir,
				RawConvertible: true,
			}
		}
		cur := newSplit()
		var weight int64
		for _, e := range es {
			w := max(e.File.FileSize, openCost)
			if len(cur.Files) > 0 && weight+w > target {
				splits = append(splits, cur)
				cur, weight = newSplit(), 0
			}
			cur.Files = append(cur.Files, e.File)
			weight += w
		}
		splits = append(splits, cur)
	}
	return splits, nil
}

// bucketDir is the directory of a bucket's data files relative to the table
// root (Java FileStorePathFactory.relativeBucketPath).
func (st *scanState) bucketDir(partition []byte, bucket int32) (string, error) {
	values, err := st.pather.values(partition)
	if err != nil {
		return "", fmt.Errorf("%w: partition of a manifest entry: %w", ErrCorrupt, err)
	}
	p, err := st.pather.path(values)
	if err != nil {
		return "", err
	}
	return bucketDirectory(st.schema, p, bucket), nil
}

// limitSplits keeps the first splits whose row counts reach limit (Java
// DataTableBatchScan.applyPushDownLimit; only without a filter, as rows
// may be filtered out).
func limitSplits(splits []Split, limit int64, stats *PlanStats) []Split {
	for i := range splits {
		if splits[i].DeletionFiles != nil {
			return splits // deleted rows make row counts an overestimate
		}
	}
	var rows int64
	for i := range splits {
		if rows >= limit {
			for _, s := range splits[i:] {
				stats.FilesPrunedByLimit += len(s.Files)
			}
			return splits[:i]
		}
		rows += splits[i].RowCount()
	}
	return splits
}

// fieldsByID indexes fields by id.
func fieldsByID(fields []schema.DataField) map[int]int {
	m := make(map[int]int, len(fields))
	for i, f := range fields {
		m[f.ID] = i
	}
	return m
}

// primaryKeySplits makes the splits of one bucket of a primary-key table,
// mirroring Java MergeTreeSplitGenerator.splitForBatch: when every file is
// above level 0 and holds no retraction, and either deletion vectors or the
// first-row engine guarantee one version per key or all files share one
// level, the files are read one by one (raw convertible, bin-packed);
// otherwise the bucket's files are merged, all in one split so that every
// overlapping section stays together.
func (st *scanState) primaryKeySplits(es []manifest.ManifestEntry, snapshotID, target, openCost int64) ([]Split, error) {
	dir, err := st.bucketDir(es[0].Partition, es[0].Bucket)
	if err != nil {
		return nil, err
	}
	newSplit := func(raw bool) Split {
		return Split{
			SnapshotID:     snapshotID,
			Partition:      es[0].Partition,
			Bucket:         es[0].Bucket,
			TotalBuckets:   es[0].TotalBuckets,
			BucketPath:     dir,
			RawConvertible: raw,
		}
	}
	raw := true
	levels := map[int32]bool{}
	for _, e := range es {
		levels[e.File.Level] = true
		if e.File.Level == 0 || e.File.DeleteRowCount == nil || *e.File.DeleteRowCount != 0 {
			raw = false
		}
	}
	opts := tableOptions(st.schema.Options)
	if raw && (opts.deletionVectors() || opts.mergeEngine() == "first-row" || len(levels) == 1) {
		var out []Split
		cur := newSplit(true)
		var weight int64
		for _, e := range es {
			w := max(e.File.FileSize, openCost)
			if len(cur.Files) > 0 && weight+w > target {
				out = append(out, cur)
				cur, weight = newSplit(true), 0
			}
			cur.Files = append(cur.Files, e.File)
			weight += w
		}
		return append(out, cur), nil
	}
	sp := newSplit(false)
	for _, e := range es {
		sp.Files = append(sp.Files, e.File)
	}
	return []Split{sp}, nil
}

// postponeBucket is the bucket of files written by postpone-bucket tables
// before compaction assigns them (Java BucketMode.POSTPONE_BUCKET).
const postponeBucket = -2

// skipLevel0 reports whether a batch scan reads only levels above 0.
func (st *scanState) skipLevel0() bool {
	if len(st.schema.PrimaryKeys) == 0 {
		return false
	}
	opts := tableOptions(st.schema.Options)
	return opts.deletionVectors() || opts.mergeEngine() == "first-row"
}

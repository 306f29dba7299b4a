package paimon

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

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
	// FilesPrunedByIndex counts the files whose embedded file index
	// excludes the filter (file_index.go); files with a separate index
	// file are planned and skipped when read, as in Java.
	FilesPrunedByIndex int
	// FilesSkippedLevel0 counts level-0 files of primary-key tables a batch
	// scan does not read because deletion vectors or the first-row engine
	// make the higher levels complete (Java KeyValueFileStoreScan).
	FilesSkippedLevel0 int
	// RowCount is the number of rows in the planned files.
	RowCount int64
}

// planOne plans the scan on its table's branch alone; bp, when not nil,
// collects or excludes partitions for a read across two branches
// (branch_read.go).
func (s *Scan) planOne(ctx context.Context, bp *branchPlan) (*Plan, error) {
	st, err := s.resolve(ctx)
	if err != nil {
		return nil, err
	}
	plan := &Plan{SchemaID: st.schema.ID, state: st}
	if s.incremental() {
		if err := s.planIncremental(ctx, st, plan, bp); err != nil {
			return nil, err
		}
		return plan, nil
	}
	if st.snapshot == nil {
		return plan, nil
	}
	plan.SnapshotID = st.snapshot.ID
	meta := s.table.meta
	fscan := newFileScan(meta, s.table.manifests)
	fscan.keepManifest = st.pruner.keepManifest
	scanned, err := fscan.scan(ctx, st.snapshot)
	if err != nil {
		return nil, err
	}
	plan.Stats.Manifests = len(scanned.all)
	plan.Stats.ManifestsPruned = len(scanned.all) - len(scanned.read)
	kept, entries := scanned.read, scanned.entries
	live, err := scanned.merged()
	if err != nil {
		return nil, err
	}
	files := live[:0]
	skipLevel0 := st.skipLevel0()
	for _, e := range live {
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
		files = append(files, e)
	}
	if files, err = bp.apply(st, files); err != nil {
		return nil, nameManifest(err, meta, kept, entries)
	}
	plan.Stats.Files = len(files)
	files, err = st.pruner.pruneEntries(ctx, files, &plan.Stats)
	if err != nil {
		return nil, nameManifest(err, meta, kept, entries)
	}
	if st.dataEvolution {
		if files, err = st.pruneEvolutionFiles(ctx, files); err != nil {
			return nil, nameManifest(err, meta, kept, entries)
		}
	}
	splits, err := st.makeSplits(files, plan.SnapshotID)
	if err != nil {
		return nil, nameManifest(err, meta, kept, entries)
	}
	if err := st.attachDeletionFiles(ctx, meta, splits); err != nil {
		return nil, err
	}
	if err := st.checkSplits(splits); err != nil {
		return nil, err
	}
	if s.spec.Limit > 0 && st.filter == nil {
		splits = limitSplits(splits, s.spec.Limit, st.mergedRows, &plan.Stats)
	}
	for i := range splits {
		plan.Stats.RowCount += st.splitRows(&splits[i])
	}
	plan.Splits = splits
	return plan, nil
}

// entryError is an error about the content of one manifest entry. Entries
// do not know the manifest they came from; nameManifest finds it.
type entryError struct {
	entry *manifest.ManifestEntry
	err   error
}

func (e *entryError) Error() string { return e.err.Error() }
func (e *entryError) Unwrap() error { return e.err }

// nameManifest turns an entryError into a CorruptError naming the manifest
// of metas whose decoded entries (lists, in the same order) hold the entry.
// Other errors pass through.
func nameManifest(err error, meta *TableMeta, metas []manifest.ManifestFileMeta, lists [][]manifest.ManifestEntry) error {
	var ee *entryError
	if !errors.As(err, &ee) {
		return err
	}
	for i, es := range lists {
		for j := range es {
			if &es[j] == ee.entry {
				return corrupt(meta.ManifestPath(metas[i].FileName), ee.err)
			}
		}
	}
	return ee.err
}

// makeSplits groups files by partition and bucket and packs each group into
// splits of about source.split.target-size bytes, counting each file as at
// least source.split.open-file-cost (Java AppendOnlySplitGenerator with
// BinPacking.packForOrdered).
func (st *scanState) makeSplits(files []*manifest.ManifestEntry, snapshotID int64) ([]Split, error) {
	opts := tableOptions(st.schema.Options)
	target, err := opts.memory(optSplitTargetSize, defaultSplitTarget)
	if err != nil {
		return nil, err
	}
	openCost, err := opts.memory(optSplitOpenFileCost, defaultOpenFileCost)
	if err != nil {
		return nil, err
	}
	groups := groupFiles(files)
	// The splits' files share one allocation: the copy of the metadata the
	// plan holds.
	metas := make([]manifest.DataFileMeta, len(files))
	partPaths := map[string]string{} // a table has far fewer partitions than buckets
	var splits []Split
	pk := len(st.schema.PrimaryKeys) > 0
	for g, end := range groups.ends {
		start := 0
		if g > 0 {
			start = groups.ends[g-1]
		}
		es, fs := groups.files[start:end], metas[start:end:end]
		first := es[0]
		pp, ok := partPaths[string(first.Partition)]
		if !ok {
			if pp, err = st.partitionPath(first.Partition); err != nil {
				return nil, &entryError{first, err}
			}
			partPaths[string(first.Partition)] = pp
		}
		proto := Split{
			SnapshotID:     snapshotID,
			Partition:      first.Partition,
			Bucket:         first.Bucket,
			TotalBuckets:   first.TotalBuckets,
			BucketPath:     bucketDirectory(st.schema, pp, first.Bucket),
			RawConvertible: true,
		}
		if !pk {
			// Read in sequence order (Java AppendOnlySplitGenerator); the
			// sort is stable, so files of equal sequence keep the
			// manifests' order.
			slices.SortStableFunc(es, func(a, b *manifest.ManifestEntry) int {
				return cmp.Compare(a.File.MinSequenceNumber, b.File.MinSequenceNumber)
			})
		}
		for i, e := range es {
			fs[i] = e.File
		}
		if pk {
			splits = st.primaryKeySplits(splits, es, fs, proto, target, openCost)
			continue
		}
		if st.dataEvolution {
			if splits, err = evolutionSplits(splits, es, fs, proto, target, openCost); err != nil {
				return nil, &entryError{first, err}
			}
			continue
		}
		splits = packSplits(splits, fs, proto, target, openCost)
	}
	return splits, nil
}

// fileGroups are files grouped by partition and bucket, groups in order
// of first appearance and files in their order within each group.
type fileGroups struct {
	files []*manifest.ManifestEntry // group after group
	ends  []int                     // end of each group in files
}

// groupFiles groups files by partition and bucket with one pass to count
// and one to place, so that a plan of many small buckets does not grow a
// slice per bucket.
func groupFiles(files []*manifest.ManifestEntry) fileGroups {
	type groupKey struct {
		partition string
		bucket    int32
	}
	index := map[groupKey]int32{}
	parts := map[string]string{} // each partition converted to a string once
	of := make([]int32, len(files))
	var sizes []int
	var last []byte // manifests list a partition's files together
	var p string
	for i, e := range files {
		if i == 0 || !bytes.Equal(e.Partition, last) {
			var ok bool
			if p, ok = parts[string(e.Partition)]; !ok {
				p = string(e.Partition)
				parts[p] = p
			}
			last = e.Partition
		}
		k := groupKey{p, e.Bucket}
		g, ok := index[k]
		if !ok {
			g = int32(len(sizes))
			index[k] = g
			sizes = append(sizes, 0)
		}
		of[i] = g
		sizes[g]++
	}
	ends := make([]int, len(sizes))
	next := make([]int, len(sizes))
	total := 0
	for g, n := range sizes {
		next[g] = total
		total += n
		ends[g] = total
	}
	out := make([]*manifest.ManifestEntry, len(files))
	for i, e := range files {
		out[next[of[i]]] = e
		next[of[i]]++
	}
	return fileGroups{files: out, ends: ends}
}

// packSplits appends the splits of one bucket's files, in order, packed
// into splits of about target bytes with each file weighing at least
// openCost (Java BinPacking.packForOrdered). The splits are copies of proto
// holding sub-slices of files.
func packSplits(splits []Split, files []manifest.DataFileMeta, proto Split, target, openCost int64) []Split {
	start := 0
	var weight int64
	for i := range files {
		w := max(files[i].FileSize, openCost)
		if i > start && weight+w > target {
			sp := proto
			sp.Files = files[start:i:i]
			splits = append(splits, sp)
			start, weight = i, 0
		}
		weight += w
	}
	proto.Files = files[start:len(files):len(files)]
	return append(splits, proto)
}

// bucketDir is the directory of a bucket's data files relative to the table
// root (Java FileStorePathFactory.relativeBucketPath).
func (st *scanState) bucketDir(partition []byte, bucket int32) (string, error) {
	p, err := st.partitionPath(partition)
	if err != nil {
		return "", err
	}
	return bucketDirectory(st.schema, p, bucket), nil
}

// partitionPath is the directory of a partition relative to the table root,
// empty for unpartitioned tables.
func (st *scanState) partitionPath(partition []byte) (string, error) {
	values, err := st.pather.values(partition)
	if err != nil {
		return "", fmt.Errorf("%w: partition of a manifest entry: %w", ErrCorrupt, err)
	}
	return st.pather.path(values)
}

// limitSplits keeps the first splits whose known row counts reach limit
// (Java DataTableBatchScan.applyPushDownLimit; only without a filter, as
// rows may be filtered out). Only splits whose rows are known before
// reading count (Java DataSplit.mergedRowCount: raw-convertible splits
// with known deletion counts, and data-evolution splits); if those never
// reach the limit, every split is kept.
func limitSplits(splits []Split, limit int64, rows func(*Split) (int64, bool), stats *PlanStats) []Split {
	var kept []Split
	var n int64
	for i := range splits {
		r, ok := rows(&splits[i])
		if !ok {
			continue
		}
		kept = append(kept, splits[i])
		if n += r; n >= limit {
			for _, s := range splits {
				stats.FilesPrunedByLimit += len(s.Files)
			}
			for _, s := range kept {
				stats.FilesPrunedByLimit -= len(s.Files)
			}
			return kept
		}
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

// primaryKeySplits appends the splits of one bucket of a primary-key
// table, mirroring Java MergeTreeSplitGenerator.splitForBatch: when every
// file is above level 0 and holds no retraction, and either deletion
// vectors or the first-row engine guarantee one version per key or all
// files share one level, the files are read one by one (raw convertible,
// bin-packed); otherwise the bucket's files are merged, all in one split so
// that every overlapping section stays together. files holds the metadata
// of es, in the same order.
func (st *scanState) primaryKeySplits(splits []Split, es []*manifest.ManifestEntry, files []manifest.DataFileMeta, proto Split, target, openCost int64) []Split {
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
		return packSplits(splits, files, proto, target, openCost)
	}
	proto.RawConvertible = false
	proto.Files = files
	return append(splits, proto)
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

package paimon

import (
	"context"
	"fmt"
	"strings"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Incremental scan modes (Java CoreOptions.IncrementalBetweenScanMode).
const (
	// IncrementalAuto reads changelog files when the table has a changelog
	// producer, else delta files.
	IncrementalAuto = "auto"
	// IncrementalDelta reads the data files APPEND commits added.
	IncrementalDelta = "delta"
	// IncrementalChangelog reads the changelog files of every commit but
	// overwrites.
	IncrementalChangelog = "changelog"
)

// WithIncremental reads the changes committed after snapshot start up to
// and including snapshot end (Java incremental-between = "start,end"). The
// rows come with the audit log's leading rowkind column, since changes of
// primary-key tables carry -U and -D rows. mode is one of IncrementalAuto
// (""), IncrementalDelta and IncrementalChangelog; Java's "diff" mode is not
// supported yet.
func WithIncremental(start, end int64, mode string) ScanOption {
	return func(s *ScanSpec) {
		s.IncrementalStart, s.IncrementalEnd, s.IncrementalMode = start, end, mode
	}
}

func (s *Scan) incremental() bool { return s.spec.IncrementalEnd != 0 || s.spec.IncrementalStart != 0 }

func (s *Scan) validateIncremental() error {
	if !s.incremental() {
		return nil
	}
	if s.timeTravel() {
		return fmt.Errorf("%w: an incremental read cannot also time travel", ErrInvalidScan)
	}
	if s.spec.IncrementalStart < 0 || s.spec.IncrementalEnd < s.spec.IncrementalStart {
		return fmt.Errorf("%w: incremental range %d,%d (the end must be >= the start)", ErrInvalidScan, s.spec.IncrementalStart, s.spec.IncrementalEnd)
	}
	switch strings.ToLower(s.spec.IncrementalMode) {
	case "", IncrementalAuto, IncrementalDelta, IncrementalChangelog:
		return nil
	case "diff":
		return fmt.Errorf("%w: incremental mode diff", ErrUnsupported)
	}
	return fmt.Errorf("%w: unknown incremental mode %q", ErrInvalidScan, s.spec.IncrementalMode)
}

// incrementalMode resolves auto as Java's toSnapshotScanMode does.
func (s *Scan) incrementalMode(st *scanState) string {
	m := strings.ToLower(s.spec.IncrementalMode)
	if m == "" || m == IncrementalAuto {
		p := strings.ToLower(tableOptions(st.schema.Options).str(coreoptions.ChangelogProducer, "none"))
		if p == "none" {
			return IncrementalDelta
		}
		return IncrementalChangelog
	}
	return m
}

// planIncremental plans the files changed by snapshots start+1..end (Java
// IncrementalDeltaStartingScanner): the delta manifests of APPEND commits,
// or the changelog manifests of every commit except overwrites, all ADD
// entries, grouped by partition and bucket. The files are read one after
// the other without merging, every row with its row kind (Java
// MergeFileSplitRead.createNoMergeReader for streaming splits).
func (s *Scan) planIncremental(ctx context.Context, st *scanState, plan *Plan, bp *branchPlan) error {
	meta := s.table.meta
	start, end := s.spec.IncrementalStart, s.spec.IncrementalEnd
	earliest, ok, err := meta.EarliestSnapshotID(ctx)
	if err != nil {
		return err
	}
	latest, _, err := meta.LatestSnapshotID(ctx)
	if err != nil {
		return err
	}
	if !ok || start == end {
		return nil
	}
	if start < earliest-1 || end > latest {
		return fmt.Errorf("%w: incremental range (%d, %d] is outside the available snapshots [%d, %d]",
			ErrSnapshotNotFound, start, end, earliest, latest)
	}
	mode := s.incrementalMode(st)
	plan.SnapshotID = end
	var metas []manifest.ManifestFileMeta
	for id := start + 1; id <= end; id++ {
		snap, err := meta.ReadSnapshot(ctx, id)
		if err != nil {
			return err
		}
		var list manifestListRef
		switch mode {
		case IncrementalDelta:
			if snap.CommitKind != snapshot.CommitAppend {
				continue
			}
			list = manifestListRef{snap.DeltaManifestList, snap.DeltaManifestListSize}
		case IncrementalChangelog:
			if (snap.CommitKind == snapshot.CommitOverwrite && !s.spec.follow) || snap.ChangelogManifestList == nil {
				continue
			}
			list = manifestListRef{*snap.ChangelogManifestList, snap.ChangelogManifestListSize}
		}
		if list.name == "" {
			continue
		}
		ms, err := meta.readManifestList(ctx, list)
		if err != nil {
			return err
		}
		metas = append(metas, ms...)
	}
	plan.Stats.Manifests = len(metas)
	kept := metas[:0:0]
	for i := range metas {
		if st.pruner.keepManifest(&metas[i]) {
			kept = append(kept, metas[i])
		} else {
			plan.Stats.ManifestsPruned++
		}
	}
	entries, err := newFileScan(meta, s.table.manifests).readManifests(ctx, kept)
	if err != nil {
		return err
	}
	// Java's batch scans of postpone-bucket tables read real buckets only
	// (DataTableBatchScan.onlyReadRealBuckets), incremental ranges
	// included: the files of bucket -2 are not visible until compacted.
	pk := len(st.schema.PrimaryKeys) > 0
	var files []*manifest.ManifestEntry
	for i, es := range entries {
		for j := range es {
			e := &es[j]
			if e.Kind != manifest.FileKindAdd {
				return corrupt(meta.ManifestPath(kept[i].FileName), fmt.Errorf("%s file %s in a delta or changelog manifest", e.Kind, e.File.FileName))
			}
			if pk && e.Bucket == postponeBucket {
				continue
			}
			files = append(files, e)
		}
	}
	if files, err = bp.apply(st, files); err != nil {
		return nameManifest(err, meta, kept, entries)
	}
	plan.Stats.Files = len(files)
	if files, err = st.pruner.pruneEntries(ctx, files, &plan.Stats); err != nil {
		return nameManifest(err, meta, kept, entries)
	}
	if st.dataEvolution {
		if files, err = st.pruneEvolutionFiles(ctx, files); err != nil {
			return nameManifest(err, meta, kept, entries)
		}
	}
	// Group by partition and bucket in order of appearance; each group is
	// one split read file by file.
	type key struct {
		partition string
		bucket    int32
	}
	index := map[key]int{}
	for _, e := range files {
		k := key{string(e.Partition), e.Bucket}
		i, ok := index[k]
		if !ok {
			dir, err := st.bucketDir(e.Partition, e.Bucket)
			if err != nil {
				return nameManifest(&entryError{e, err}, meta, kept, entries)
			}
			i = len(plan.Splits)
			index[k] = i
			plan.Splits = append(plan.Splits, Split{
				SnapshotID: end, Partition: e.Partition, Bucket: e.Bucket, TotalBuckets: e.TotalBuckets,
				BucketPath: dir, RawConvertible: true,
			})
		}
		plan.Splits[i].Files = append(plan.Splits[i].Files, e.File)
	}
	if err := st.checkSplits(plan.Splits); err != nil {
		return err
	}
	for i := range plan.Splits {
		plan.Stats.RowCount += st.splitRows(&plan.Splits[i])
	}
	return nil
}

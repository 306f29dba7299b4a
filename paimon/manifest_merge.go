package paimon

import (
	"context"
	"fmt"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// mergeManifests folds the data manifests of the latest snapshot into the
// base manifest list of the next one, mirroring Java's
// ManifestFileMerger.merge: a full compaction when the manifests that must
// change (any with DELETE entries, or smaller than the target size) add up
// to manifest.full-compaction-threshold-size, otherwise a minor compaction
// that merges runs of small manifests reaching the target size and the
// tail only when it counts manifest.merge-min-count manifests. The order of
// manifests is kept: a DELETE entry may only follow its ADD.
func (c *TableCommit) mergeManifests(ctx context.Context, input []manifest.ManifestFileMeta) ([]manifest.ManifestFileMeta, error) {
	out, ok, err := c.fullCompaction(ctx, input)
	if err != nil || ok {
		return out, err
	}
	return c.minorCompaction(ctx, input)
}

func (c *TableCommit) minorCompaction(ctx context.Context, input []manifest.ManifestFileMeta) ([]manifest.ManifestFileMeta, error) {
	var result, candidates []manifest.ManifestFileMeta
	var size int64
	for _, m := range input {
		size += m.FileSize
		candidates = append(candidates, m)
		if size >= c.cfg.manifestTarget {
			merged, err := c.mergeCandidates(ctx, candidates)
			if err != nil {
				return nil, err
			}
			result = append(result, merged...)
			candidates, size = nil, 0
		}
	}
	if len(candidates) >= c.cfg.manifestMergeMin {
		merged, err := c.mergeCandidates(ctx, candidates)
		if err != nil {
			return nil, err
		}
		return append(result, merged...), nil
	}
	return append(result, candidates...), nil
}

// mergeCandidates rewrites consecutive manifests as one (rolled at the
// target size), cancelling ADD/DELETE pairs of the same file; DELETE
// entries whose ADD lives in an earlier manifest are kept.
func (c *TableCommit) mergeCandidates(ctx context.Context, candidates []manifest.ManifestFileMeta) ([]manifest.ManifestFileMeta, error) {
	if len(candidates) == 1 {
		return candidates, nil
	}
	lists, err := newFileScan(c.meta, c.cache).readManifests(ctx, candidates)
	if err != nil {
		return nil, err
	}
	merged, failed, err := mergeEntries(lists...)
	if err != nil {
		return nil, corrupt(c.meta.ManifestPath(candidates[failed].FileName), fmt.Errorf("merging manifests: %w", err))
	}
	if len(merged) == 0 {
		return nil, nil
	}
	return c.mw.writeManifests(ctx, merged)
}

func (c *TableCommit) fullCompaction(ctx context.Context, input []manifest.ManifestFileMeta) ([]manifest.ManifestFileMeta, bool, error) {
	mustChange := func(m *manifest.ManifestFileMeta) bool {
		return m.NumDeletedFiles > 0 || m.FileSize < c.cfg.manifestTarget
	}
	var deltaSize int64
	for i := range input {
		if mustChange(&input[i]) {
			deltaSize += input[i].FileSize
		}
	}
	if deltaSize < c.cfg.manifestFullCompaction {
		return nil, false, nil
	}

	// Every file a DELETE entry removes, and the partitions they are in.
	deleted := map[manifest.Identifier]bool{}
	deletedParts := map[string]bool{}
	var withDeletes []manifest.ManifestFileMeta
	for _, f := range input {
		if f.NumDeletedFiles > 0 {
			withDeletes = append(withDeletes, f)
		}
	}
	scan := newFileScan(c.meta, c.cache) // the cache keeps what the second pass reads again
	lists, err := scan.readManifests(ctx, withDeletes)
	if err != nil {
		return nil, false, err
	}
	for _, entries := range lists {
		for i := range entries {
			if entries[i].Kind == manifest.FileKindDelete {
				deleted[entries[i].Identifier()] = true
				deletedParts[string(entries[i].Partition)] = true
			}
		}
	}

	// Manifests that need no change and cannot hold a deleted partition
	// stay as they are.
	var result, toMerge []manifest.ManifestFileMeta
	for _, f := range input {
		if !mustChange(&f) && !c.mayContainPartitions(&f, deletedParts) {
			result = append(result, f)
			continue
		}
		toMerge = append(toMerge, f)
	}
	if len(toMerge) <= 1 {
		return nil, false, nil
	}

	if lists, err = scan.readManifests(ctx, toMerge); err != nil {
		return nil, false, err
	}
	var live []manifest.ManifestEntry
	for m, f := range toMerge {
		entries := lists[m]
		change := mustChange(&f)
		kept := make([]manifest.ManifestEntry, 0, len(entries))
		for i := range entries {
			if entries[i].Kind == manifest.FileKindDelete {
				continue
			}
			if deleted[entries[i].Identifier()] {
				change = true
				continue
			}
			kept = append(kept, entries[i])
		}
		if change {
			live = append(live, kept...)
		} else {
			result = append(result, f)
		}
	}
	merged, err := c.mw.writeManifests(ctx, live)
	if err != nil {
		return nil, false, err
	}
	return append(result, merged...), true, nil
}

// mayContainPartitions reports whether a manifest's partition statistics
// admit any of the given partitions (Java PartitionPredicate.fromMultiple
// tested on the manifest's partition stats). Without partition keys every
// manifest may contain the deleted files' partition.
func (c *TableCommit) mayContainPartitions(f *manifest.ManifestFileMeta, parts map[string]bool) bool {
	if len(parts) == 0 {
		return false
	}
	if len(c.mw.partTypes) == 0 {
		return true
	}
	for p := range parts {
		ok, err := partitionInStats(c.mw.partTypes, []byte(p), f.PartitionStats, f.NumAddedFiles+f.NumDeletedFiles)
		if err != nil || ok {
			return true
		}
	}
	return false
}

package paimon

import (
	"context"
	"errors"
	iofs "io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
)

// expireUntil expires the snapshots in [earliest, end), keeping snapshot
// end: Java ExpireSnapshotsImpl.expireUntil, step by step.
func (e *expirer) expireUntil(ctx context.Context, earliest, end int64) error {
	if end <= earliest {
		// Nothing expires; still record the earliest snapshot so readers
		// find it without listing (only when the hint is missing).
		if _, err := e.meta.readHint(ctx, earliestHint); err != nil {
			return e.writeEarliestHint(ctx, earliest)
		}
		return nil
	}
	snaps, err := e.collectSnapshots(ctx, earliest, end)
	if err != nil || len(snaps) == 0 {
		return err
	}
	begin := snaps[0].ID
	last := snaps[len(snaps)-1]
	expiring := slices.DeleteFunc(slices.Clone(snaps), func(s *snapshot.Snapshot) bool { return s.ID == end })

	// The identifiers of the expiring snapshots are recorded before
	// anything is deleted (commit-progress records).
	if e.dry == nil {
		if err := e.recordExpiring(ctx, expiring, end); err != nil {
			return err
		}
	}
	// Everything that protects files is read before the first deletion, so
	// that a failure to read it deletes nothing.
	allTags, tags, err := e.taggedSnapshots(ctx, e.meta)
	if err != nil {
		return err
	}
	if err := e.buildGuard(ctx, allTags); err != nil {
		return err
	}
	var skipping map[string]struct{}
	if last.ID == end {
		keep := append(findSkippingTags(tags, begin, end), last)
		if skipping, err = e.manifestSkippingSet(ctx, keep); err != nil {
			return err
		}
	}

	// 1. Data files removed by the snapshots after begin up to and including
	// end: none of them is used by end or any later snapshot. Begin's own
	// removals were handled when begin was the end of an earlier run.
	for _, s := range snaps {
		if s.ID == begin {
			continue
		}
		skip, err := e.dataFileSkipper(ctx, tags, s.ID)
		if err != nil {
			return err
		}
		if err := e.cleanUnusedDataFiles(ctx, manifestListRef{s.DeltaManifestList, s.DeltaManifestListSize}, skip); err != nil {
			return err
		}
	}
	// 2. Changelog files produced by the expired snapshots.
	for _, s := range expiring {
		if s.ChangelogManifestList == nil || e.changelogKept(*s.ChangelogManifestList) {
			continue
		}
		if err := e.deleteAddedDataFiles(ctx, manifestListRef{*s.ChangelogManifestList, s.ChangelogManifestListSize}); err != nil {
			return err
		}
	}
	// 3. Bucket and partition directories left empty (not predicted in a
	// dry run: nothing was removed from them).
	if e.dry == nil {
		e.cleanEmptyDirectories(ctx)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if last.ID != end {
		// The first retained snapshot vanished (a concurrent expiration):
		// without it the manifests in use are unknown.
		return nil
	}
	// 4. Manifests, manifest lists, index and statistics files.
	for _, s := range expiring {
		if err := e.cleanUnusedManifests(ctx, s, skipping); err != nil {
			return err
		}
	}
	// 5. Snapshot files, oldest first, then 6. the EARLIEST hint.
	for _, s := range expiring {
		if _, err := e.removeOne(ctx, e.meta.SnapshotPath(s.ID)); err != nil {
			return err
		}
		e.res.Expired = append(e.res.Expired, s.ID)
	}
	return e.writeEarliestHint(ctx, end)
}

// collectSnapshots reads the snapshots earliest..end (inclusive), skipping
// those already deleted, concurrently as Java does.
func (e *expirer) collectSnapshots(ctx context.Context, earliest, end int64) ([]*snapshot.Snapshot, error) {
	n := int(end - earliest + 1)
	out := make([]*snapshot.Snapshot, n)
	errs := make([]error, n)
	sem := make(chan struct{}, e.cfg.threads)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			s, err := e.meta.ReadSnapshot(ctx, earliest+int64(i))
			if !errors.Is(err, ErrSnapshotNotFound) {
				out[i], errs[i] = s, err
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(out, func(s *snapshot.Snapshot) bool { return s == nil }), nil
}

// changelogKept reports a changelog manifest list a tag or another branch
// still names.
func (e *expirer) changelogKept(list string) bool {
	_, ok := e.guard.changelogLists[list]
	return ok
}

// cleanUnusedDataFiles is FileDeletionBase.cleanUnusedDataFiles: the files
// a delta manifest list deletes, unless the same list adds them back (a
// level change keeps the file), minus those skip protects.
func (e *expirer) cleanUnusedDataFiles(ctx context.Context, deltaList manifestListRef, skip func(dataFileKey) bool) error {
	metas, err := e.tryReadManifestList(ctx, deltaList)
	if err != nil {
		return err
	}
	type pending struct {
		entry *manifest.ManifestEntry
		paths []string
		ext   bool
	}
	lists, errs, err := newFileScan(e.meta, nil).readEach(ctx, metas, tolerable)
	if err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return nil // Java cancels the whole snapshot's data file deletion
		}
	}
	byPath := map[string]*pending{}
	var order []string
	for m, entries := range lists {
		mf := &metas[m]
		for i := range entries {
			en := &entries[i]
			paths, ext, err := e.entryPaths(en, true)
			if err != nil {
				return err
			}
			key := paths[0]
			if ext {
				key = "external:" + *en.File.ExternalPath
			}
			switch en.Kind {
			case manifest.FileKindAdd:
				delete(byPath, key)
			case manifest.FileKindDelete:
				if _, ok := byPath[key]; !ok {
					order = append(order, key)
				}
				byPath[key] = &pending{entry: en, paths: paths, ext: ext}
			default:
				return corrupt(e.meta.ManifestPath(mf.FileName), errors.New("unknown file kind"))
			}
		}
	}
	var del []string
	done := map[string]struct{}{}
	for _, key := range order {
		p, ok := byPath[key]
		if _, twice := done[key]; twice || !ok || skip(keyOf(p.entry)) {
			continue
		}
		done[key] = struct{}{}
		e.recordBucket(p.entry)
		if p.ext {
			e.res.SkippedExternalFiles += len(p.paths)
			continue
		}
		del = append(del, p.paths...)
	}
	n, err := e.removeAll(ctx, del)
	e.res.DeletedDataFiles += n
	return err
}

// deleteAddedDataFiles is FileDeletionBase.deleteAddedDataFiles: every file
// a changelog manifest list adds. Unreadable manifests are skipped.
func (e *expirer) deleteAddedDataFiles(ctx context.Context, list manifestListRef) error {
	metas, err := e.tryReadManifestList(ctx, list)
	if err != nil {
		return err
	}
	lists, _, err := newFileScan(e.meta, nil).readEach(ctx, metas, tolerable)
	if err != nil {
		return err
	}
	for _, entries := range lists { // an unreadable manifest has none
		var del []string
		for i := range entries {
			en := &entries[i]
			if en.Kind != manifest.FileKindAdd {
				continue
			}
			paths, ext, err := e.entryPaths(en, false)
			if err != nil {
				return err
			}
			e.recordBucket(en)
			if ext {
				e.res.SkippedExternalFiles++
				continue
			}
			del = append(del, paths...)
		}
		n, err := e.removeAll(ctx, del)
		e.res.DeletedChangelogFiles += n
		if err != nil {
			return err
		}
	}
	return nil
}

// cleanUnusedManifests is SnapshotDeletion.cleanUnusedManifests (changelog
// not decoupled): base, delta and changelog manifest lists with their
// manifests, the index manifest with its index files, and the statistics
// file, each unless skipping names it.
func (e *expirer) cleanUnusedManifests(ctx context.Context, s *snapshot.Snapshot, skipping map[string]struct{}) error {
	lists := dataManifestLists(s)
	if s.ChangelogManifestList != nil && !e.changelogKept(*s.ChangelogManifestList) {
		lists = allManifestLists(s)
	}
	for _, list := range lists {
		if err := e.cleanUnusedManifestList(ctx, list, skipping); err != nil {
			return err
		}
	}
	if err := e.cleanUnusedIndexManifest(ctx, s, skipping); err != nil {
		return err
	}
	if s.Statistics != nil {
		if _, skip := skipping[*s.Statistics]; !skip {
			n, err := e.removeOne(ctx, e.meta.Path(statisticsDir, *s.Statistics))
			e.res.DeletedStatistics += n
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// cleanUnusedManifestList is FileDeletionBase.cleanUnusedManifestList. The
// manifests go first and the list last, so an interrupted run leaves the
// list to find them by next time; deleted manifests join skipping so later
// snapshots do not try them again.
func (e *expirer) cleanUnusedManifestList(ctx context.Context, list manifestListRef, skipping map[string]struct{}) error {
	if list.name == "" {
		return nil
	}
	metas, err := e.tryReadManifestList(ctx, list)
	if err != nil {
		return err
	}
	var del []string
	for _, mf := range metas {
		if _, skip := skipping[mf.FileName]; skip {
			continue
		}
		skipping[mf.FileName] = struct{}{}
		del = append(del, e.meta.ManifestPath(mf.FileName))
	}
	n, err := e.removeAll(ctx, del)
	e.res.DeletedManifests += n
	if err != nil {
		return err
	}
	if _, skip := skipping[list.name]; skip {
		return nil
	}
	n, err = e.removeOne(ctx, e.meta.ManifestPath(list.name))
	e.res.DeletedManifestLists += n
	return err
}

// cleanUnusedIndexManifest is FileDeletionBase.cleanUnusedIndexManifests.
func (e *expirer) cleanUnusedIndexManifest(ctx context.Context, s *snapshot.Snapshot, skipping map[string]struct{}) error {
	if s.IndexManifest == nil {
		return nil
	}
	name := *s.IndexManifest
	entries, err := e.meta.ReadIndexManifest(ctx, name)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil // deleted by an earlier run
	}
	if err != nil {
		return err
	}
	var del []string
	for i := range entries {
		if _, skip := skipping[entries[i].IndexFile.FileName]; skip {
			continue
		}
		p, ext, err := e.indexFilePath(&entries[i])
		if err != nil {
			return err
		}
		if ext {
			e.res.SkippedExternalFiles++
			continue
		}
		del = append(del, p)
	}
	n, err := e.removeAll(ctx, del)
	e.res.DeletedIndexFiles += n
	if err != nil {
		return err
	}
	if _, skip := skipping[name]; skip {
		return nil
	}
	n, err = e.removeOne(ctx, e.meta.ManifestPath(name))
	e.res.DeletedIndexManifests += n
	return err
}

// cleanEmptyDirectories is FileDeletionBase.cleanEmptyDirectories: try to
// remove the bucket directories files were deleted from, then their
// partition directories from the deepest level up. Removing a directory
// that is not empty fails, which is the point; failures are ignored.
func (e *expirer) cleanEmptyDirectories(ctx context.Context) {
	if !e.cfg.cleanEmptyDirs || len(e.deletionBuckets) == 0 {
		return
	}
	parts := make([]string, 0, len(e.deletionBuckets))
	for p := range e.deletionBuckets {
		parts = append(parts, p)
	}
	slices.Sort(parts)
	var levels []map[string]struct{}
	for _, part := range parts {
		buckets := make([]int32, 0, len(e.deletionBuckets[part]))
		for b := range e.deletionBuckets[part] {
			buckets = append(buckets, b)
		}
		slices.Sort(buckets)
		for _, b := range buckets {
			if dir, err := e.bucketDir([]byte(part), b); err == nil {
				e.tryRemoveDir(ctx, dir)
			}
		}
		pd, err := e.partitionDir([]byte(part))
		if err != nil || pd == "" {
			continue
		}
		elems := strings.Split(strings.TrimSuffix(pd, "/"), "/")
		if !e.tryRemoveDir(ctx, e.dataRel(strings.Join(elems, "/"))) {
			continue
		}
		for lvl := range len(elems) - 1 {
			for len(levels) <= lvl {
				levels = append(levels, map[string]struct{}{})
			}
			levels[lvl][strings.Join(elems[:lvl+1], "/")] = struct{}{}
		}
	}
	for lvl := len(levels) - 1; lvl >= 0; lvl-- {
		dirs := make([]string, 0, len(levels[lvl]))
		for d := range levels[lvl] {
			dirs = append(dirs, d)
		}
		slices.Sort(dirs)
		for _, d := range dirs {
			e.tryRemoveDir(ctx, e.dataRel(d))
		}
	}
	clear(e.deletionBuckets)
}

// tryRemoveDir removes dir if it is an empty directory. It lists it first
// rather than trusting FS.Remove to refuse a non-empty directory, which the
// fs contract leaves to the implementation.
func (e *expirer) tryRemoveDir(ctx context.Context, dir string) bool {
	for _, err := range e.fsys.List(ctx, dir) {
		_ = err
		return false // not empty, or not listable
	}
	if e.fsys.Remove(ctx, dir) != nil {
		return false
	}
	e.res.DeletedDirectories++
	return true
}

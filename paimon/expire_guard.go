package paimon

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
)

// expireGuard holds what expiration must keep beyond Java's own skipping
// sets. Data, manifest and index files are shared by all branches of a
// table, but Java's ExpireSnapshotsImpl only looks at the branch it expires
// and relies on the tag a branch was created from to keep that branch's
// files alive. The guard makes the protection explicit: everything any
// other branch's snapshots and tags reference, and the changelog manifest
// lists named by tags (which Java deletes along with the tagged snapshot
// even though the tag file still names them).
type expireGuard struct {
	// names are manifest lists, manifests, index manifests, index files
	// and statistics files referenced by other branches.
	names map[string]struct{}
	// data are the data files other branches' manifests add.
	data map[dataFileKey]struct{}
	// changelogLists are changelog manifest lists of tags and of other
	// branches' snapshots; their changelog files and manifests are kept.
	changelogLists map[string]struct{}
	// manifestsSeen avoids reading a manifest shared by many snapshots
	// more than once.
	manifestsSeen map[string]struct{}
}

// taggedSnapshots is Java TagManager.taggedSnapshots for the expired
// branch: the snapshots of all tags, sorted by id, one per id. Tags deleted
// while listing are skipped.
func (e *expirer) taggedSnapshots(ctx context.Context, m *TableMeta) (all, byID []*snapshot.Snapshot, err error) {
	names, err := m.TagNames(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range names {
		tag, err := m.ReadTag(ctx, name)
		if errors.Is(err, ErrTagNotFound) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		all = append(all, &tag.Snapshot)
	}
	byID = slices.Clone(all)
	slices.SortStableFunc(byID, func(a, b *snapshot.Snapshot) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	byID = slices.CompactFunc(byID, func(a, b *snapshot.Snapshot) bool { return a.ID == b.ID })
	return all, byID, nil
}

// buildGuard collects the references of every other branch (main too when
// the table is opened on a branch) and the changelog lists of tags.
func (e *expirer) buildGuard(ctx context.Context, tags []*snapshot.Snapshot) error {
	g := &expireGuard{
		names:          map[string]struct{}{},
		data:           map[dataFileKey]struct{}{},
		changelogLists: map[string]struct{}{},
		manifestsSeen:  map[string]struct{}{},
	}
	e.guard = g
	for _, t := range tags {
		if t.ChangelogManifestList != nil {
			g.changelogLists[*t.ChangelogManifestList] = struct{}{}
		}
	}
	branches, err := e.otherBranches(ctx)
	if err != nil {
		return err
	}
	for _, b := range branches {
		m := e.meta.WithBranch(b)
		ids, err := m.SnapshotIDs(ctx)
		if err != nil {
			return err
		}
		for _, id := range ids {
			s, err := m.ReadSnapshot(ctx, id)
			if errors.Is(err, ErrSnapshotNotFound) {
				continue // expired concurrently
			}
			if err != nil {
				return err
			}
			if err := e.guardSnapshot(ctx, s); err != nil {
				return err
			}
		}
		branchTags, _, err := e.taggedSnapshots(ctx, m)
		if err != nil {
			return err
		}
		for _, s := range branchTags {
			if err := e.guardSnapshot(ctx, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// otherBranches lists the branches whose files the expired branch must not
// delete: every branch/branch-<name> directory but its own, and main when
// it is not main itself.
func (e *expirer) otherBranches(ctx context.Context) ([]string, error) {
	var out []string
	if e.meta.Branch() != MainBranch {
		out = append(out, MainBranch)
	}
	for fi, err := range e.fsys.List(ctx, e.meta.Path(branchDir)) {
		if err != nil {
			return nil, err
		}
		name, ok := strings.CutPrefix(fi.Name, branchPrefix)
		if !ok || !fi.IsDir || name == "" || name == e.meta.Branch() {
			continue
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out, nil
}

// guardSnapshot adds everything a snapshot of another branch references.
// Every failure is returned: a guard that might be incomplete must not be
// used to delete anything.
func (e *expirer) guardSnapshot(ctx context.Context, s *snapshot.Snapshot) error {
	g := e.guard
	for _, list := range dataManifestLists(s) {
		if list.name == "" {
			continue
		}
		g.names[list.name] = struct{}{}
		metas, err := e.meta.readManifestList(ctx, list)
		if err != nil {
			return err
		}
		var unseen []manifest.ManifestFileMeta
		for _, mf := range metas {
			g.names[mf.FileName] = struct{}{}
			if _, seen := g.manifestsSeen[mf.FileName]; !seen {
				g.manifestsSeen[mf.FileName] = struct{}{}
				unseen = append(unseen, mf)
			}
		}
		lists, err := newFileScan(e.meta, nil).readManifests(ctx, unseen)
		if err != nil {
			return err
		}
		for _, entries := range lists {
			for i := range entries {
				if entries[i].Kind == manifest.FileKindAdd {
					g.data[keyOf(&entries[i])] = struct{}{}
				}
			}
		}
	}
	if s.ChangelogManifestList != nil {
		g.changelogLists[*s.ChangelogManifestList] = struct{}{}
	}
	if s.IndexManifest != nil {
		if err := e.addIndexNames(ctx, g.names, *s.IndexManifest); err != nil {
			return err
		}
	}
	if s.Statistics != nil {
		g.names[*s.Statistics] = struct{}{}
	}
	return nil
}

// addIndexNames adds an index manifest and the index files it lists.
func (e *expirer) addIndexNames(ctx context.Context, set map[string]struct{}, indexManifest string) error {
	set[indexManifest] = struct{}{}
	entries, err := e.meta.ReadIndexManifest(ctx, indexManifest)
	if err != nil {
		return err
	}
	for _, en := range entries {
		set[en.IndexFile.FileName] = struct{}{}
	}
	return nil
}

// manifestSkippingSet is Java FileDeletionBase.manifestSkippingSet over the
// given snapshots (the tags overlapping the expired range and the first
// retained snapshot), plus the guard's names.
func (e *expirer) manifestSkippingSet(ctx context.Context, snaps []*snapshot.Snapshot) (map[string]struct{}, error) {
	set := map[string]struct{}{}
	for n := range e.guard.names {
		set[n] = struct{}{}
	}
	for _, s := range snaps {
		set[s.BaseManifestList] = struct{}{}
		set[s.DeltaManifestList] = struct{}{}
		metas, err := e.meta.DataManifests(ctx, s)
		if err != nil {
			return nil, err
		}
		for _, mf := range metas {
			set[mf.FileName] = struct{}{}
		}
		if s.IndexManifest != nil {
			if err := e.addIndexNames(ctx, set, *s.IndexManifest); err != nil {
				return nil, err
			}
		}
		if s.Statistics != nil {
			set[*s.Statistics] = struct{}{}
		}
	}
	return set, nil
}

// findSkippingTags is Java ExpireSnapshotsImpl.findSkippingTags: the tags
// from the last one at or before beginInclusive through the last one before
// endExclusive.
func findSkippingTags(sorted []*snapshot.Snapshot, beginInclusive, endExclusive int64) []*snapshot.Snapshot {
	right := previousSnapshot(sorted, endExclusive, false)
	if right < 0 {
		return nil
	}
	left := max(previousSnapshot(sorted, beginInclusive, true), 0)
	return slices.Clone(sorted[left : right+1])
}

// previousSnapshot is SnapshotManager.findPreviousSnapshot (orEqual false)
// and findPreviousOrEqualSnapshot (orEqual true): the index of the last
// snapshot with an id below (or at) id, -1 if none.
func previousSnapshot(sorted []*snapshot.Snapshot, id int64, orEqual bool) int {
	for i := len(sorted) - 1; i >= 0; i-- {
		if sorted[i].ID < id || (orEqual && sorted[i].ID == id) {
			return i
		}
	}
	return -1
}

// dataFileSkipper is Java FileDeletionBase.createDataFileSkipperForTags
// joined with the guard: a data file removed by snapshot expiringID is kept
// when the last tag before that snapshot, or another branch, still holds
// it. A file lives in a contiguous range of snapshots, so the last earlier
// tag is the only one that can still hold a file removed at expiringID.
func (e *expirer) dataFileSkipper(ctx context.Context, tags []*snapshot.Snapshot, expiringID int64) (func(dataFileKey) bool, error) {
	guard := e.guard.data
	i := previousSnapshot(tags, expiringID, false)
	if i < 0 {
		return func(k dataFileKey) bool { _, ok := guard[k]; return ok }, nil
	}
	tag := tags[i]
	if tag.ID != e.cachedTag || e.cachedTagFiles == nil {
		e.cachedTag, e.cachedTagFiles = 0, nil
		files, err := e.mergedDataFiles(ctx, tag)
		if err != nil {
			return nil, err
		}
		e.cachedTag, e.cachedTagFiles = tag.ID, files
	}
	tagFiles := e.cachedTagFiles
	return func(k dataFileKey) bool {
		if _, ok := tagFiles[k]; ok {
			return true
		}
		_, ok := guard[k]
		return ok
	}, nil
}

// mergedDataFiles is FileDeletionBase.addMergedDataFiles: the files of the
// merged manifest entries of a snapshot (unmatched DELETE entries
// included, as in Java).
func (e *expirer) mergedDataFiles(ctx context.Context, s *snapshot.Snapshot) (map[dataFileKey]struct{}, error) {
	scanned, err := newFileScan(e.meta, nil).scan(ctx, s)
	if err != nil {
		return nil, err
	}
	merged, err := scanned.merged()
	if err != nil {
		return nil, err
	}
	out := make(map[dataFileKey]struct{}, len(merged))
	for _, en := range merged {
		out[keyOf(en)] = struct{}{}
	}
	return out, nil
}

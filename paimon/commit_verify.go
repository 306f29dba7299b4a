package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
)

// This file holds what a commit does after its create-if-absent of
// snapshot N succeeded: decide whether N sits directly on the history the
// commit was computed from, or whether N had existed and expired while the
// commit stalled (a fork), and move the LATEST hint forward. The rules and
// why they hold are in RELIABILITY.md ("Design: commits under expiration,
// stalls and damaged metadata"). Java's FileStoreCommitImpl has no such
// check: it relies on snapshot.time-retained outliving every commit.

// landing is what verifyLanded concluded about a published snapshot.
type landing int

const (
	landed    landing = iota // N follows the history it was computed from
	forked                   // N recreated an expired id: nobody sees it, remove it
	undecided                // N+1 exists and N added no file to tell by
)

// verifyTries bounds the re-checks when the snapshots around N change
// while they are being looked at (a concurrent expiration that has removed
// N+1's manifests but not yet its snapshot file). Between tries the commit
// waits as between attempts, so that a slow expirer can finish; when the
// tries run out the outcome is uncertain (ErrCommitUncertain), as after a
// lost acknowledgement.
const verifyTries = 6

// verifyLanded decides whether snapshot s, which this committer published,
// landed on the history it was computed from. base is the snapshot the
// attempt read as the latest (nil for a first snapshot); baseKnown is
// false when s was found after an attempt with an unknown outcome, whose
// base is not known: then any predecessor counts. files are the attempt's
// entries (ADD and DELETE).
func (c *TableCommit) verifyLanded(ctx context.Context, s, base *snapshot.Snapshot, baseKnown bool,
	files []manifest.ManifestEntry) (landing, error) {
	for try := range verifyTries {
		verdict, retry, err := c.verifyOnce(ctx, s, base, baseKnown, files)
		if err != nil {
			return 0, err
		}
		if !retry {
			return verdict, nil
		}
		if try < verifyTries-1 {
			if err := c.wait(ctx, try); err != nil {
				return 0, err
			}
		}
	}
	return 0, fmt.Errorf("%w: the snapshots around %d kept changing while checking it", ErrCommitUncertain, s.ID)
}

func (c *TableCommit) verifyOnce(ctx context.Context, s, base *snapshot.Snapshot, baseKnown bool,
	files []manifest.ManifestEntry) (verdict landing, retry bool, err error) {
	id := s.ID
	// 1. The predecessor is still there: expiration removes snapshots
	// oldest first, so the old snapshot N cannot have expired.
	if id > snapshot.FirstSnapshotID {
		prev, err := c.meta.ReadSnapshot(ctx, id-1)
		switch {
		case errors.Is(err, ErrSnapshotNotFound):
		case err != nil:
			return 0, false, err
		case !baseKnown || (base != nil && sameSnapshot(prev, base)):
			return landed, false, nil
		}
	}
	// 2. Landed when N is the newest snapshot. The listing comes before N+1
	// is looked for: in the other order another writer could create N+1
	// (on N) between the two, and N looked like a fork below newer
	// snapshots; removing it removed manifests that N+1 references (CI:
	// storetest ConcurrentCommits, where the first snapshot has no
	// predecessor to decide by in step 1).
	ids, err := c.meta.SnapshotIDs(ctx)
	if err != nil {
		return 0, false, err
	}
	if len(ids) == 0 || ids[len(ids)-1] <= id {
		return landed, false, nil
	}
	next, err := c.meta.ReadSnapshot(ctx, id+1)
	if errors.Is(err, ErrSnapshotNotFound) {
		// Newer snapshots were listed and N+1 is not there. If N is still
		// there, N is a fork below the retained history (N+1 cannot have
		// expired before N). If N is gone too, an expiration removed both
		// after the listing: N was history, but look again rather than
		// guess (the tries end in ErrCommitUncertain).
		switch _, err := c.meta.ReadSnapshot(ctx, id); {
		case errors.Is(err, ErrSnapshotNotFound):
			return 0, true, nil
		case err != nil:
			return 0, false, err
		}
		return forked, false, nil
	}
	// 3. N+1 exists: built on N, it knows N's files.
	verdict, err = c.knowsFiles(ctx, next, files)
	if errors.Is(err, iofs.ErrNotExist) {
		return 0, true, nil // N+1 expired meanwhile: look again
	}
	return verdict, false, err
}

// sameSnapshot reports whether two decoded snapshot files are the same
// commit: the manifest list names are unique per commit.
func sameSnapshot(a, b *snapshot.Snapshot) bool {
	return a.ID == b.ID && a.CommitUser == b.CommitUser && a.CommitIdentifier == b.CommitIdentifier &&
		a.TimeMillis == b.TimeMillis && a.BaseManifestList == b.BaseManifestList &&
		a.DeltaManifestList == b.DeltaManifestList
}

// knowsFiles decides from snapshot next, which follows a snapshot N holding
// files, whether next was built on N: then every file N added is live in
// next or deleted by next's delta, and no file N deleted is live in next.
func (c *TableCommit) knowsFiles(ctx context.Context, next *snapshot.Snapshot, files []manifest.ManifestEntry) (landing, error) {
	added, deleted := map[string]bool{}, map[string]bool{}
	for i := range files {
		if files[i].Kind == manifest.FileKindAdd {
			added[files[i].File.FileName] = true
		} else {
			deleted[files[i].File.FileName] = true
		}
	}
	live, err := liveEntries(ctx, c.meta, c.cache, next, nil)
	if err != nil {
		return 0, err
	}
	for i := range live {
		name := live[i].File.FileName
		if deleted[name] {
			return forked, nil
		}
		if added[name] {
			return landed, nil
		}
	}
	if len(added) == 0 {
		return undecided, nil
	}
	delta, err := c.meta.DeltaManifests(ctx, next)
	if err != nil {
		return 0, err
	}
	for i := range delta {
		entries, err := c.meta.ReadListedManifest(ctx, &delta[i])
		if err != nil {
			return 0, err
		}
		for j := range entries {
			if added[entries[j].File.FileName] {
				return landed, nil
			}
		}
	}
	return forked, nil
}

// removeOwnSnapshot removes snapshot id, which this committer created and
// nobody builds on (a fork, or a snapshot it cannot vouch for).
func (c *TableCommit) removeOwnSnapshot(ctx context.Context, id int64) error {
	err := c.meta.fsys.Remove(context.WithoutCancel(ctx), c.meta.SnapshotPath(id))
	if err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return fmt.Errorf("paimon: remove snapshot %d, which recreated an expired id: %w", id, err)
	}
	return nil
}

// writeLatestHint points LATEST at id, or at a newer snapshot when one was
// committed meanwhile, so that a slow committer does not move the hint
// back. The hint only speeds readers up (they check it), so failures are
// ignored, and it is written without the fsyncs that make a snapshot
// durable (hintOptions).
func (c *TableCommit) writeLatestHint(ctx context.Context, id int64) {
	path := c.meta.branchPath(snapshotDir, latestHint)
	if fs.WriteFile(ctx, c.meta.fsys, path, snapshot.FormatHint(id), hintOptions) != nil {
		return
	}
	if newer, err := fs.Exists(ctx, c.meta.fsys, c.meta.SnapshotPath(id+1)); err != nil || !newer {
		return
	}
	// Someone committed id+1 and may have written its hint before ours.
	if latest, ok, err := c.meta.LatestSnapshotID(ctx); err == nil && ok && latest > id {
		_ = fs.WriteFile(ctx, c.meta.fsys, path, snapshot.FormatHint(latest), hintOptions)
	}
}

// baseVanished reports whether err, which stopped an attempt computed
// from base, comes from a file that a concurrent expiration removed: the
// file is missing and base is no longer the latest snapshot (an
// expiration never touches the latest snapshot's files). The attempt is
// then retried from the new latest, as after a lost race.
func (c *TableCommit) baseVanished(ctx context.Context, base *snapshot.Snapshot, err error) bool {
	if base == nil || !errors.Is(err, iofs.ErrNotExist) {
		return false
	}
	latest, ok, lerr := c.meta.LatestSnapshotID(ctx)
	return lerr == nil && (!ok || latest != base.ID)
}

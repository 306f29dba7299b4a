package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
)

// Long-lived changelog files (Java ChangelogManager): snapshots moved out of
// snapshot/ when changelog retention outlives snapshot retention.
const (
	longLivedChangelogDir    = "changelog"
	longLivedChangelogPrefix = "changelog-"
)

// RollbackResult says what RollbackTo and RollbackToTag did.
type RollbackResult struct {
	// SnapshotID is the table's latest snapshot afterwards.
	SnapshotID int64
	// DeletedSnapshots lists the snapshot files removed, ascending.
	DeletedSnapshots []int64
	// DeletedChangelogs lists the long-lived changelog files removed,
	// ascending.
	DeletedChangelogs []int64
	// DeletedTags lists the tags removed because they tagged snapshots
	// newer than the target, by name.
	DeletedTags []string
	// Restored is true when the target snapshot had expired and its file
	// was written again from the tag.
	Restored bool
}

// RollbackTo makes snapshot id the latest snapshot of the table's branch,
// as Java's FileStoreTable.rollbackTo(long) does with a filesystem catalog
// (RollbackHelper.cleanLargerThan): the LATEST hint is set to id, the
// snapshot files newer than id are removed newest first, then the
// long-lived changelogs and the tags newer than id. When snapshot id has
// expired but a tag still holds it, the rollback goes to that tag (see
// RollbackToTag). Otherwise a missing snapshot yields ErrSnapshotNotFound.
//
// Data, manifest and index files are left alone, as in Java: those that
// only the removed snapshots and tags referenced become orphans, which no
// snapshot reaches and which are therefore harmless (an orphan-file
// cleanup can remove them later). Deleting them here would gain space but
// risk a file that some reader or another branch still uses. Every file
// the target snapshot references was kept alive by that snapshot's own
// existence, so the table stays readable at every remaining snapshot and
// tag.
//
// The removals run newest first, so an interrupted rollback leaves a table
// whose snapshots are a prefix of the old ones; running it again finishes
// the job. Like Java, it takes no lock: writers must be stopped meanwhile.
//
// A table whose catalog publishes its snapshots (TableOptions.SnapshotCommit)
// asks the catalog to roll back instead, as Java's FileStoreTable does
// through its catalog's TableRollback.
func (t *Table) RollbackTo(ctx context.Context, id int64) (*RollbackResult, error) {
	if t.publisher != nil {
		return t.rollbackThrough(ctx, id, "")
	}
	s, err := t.meta.ReadSnapshot(ctx, id)
	if errors.Is(err, ErrSnapshotNotFound) {
		tags, terr := readTags(ctx, t.meta)
		if terr != nil {
			return nil, fmt.Errorf("paimon: rollback %s to snapshot %d: %w", t.meta.Root(), id, terr)
		}
		for _, nt := range tags {
			if nt.tag.ID == id {
				return t.RollbackToTag(ctx, nt.name)
			}
		}
		return nil, fmt.Errorf("paimon: rollback %s: %w (neither a snapshot file nor a tag holds it)", t.meta.Root(), err)
	}
	if err != nil {
		return nil, fmt.Errorf("paimon: rollback %s to snapshot %d: %w", t.meta.Root(), id, err)
	}
	res := &RollbackResult{SnapshotID: id}
	if err := t.cleanLargerThan(ctx, s, res); err != nil {
		return res, fmt.Errorf("paimon: rollback %s to snapshot %d: %w", t.meta.Root(), id, err)
	}
	return res, nil
}

// RollbackToTag makes the snapshot of tag name the latest snapshot, as
// Java's FileStoreTable.rollbackTo(String) does. When that snapshot has
// expired, its file is written again from the tag (the tag file is the
// snapshot's JSON) and the EARLIEST hint points at it; every file it
// references is still there because the tag kept it from expiring.
//
// Unlike Java, the snapshot file is restored before the newer snapshots are
// removed, not after: an interruption then never leaves the table without
// a snapshot. See RollbackTo for what is removed and kept.
func (t *Table) RollbackToTag(ctx context.Context, name string) (*RollbackResult, error) {
	if err := checkTagName(name); err != nil {
		return nil, err
	}
	if t.publisher != nil {
		return t.rollbackThrough(ctx, 0, name)
	}
	tag, err := t.meta.ReadTag(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("paimon: rollback %s: %w", t.meta.Root(), err)
	}
	s := &tag.Snapshot
	res := &RollbackResult{SnapshotID: s.ID}
	fail := func(err error) (*RollbackResult, error) {
		return res, fmt.Errorf("paimon: rollback %s to tag %q (snapshot %d): %w", t.meta.Root(), name, s.ID, err)
	}
	earliest, hasSnapshots, err := t.meta.EarliestSnapshotID(ctx)
	if err != nil {
		return fail(err)
	}
	exists, err := fs.Exists(ctx, t.meta.fsys, t.meta.SnapshotPath(s.ID))
	if err != nil {
		return fail(err)
	}
	if !exists {
		err := fs.WriteFile(ctx, t.meta.fsys, t.meta.SnapshotPath(s.ID), s.Encode(), &fs.CreateOptions{IfNotExist: true})
		if errors.Is(err, fs.ErrUnsupported) {
			err = fs.WriteFile(ctx, t.meta.fsys, t.meta.SnapshotPath(s.ID), s.Encode(), nil)
		}
		if err != nil && !errors.Is(err, iofs.ErrExist) {
			return fail(fmt.Errorf("restore snapshot file: %w", err))
		}
		res.Restored = err == nil
	}
	if err := t.cleanLargerThan(ctx, s, res); err != nil {
		return fail(err)
	}
	if res.Restored && (!hasSnapshots || s.ID < earliest) {
		if err := writeHint(ctx, t.meta, earliestHint, s.ID); err != nil {
			return fail(err)
		}
	}
	return res, nil
}

// cleanLargerThan is Java RollbackHelper.cleanLargerThan: LATEST hint
// first, then the commit-progress records (not in Java), the snapshots,
// long-lived changelogs and tags newer than s.
func (t *Table) cleanLargerThan(ctx context.Context, s *snapshot.Snapshot, res *RollbackResult) error {
	ids, err := t.meta.SnapshotIDs(ctx)
	if err != nil {
		return err
	}
	if err := writeHint(ctx, t.meta, latestHint, s.ID); err != nil {
		return err
	}
	// Commit-progress records may name identifiers of the snapshots about
	// to go: without them the exactly-once check scans the remaining
	// snapshots, as Java's does, and a rolled-back batch can be committed
	// again.
	if err := fs.RemoveAll(ctx, t.meta.fsys, t.meta.branchPath(progressDir)); err != nil {
		return err
	}
	for _, id := range slices.Backward(ids) {
		if id <= s.ID {
			break
		}
		if err := removeIfExists(ctx, t.meta.fsys, t.meta.SnapshotPath(id)); err != nil {
			return err
		}
		res.DeletedSnapshots = append(res.DeletedSnapshots, id)
	}
	slices.Reverse(res.DeletedSnapshots)
	if err := t.cleanChangelogs(ctx, s.ID, res); err != nil {
		return err
	}
	tags, err := readTags(ctx, t.meta)
	if err != nil {
		return err
	}
	for _, nt := range tags {
		if nt.tag.ID <= s.ID {
			continue
		}
		if err := removeIfExists(ctx, t.meta.fsys, t.meta.TagPath(nt.name)); err != nil {
			return err
		}
		res.DeletedTags = append(res.DeletedTags, nt.name)
	}
	return nil
}

// cleanChangelogs removes the long-lived changelogs newer than id and moves
// their LATEST hint back (RollbackHelper.cleanLongLivedChangelogs): to the
// last one kept, or -1 when none is left.
func (t *Table) cleanChangelogs(ctx context.Context, id int64, res *RollbackResult) error {
	dir := t.meta.branchPath(longLivedChangelogDir)
	ids, err := t.meta.listIDs(ctx, dir, longLivedChangelogPrefix)
	if err != nil || len(ids) == 0 || ids[len(ids)-1] <= id {
		return err
	}
	keep := ids[0] <= id
	hint := int64(-1)
	if keep {
		hint = id
	}
	if err := fs.WriteFile(ctx, t.meta.fsys, dir+"/"+latestHint, snapshot.FormatHint(hint), nil); err != nil {
		return err
	}
	for _, cid := range slices.Backward(ids) {
		if cid <= id {
			break
		}
		if err := removeIfExists(ctx, t.meta.fsys, dir+"/"+longLivedChangelogPrefix+fmt.Sprint(cid)); err != nil {
			return err
		}
		res.DeletedChangelogs = append(res.DeletedChangelogs, cid)
	}
	slices.Reverse(res.DeletedChangelogs)
	return nil
}

// writeHint replaces snapshot/LATEST or snapshot/EARLIEST of the branch
// (Java HintFileUtils.commitHint).
func writeHint(ctx context.Context, m *TableMeta, name string, id int64) error {
	return fs.WriteFile(ctx, m.fsys, m.branchPath(snapshotDir, name), snapshot.FormatHint(id), nil)
}

// removeIfExists deletes a file; one already gone is not an error.
func removeIfExists(ctx context.Context, fsys fs.FS, p string) error {
	if err := fsys.Remove(ctx, p); err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// PreviewRollback says what RollbackTo(ctx, id) (with tag "") or
// RollbackToTag(ctx, tag) (with id 0) would do on a filesystem-published
// table, changing nothing: the snapshot that would become the latest, the
// snapshot files, long-lived changelogs and tags that would be removed, and
// whether the target would be restored from its tag. It reads the same
// listings the rollback acts on (RollbackHelper.cleanLargerThan), so a
// rollback that follows with no writer in between does exactly this.
func (t *Table) PreviewRollback(ctx context.Context, id int64, tag string) (*RollbackResult, error) {
	if (id == 0) == (tag == "") {
		return nil, fmt.Errorf("%w: preview rollback of %s: give a snapshot id or a tag, not both or neither", ErrInvalidOption, t.meta.Root())
	}
	res := &RollbackResult{}
	if tag == "" {
		_, err := t.meta.ReadSnapshot(ctx, id)
		if errors.Is(err, ErrSnapshotNotFound) {
			tags, terr := readTags(ctx, t.meta)
			if terr != nil {
				return nil, fmt.Errorf("paimon: preview rollback of %s to snapshot %d: %w", t.meta.Root(), id, terr)
			}
			for _, nt := range tags {
				if nt.tag.ID == id {
					return t.PreviewRollback(ctx, 0, nt.name)
				}
			}
			return nil, fmt.Errorf("paimon: preview rollback of %s: %w (neither a snapshot file nor a tag holds it)", t.meta.Root(), err)
		}
		if err != nil {
			return nil, fmt.Errorf("paimon: preview rollback of %s to snapshot %d: %w", t.meta.Root(), id, err)
		}
		res.SnapshotID = id
	} else {
		if err := checkTagName(tag); err != nil {
			return nil, err
		}
		tg, err := t.meta.ReadTag(ctx, tag)
		if err != nil {
			return nil, fmt.Errorf("paimon: preview rollback of %s: %w", t.meta.Root(), err)
		}
		res.SnapshotID = tg.Snapshot.ID
		exists, err := fs.Exists(ctx, t.meta.fsys, t.meta.SnapshotPath(res.SnapshotID))
		if err != nil {
			return nil, fmt.Errorf("paimon: preview rollback of %s: %w", t.meta.Root(), err)
		}
		res.Restored = !exists
	}
	fail := func(err error) (*RollbackResult, error) {
		return nil, fmt.Errorf("paimon: preview rollback of %s to snapshot %d: %w", t.meta.Root(), res.SnapshotID, err)
	}
	ids, err := t.meta.SnapshotIDs(ctx)
	if err != nil {
		return fail(err)
	}
	for _, sid := range ids {
		if sid > res.SnapshotID {
			res.DeletedSnapshots = append(res.DeletedSnapshots, sid)
		}
	}
	cids, err := t.meta.listIDs(ctx, t.meta.branchPath(longLivedChangelogDir), longLivedChangelogPrefix)
	if err != nil {
		return fail(err)
	}
	for _, cid := range cids {
		if cid > res.SnapshotID {
			res.DeletedChangelogs = append(res.DeletedChangelogs, cid)
		}
	}
	tags, err := readTags(ctx, t.meta)
	if err != nil {
		return fail(err)
	}
	for _, nt := range tags {
		if nt.tag.ID > res.SnapshotID {
			res.DeletedTags = append(res.DeletedTags, nt.name)
		}
	}
	return res, nil
}

package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
)

// orphanRefs collects the names of every file the table references (Java
// OrphanFilesClean.collectWithoutDataFile and getUsedFiles): manifest
// lists, manifests, index manifests, index files, statistics files, and
// the data files and extra files of every manifest entry, ADD or DELETE.
type orphanRefs struct {
	c     *orphanCleaner
	names map[string]bool
	// read remembers the manifests (and lists) already decoded: they are
	// immutable and shared by many snapshots.
	read map[string]bool
	// missing records, per referencing metadata file, a file it names
	// that does not exist. verify decides whether that is a race with
	// expiration or a broken table.
	missing map[string]string
}

func newOrphanRefs(c *orphanCleaner) *orphanRefs {
	return &orphanRefs{c: c, names: map[string]bool{}, read: map[string]bool{}, missing: map[string]string{}}
}

// collectBranch adds the references of the branch's snapshots, tags and
// changelogs (Java safelyGetAllSnapshots: files that vanish are skipped).
func (r *orphanRefs) collectBranch(ctx context.Context, m *TableMeta) error {
	ids, err := m.SnapshotIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s, err := m.ReadSnapshot(ctx, id)
		if errors.Is(err, ErrSnapshotNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("paimon: remove orphan files: %w", err)
		}
		if err := r.collectSnapshot(ctx, m.SnapshotPath(id), s); err != nil {
			return err
		}
	}
	tags, err := m.TagNames(ctx)
	if err != nil {
		return err
	}
	for _, name := range tags {
		tag, err := m.ReadTag(ctx, name)
		if errors.Is(err, ErrTagNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("paimon: remove orphan files: %w", err)
		}
		if err := r.collectSnapshot(ctx, m.TagPath(name), &tag.Snapshot); err != nil {
			return err
		}
	}
	return r.collectChangelogs(ctx, m)
}

// collectChangelogs adds the references of changelog/changelog-<id> files
// (snapshots whose changelog outlives them, Java ChangelogManager).
func (r *orphanRefs) collectChangelogs(ctx context.Context, m *TableMeta) error {
	dir := m.branchPath(changelogDir)
	entries, err := fs.ReadDir(ctx, r.c.fsys, dir)
	if err != nil {
		return err
	}
	for _, fi := range entries {
		rest, ok := strings.CutPrefix(fi.Name, changelogPrefix)
		if !ok || fi.IsDir {
			continue
		}
		if _, err := strconv.ParseInt(rest, 10, 64); err != nil {
			continue
		}
		p := dir + "/" + fi.Name
		b, err := fs.ReadFile(ctx, r.c.fsys, p)
		if errors.Is(err, iofs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		s, err := snapshot.Decode(b)
		if err != nil {
			return corrupt(p, err)
		}
		if err := r.collectSnapshot(ctx, p, s); err != nil {
			return err
		}
	}
	return nil
}

// collectSnapshot adds what one snapshot (tag, changelog) names. owner is
// the metadata file it was read from.
func (r *orphanRefs) collectSnapshot(ctx context.Context, owner string, s *snapshot.Snapshot) error {
	for _, list := range allManifestLists(s) {
		if list.name == "" {
			continue
		}
		if err := r.collectList(ctx, owner, list); err != nil {
			return err
		}
	}
	if s.IndexManifest != nil {
		if err := r.collectIndexManifest(ctx, owner, *s.IndexManifest); err != nil {
			return err
		}
	}
	if s.Statistics != nil {
		r.names[*s.Statistics] = true
	}
	return nil
}

func (r *orphanRefs) collectList(ctx context.Context, owner string, list manifestListRef) error {
	r.names[list.name] = true
	if r.read[list.name] {
		return nil
	}
	metas, err := r.c.meta.readManifestList(ctx, list)
	if errors.Is(err, iofs.ErrNotExist) {
		r.missing[owner] = list.name
		return nil
	}
	if err != nil {
		return err
	}
	r.read[list.name] = true
	var unread []manifest.ManifestFileMeta
	for _, mf := range metas {
		r.names[mf.FileName] = true
		if !r.read[mf.FileName] {
			unread = append(unread, mf)
		}
	}
	missing := func(err error) bool { return errors.Is(err, iofs.ErrNotExist) }
	lists, errs, err := newFileScan(r.c.meta, nil).readEach(ctx, unread, missing)
	if err != nil {
		return err
	}
	for m, entries := range lists {
		if errs[m] != nil {
			r.missing[owner] = unread[m].FileName
			continue
		}
		r.read[unread[m].FileName] = true
		for i := range entries {
			r.names[entries[i].File.FileName] = true
			for _, x := range entries[i].File.ExtraFiles {
				r.names[x] = true
			}
		}
	}
	return nil
}

func (r *orphanRefs) collectIndexManifest(ctx context.Context, owner, name string) error {
	r.names[name] = true
	if r.read[name] {
		return nil
	}
	entries, err := r.c.meta.ReadIndexManifest(ctx, name)
	if errors.Is(err, iofs.ErrNotExist) {
		r.missing[owner] = name
		return nil
	}
	if err != nil {
		return err
	}
	r.read[name] = true
	for _, e := range entries {
		r.names[e.IndexFile.FileName] = true
	}
	return nil
}

// verify accepts missing files only of metadata files that are gone by now
// (expired or deleted while we read). A snapshot, tag or changelog that
// still exists but names a missing file makes the table's references
// unknowable: stop before removing anything.
func (r *orphanRefs) verify(ctx context.Context) error {
	for owner, name := range r.missing {
		exists, err := fs.Exists(ctx, r.c.fsys, owner)
		if err != nil {
			return err
		}
		if exists {
			return fmt.Errorf("%w: %s names %s, which does not exist; refusing to remove orphan files: %w",
				ErrCorrupt, owner, r.c.meta.ManifestPath(name), iofs.ErrNotExist)
		}
	}
	return nil
}

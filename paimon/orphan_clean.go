package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/fs"
)

const (
	changelogDir    = "changelog"
	changelogPrefix = "changelog-"
	bucketPrefix    = "bucket-"
)

// orphanCleaner carries one RemoveOrphanFiles run.
type orphanCleaner struct {
	t          *Table
	fsys       fs.FS
	meta       *TableMeta // main branch: data, manifest and index files live under its root
	threshold  time.Time  // files modified before it are old enough
	dryRun     bool
	res        *OrphanResult
	removeErrs []error
}

// orphanCandidate is an unreferenced-looking file.
type orphanCandidate struct {
	path string
	size int64
}

func (c *orphanCleaner) run(ctx context.Context) error {
	branches, err := c.branches(ctx)
	if err != nil {
		return err
	}
	// Stray files in snapshot/ and changelog/ are removed on sight: no
	// snapshot ever references them (OrphanFilesClean.cleanSnapshotDir).
	for _, b := range branches {
		m := c.meta.WithBranch(b)
		if err := c.cleanMetaDir(ctx, m.branchPath(snapshotDir), snapshotPrefix); err != nil {
			return err
		}
		if err := c.cleanMetaDir(ctx, m.branchPath(changelogDir), changelogPrefix); err != nil {
			return err
		}
		// Temporary files of commit-progress records a crash left behind
		// (the versions of records themselves are kept).
		if err := c.cleanMetaDir(ctx, m.branchPath(progressDir), progressPrefix); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return err
		}
		users, err := fs.ReadDir(ctx, c.fsys, m.branchPath(progressDir))
		if err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return err
		}
		for _, u := range users {
			if u.IsDir && strings.HasPrefix(u.Name, progressPrefix) {
				if err := c.cleanMetaDir(ctx, m.branchPath(progressDir, u.Name), progressVersionPrefix); err != nil && !errors.Is(err, iofs.ErrNotExist) {
					return err
				}
			}
		}
	}
	candidates, err := c.candidates(ctx)
	if err != nil {
		return err
	}
	if len(candidates) == 0 {
		return nil
	}
	used := newOrphanRefs(c)
	for _, b := range branches {
		if err := used.collectBranch(ctx, c.meta.WithBranch(b)); err != nil {
			return err
		}
	}
	if err := used.verify(ctx); err != nil {
		return err
	}
	var buckets []string
	names := make([]string, 0, len(candidates))
	for name := range candidates {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if used.names[name] {
			continue
		}
		for _, cand := range candidates[name] {
			c.remove(ctx, cand)
			if dir := path.Dir(cand.path); strings.HasPrefix(path.Base(dir), bucketPrefix) {
				buckets = append(buckets, dir)
			}
		}
	}
	if !c.dryRun {
		c.cleanEmptyDataDirs(ctx, buckets)
	}
	return nil
}

// branches returns main and every branch directory, refusing to run when a
// branch has no schema (Java validBranches: such a branch is broken and
// its references cannot be known).
func (c *orphanCleaner) branches(ctx context.Context) ([]string, error) {
	out := []string{MainBranch}
	var broken []string
	for fi, err := range c.fsys.List(ctx, c.meta.Path(branchDir)) {
		if err != nil {
			return nil, err
		}
		name, ok := strings.CutPrefix(fi.Name, branchPrefix)
		if !ok || !fi.IsDir || name == "" {
			continue
		}
		ids, err := c.meta.WithBranch(name).SchemaIDs(ctx)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			broken = append(broken, name)
			continue
		}
		out = append(out, name)
	}
	if len(broken) > 0 {
		slices.Sort(broken)
		return nil, fmt.Errorf("%w: branches %v of %s have no schema; refusing to remove orphan files", ErrSchemaNotFound, broken, c.meta.Root())
	}
	slices.Sort(out[1:])
	return out, nil
}

func (c *orphanCleaner) oldEnough(fi fs.FileInfo) bool {
	// An unknown time (zero) is never old enough: keeping a file is safe.
	return !fi.ModTime.IsZero() && fi.ModTime.Before(c.threshold)
}

// cleanMetaDir removes old files of dir whose names are neither
// <prefix><anything> nor a hint.
func (c *orphanCleaner) cleanMetaDir(ctx context.Context, dir, prefix string) error {
	entries, err := fs.ReadDir(ctx, c.fsys, dir)
	if err != nil {
		return err
	}
	for _, fi := range entries {
		if fi.IsDir || strings.HasPrefix(fi.Name, prefix) || fi.Name == latestHint || fi.Name == earliestHint || !c.oldEnough(fi) {
			continue
		}
		c.remove(ctx, orphanCandidate{path: dir + "/" + fi.Name, size: fi.Size})
	}
	return nil
}

// candidates lists the old enough files of manifest/, index/, statistics/
// and the bucket directories, by file name (Java
// getCandidateDeletingFiles). References are names too, so two files of
// the same name are both kept or both removed.
func (c *orphanCleaner) candidates(ctx context.Context) (map[string][]orphanCandidate, error) {
	dirs := []string{c.meta.Path(manifestDir), c.meta.Path(indexDir), c.meta.Path(statisticsDir)}
	dataRoot := c.meta.Root()
	if d := strings.Trim(c.t.schema.Options[optDataFilePathDir], "/"); d != "" {
		dataRoot = c.meta.Path(d)
	}
	buckets, err := c.bucketDirs(ctx, dataRoot, len(c.t.schema.PartitionKeys))
	if err != nil {
		return nil, err
	}
	dirs = append(dirs, buckets...)
	out := map[string][]orphanCandidate{}
	for _, dir := range dirs {
		entries, err := fs.ReadDir(ctx, c.fsys, dir)
		if err != nil {
			return nil, err
		}
		for _, fi := range entries {
			if fi.IsDir || !c.oldEnough(fi) {
				continue
			}
			out[fi.Name] = append(out[fi.Name], orphanCandidate{path: dir + "/" + fi.Name, size: fi.Size})
		}
	}
	return out, nil
}

// bucketDirs walks level partition levels (directories named k=v) below
// dir and returns the bucket-* directories at the bottom (Java
// listFileDirs). Unknown directories are ignored.
func (c *orphanCleaner) bucketDirs(ctx context.Context, dir string, level int) ([]string, error) {
	entries, err := fs.ReadDir(ctx, c.fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, fi := range entries {
		if !fi.IsDir {
			continue
		}
		p := fi.Name
		if dir != "." {
			p = dir + "/" + fi.Name
		}
		switch {
		case level == 0 && strings.HasPrefix(fi.Name, bucketPrefix):
			out = append(out, p)
		case level > 0 && strings.Contains(fi.Name, "="):
			sub, err := c.bucketDirs(ctx, p, level-1)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		}
	}
	return out, nil
}

// remove deletes one orphan (or records it in a dry run). A file already
// gone is not counted.
func (c *orphanCleaner) remove(ctx context.Context, cand orphanCandidate) {
	if !c.dryRun {
		err := c.fsys.Remove(ctx, cand.path)
		if errors.Is(err, iofs.ErrNotExist) {
			return
		}
		if err != nil {
			c.removeErrs = append(c.removeErrs, fmt.Errorf("paimon: remove orphan %s: %w", cand.path, err))
			return
		}
	}
	c.res.Deleted = append(c.res.Deleted, cand.path)
	c.res.DeletedBytes += cand.size
}

// cleanEmptyDataDirs removes the bucket directories orphans were removed
// from when they are now empty, then their partition directories bottom up
// (Java cleanEmptyDataDirectory).
func (c *orphanCleaner) cleanEmptyDataDirs(ctx context.Context, buckets []string) {
	slices.Sort(buckets)
	dirs := slices.Compact(buckets)
	for range len(c.t.schema.PartitionKeys) + 1 {
		var parents []string
		for _, d := range dirs {
			if c.tryRemoveDir(ctx, d) {
				if parent := path.Dir(d); strings.Contains(path.Base(parent), "=") {
					parents = append(parents, parent)
				}
			}
		}
		slices.Sort(parents)
		dirs = slices.Compact(parents)
	}
}

// tryRemoveDir removes dir if it is an empty directory (listing first: the
// fs contract does not promise that Remove refuses a full directory).
func (c *orphanCleaner) tryRemoveDir(ctx context.Context, dir string) bool {
	for range c.fsys.List(ctx, dir) {
		return false // not empty, or not listable
	}
	if c.fsys.Remove(ctx, dir) != nil {
		return false
	}
	c.res.DeletedDirectories++
	return true
}

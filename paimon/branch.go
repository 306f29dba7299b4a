package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
)

// Branch management mirrors Java's FileSystemBranchManager (Paimon 1.4.2 and
// 2.0.0). A branch is the directory branch/branch-<name> of the table with
// its own schema/, snapshot/, tag/ and consumer/ directories; data,
// manifest and index files stay in the table root and are shared with every
// other branch. Creating a branch copies metadata files only; writing to it
// (OpenTable with TableOptions.Branch, or "db.table$branch_<name>") commits
// snapshots in its own directory; fast-forwarding replaces the current
// branch's snapshots, schemas and tags from the branch's earliest snapshot
// on with the branch's.

var (
	// ErrBranchExists reports creating a branch whose name is taken.
	ErrBranchExists = errors.New("paimon: branch already exists")
	// ErrBranchNotFound reports a branch name without a branch directory.
	ErrBranchNotFound = errors.New("paimon: branch not found")
	// ErrInvalidBranchName reports a name Java refuses for a branch
	// (blank, "main", only digits) or one that cannot be a directory name.
	ErrInvalidBranchName = errors.New("paimon: invalid branch name")
)

// CreateBranchOptions says what a new branch starts from. The zero value
// (or nil) creates an empty branch with the current schemas and no
// snapshot, as Java's createBranch(name) does.
type CreateBranchOptions struct {
	// Tag starts the branch at this tag of the current branch: the tag,
	// its snapshot and the schemas up to the snapshot's are copied, as
	// Java's createBranch(name, tag) does. The tag keeps the branch's
	// files from expiring on the current branch, in Java and here.
	Tag string
	// SnapshotID starts the branch at this snapshot of the current
	// branch (a paimon-go extension; Java branches start from a tag):
	// the snapshot and the schemas up to its schema are copied. Java's
	// expiration of the current branch does not look at other branches,
	// so only a tag protects the branch's files from Java's expiration;
	// paimon-go's expiration protects them either way.
	SnapshotID int64
}

// checkBranchName refuses what Java's BranchManager.validateBranch refuses
// and names that cannot be a directory.
func checkBranchName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("%w: branch name %q is blank", ErrInvalidBranchName, name)
	case name == MainBranch:
		return fmt.Errorf("%w: branch name %q is the default branch and cannot be used", ErrInvalidBranchName, name)
	case strings.Trim(name, "0123456789") == "":
		return fmt.Errorf("%w: branch name cannot be a pure numeric string but is %q", ErrInvalidBranchName, name)
	case strings.ContainsAny(name, `/\`) || !fs.ValidName(branchPrefix+name):
		return fmt.Errorf("%w: %q cannot be a directory name", ErrInvalidBranchName, name)
	}
	return nil
}

// branchMeta is the metadata reader of another branch of the same table.
func (t *Table) branchMeta(name string) *TableMeta { return t.meta.WithBranch(name) }

// branchRoot is the directory of branch name.
func (t *Table) branchRoot(name string) string { return t.meta.Path(branchDir, branchPrefix+name) }

// BranchExists reports whether branch name exists (its directory does).
func (t *Table) BranchExists(ctx context.Context, name string) (bool, error) {
	if name == MainBranch {
		return true, nil
	}
	if err := checkBranchName(name); err != nil {
		return false, err
	}
	return fs.Exists(ctx, t.meta.fsys, t.branchRoot(name))
}

// Branches lists the branches of the table other than main, by name (Java
// BranchManager.branches).
func (t *Table) Branches(ctx context.Context) ([]string, error) {
	entries, err := fs.ReadDir(ctx, t.meta.fsys, t.meta.Path(branchDir))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, fi := range entries {
		if name, ok := strings.CutPrefix(fi.Name, branchPrefix); ok && fi.IsDir && name != "" {
			out = append(out, name)
		}
	}
	return out, nil
}

// CatalogBranches is implemented by a SnapshotCommit whose catalog
// manages the table's branches (Java CatalogBranchManager, which a REST
// catalog's tables use): CreateBranch, DropBranch and FastForward of such
// a table go to the catalog instead of the file system.
type CatalogBranches interface {
	// CreateBranch creates branch name from the latest schema, or from
	// tag when it is not empty. An existing branch yields an error
	// wrapping ErrBranchExists, a missing tag one wrapping ErrTagNotFound.
	CreateBranch(ctx context.Context, name, tag string) error
	// DropBranch drops branch name; a missing one yields an error
	// wrapping ErrBranchNotFound.
	DropBranch(ctx context.Context, name string) error
	// FastForward makes branch current (usually main) continue as branch
	// name.
	FastForward(ctx context.Context, current, name string) error
}

// catalogBranches returns the table's CatalogBranches, nil when its
// branches are on the file system. A table whose catalog publishes its
// snapshots but cannot manage branches refuses op.
func (t *Table) catalogBranches(op string) (CatalogBranches, error) {
	if t.publisher == nil {
		return nil, nil
	}
	if cb, ok := t.publisher.(CatalogBranches); ok {
		return cb, nil
	}
	return nil, fmt.Errorf("%w: %s of %s: its catalog manages branches", ErrUnsupported, op, t.id)
}

// CreateBranch creates branch name from the table's branch (usually main),
// as Java's FileSystemBranchManager.createBranch does: it copies the schema
// files (up to the latest schema, or up to the schema of the starting
// snapshot) and, when starting from a tag or snapshot, that tag and
// snapshot file into branch/branch-<name>/. Every file is created only if
// absent, so of two concurrent creators at most one succeeds; an existing
// branch yields ErrBranchExists.
func (t *Table) CreateBranch(ctx context.Context, name string, opts *CreateBranchOptions) error {
	if opts == nil {
		opts = &CreateBranchOptions{}
	}
	cb, err := t.catalogBranches("create branch")
	if err != nil {
		return err
	}
	if err := checkBranchName(name); err != nil {
		return err
	}
	if opts.Tag != "" && opts.SnapshotID != 0 {
		return fmt.Errorf("paimon: create branch %q: %w: a branch starts from a tag or a snapshot, not both", name, ErrInvalidOption)
	}
	if cb != nil {
		if opts.SnapshotID != 0 {
			return fmt.Errorf("%w: create branch %q of %s at a snapshot: its catalog starts branches from tags only", ErrUnsupported, name, t.id)
		}
		return cb.CreateBranch(ctx, name, opts.Tag)
	}
	exists, err := fs.Exists(ctx, t.meta.fsys, t.branchRoot(name))
	if err != nil {
		return fmt.Errorf("paimon: create branch %q: %w", name, err)
	}
	if exists {
		return fmt.Errorf("%w: %q in %s", ErrBranchExists, name, t.meta.Root())
	}
	dst := t.branchMeta(name)
	var (
		snap    *snapshot.Snapshot
		tagFile []byte
	)
	switch {
	case opts.Tag != "":
		if err := checkTagName(opts.Tag); err != nil {
			return err
		}
		tag, err := t.meta.ReadTag(ctx, opts.Tag)
		if err != nil {
			return fmt.Errorf("paimon: create branch %q: %w", name, err)
		}
		if tagFile, err = t.meta.read(ctx, t.meta.TagPath(opts.Tag)); err != nil {
			return fmt.Errorf("paimon: create branch %q: %w", name, err)
		}
		snap = &tag.Snapshot
	case opts.SnapshotID != 0:
		if snap, err = t.meta.ReadSnapshot(ctx, opts.SnapshotID); err != nil {
			return fmt.Errorf("paimon: create branch %q: %w", name, err)
		}
	}
	schemaLimit := t.schema.ID
	if snap != nil {
		schemaLimit = snap.SchemaID
	}
	created, err := t.copyBranchFiles(ctx, dst, snap, tagFile, opts.Tag, schemaLimit)
	if err != nil {
		// Leave nothing half-made: remove what this call created.
		for _, p := range created {
			_ = t.meta.fsys.Remove(context.WithoutCancel(ctx), p)
		}
		if errors.Is(err, iofs.ErrExist) {
			return fmt.Errorf("%w: %q in %s (created concurrently)", ErrBranchExists, name, t.meta.Root())
		}
		return fmt.Errorf("paimon: create branch %q: %w", name, err)
	}
	return nil
}

// copyBranchFiles writes the new branch's files: schemas 0..schemaLimit
// that exist, then the starting snapshot and tag. It returns the files it
// created.
func (t *Table) copyBranchFiles(ctx context.Context, dst *TableMeta, snap *snapshot.Snapshot, tagFile []byte, tagName string, schemaLimit int64) ([]string, error) {
	var created []string
	create := func(path string, data []byte) error {
		err := fs.WriteFile(ctx, t.meta.fsys, path, data, &fs.CreateOptions{IfNotExist: true})
		if errors.Is(err, fs.ErrUnsupported) {
			err = fs.WriteFile(ctx, t.meta.fsys, path, data, nil)
		}
		if err == nil {
			created = append(created, path)
		}
		return err
	}
	ids, err := t.meta.SchemaIDs(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if id > schemaLimit {
			continue
		}
		b, err := t.meta.read(ctx, t.meta.SchemaPath(id))
		if errors.Is(err, iofs.ErrNotExist) {
			continue
		}
		if err != nil {
			return created, err
		}
		if err := create(dst.SchemaPath(id), b); err != nil {
			return created, err
		}
	}
	if snap == nil {
		return created, nil
	}
	// The snapshot file as it is, or, when it has expired while the tag
	// kept its content, the tag's snapshot (Java 2.0.0 writes it from the
	// tag; 1.4.2 fails).
	body, err := t.meta.read(ctx, t.meta.SnapshotPath(snap.ID))
	if errors.Is(err, iofs.ErrNotExist) {
		body, err = snap.Encode(), nil
	}
	if err != nil {
		return created, err
	}
	if err := create(dst.SnapshotPath(snap.ID), body); err != nil {
		return created, err
	}
	if tagFile != nil {
		if err := create(dst.TagPath(tagName), tagFile); err != nil {
			return created, err
		}
	}
	return created, nil
}

// DropBranch deletes branch name with its directory, as Java's
// FileSystemBranchManager.dropBranch does. Data files only the branch
// referenced are left for orphan-file cleaning, as in Java.
func (t *Table) DropBranch(ctx context.Context, name string) error {
	cb, err := t.catalogBranches("drop branch")
	if err != nil {
		return err
	}
	if err := checkBranchName(name); err != nil {
		return err
	}
	if name == t.meta.Branch() {
		return fmt.Errorf("%w: cannot drop branch %q from a table opened on it", ErrInvalidBranchName, name)
	}
	if cb != nil {
		return cb.DropBranch(ctx, name)
	}
	exists, err := fs.Exists(ctx, t.meta.fsys, t.branchRoot(name))
	if err != nil {
		return fmt.Errorf("paimon: drop branch %q: %w", name, err)
	}
	if !exists {
		return fmt.Errorf("%w: %q in %s", ErrBranchNotFound, name, t.meta.Root())
	}
	if err := fs.RemoveAll(ctx, t.meta.fsys, t.branchRoot(name)); err != nil {
		return fmt.Errorf("paimon: drop branch %q: %w", name, err)
	}
	return nil
}

// FastForward makes the table's branch (usually main) continue as branch
// name, as Java's FileSystemBranchManager.fastForward does: the snapshots
// of the current branch from the branch's earliest snapshot id on, its
// schemas from that snapshot's schema id on, its tags of those snapshots
// and its LATEST hint are deleted, and the branch's snapshot, schema and
// tag files are copied over. Files are shared, so nothing else moves.
//
// Like Java's, it is not atomic: run it while nothing commits to the
// current branch. A branch without a snapshot is refused.
func (t *Table) FastForward(ctx context.Context, name string) error {
	cb, err := t.catalogBranches("fast-forward")
	if err != nil {
		return err
	}
	if err := checkBranchName(name); err != nil {
		return err
	}
	if name == t.meta.Branch() {
		return fmt.Errorf("%w: fast-forward from the current branch %q is not allowed", ErrInvalidBranchName, name)
	}
	if cb != nil {
		return cb.FastForward(ctx, t.meta.Branch(), name)
	}
	src := t.branchMeta(name)
	exists, err := fs.Exists(ctx, t.meta.fsys, t.branchRoot(name))
	if err != nil {
		return fmt.Errorf("paimon: fast-forward %q: %w", name, err)
	}
	if !exists {
		return fmt.Errorf("%w: %q in %s", ErrBranchNotFound, name, t.meta.Root())
	}
	earliest, ok, err := src.EarliestSnapshotID(ctx)
	if err != nil {
		return fmt.Errorf("paimon: fast-forward %q: %w", name, err)
	}
	if !ok {
		return fmt.Errorf("%w: cannot fast forward branch %q, because it does not have a snapshot", ErrSnapshotNotFound, name)
	}
	first, err := src.ReadSnapshot(ctx, earliest)
	if err != nil {
		return fmt.Errorf("paimon: fast-forward %q: %w", name, err)
	}
	// Delete what the branch replaces, hint first so that no reader
	// trusts a LATEST that points at a deleted snapshot.
	var doomed []string
	snaps, err := t.meta.SnapshotIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range snaps {
		if id >= earliest {
			doomed = append(doomed, t.meta.SnapshotPath(id))
		}
	}
	schemas, err := t.meta.SchemaIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range schemas {
		if id >= first.SchemaID {
			doomed = append(doomed, t.meta.SchemaPath(id))
		}
	}
	tags, err := readTags(ctx, t.meta)
	if err != nil {
		return err
	}
	for _, nt := range tags {
		if nt.tag.ID >= earliest {
			doomed = append(doomed, t.meta.TagPath(nt.name))
		}
	}
	fsys := t.meta.fsys
	if err := removeIfExists(ctx, fsys, t.meta.branchPath(snapshotDir, latestHint)); err != nil {
		return fmt.Errorf("paimon: fast-forward %q: %w", name, err)
	}
	for _, p := range doomed {
		if err := removeIfExists(ctx, fsys, p); err != nil {
			return fmt.Errorf("paimon: fast-forward %q: %w", name, err)
		}
	}
	for _, dir := range []string{snapshotDir, schemaDir, tagDir} {
		if err := copyDir(ctx, fsys, src.branchPath(dir), t.meta.branchPath(dir)); err != nil {
			return fmt.Errorf("paimon: fast-forward %q: %w", name, err)
		}
	}
	return nil
}

// copyDir copies the files directly inside dir src into dst, replacing
// files of the same name (Java FileIO.copyFiles with overwrite).
func copyDir(ctx context.Context, fsys fs.FS, src, dst string) error {
	entries, err := fs.ReadDir(ctx, fsys, src)
	if err != nil {
		return err
	}
	for _, fi := range entries {
		if fi.IsDir {
			continue
		}
		b, err := fs.ReadFile(ctx, fsys, src+"/"+fi.Name)
		if errors.Is(err, iofs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := fs.WriteFile(ctx, fsys, dst+"/"+fi.Name, b, nil); err != nil {
			return err
		}
	}
	return nil
}

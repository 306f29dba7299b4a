package paimon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// DefaultOrphanOlderThan is how old an unreferenced file must be before
// RemoveOrphanFiles deletes it when OrphanOptions.OlderThan is zero: one
// day, Java's remove_orphan_files default (OrphanFilesClean.olderThanMillis).
const DefaultOrphanOlderThan = 24 * time.Hour

// OrphanOptions configures RemoveOrphanFiles. A nil *OrphanOptions means
// defaults.
type OrphanOptions struct {
	// OlderThan is the safety age: only files last modified more than this
	// long before Now are removed, so the files of a write or commit still
	// in flight are never touched. Zero means DefaultOrphanOlderThan;
	// negative values are refused (Java refuses an older_than in the
	// future for the same reason).
	OlderThan time.Duration
	// DryRun lists what would be removed without removing anything.
	DryRun bool
	// Now is the clock the age is measured against; nil means time.Now.
	Now func() time.Time
}

// OrphanResult reports what RemoveOrphanFiles removed (or, in a dry run,
// would remove).
type OrphanResult struct {
	// Deleted lists the removed files, relative to the file system root,
	// sorted.
	Deleted []string
	// DeletedBytes is their total size.
	DeletedBytes int64
	// DeletedDirectories counts the empty data directories removed.
	DeletedDirectories int
}

// RemoveOrphanFiles deletes the files of the table that nothing references
// (Java LocalOrphanFilesClean, the remove_orphan_files procedure): data
// files, manifests, manifest lists, index manifests, index and statistics
// files that no snapshot, tag or changelog of any branch names, and stray
// files in the snapshot and changelog directories (temporary files of
// crashed writers), provided they are older than OrphanOptions.OlderThan.
// Files written by a crashed or failed commit are the usual orphans.
//
// It never touches snapshot-*, changelog-*, schema, tag, consumer or branch
// metadata, the EARLIEST and LATEST hints, files in directories it does not
// know, or files under external paths.
//
// Like Java it lists the candidates first and reads the references after,
// and skips snapshots and tags that vanish meanwhile (a concurrent
// expiration). Unlike Java, a file missing from a snapshot, tag or changelog
// that still exists is an error, not an empty list: its data files could
// not be told apart from orphans, so nothing is removed. Any other failure
// to read a reference also stops the run before anything is removed.
// Failures to remove single files are reported after all removals ran.
func (t *Table) RemoveOrphanFiles(ctx context.Context, opts *OrphanOptions) (*OrphanResult, error) {
	var o OrphanOptions
	if opts != nil {
		o = *opts
	}
	if o.OlderThan < 0 {
		return nil, fmt.Errorf("%w: orphan older-than %v is negative: files still being written would be removed", ErrInvalidOption, o.OlderThan)
	}
	if o.OlderThan == 0 {
		o.OlderThan = DefaultOrphanOlderThan
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	c := &orphanCleaner{
		t:         t,
		fsys:      t.meta.fsys,
		meta:      t.meta.WithBranch(MainBranch),
		threshold: o.Now().Add(-o.OlderThan),
		dryRun:    o.DryRun,
		res:       &OrphanResult{},
	}
	if err := c.run(ctx); err != nil {
		return nil, err
	}
	slices.Sort(c.res.Deleted)
	return c.res, errors.Join(c.removeErrs...)
}

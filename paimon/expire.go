package paimon

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// ExpireOptions tunes ExpireSnapshots. A zero field takes the table option
// named in its comment, or Java's CoreOptions default when the table does
// not set it.
type ExpireOptions struct {
	// RetainMin is the number of newest snapshots always kept
	// (snapshot.num-retained.min, default 10). It must be at least 1, so
	// the latest snapshot is never expired.
	RetainMin int
	// RetainMax is the number of newest snapshots kept regardless of age
	// limits: older ones expire even when younger than OlderThan
	// (snapshot.num-retained.max, default math.MaxInt32).
	RetainMax int
	// OlderThan keeps every snapshot committed less than this long ago
	// (snapshot.time-retained, default 1 h). A negative value disables the
	// time protection.
	OlderThan time.Duration
	// MaxDeletes caps how many snapshots one call expires
	// (snapshot.expire.limit, default 50).
	MaxDeletes int
	// CleanEmptyDirectories removes bucket and partition directories left
	// empty by deleted data files (snapshot.clean-empty-directories,
	// default false). nil takes the table option.
	CleanEmptyDirectories *bool
	// Now is the clock the age of snapshots is measured with (time.Now
	// when nil).
	Now func() time.Time
	// CommitGrace keeps every snapshot that was the latest less than this
	// long ago (whose successor is younger), whatever the rules above
	// say: a commit in flight may be computed from it, and would have to
	// start over if it expired. 0 means DefaultCommitGrace; a negative
	// value turns the grace off (Java has none).
	CommitGrace time.Duration
	// DryRun computes what an expiration would do without changing
	// anything: the ExpireResult names the snapshots that would expire and
	// counts the files that would be deleted, DryRunFiles lists them, and
	// no file, hint or commit-progress record is written or removed. Empty
	// directories are not predicted (DeletedDirectories stays 0).
	DryRun bool
}

// DefaultCommitGrace is ExpireOptions.CommitGrace when unset.
const DefaultCommitGrace = time.Minute

// ExpireResult says what ExpireSnapshots did. Counts are of files actually
// removed; files already gone (an earlier, interrupted run) are not counted.
type ExpireResult struct {
	// Expired lists the ids of the snapshots whose files were deleted,
	// ascending.
	Expired []int64
	// EarliestHint is the id written to snapshot/EARLIEST, 0 when the hint
	// was left alone.
	EarliestHint int64
	// DeletedDataFiles counts data files and their extra files (file
	// indexes) no longer referenced.
	DeletedDataFiles int
	// DeletedChangelogFiles counts changelog files of expired snapshots.
	DeletedChangelogFiles int
	// DeletedManifests counts data and changelog manifest files.
	DeletedManifests int
	// DeletedManifestLists counts base, delta and changelog manifest lists.
	DeletedManifestLists int
	// DeletedIndexManifests counts index manifests.
	DeletedIndexManifests int
	// DeletedIndexFiles counts deletion-vector and hash index files.
	DeletedIndexFiles int
	// DeletedStatistics counts statistics files.
	DeletedStatistics int
	// DeletedDirectories counts empty bucket and partition directories
	// removed (only with CleanEmptyDirectories).
	DeletedDirectories int
	// SkippedExternalFiles counts unreferenced files stored under an
	// external path (data-file.external-paths), which this library cannot
	// reach and therefore leaves in place.
	SkippedExternalFiles int
	// DryRunFiles lists, in a dry run (ExpireOptions.DryRun), the files that
	// would be deleted, sorted; nil otherwise.
	DryRunFiles []string
}

// ExpireSnapshots deletes the oldest snapshots of the table's branch and
// every file only they reference, as Java Paimon's ExpireSnapshotsImpl does
// after a commit or from the expire_snapshots procedure.
//
// Which snapshots expire: those older than the RetainMin newest, stopping
// at the first snapshot younger than OlderThan unless it is beyond the
// RetainMax newest, at the smallest next snapshot of any consumer
// (consumer/consumer-*, unless consumer.changelog-only) and after
// MaxDeletes snapshots. The latest snapshot never expires.
//
// What is deleted, in Java's order, so that a failure at any point leaves
// the table readable at every retained snapshot and every tag: first the
// data files that expired snapshots removed (DELETE entries of their delta
// manifests) and the changelog files they produced, then their manifests,
// manifest lists, index manifests, index files and statistics files, then
// the snapshot files, and last the EARLIEST hint. A file is kept while the
// first retained snapshot, a tag (tag/tag-*) or any other branch
// (branch/branch-*/snapshot and /tag) references it. Running it again after
// a failure finishes the job. Beyond Java, a tag's changelog files and
// everything other branches reference are kept, and a failure to read what
// protects files (tags, branches, the first retained snapshot) or to delete
// a file stops the expiration with an error instead of being logged and
// skipped; unreadable files of the expired snapshots themselves are skipped
// as in Java (they may be left over from an interrupted run).
//
// Tables whose changelog.* retention exceeds the snapshot retention (Java's
// "changelog lifecycle decoupled" mode, which moves expired snapshots to
// changelog/) are refused with an error wrapping ErrUnsupported before
// anything is deleted. Invalid settings yield ErrInvalidExpireOptions.
func (t *Table) ExpireSnapshots(ctx context.Context, opts *ExpireOptions) (*ExpireResult, error) {
	cfg, err := resolveExpireConfig(t.schema.Options, opts)
	if err != nil {
		return nil, err
	}
	if cfg.changelogDecoupled {
		return nil, fmt.Errorf("%w: changelog retention (changelog.num-retained.*, changelog.time-retained) longer than snapshot retention is not implemented: table %s keeps its snapshots", ErrUnsupported, t.meta.Root())
	}
	e, err := newExpirer(t, cfg)
	if err != nil {
		return nil, err
	}
	if opts != nil && opts.DryRun {
		e.dry = map[string]struct{}{}
	}
	if err := e.expire(ctx); err != nil {
		return e.res, fmt.Errorf("paimon: expire snapshots of %s: %w", t.meta.Root(), err)
	}
	if e.dry != nil {
		e.res.DryRunFiles = slices.Sorted(maps.Keys(e.dry))
	}
	return e.res, nil
}

// ExpireSnapshotsWithTableOptions is what a committer calls after each
// successful commit (Java AbstractFileStoreTable.newExpireRunnable): it
// removes the consumers idle longer than consumer.expiration-time, then
// expires with the table options alone and does nothing when the table is
// write-only (write-only or write.compaction-skip), whose writers leave
// maintenance to a separate job. The commit has succeeded whatever this
// returns; an error wrapping ErrUnsupported means the table's expiration
// settings are not implemented and its snapshots are kept.
func (t *Table) ExpireSnapshotsWithTableOptions(ctx context.Context) (*ExpireResult, error) {
	wo, err := writeOnly(t.schema.Options)
	if err != nil {
		return nil, err
	}
	if wo {
		return &ExpireResult{}, nil
	}
	if err := t.expireConsumers(ctx, time.Now()); err != nil {
		return nil, err
	}
	return t.ExpireSnapshots(ctx, nil)
}

// expire picks the range of snapshots to expire (Java
// ExpireSnapshotsImpl.expire) and expires it.
func (e *expirer) expire(ctx context.Context) error {
	latest, ok, err := e.meta.LatestSnapshotID(ctx)
	if err != nil || !ok {
		return err
	}
	earliest, ok, err := e.meta.EarliestSnapshotID(ctx)
	if err != nil || !ok {
		return err
	}
	cfg := e.cfg
	// Snapshots below lo are beyond snapshot.num-retained.max and expire
	// whatever their age.
	lo := max(latest-int64(cfg.retainMax)+1, earliest)
	// snapshot.num-retained.min protects the newest ones.
	end := latest - int64(cfg.retainMin) + 1
	if !cfg.consumerChangelogOnly {
		next, ok, err := e.minConsumerNextSnapshot(ctx)
		if err != nil {
			return err
		}
		if ok {
			end = min(end, next)
		}
	}
	end = min(end, earliest+int64(cfg.maxDeletes))
	for id := lo; id < end; id++ {
		s, err := e.meta.ReadSnapshot(ctx, id)
		if errors.Is(err, ErrSnapshotNotFound) {
			continue // expired concurrently
		}
		if err != nil {
			return err
		}
		if cfg.olderThanMillis <= s.TimeMillis {
			end = id
			break
		}
	}
	if end > latest {
		// Unreachable with retainMin >= 1; kept as the last line of defence
		// for the latest snapshot.
		end = latest
	}
	if end, err = e.applyCommitGrace(ctx, earliest, end); err != nil {
		return err
	}
	return e.expireUntil(ctx, earliest, end)
}

// applyCommitGrace lowers end to the first snapshot whose successor was
// committed within the commit grace (ExpireOptions.CommitGrace).
func (e *expirer) applyCommitGrace(ctx context.Context, earliest, end int64) (int64, error) {
	for id := earliest; id < end; id++ {
		next, err := e.meta.ReadSnapshot(ctx, id+1)
		if errors.Is(err, ErrSnapshotNotFound) {
			continue // expired concurrently
		}
		if err != nil {
			return 0, err
		}
		if next.TimeMillis > e.cfg.graceCutoffMillis {
			return id, nil
		}
	}
	return end, nil
}

// minConsumerNextSnapshot mirrors Java ConsumerManager.minNextSnapshot: the
// smallest nextSnapshot over the branch's consumer files.
func (e *expirer) minConsumerNextSnapshot(ctx context.Context) (int64, bool, error) {
	consumers, err := readConsumers(ctx, e.meta)
	if err != nil || len(consumers) == 0 {
		return 0, false, err
	}
	next := consumers[0].NextSnapshot
	for _, c := range consumers[1:] {
		next = min(next, c.NextSnapshot)
	}
	return next, true, nil
}

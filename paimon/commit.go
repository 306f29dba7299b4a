package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// BatchCommitIdentifier is the commit identifier of one-off batch writes
// (Java's BatchWriteBuilder.COMMIT_IDENTIFIER, Long.MAX_VALUE). Commits with
// it are never deduplicated; give streaming ingesters increasing
// identifiers instead.
const BatchCommitIdentifier = snapshot.BatchCommitIdentifier

// Commit options (Java CoreOptions).
const (
	optCommitMaxRetries   = coreoptions.CommitMaxRetries
	optCommitTimeout      = coreoptions.CommitTimeout
	optCommitMinRetryWait = coreoptions.CommitMinRetryWait
	optCommitMaxRetryWait = coreoptions.CommitMaxRetryWait
	optDynamicOverwrite   = coreoptions.DynamicPartitionOverwrite
	optRowTracking        = coreoptions.RowTrackingEnabled
	optDataEvolution      = coreoptions.DataEvolutionEnabled
)

// CommitOptions configures a TableCommit. A nil *CommitOptions takes every
// value from the table options and Java's defaults.
type CommitOptions struct {
	// User is the commit user recorded in each snapshot (Java commitUser):
	// keep it stable across restarts of one ingester so that a retried
	// commit identifier is recognized. Empty means a random UUID.
	User string
	// MaxRetries bounds the attempts after the first when another writer
	// took the snapshot id; 0 means commit.max-retries (10).
	MaxRetries int
	// MinRetryWait and MaxRetryWait bound the exponential backoff between
	// attempts (commit.min-retry-wait 10 ms, commit.max-retry-wait 10 s);
	// 20% jitter is added.
	MinRetryWait, MaxRetryWait time.Duration
	// Timeout bounds the whole retry loop; 0 means commit.timeout
	// (unlimited).
	Timeout time.Duration
	// Properties are stored in the snapshot.
	Properties map[string]string
	// CommitEmpty publishes a snapshot even when there are no files to add
	// (Java's ignoreEmptyCommit=false, the streaming default).
	CommitEmpty bool
	// SkipExpire turns off the snapshot expiration that follows every
	// successful commit (it is also off when the table sets write-only).
	SkipExpire bool
	// Now is the clock of snapshot times; nil means time.Now.
	Now func() time.Time
}

// CommitResult describes the outcome of a commit.
type CommitResult struct {
	// Snapshot is the snapshot published, nil when nothing was committed
	// (an empty commit, or an identifier committed before). A commit whose
	// messages carry compactions publishes up to two snapshots, APPEND
	// then COMPACT, as Java does; Snapshot is then the last.
	Snapshot *snapshot.Snapshot
	// Published lists every snapshot the commit published, in order.
	Published []*snapshot.Snapshot
	// Attempts counts the tries it took (1 without contention).
	Attempts int
	// AlreadyCommitted is true when the commit user had committed this
	// identifier before: nothing was added and no file was touched. Check
	// it: a re-run job with the same user and identifiers adds nothing. A
	// warning also goes to log/slog's default logger.
	AlreadyCommitted bool
	// Empty is true when the messages held no change, so nothing was
	// published (Snapshot is nil), unless CommitOptions.CommitEmpty asked
	// for a snapshot anyway.
	Empty bool
	// Expired lists the snapshots the post-commit expiration removed.
	Expired []int64
	// ExpireErr is why that expiration failed, if it did. The commit
	// itself succeeded; a later commit or an explicit ExpireSnapshots
	// finishes the job.
	ExpireErr error
	// CompactErr is why the compaction carried by the messages was not
	// published (a concurrent commit removed or compacted its input files,
	// say), when the new files themselves were: the commit succeeded, the
	// compaction's output files were removed and its input files stay
	// live, so the next compaction picks them up again. Java's writer
	// fails over in that case; a library caller keeps its data committed.
	CompactErr error
}

// commitConfig is CommitOptions resolved against the table options.
type commitConfig struct {
	maxRetries             int
	minWait, maxWait       time.Duration
	timeout                time.Duration
	manifestTarget         int64
	manifestMergeMin       int
	manifestFullCompaction int64
	dynamicOverwrite       bool
	writeOnly              bool
	// rowTracking: new files get first row ids at commit
	// (row_tracking_commit.go), grouped by partition when partitionGroup.
	rowTracking, partitionGroup bool
	dataEvolution               bool // column updates are checked (checkRowIDMessages)
	commitEmpty, skipExpire     bool
	now                         func() time.Time
	properties                  map[string]string
}

// TableCommit publishes snapshots of one table: it turns commit messages
// into manifests and a snapshot, and creates snapshot-<id> only if no other
// writer has (Java FileStoreCommitImpl with a create-if-absent
// SnapshotCommit). On a lost race it re-reads the latest snapshot and tries
// again with backoff.
//
// A TableCommit is not safe for concurrent use; create one per goroutine
// (they may share a table and a commit user only if they never commit the
// same identifier).
type TableCommit struct {
	t    *Table
	meta *TableMeta
	user string
	cfg  commitConfig
	mw   *metaWriter

	pather *partitionPather
	// lastIdentifier is the newest identifier the user committed, loaded
	// on the first non-batch commit.
	lastIdentifier *int64
	lastLoaded     bool
	cache          *manifestCache
	// deferExpire skips the expiration after an APPEND snapshot that a
	// COMPACT snapshot of the same commit follows.
	deferExpire bool
	// hook, set by tests only, is called at the points of an attempt
	// named in hookPoint with the snapshot id the attempt aims at.
	hook func(ctx context.Context, point hookPoint, id int64)
}

// hookPoint names a point of a commit attempt where tests pause it.
type hookPoint string

const (
	hookBase    hookPoint = "base"    // the latest snapshot was read; nothing computed yet
	hookPublish hookPoint = "publish" // the manifests are written; the snapshot is not created yet
	hookVerify  hookPoint = "verify"  // the snapshot was created; it is not verified yet
)

func (c *TableCommit) at(ctx context.Context, point hookPoint, id int64) {
	if c.hook != nil {
		c.hook(ctx, point, id)
	}
}

// NewCommit returns a committer for the table.
func (t *Table) NewCommit(opts *CommitOptions) (*TableCommit, error) {
	if opts == nil {
		opts = &CommitOptions{}
	}
	if err := checkOptions(t.schema, coreoptions.Write, t.name()); err != nil {
		return nil, err
	}
	o := tableOptions(t.schema.Options)
	cfg := commitConfig{
		rowTracking:      o.boolean(optRowTracking, false),
		partitionGroup:   o.boolean(optRowTrackingPartitionGroup, true),
		dataEvolution:    o.boolean(optDataEvolution, false),
		dynamicOverwrite: o.boolean(optDynamicOverwrite, true),
		writeOnly:        o.boolean(optWriteOnly, false),
		commitEmpty:      opts.CommitEmpty,
		skipExpire:       opts.SkipExpire,
		now:              opts.Now,
		properties:       opts.Properties,
	}
	var err error
	bad := func(e error) (*TableCommit, error) { return nil, fmt.Errorf("%w: %w", ErrInvalidOption, e) }
	if cfg.maxRetries, err = o.integer(optCommitMaxRetries, 10); err != nil {
		return bad(err)
	}
	if cfg.minWait, err = o.duration(optCommitMinRetryWait, 10*time.Millisecond); err != nil {
		return bad(err)
	}
	if cfg.maxWait, err = o.duration(optCommitMaxRetryWait, 10*time.Second); err != nil {
		return bad(err)
	}
	if cfg.timeout, err = o.duration(optCommitTimeout, 0); err != nil {
		return bad(err)
	}
	if cfg.manifestTarget, err = o.memory(optManifestTargetSize, defaultManifestTargetSize); err != nil {
		return bad(err)
	}
	if cfg.manifestMergeMin, err = o.integer(optManifestMergeMinCount, defaultManifestMergeMin); err != nil {
		return bad(err)
	}
	if cfg.manifestFullCompaction, err = o.memory(optManifestFullCompaction, defaultManifestFullCompact); err != nil {
		return bad(err)
	}
	if cfg.manifestFullCompaction <= 0 {
		return bad(fmt.Errorf("%s must be positive", optManifestFullCompaction))
	}
	if opts.MaxRetries > 0 {
		cfg.maxRetries = opts.MaxRetries
	}
	if opts.MinRetryWait > 0 {
		cfg.minWait = opts.MinRetryWait
	}
	if opts.MaxRetryWait > 0 {
		cfg.maxWait = opts.MaxRetryWait
	}
	if opts.Timeout > 0 {
		cfg.timeout = opts.Timeout
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	mw, err := newMetaWriter(t.meta, t.schema)
	if err != nil {
		return nil, err
	}
	pather, err := newPartitionPather(t.schema)
	if err != nil {
		return nil, err
	}
	user := opts.User
	if user == "" {
		user = datafile.NewUUID()
	}
	return &TableCommit{t: t, meta: t.meta, user: user, cfg: cfg, mw: mw, pather: pather, cache: newManifestCache(256)}, nil
}

// User returns the commit user recorded in the snapshots.
func (c *TableCommit) User() string { return c.user }

// Commit adds the messages' files in one APPEND snapshot.
//
// identifier makes the commit idempotent per user: if this user already
// committed identifier (or a larger one), nothing is added and the result
// says AlreadyCommitted; the messages' files are left alone, since they may
// be the committed ones. Use increasing
// identifiers (checkpoint ids, batch sequence numbers), or
// BatchCommitIdentifier for one-off writes that need no deduplication.
//
// Files written under an older schema than the table's latest fail with
// ErrSchemaChanged; a commit that cannot be published within its retries
// fails with ErrCommitConflict. On every failure where the commit is known
// not to have landed, the messages' data files are removed.
func (c *TableCommit) Commit(ctx context.Context, identifier int64, msgs []CommitMessage) (*CommitResult, error) {
	changes, done, err := c.begin(ctx, identifier, msgs)
	if err != nil || done != nil {
		return done, err
	}
	compact := hasCompaction(msgs)
	if changes.empty() && !c.cfg.commitEmpty && !compact {
		return &CommitResult{Empty: true}, nil
	}
	var res *CommitResult
	if !changes.empty() || c.cfg.commitEmpty {
		provider := func(ctx context.Context, latest *snapshot.Snapshot) (commitChanges, error) {
			// Primary-key messages depend on the bucket state they were
			// written against (commit_pk.go).
			if err := c.checkRowIDMessages(ctx, latest, msgs); err != nil {
				return changes, err
			}
			return changes, c.checkPrimaryKeyMessages(ctx, latest, msgs)
		}
		c.deferExpire = compact // expire once, after the COMPACT snapshot
		res, err = c.tryCommit(ctx, provider, identifier, snapshot.CommitAppend, false)
		c.deferExpire = false
		if err != nil {
			return nil, c.failed(ctx, msgs, err)
		}
	}
	if compact {
		return c.commitCompactionAfter(ctx, identifier, msgs, res)
	}
	return res, nil
}

// Overwrite replaces data with the messages' files in one OVERWRITE
// snapshot (Java FileStoreCommit.overwritePartition, INSERT OVERWRITE):
//
//   - partition names a static partition (some or all partition keys,
//     values as in directory names, the default partition name for
//     NULL): every file of the matching partitions is deleted, and every
//     new file must belong to them;
//   - with no partition and dynamic-partition-overwrite (the default) on a
//     partitioned table, the partitions the new files are in are replaced
//     and others are kept; with no new files nothing happens;
//   - otherwise the whole table is replaced.
func (c *TableCommit) Overwrite(ctx context.Context, identifier int64, partition map[string]string, msgs []CommitMessage) (*CommitResult, error) {
	changes, done, err := c.begin(ctx, identifier, msgs)
	if err != nil || done != nil {
		return done, err
	}
	entries := changes.files
	var match func([]byte) (bool, error)
	switch {
	case len(c.pather.fields) > 0 && len(partition) == 0 && c.cfg.dynamicOverwrite:
		if len(entries) == 0 {
			return &CommitResult{Empty: true}, nil
		}
		parts := map[string]bool{}
		for i := range entries {
			parts[string(entries[i].Partition)] = true
		}
		match = func(p []byte) (bool, error) { return parts[string(p)], nil }
	case len(partition) > 0:
		spec, err := newPartitionSpec(c.pather, partition)
		if err != nil {
			return nil, c.failed(ctx, msgs, err)
		}
		for i := range entries {
			ok, err := spec.match(entries[i].Partition)
			if err != nil {
				return nil, c.failed(ctx, msgs, err)
			}
			if !ok {
				return nil, c.failed(ctx, msgs, fmt.Errorf("%w: overwriting partition %v, but file %s is in another partition",
					ErrInvalidPartition, partition, entries[i].File.FileName))
			}
		}
		match = spec.match
	}
	res, err := c.tryCommit(ctx, c.overwriteProvider(match, changes), identifier, snapshot.CommitOverwrite, true)
	if err != nil {
		return nil, c.failed(ctx, msgs, err)
	}
	return res, nil
}

// DropPartitions deletes every file of the given partitions in one
// OVERWRITE snapshot (Java FileStoreCommit.dropPartitions). Each map names
// values of some or all partition keys.
func (c *TableCommit) DropPartitions(ctx context.Context, identifier int64, partitions []map[string]string) (*CommitResult, error) {
	if len(partitions) == 0 {
		return nil, fmt.Errorf("%w: no partition to drop", ErrInvalidPartition)
	}
	specs := make([]*partitionSpec, len(partitions))
	for i, p := range partitions {
		if len(p) == 0 {
			return nil, fmt.Errorf("%w: empty partition spec", ErrInvalidPartition)
		}
		s, err := newPartitionSpec(c.pather, p)
		if err != nil {
			return nil, err
		}
		specs[i] = s
	}
	match := func(p []byte) (bool, error) {
		for _, s := range specs {
			if ok, err := s.match(p); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	return c.tryCommit(ctx, c.overwriteProvider(match, commitChanges{}), identifier, snapshot.CommitOverwrite, true)
}

// Truncate deletes every file of the table in one OVERWRITE snapshot (Java
// FileStoreCommit.truncateTable).
func (c *TableCommit) Truncate(ctx context.Context, identifier int64) (*CommitResult, error) {
	return c.tryCommit(ctx, c.overwriteProvider(nil, commitChanges{}), identifier, snapshot.CommitOverwrite, true)
}

// Abort removes the data files of messages that will not be committed
// (Java FileStoreCommit.abort). Missing files are not an error.
func (c *TableCommit) Abort(ctx context.Context, msgs []CommitMessage) error {
	var errs []error
	for i := range msgs {
		dir, err := c.bucketDir(msgs[i].Partition, msgs[i].Bucket)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var paths []string
		for _, list := range [][]manifest.DataFileMeta{msgs[i].NewFiles, msgs[i].ChangelogFiles} {
			for _, f := range list {
				paths = append(paths, c.meta.Path(dir, f.FileName))
				for _, x := range f.ExtraFiles { // its separate file index
					paths = append(paths, c.meta.Path(dir, x))
				}
			}
		}
		for _, f := range msgs[i].NewIndexFiles {
			paths = append(paths, c.meta.IndexPath(f.FileName))
		}
		for _, p := range paths {
			if err := c.meta.fsys.Remove(ctx, p); err != nil && !errors.Is(err, iofs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("paimon: remove %s: %w", p, err))
			}
		}
	}
	errs = append(errs, c.abortCompaction(ctx, msgs))
	return errors.Join(errs...)
}

// FilterCommitted returns the identifiers (ascending) this commit user has
// not committed yet: those above the identifier of the user's newest
// snapshot (Java FileStoreCommit.filterCommitted). A recovering ingester
// re-commits only these.
func (c *TableCommit) FilterCommitted(ctx context.Context, identifiers []int64) ([]int64, error) {
	last, err := c.loadLastIdentifier(ctx)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, id := range identifiers {
		if last == nil || id > *last {
			out = append(out, id)
		}
	}
	return out, nil
}

// failed removes the messages' files after a failure known to have
// published nothing, and returns err.
func (c *TableCommit) failed(ctx context.Context, msgs []CommitMessage, err error) error {
	var unknown *unknownOutcomeError
	if errors.As(err, &unknown) || errors.Is(err, ErrCommitUncertain) {
		return err // the files may be in the table
	}
	if aerr := c.Abort(context.WithoutCancel(ctx), msgs); aerr != nil {
		return errors.Join(err, aerr)
	}
	return err
}

func (c *TableCommit) bucketDir(partition []byte, bucket int32) (string, error) {
	values, err := c.pather.values(partition)
	if err != nil {
		return "", fmt.Errorf("%w: partition: %w", ErrInvalidCommitMessage, err)
	}
	p, err := c.pather.path(values)
	if err != nil {
		return "", err
	}
	return bucketDirectory(c.t.schema, p, bucket), nil
}

// begin checks the messages and the identifier: it returns the entries to
// commit, or a result when the identifier was committed before (after
// touching anything), or an error (after removing the messages' files).
func (c *TableCommit) begin(ctx context.Context, identifier int64, msgs []CommitMessage) (commitChanges, *CommitResult, error) {
	entries, err := c.prepare(ctx, msgs)
	if err != nil {
		return commitChanges{}, nil, c.failed(ctx, msgs, err)
	}
	done, err := c.committedBefore(ctx, identifier)
	if err != nil {
		return commitChanges{}, nil, c.failed(ctx, msgs, err) // nothing was published
	}
	if done {
		// The messages may be the very ones that were committed (an
		// ingester that saved them and crashed after the commit landed):
		// their files are in the table, so nothing is removed, as in
		// Java's TableCommitImpl.filterAndCommit. Files of a rewrite are
		// orphans for RemoveOrphanFiles. Said loudly (issue 22): a
		// re-run ingester otherwise adds nothing without a word.
		slog.WarnContext(ctx, "paimon: commit identifier already committed by this user; nothing added",
			"table", c.t.Identifier().String(), "user", c.user, "identifier", identifier)
		return commitChanges{}, &CommitResult{AlreadyCommitted: true}, nil
	}
	return entries, nil, nil
}

// prepare checks the messages against the table and turns them into ADD
// entries: data files, changelog files, index files.
func (c *TableCommit) prepare(ctx context.Context, msgs []CommitMessage) (commitChanges, error) {
	var ch commitChanges
	latest, err := c.meta.LatestSchema(ctx)
	if err != nil {
		return ch, err
	}
	buckets, err := latest.Bucket()
	if err != nil {
		return ch, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	pk := len(latest.PrimaryKeys) > 0
	for i := range msgs {
		m := &msgs[i]
		if _, err := c.pather.values(m.Partition); err != nil {
			return ch, fmt.Errorf("%w: message %d: partition: %w", ErrInvalidCommitMessage, i, err)
		}
		if err := checkMessageBucket(m, i, buckets, pk); err != nil {
			return ch, err
		}
		for _, list := range [][]manifest.DataFileMeta{m.NewFiles, m.ChangelogFiles} {
			for _, f := range list {
				if f.SchemaID != latest.ID {
					return ch, fmt.Errorf("%w: data file %s was written with schema %d, the latest schema is %d",
						ErrSchemaChanged, f.FileName, f.SchemaID, latest.ID)
				}
			}
		}
		add := func(f manifest.DataFileMeta) manifest.ManifestEntry {
			return manifest.ManifestEntry{Kind: manifest.FileKindAdd, Partition: m.Partition, Bucket: m.Bucket,
				TotalBuckets: m.TotalBuckets, File: f}
		}
		for _, f := range m.NewFiles {
			ch.files = append(ch.files, add(f))
		}
		for _, f := range m.ChangelogFiles {
			ch.changelog = append(ch.changelog, add(f))
		}
		for _, f := range m.NewIndexFiles {
			ch.index = append(ch.index, manifest.IndexManifestEntry{Kind: manifest.FileKindAdd, Partition: m.Partition,
				Bucket: m.Bucket, IndexFile: f})
		}
	}
	if err := checkCompactMessages(msgs, latest.ID); err != nil {
		return ch, err
	}
	return ch, nil
}

// committedBefore reports whether the user already committed identifier.
func (c *TableCommit) committedBefore(ctx context.Context, identifier int64) (bool, error) {
	if identifier == BatchCommitIdentifier {
		return false, nil
	}
	last, err := c.loadLastIdentifier(ctx)
	if err != nil {
		return false, err
	}
	return last != nil && identifier <= *last, nil
}

// loadLastIdentifier finds the newest identifier the user committed
// (lastIdentifierOf: its commit-progress record and the snapshots after
// it, or the retained snapshots as Java's
// SnapshotManager.latestSnapshotOfUser), once per committer; later
// commits keep it current.
func (c *TableCommit) loadLastIdentifier(ctx context.Context) (*int64, error) {
	if c.lastLoaded {
		return c.lastIdentifier, nil
	}
	last, err := lastIdentifierOf(ctx, c.meta, c.user)
	if err != nil {
		return nil, err
	}
	c.lastIdentifier, c.lastLoaded = last, true
	return last, nil
}

// commitChanges are the entries of one snapshot's delta.
type commitChanges struct {
	files     []manifest.ManifestEntry
	changelog []manifest.ManifestEntry      // ADD
	index     []manifest.IndexManifestEntry // ADD or DELETE
}

func (ch *commitChanges) empty() bool {
	return len(ch.files) == 0 && len(ch.changelog) == 0 && len(ch.index) == 0
}

type changesProvider func(ctx context.Context, latest *snapshot.Snapshot) (commitChanges, error)

// overwriteProvider deletes every live file (and index file) of the
// partitions match accepts (all when match is nil) and adds entries (Java
// CommitScanner.readOverwriteChanges).
func (c *TableCommit) overwriteProvider(match func([]byte) (bool, error), add commitChanges) changesProvider {
	return func(ctx context.Context, latest *snapshot.Snapshot) (commitChanges, error) {
		var ch commitChanges
		if latest != nil {
			live, err := c.liveEntries(ctx, latest, match)
			if err != nil {
				return ch, err
			}
			for _, e := range live {
				if e.Bucket < 0 && c.t.schema.Options[optBucket] != "-2" {
					continue // postpone buckets are only overwritten in postpone tables
				}
				e.Kind = manifest.FileKindDelete
				ch.files = append(ch.files, e)
			}
			if latest.IndexManifest != nil {
				idx, err := c.meta.ReadIndexManifest(ctx, *latest.IndexManifest)
				if err != nil {
					return ch, err
				}
				for _, e := range idx {
					ok := match == nil
					if !ok {
						if ok, err = match(e.Partition); err != nil {
							return ch, err
						}
					}
					if ok {
						e.Kind = manifest.FileKindDelete
						ch.index = append(ch.index, e)
					}
				}
			}
		}
		ch.files = append(ch.files, add.files...)
		ch.changelog = add.changelog
		ch.index = append(ch.index, add.index...)
		return ch, nil
	}
}

func (c *TableCommit) liveEntries(ctx context.Context, s *snapshot.Snapshot, match func([]byte) (bool, error)) ([]manifest.ManifestEntry, error) {
	return liveEntries(ctx, c.meta, c.cache, s, match)
}

// attemptOutcome is how one tryCommitOnce ended.
type attemptOutcome int

const (
	outcomePublished attemptOutcome = iota
	outcomeLostRace                 // someone else created snapshot-<id>: nothing of ours is visible
	outcomeForked                   // our snapshot-<id> recreated an expired id and was removed
	outcomeUnknown                  // publishing failed in a way that may or may not have landed
)

// unknownOutcomeError wraps an error after which the commit may have been
// published: the committer keeps its files.
type unknownOutcomeError struct{ err error }

func (e *unknownOutcomeError) Error() string { return e.err.Error() }
func (e *unknownOutcomeError) Unwrap() error { return e.err }

// tryCommit runs attempts until one publishes a snapshot, a conflict or
// error stops it, or the retries run out (Java FileStoreCommitImpl.tryCommit).
func (c *TableCommit) tryCommit(ctx context.Context, provide changesProvider, identifier int64, kind snapshot.CommitKind, detectConflicts bool) (*CommitResult, error) {
	start := time.Now()
	var uncertainSince *int64 // latest snapshot id before an attempt whose outcome is unknown
	var lastErr error
	var added []manifest.ManifestEntry // the entries of the last attempt, to recognise its snapshot
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, wrapUnknown(uncertainSince != nil, err)
		}
		latest, err := c.latestSnapshot(ctx)
		if err != nil {
			return nil, wrapUnknown(uncertainSince != nil, err)
		}
		if uncertainSince != nil && latest != nil {
			// The previous attempt may have landed: look for it.
			s, err := c.findCommitted(ctx, *uncertainSince+1, latest, identifier, kind, added)
			if err != nil {
				return nil, wrapUnknown(true, err)
			}
			if s != nil {
				return c.succeeded(ctx, s, identifier, attempt)
			}
		}
		if attempt == 0 && identifier != BatchCommitIdentifier {
			// Before anything can be published: the commit of identifier
			// may land after the latest snapshot (commit-progress record).
			through := int64(0)
			if latest != nil {
				through = latest.ID
			}
			if err := c.writeIntent(ctx, identifier, through); err != nil {
				return nil, err
			}
		}
		if latest == nil {
			c.at(ctx, hookBase, snapshot.FirstSnapshotID)
		} else {
			c.at(ctx, hookBase, latest.ID+1)
		}
		ch, err := provide(ctx, latest)
		if err != nil {
			if !c.baseVanished(ctx, latest, err) {
				return nil, wrapUnknown(uncertainSince != nil, err)
			}
			lastErr = fmt.Errorf("snapshot %d expired while the commit was computed from it: %w", latest.ID, err)
		} else {
			added = ch.files
			snap, outcome, err := c.tryCommitOnce(ctx, latest, ch, identifier, kind, detectConflicts)
			switch {
			case err != nil && outcome != outcomeUnknown:
				if !c.baseVanished(ctx, latest, err) {
					return nil, wrapUnknown(uncertainSince != nil, err)
				}
				lastErr = fmt.Errorf("snapshot %d expired while the commit was computed from it: %w", latest.ID, err)
			case outcome == outcomePublished:
				return c.succeeded(ctx, snap, identifier, attempt+1)
			case outcome == outcomeUnknown:
				id := int64(0)
				if latest != nil {
					id = latest.ID
				}
				uncertainSince, lastErr = &id, err
			case outcome == outcomeForked:
				lastErr = fmt.Errorf("snapshot %d had expired while the commit stalled; it was recreated on outdated history and removed", snap.ID)
			default:
				lastErr = fmt.Errorf("snapshot %d was created by another writer", snap.ID)
			}
		}
		if attempt >= c.cfg.maxRetries || (c.cfg.timeout > 0 && time.Since(start) > c.cfg.timeout) {
			err := fmt.Errorf("%w: commit failed after %d attempts in %v: %w", ErrCommitConflict, attempt+1,
				time.Since(start).Round(time.Millisecond), lastErr)
			return nil, wrapUnknown(uncertainSince != nil, err)
		}
		if err := c.wait(ctx, attempt); err != nil {
			return nil, wrapUnknown(uncertainSince != nil, err)
		}
	}
}

func wrapUnknown(unknown bool, err error) error {
	if unknown {
		return &unknownOutcomeError{fmt.Errorf("%w (an earlier attempt may have been published; its files are kept)", err)}
	}
	return err
}

// wait sleeps min(minWait·2^n, maxWait) plus up to 20% jitter (Java
// RetryWaiter).
func (c *TableCommit) wait(ctx context.Context, n int) error {
	d := c.cfg.maxWait
	if n < 30 && c.cfg.minWait<<n < d {
		d = c.cfg.minWait << n
	}
	d += time.Duration(rand.Int64N(int64(d)/5 + 1))
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

func (c *TableCommit) succeeded(ctx context.Context, s *snapshot.Snapshot, identifier int64, attempts int) (*CommitResult, error) {
	if identifier != BatchCommitIdentifier {
		v := identifier
		c.lastIdentifier = &v
	}
	res := &CommitResult{Snapshot: s, Attempts: attempts, Published: []*snapshot.Snapshot{s}}
	if !c.cfg.skipExpire && !c.cfg.writeOnly && !c.deferExpire {
		expired, err := c.expireAfterCommit(ctx)
		res.Expired = expired
		if err != nil {
			res.ExpireErr = fmt.Errorf("paimon: snapshot %d committed, but expiring old snapshots failed: %w", s.ID, err)
		}
	}
	return res, nil
}

// findCommitted looks for a snapshot in [from, latest] with this user,
// identifier and kind, published by an attempt whose outcome was unknown.
// A match that recreated an expired id (verifyLanded) is removed and the
// search goes on.
func (c *TableCommit) findCommitted(ctx context.Context, from int64, latest *snapshot.Snapshot, identifier int64,
	kind snapshot.CommitKind, files []manifest.ManifestEntry) (*snapshot.Snapshot, error) {
	for id := max(from, snapshot.FirstSnapshotID); id <= latest.ID; id++ {
		s := latest
		if id != latest.ID {
			var err error
			if s, err = c.meta.ReadSnapshot(ctx, id); err != nil {
				if errors.Is(err, ErrSnapshotNotFound) {
					continue
				}
				return nil, err
			}
		}
		if s.CommitUser != c.user || s.CommitIdentifier != identifier || s.CommitKind != kind {
			continue
		}
		verdict, err := c.verifyLanded(ctx, s, nil, false, files)
		if err != nil {
			return nil, err
		}
		switch verdict {
		case landed:
			return s, nil
		case forked:
			if err := c.removeOwnSnapshot(ctx, s.ID); err != nil {
				return nil, err
			}
		default:
			if err := c.removeOwnSnapshot(ctx, s.ID); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%w: snapshot %d recreated an id that had expired, and snapshot %d cannot tell whether it was built on it",
				ErrCommitUncertain, s.ID, s.ID+1)
		}
	}
	return nil, nil
}

func (c *TableCommit) latestSnapshot(ctx context.Context) (*snapshot.Snapshot, error) {
	if c.t.publisher != nil {
		return c.latestThrough(ctx, c.t.publisher)
	}
	return latestSnapshotOf(ctx, c.meta)
}

// tryCommitOnce prepares and publishes one snapshot on top of latest (Java
// FileStoreCommitImpl.tryCommitOnce).
func (c *TableCommit) tryCommitOnce(ctx context.Context, latest *snapshot.Snapshot, ch commitChanges, identifier int64,
	kind snapshot.CommitKind, detectConflicts bool) (*snapshot.Snapshot, attemptOutcome, error) {
	newID := snapshot.FirstSnapshotID
	if latest != nil {
		newID = latest.ID + 1
	}
	if latest != nil && detectConflicts {
		if err := c.checkConflicts(ctx, latest, ch, kind); err != nil {
			return nil, outcomeLostRace, err
		}
	}
	snap, err := c.buildSnapshot(ctx, newID, latest, ch, identifier, kind)
	if err != nil {
		c.mw.removeWritten(context.WithoutCancel(ctx))
		return nil, outcomeLostRace, err
	}
	if c.t.publisher != nil {
		return c.publishThrough(ctx, c.t.publisher, snap, ch)
	}
	c.at(ctx, hookPublish, newID)
	err = fs.WriteFile(ctx, c.meta.fsys, c.meta.SnapshotPath(newID), snap.Encode(), &fs.CreateOptions{IfNotExist: true})
	switch {
	case err == nil:
		c.at(ctx, hookVerify, newID)
		return c.afterPublish(ctx, snap, latest, ch.files)
	case errors.Is(err, iofs.ErrExist):
		c.mw.removeWritten(context.WithoutCancel(ctx))
		return snap, outcomeLostRace, nil
	case errors.Is(err, fs.ErrUnsupported):
		c.mw.removeWritten(context.WithoutCancel(ctx))
		return nil, outcomeLostRace, fmt.Errorf("paimon: the file system cannot create snapshot files atomically, refusing to commit: %w", err)
	case errors.Is(err, fs.ErrNotPublished):
		// Failed before anything became visible (a full disk): a
		// definite failure, whose files go (issue 24, failure 6).
		c.mw.removeWritten(context.WithoutCancel(ctx))
		return nil, outcomeLostRace, fmt.Errorf("paimon: publish %s: %w", c.meta.SnapshotPath(newID), err)
	default:
		c.mw.reset() // may be referenced by a published snapshot
		return snap, outcomeUnknown, fmt.Errorf("paimon: publish %s: %w", c.meta.SnapshotPath(newID), err)
	}
}

// afterPublish verifies a snapshot this attempt created (verifyLanded):
// a landed one gets the LATEST hint; a fork is removed with the attempt's
// manifests and retried like a lost race; an undecided one is removed and
// reported as uncertain.
func (c *TableCommit) afterPublish(ctx context.Context, snap, base *snapshot.Snapshot, files []manifest.ManifestEntry) (*snapshot.Snapshot, attemptOutcome, error) {
	verdict, err := c.verifyLanded(ctx, snap, base, true, files)
	if err != nil {
		c.mw.reset() // may be referenced by a published snapshot
		return snap, outcomeUnknown, fmt.Errorf("paimon: snapshot %d was published but could not be checked against the table's history: %w", snap.ID, err)
	}
	switch verdict {
	case landed:
		c.mw.reset()
		c.writeLatestHint(ctx, snap.ID)
		return snap, outcomePublished, nil
	case forked:
		if err := c.removeOwnSnapshot(ctx, snap.ID); err != nil {
			c.mw.reset()
			return snap, outcomeUnknown, err
		}
		c.mw.removeWritten(context.WithoutCancel(ctx))
		return snap, outcomeForked, nil
	default:
		c.mw.reset() // a snapshot built on ours would reference them
		if err := c.removeOwnSnapshot(ctx, snap.ID); err != nil {
			return snap, outcomeUnknown, err
		}
		return nil, outcomeLostRace, &unknownOutcomeError{fmt.Errorf("%w: snapshot %d recreated an id that had expired, and snapshot %d cannot tell whether it was built on it (the commit added no file)",
			ErrCommitUncertain, snap.ID, snap.ID+1)}
	}
}

// buildSnapshot writes the manifests of the next snapshot and returns it.
func (c *TableCommit) buildSnapshot(ctx context.Context, id int64, latest *snapshot.Snapshot, ch commitChanges,
	identifier int64, kind snapshot.CommitKind) (*snapshot.Snapshot, error) {
	var before []manifest.ManifestFileMeta
	var total int64
	var watermark, nextRowID *int64
	var oldIndex *string
	if latest != nil {
		var err error
		if before, err = c.meta.DataManifests(ctx, latest); err != nil {
			return nil, err
		}
		total, watermark, nextRowID, oldIndex = latest.TotalRecordCount, latest.Watermark, latest.NextRowID, latest.IndexManifest
	}
	base, err := c.mergeManifests(ctx, before)
	if err != nil {
		return nil, err
	}
	baseName, baseSize, err := c.mw.writeList(ctx, base)
	if err != nil {
		return nil, err
	}
	next := int64(0)
	if nextRowID != nil {
		next = *nextRowID
	}
	if c.cfg.rowTracking {
		// Assigned from this attempt's base: a retry assigns again.
		if ch.files, next, err = assignRowTracking(id, next, ch.files, c.cfg.partitionGroup); err != nil {
			return nil, err
		}
	}
	var delta int64
	for i := range ch.files {
		if ch.files[i].Kind == manifest.FileKindAdd {
			delta += ch.files[i].File.RowCount
		} else {
			delta -= ch.files[i].File.RowCount
		}
	}
	deltaMetas, err := c.mw.writeManifests(ctx, ch.files)
	if err != nil {
		return nil, err
	}
	deltaName, deltaSize, err := c.mw.writeList(ctx, deltaMetas)
	if err != nil {
		return nil, err
	}
	// Changelog files get a manifest list of their own (Java writes it
	// only when there are some; the record count is then their rows).
	var changelogName *string
	var changelogSize, changelogRows *int64
	if len(ch.changelog) > 0 {
		metas, err := c.mw.writeManifests(ctx, ch.changelog)
		if err != nil {
			return nil, err
		}
		name, size, err := c.mw.writeList(ctx, metas)
		if err != nil {
			return nil, err
		}
		var rows int64
		for i := range ch.changelog {
			rows += ch.changelog[i].File.RowCount
		}
		changelogName, changelogSize, changelogRows = &name, &size, &rows
	}
	indexManifest := oldIndex
	if len(ch.index) > 0 {
		name, err := c.combineIndex(ctx, oldIndex, ch.index)
		if err != nil {
			return nil, err
		}
		indexManifest = name
	}
	sch, err := c.meta.LatestSchema(ctx)
	if err != nil {
		return nil, err
	}
	stats, err := c.inheritStatistics(ctx, latest, sch)
	if err != nil {
		return nil, err
	}
	s := &snapshot.Snapshot{
		Version:                   snapshot.CurrentVersion,
		ID:                        id,
		SchemaID:                  sch.ID,
		BaseManifestList:          baseName,
		BaseManifestListSize:      &baseSize,
		DeltaManifestList:         deltaName,
		DeltaManifestListSize:     &deltaSize,
		ChangelogManifestList:     changelogName,
		ChangelogManifestListSize: changelogSize,
		ChangelogRecordCount:      changelogRows,
		IndexManifest:             indexManifest,
		CommitUser:                c.user,
		CommitIdentifier:          identifier,
		CommitKind:                kind,
		TimeMillis:                c.cfg.now().UnixMilli(),
		TotalRecordCount:          total + delta,
		DeltaRecordCount:          delta,
		Watermark:                 watermark,
		Statistics:                stats,
		NextRowID:                 &next,
	}
	if len(c.cfg.properties) > 0 {
		s.Properties = c.cfg.properties
	}
	return s, nil
}

// combineIndex writes the index manifest of the next snapshot: the live
// index files of the old one without those deleted, plus those added (Java
// IndexManifestFile.writeIndexFiles).
func (c *TableCommit) combineIndex(ctx context.Context, old *string, changes []manifest.IndexManifestEntry) (*string, error) {
	var entries []manifest.IndexManifestEntry
	if old != nil {
		var err error
		if entries, err = c.meta.ReadIndexManifest(ctx, *old); err != nil {
			return nil, err
		}
	}
	out, err := combineIndexEntries(entries, changes, c.unawareBucket())
	if err != nil {
		return nil, err
	}
	name, err := c.mw.writeIndexManifest(ctx, out)
	if err != nil {
		return nil, err
	}
	return &name, nil
}

// inheritStatistics keeps the latest snapshot's statistics file when it
// was computed for the current schema (Java: "Schema changed, stats will
// not be inherited").
func (c *TableCommit) inheritStatistics(ctx context.Context, latest *snapshot.Snapshot, sch *schema.TableSchema) (*string, error) {
	if latest == nil || latest.Statistics == nil {
		return nil, nil
	}
	b, err := fs.ReadFile(ctx, c.meta.fsys, c.meta.Path("statistics", *latest.Statistics))
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st, err := snapshot.DecodeStatistics(b)
	if err != nil || st.SchemaID != sch.ID {
		return nil, nil //nolint:nilerr // unreadable statistics are simply not inherited
	}
	return latest.Statistics, nil
}

// checkConflicts verifies the delta still applies to latest (Java
// ConflictDetection.checkConflicts): every file it deletes is live, no file
// is added twice, and (except for overwrites) the bucket count of every
// changed partition stays the same.
func (c *TableCommit) checkConflicts(ctx context.Context, latest *snapshot.Snapshot, ch commitChanges, kind snapshot.CommitKind) error {
	changed := map[string]bool{}
	for i := range ch.files {
		changed[string(ch.files[i].Partition)] = true
	}
	if len(changed) == 0 {
		return nil
	}
	base, err := c.liveEntries(ctx, latest, func(p []byte) (bool, error) { return changed[string(p)], nil })
	if err != nil {
		return err
	}
	if kind != snapshot.CommitOverwrite {
		buckets := map[string]int32{}
		for _, list := range [][]manifest.ManifestEntry{base, ch.files} {
			for i := range list {
				p := string(list[i].Partition)
				if n, ok := buckets[p]; ok && n != list[i].TotalBuckets {
					return fmt.Errorf("%w: partition has files written for %d and for %d buckets",
						ErrCommitConflict, n, list[i].TotalBuckets)
				}
				buckets[p] = list[i].TotalBuckets
			}
		}
	}
	if c.unawareBucket() && tableOptions(c.t.schema.Options).deletionVectors() {
		if err := c.checkDeletionVectors(ctx, latest, base, ch); err != nil {
			return err
		}
	}
	merged, failed, err := mergeEntries(base, ch.files)
	switch {
	case failed == 0:
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	case err != nil:
		return fmt.Errorf("%w: %w", ErrCommitConflict, err)
	}
	for _, e := range merged {
		if e.Kind == manifest.FileKindDelete {
			return fmt.Errorf("%w: file %s to delete is no longer in snapshot %d (deleted by another commit)",
				ErrCommitConflict, e.File.FileName, latest.ID)
		}
	}
	return nil
}

package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// A streaming (follow) read mirrors Java's DataTableStreamScan: a starting
// scanner picks the first snapshot (optionally reading it whole), then a
// follow-up scanner reads each later snapshot's changes, one snapshot at a
// time, in id order:
//
//   - changelog-producer none: the delta files of APPEND snapshots
//     (DeltaFollowUpScanner); COMPACT and OVERWRITE snapshots add no
//     change and are skipped;
//   - changelog-producer input, lookup, full-compaction: the changelog
//     files of every snapshot that has some (ChangelogFollowUpScanner).
//
// Every row comes with the audit log's leading rowkind column. A consumer
// id records progress in consumer/consumer-<id> exactly as Java's
// ConsumerManager.resetConsumer does ({"nextSnapshot": N}), so Java's
// expiration keeps the snapshots not read yet and a restarted follower
// resumes where the last Commit left it.

// FollowStart says where a follower starts (Java scan.mode for streaming
// reads).
type FollowStart int

const (
	// FollowDefault takes the start from the table's options as Java does:
	// scan.mode, else scan.snapshot-id (from-snapshot), else
	// scan.timestamp-millis or scan.timestamp (from-timestamp), else
	// latest-full.
	FollowDefault FollowStart = iota
	// FollowLatestFull reads the latest snapshot whole (rows of kind +I or
	// +U), then the changes of every later snapshot (Java latest-full).
	FollowLatestFull
	// FollowLatest reads the changes of the snapshots committed after the
	// latest one when the follower starts (Java latest); on an empty table
	// the first snapshot is read as changes too.
	FollowLatest
	// FollowEarliest reads the changes of every snapshot from the earliest
	// one kept (Java from-snapshot with an id at or before the earliest).
	FollowEarliest
	// FollowFromSnapshot reads the changes of snapshot SnapshotID and later
	// (Java from-snapshot); an expired SnapshotID starts at the earliest
	// snapshot kept, as Java does.
	FollowFromSnapshot
	// FollowFromSnapshotFull reads snapshot SnapshotID whole, then the
	// changes of the later snapshots (Java from-snapshot-full).
	FollowFromSnapshotFull
	// FollowFromTimestamp reads the changes of the snapshots committed at
	// or after Timestamp (Java from-timestamp: it starts after the latest
	// snapshot committed before it).
	FollowFromTimestamp
)

// Follow defaults.
const (
	DefaultFollowPollMin = 100 * time.Millisecond
	DefaultFollowPollMax = 10 * time.Second // Java continuous.discovery-interval
)

// FollowOptions configure Table.Follow. The zero value follows the table's
// own options.
type FollowOptions struct {
	Start      FollowStart
	SnapshotID int64     // FollowFromSnapshot, FollowFromSnapshotFull
	Timestamp  time.Time // FollowFromTimestamp
	// ConsumerID, when set (or the table's consumer-id option), restores
	// the position of consumer/consumer-<id> if that file exists (it wins
	// over Start, as in Java) and Commit writes it.
	ConsumerID string
	// IgnoreConsumerProgress starts from Start even when the consumer file
	// exists (Java consumer.ignore-progress); Commit still writes it.
	IgnoreConsumerProgress bool
	// PollMin and PollMax bound the wait between two looks for a new
	// snapshot: Next waits PollMin after finding nothing, doubling up to
	// PollMax while nothing comes.
	PollMin, PollMax time.Duration
}

// FollowPlan is one step of a follower: the rows of one snapshot, whole
// (Full, the starting read) or its changes.
type FollowPlan struct {
	// SnapshotID is the snapshot read.
	SnapshotID int64
	// Full is set for the starting read of a whole snapshot.
	Full bool
	// Plan holds the splits.
	Plan *Plan
}

// ArrowSchema is the schema of the plan's batches: rowkind, then the
// columns.
func (p *FollowPlan) ArrowSchema() *arrow.Schema { return p.Plan.state.outSchema }

// Follower reads a table as it changes. It is not safe for concurrent use.
type Follower struct {
	t        *Table
	opts     FollowOptions
	userOpts []ScanOption
	mode     string // IncrementalDelta or IncrementalChangelog
	consumer string
	next     int64 // the next snapshot to read; 0 before the start is known
	start    *followStarter
}

// followStarter is the starting scanner, run until it finds a start.
type followStarter struct {
	kind       FollowStart
	snapshotID int64
	timeMillis int64
	// latestAtOpen is the latest snapshot when the follower was created
	// (Java ContinuousLatestStartingScanner's startingSnapshotId), 0 for
	// none.
	latestAtOpen int64
}

// Follow returns a follower of the table. scanOpts may set columns, a
// filter (rows are filtered exactly), an allocator, the batch size and the
// workers; time travel, limits, incremental ranges and row tracking are
// refused. Options this library does not implement for streaming reads are
// refused here with ErrUnsupported, before any row.
func (t *Table) Follow(ctx context.Context, opts *FollowOptions, scanOpts ...ScanOption) (*Follower, error) {
	f := &Follower{t: t, userOpts: scanOpts}
	if opts != nil {
		f.opts = *opts
	}
	if f.opts.PollMin <= 0 {
		f.opts.PollMin = DefaultFollowPollMin
	}
	if f.opts.PollMax < f.opts.PollMin {
		f.opts.PollMax = max(DefaultFollowPollMax, f.opts.PollMin)
	}
	var spec ScanSpec
	for _, o := range scanOpts {
		o(&spec)
	}
	if spec.SnapshotID != 0 || !spec.Timestamp.IsZero() || spec.Tag != "" || spec.Limit != 0 ||
		spec.IncrementalStart != 0 || spec.IncrementalEnd != 0 || spec.RowTracking {
		return nil, fmt.Errorf("%w: a follower takes no time travel, limit, incremental range or row tracking", ErrInvalidScan)
	}
	if spec.Columns != nil && !slices.Contains(spec.Columns, rowKindField.Name) {
		// Every row of a follower comes with its kind first.
		cols := append([]string{rowKindField.Name}, spec.Columns...)
		f.userOpts = append(append([]ScanOption(nil), scanOpts...), WithColumns(cols...))
	}
	if err := f.checkTable(ctx); err != nil {
		return nil, err
	}
	o := tableOptions(t.schema.Options)
	f.consumer = f.opts.ConsumerID
	if f.consumer == "" {
		f.consumer = o.str(coreoptions.ConsumerId, "")
	}
	if f.consumer != "" {
		if err := checkConsumerID(f.consumer); err != nil {
			return nil, err
		}
	}
	ignore := f.opts.IgnoreConsumerProgress || o.boolean(coreoptions.ConsumerIgnoreProgress, false)
	if f.consumer != "" && !ignore {
		c, ok, err := readConsumer(ctx, t.meta, f.consumer)
		if err != nil {
			return nil, err
		}
		if ok {
			f.start = &followStarter{kind: FollowFromSnapshot, snapshotID: c.NextSnapshot}
		}
	}
	if f.start == nil {
		st, err := f.starter(ctx)
		if err != nil {
			return nil, err
		}
		f.start = st
	}
	return f, nil
}

// checkTable refuses what a follower does not implement.
func (f *Follower) checkTable(ctx context.Context) error {
	t := f.t
	co, err := coreoptions.Parse(t.schema.Options)
	if err != nil {
		return fmt.Errorf("paimon: follow %s: %w", t.name(), err)
	}
	o := tableOptions(t.schema.Options)
	refuse := func(what string) error {
		return fmt.Errorf("%w: streaming read of %s with %s", ErrUnsupported, t.name(), what)
	}
	switch p := strings.ToLower(strings.TrimSpace(o.str(coreoptions.ChangelogProducer, "none"))); p {
	case "none":
		f.mode = IncrementalDelta
	case "input", "lookup", "full-compaction":
		f.mode = IncrementalChangelog
	default:
		return refuse("changelog-producer " + p)
	}
	if co.Bucket == postponeBucket {
		return refuse("bucket -2 (postpone)")
	}
	if o.boolean(coreoptions.StreamingReadOverwrite, false) {
		return refuse(coreoptions.StreamingReadOverwrite)
	}
	for _, k := range []string{coreoptions.ScanBoundedWatermark, coreoptions.StreamingReadSnapshotDelay, coreoptions.ScanFileCreationTimeMillis, coreoptions.ScanCreationTimeMillis} {
		if _, ok := t.schema.Options[k]; ok {
			return refuse(k)
		}
	}
	if co.ChangelogNumRetainedMax > co.SnapshotNumRetainedMax || co.ChangelogTimeRetained > co.SnapshotTimeRetained ||
		co.ChangelogNumRetainedMin > co.SnapshotNumRetainedMin {
		return refuse("changelogs kept longer than snapshots (changelog.num-retained.* or changelog.time-retained)")
	}
	ob, err := t.otherBranch(ctx)
	if err != nil {
		return err
	}
	if ob != nil {
		return refuse("scan.fallback-branch or scan.primary-branch")
	}
	return nil
}

// starter resolves the starting scanner (Java
// AbstractDataTableScan.createStartingScanner for streaming reads).
func (f *Follower) starter(ctx context.Context) (*followStarter, error) {
	t := f.t
	o := tableOptions(t.schema.Options)
	st := &followStarter{kind: f.opts.Start, snapshotID: f.opts.SnapshotID}
	if !f.opts.Timestamp.IsZero() {
		st.timeMillis = f.opts.Timestamp.UnixMilli()
	}
	if st.kind == FollowDefault {
		mode := strings.ToLower(strings.TrimSpace(o.str(coreoptions.ScanMode, "default")))
		if mode == "default" {
			switch {
			case o.str(coreoptions.ScanSnapshotId, "") != "":
				mode = "from-snapshot"
			case o.str(coreoptions.ScanTimestampMillis, "") != "" || o.str(coreoptions.ScanTimestamp, "") != "":
				mode = "from-timestamp"
			default:
				mode = "latest-full"
			}
		}
		switch mode {
		case "latest-full", "full":
			st.kind = FollowLatestFull
		case "latest":
			st.kind = FollowLatest
		case "from-snapshot", "from-snapshot-full":
			st.kind = FollowFromSnapshot
			if mode == "from-snapshot-full" {
				st.kind = FollowFromSnapshotFull
			}
			v := o.str(coreoptions.ScanSnapshotId, "")
			id, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || id <= 0 {
				return nil, fmt.Errorf("%w: scan.mode %s needs a positive scan.snapshot-id, got %q", ErrInvalidScan, mode, v)
			}
			st.snapshotID = id
		case "from-timestamp":
			st.kind = FollowFromTimestamp
			if v := o.str(coreoptions.ScanTimestampMillis, ""); v != "" {
				ms, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				if err != nil {
					return nil, fmt.Errorf("%w: scan.timestamp-millis %q", ErrInvalidScan, v)
				}
				st.timeMillis = ms
			} else {
				return nil, fmt.Errorf("%w: streaming read with scan.timestamp (use scan.timestamp-millis or FollowOptions.Timestamp)", ErrUnsupported)
			}
		default:
			return nil, fmt.Errorf("%w: streaming read with scan.mode %s", ErrUnsupported, mode)
		}
	}
	switch st.kind {
	case FollowFromSnapshot, FollowFromSnapshotFull:
		if st.snapshotID <= 0 {
			return nil, fmt.Errorf("%w: follow from snapshot %d", ErrInvalidScan, st.snapshotID)
		}
	case FollowFromTimestamp:
		if st.timeMillis == 0 {
			return nil, fmt.Errorf("%w: follow from a timestamp needs one", ErrInvalidScan)
		}
	case FollowEarliest:
		st.kind, st.snapshotID = FollowFromSnapshot, 1
	case FollowLatest, FollowLatestFull:
	default:
		return nil, fmt.Errorf("%w: follow start %d", ErrInvalidScan, st.kind)
	}
	if st.kind == FollowLatestFull || st.kind == FollowFromSnapshotFull {
		// A full start of a lookup or full-compaction table reads only the
		// compacted levels (the rest arrives later as changelog): not done.
		if p := strings.ToLower(o.str(coreoptions.ChangelogProducer, "none")); p == "lookup" || p == "full-compaction" {
			return nil, fmt.Errorf("%w: a full starting read of %s (changelog-producer %s); start from a snapshot or the latest instead", ErrUnsupported, t.name(), p)
		}
	}
	if st.kind == FollowLatest {
		latest, ok, err := t.meta.LatestSnapshotID(ctx)
		if err != nil {
			return nil, err
		}
		if ok {
			st.latestAtOpen = latest
		}
	}
	return st, nil
}

// NextSnapshot is the id of the next snapshot to read, 0 while the start is
// not known (Java StreamTableScan.checkpoint).
func (f *Follower) NextSnapshot() int64 { return f.next }

// Consumer is the consumer id, "" for none.
func (f *Follower) Consumer() string { return f.consumer }

// Commit records NextSnapshot in the consumer file (Java
// notifyCheckpointComplete → ConsumerManager.resetConsumer). Call it after
// the rows of every plan returned so far are processed: a follower
// restarted with the same consumer id resumes after them. Without a
// consumer id or a known position it does nothing.
func (f *Follower) Commit(ctx context.Context) error {
	if f.consumer == "" || f.next == 0 {
		return nil
	}
	// fs.WriteFile without options replaces the file atomically, as
	// Java's FileIO.overwriteFileUtf8 does.
	p := f.t.meta.branchPath(consumerDir, consumerPrefix+f.consumer)
	if err := fs.WriteFile(ctx, f.t.meta.fsys, p, snapshot.Consumer{NextSnapshot: f.next}.Encode(), nil); err != nil {
		return fmt.Errorf("paimon: consumer %s: %w", f.consumer, err)
	}
	return nil
}

// Next waits for the next snapshot with rows to read and plans it. It
// returns ctx's error when ctx ends, and an error wrapping
// ErrSnapshotNotFound when the snapshot it needs has expired (Java
// NextSnapshotFetcher: "The snapshot with id N has expired").
func (f *Follower) Next(ctx context.Context) (*FollowPlan, error) {
	wait := f.opts.PollMin
	for {
		p, err := f.tryNext(ctx)
		if err != nil || p != nil {
			return p, err
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case <-timer.C:
		}
		wait = min(2*wait, f.opts.PollMax)
	}
}

// TryNext plans the next snapshot with rows if there is one now, else
// returns nil without waiting.
func (f *Follower) TryNext(ctx context.Context) (*FollowPlan, error) { return f.tryNext(ctx) }

func (f *Follower) tryNext(ctx context.Context) (*FollowPlan, error) {
	if f.next == 0 {
		p, err := f.first(ctx)
		if err != nil || p != nil || f.next == 0 {
			return p, err
		}
	}
	meta := f.t.meta
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		snap, err := meta.ReadSnapshot(ctx, f.next)
		if errors.Is(err, ErrSnapshotNotFound) {
			return nil, f.rangeCheck(ctx)
		}
		if err != nil {
			return nil, err
		}
		var read bool
		switch f.mode {
		case IncrementalDelta:
			read = snap.CommitKind == snapshot.CommitAppend
		case IncrementalChangelog:
			read = snap.ChangelogManifestList != nil
		}
		id := f.next
		if !read {
			f.next++
			continue
		}
		scan := f.t.NewScan(append(append([]ScanOption(nil), f.userOpts...), WithIncremental(id-1, id, f.mode), withFollow(), withFollowRead())...)
		plan, err := scan.Plan(ctx)
		if errors.Is(err, ErrSnapshotNotFound) {
			// Expired between reading it and planning.
			return nil, f.rangeCheck(ctx)
		}
		if err != nil {
			return nil, err
		}
		f.next++
		if len(plan.Splits) == 0 {
			continue
		}
		plan.SnapshotID = id
		return &FollowPlan{SnapshotID: id, Plan: plan}, nil
	}
}

// rangeCheck decides what a missing next snapshot means (Java
// NextSnapshotFetcher.rangeCheck): not written yet (nil), expired, or far
// beyond the latest (the table was recreated).
func (f *Follower) rangeCheck(ctx context.Context) error {
	meta := f.t.meta
	earliest, ok, err := meta.EarliestSnapshotID(ctx)
	if err != nil {
		return err
	}
	if ok && earliest > f.next {
		return fmt.Errorf("%w: the snapshot with id %d of %s has expired; keep snapshots longer or follow with a consumer id so that unread snapshots are kept",
			ErrSnapshotNotFound, f.next, f.t.name())
	}
	latest, lok, err := meta.LatestSnapshotID(ctx)
	if err != nil {
		return err
	}
	if (!ok && f.next > 1) || (lok && f.next > latest+1) {
		return fmt.Errorf("%w: the next snapshot %d of %s is beyond the latest (%d); was the table recreated?",
			ErrSnapshotNotFound, f.next, f.t.name(), latest)
	}
	return nil
}

// first runs the starting scanner (Java DataTableStreamScan.tryFirstPlan):
// it sets next when it finds a start and returns the full read, if any.
func (f *Follower) first(ctx context.Context) (*FollowPlan, error) {
	meta := f.t.meta
	st := f.start
	switch st.kind {
	case FollowLatestFull, FollowFromSnapshotFull:
		var id int64
		if st.kind == FollowLatestFull {
			latest, ok, err := meta.LatestSnapshotID(ctx)
			if err != nil || !ok {
				return nil, err
			}
			id = latest
		} else {
			id = st.snapshotID
		}
		scan := f.t.NewScan(append(append([]ScanOption(nil), f.userOpts...), WithSnapshotID(id), WithAuditLog(), withFollowRead())...)
		plan, err := scan.Plan(ctx)
		if err != nil {
			return nil, err
		}
		f.next = id + 1
		return &FollowPlan{SnapshotID: id, Full: true, Plan: plan}, nil
	case FollowLatest:
		latest, ok, err := meta.LatestSnapshotID(ctx)
		if err != nil || !ok {
			return nil, err
		}
		if st.latestAtOpen == 0 {
			f.next = 1
		} else {
			f.next = latest + 1
		}
	case FollowFromSnapshot:
		earliest, ok, err := meta.EarliestSnapshotID(ctx)
		if err != nil || !ok {
			return nil, err
		}
		f.next = max(st.snapshotID, earliest)
	case FollowFromTimestamp:
		id, ok, err := f.earlierThan(ctx, st.timeMillis)
		if err != nil || !ok {
			return nil, err
		}
		f.next = id + 1
	}
	return nil, nil
}

// earlierThan is the latest snapshot committed before ms, or the earliest
// snapshot's id - 1 when none is (Java TimeTravelUtil.earlierThanTimeMills).
func (f *Follower) earlierThan(ctx context.Context, ms int64) (int64, bool, error) {
	meta := f.t.meta
	latest, ok, err := meta.LatestSnapshotID(ctx)
	if err != nil || !ok {
		return 0, false, err
	}
	lo, ok, err := meta.EarliestSnapshotID(ctx)
	if err != nil || !ok {
		return 0, false, err
	}
	first, err := meta.ReadSnapshot(ctx, lo)
	if err != nil {
		return 0, false, err
	}
	if first.TimeMillis >= ms {
		return lo - 1, true, nil
	}
	hi := latest
	for lo < hi {
		mid := (lo + hi + 1) / 2
		s, err := meta.ReadSnapshot(ctx, mid)
		if err != nil {
			return 0, false, err
		}
		if s.TimeMillis < ms {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true, nil
}

// Records reads a plan of this follower: every row with its leading
// rowkind column (added to the columns asked for when they lack it). The
// rows of a full plan are the snapshot's rows as Java's starting read
// returns them: +I for files read as they are, the merged kind (+I or +U)
// otherwise, retractions dropped. Rows come in the table's current schema
// (Java's from-snapshot dynamic option also time-travels the schema to the
// starting snapshot's; WithColumns of that schema's fields does the same).
func (f *Follower) Records(ctx context.Context, p *FollowPlan) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		if p == nil || p.Plan == nil || len(p.Plan.Splits) == 0 {
			return
		}
		opts := append(append([]ScanOption(nil), f.userOpts...), withFollowRead())
		if p.Full {
			opts = append(opts, WithSnapshotID(p.SnapshotID), WithAuditLog())
		} else {
			opts = append(opts, WithIncremental(p.SnapshotID-1, p.SnapshotID, f.mode), withFollow())
		}
		scan := f.t.NewScan(opts...)
		mem := scan.allocator()
		pk := len(f.t.schema.PrimaryKeys) > 0
		splits := p.Plan.Splits
		if !p.Full {
			for rec, err := range scan.ReadSplits(ctx, splits...) {
				if !yield(rec, err) || err != nil {
					return
				}
			}
			return
		}
		for i := range splits {
			// Java's starting read of a raw-convertible primary-key split
			// reads the files as they are (PrimaryKeyTableRawFileSplitRead-
			// Provider): every row +I. Merged splits keep the merged kind
			// and drop retractions (DropDeleteReader).
			raw := pk && splits[i].RawConvertible
			for rec, err := range scan.ReadSplits(ctx, splits[i]) {
				if err != nil {
					yield(nil, err)
					return
				}
				var kept arrow.RecordBatch
				if raw {
					kept, err = allInserts(rec, mem)
				} else {
					kept, err = dropRetractions(rec, mem)
				}
				rec.Release()
				if err != nil {
					yield(nil, err)
					return
				}
				if kept == nil {
					continue
				}
				if !yield(kept, nil) {
					return
				}
			}
		}
	}
}

// allInserts replaces the rowkind column (the first) of rec by +I.
func allInserts(rec arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	if _, ok := rec.Column(0).(*array.String); !ok {
		return nil, fmt.Errorf("paimon: rowkind column has type %s", rec.Column(0).DataType())
	}
	b := array.NewStringBuilder(mem)
	defer b.Release()
	n := int(rec.NumRows())
	b.Reserve(n)
	for range n {
		b.Append("+I")
	}
	kinds := b.NewArray()
	defer kinds.Release()
	cols := append([]arrow.Array{kinds}, rec.Columns()[1:]...)
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()), nil
}

// dropRetractions removes the -U and -D rows of an audit-log batch (its
// first column is rowkind); nil when none is left.
func dropRetractions(rec arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	kinds, ok := rec.Column(0).(*array.String)
	if !ok {
		return nil, fmt.Errorf("paimon: rowkind column has type %s", rec.Column(0).DataType())
	}
	var keep []int64
	n := int(rec.NumRows())
	for i := range n {
		if k := kinds.Value(i); k == "+I" || k == "+U" {
			keep = append(keep, int64(i))
		}
	}
	switch len(keep) {
	case 0:
		return nil, nil
	case n:
		rec.Retain()
		return rec, nil
	}
	return takeRows(rec, keep, mem)
}

// readConsumer reads consumer/consumer-<id> of the branch.
func readConsumer(ctx context.Context, m *TableMeta, id string) (snapshot.Consumer, bool, error) {
	p := m.branchPath(consumerDir, consumerPrefix+id)
	b, err := m.read(ctx, p)
	if errors.Is(err, iofs.ErrNotExist) {
		return snapshot.Consumer{}, false, nil
	}
	if err != nil {
		return snapshot.Consumer{}, false, err
	}
	c, err := snapshot.DecodeConsumer(b)
	if err != nil {
		return snapshot.Consumer{}, false, corrupt(p, err)
	}
	return c, true, nil
}

// checkConsumerID refuses ids that would leave the consumer directory.
func checkConsumerID(id string) error {
	if strings.ContainsAny(id, "/\\") || id == "." || id == ".." || strings.TrimSpace(id) != id {
		return fmt.Errorf("%w: consumer id %q", ErrInvalidScan, id)
	}
	return nil
}

// withFollow marks an incremental scan as a follower's step: changelog
// files of OVERWRITE snapshots are read too (Java's
// ChangelogFollowUpScanner reads every snapshot with changelog).
func withFollow() ScanOption { return func(s *ScanSpec) { s.follow = true } }

func withFollowRead() ScanOption { return func(s *ScanSpec) { s.followRead = true } }

// followStartOptions are the table options that choose where a streaming
// read starts (Java CoreOptions.startupMode and its companions). A Follower
// honours them in starter; the batch reads it runs must not refuse them.
var followStartOptions = []string{
	coreoptions.ScanMode, coreoptions.ScanSnapshotId, coreoptions.ScanTimestampMillis, coreoptions.ScanTimestamp,
}

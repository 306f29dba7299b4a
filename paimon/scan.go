package paimon

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// ErrInvalidScan reports contradictory or malformed scan options, such as two
// ways of choosing the snapshot, a negative limit or a duplicate column.
var ErrInvalidScan = errors.New("paimon: invalid scan")

// ScanSpec is everything a Scan is configured with. Functional ScanOptions
// fill it; it is exported so that callers can inspect a Scan and build one
// from configuration.
type ScanSpec struct {
	// Columns are the columns to return, in order; nil means all. A dotted
	// name ("address.city") selects a field of a ROW column: the output
	// keeps the ROW with only the selected fields.
	Columns []string
	// Filter keeps the rows it matches; nil keeps all. It prunes
	// partitions, buckets, files and row groups, and the remaining rows
	// are filtered exactly.
	Filter *predicate.Predicate
	// Limit stops the scan after this many rows; 0 means no limit.
	Limit int64
	// SnapshotID reads this snapshot instead of the latest (Java
	// scan.snapshot-id).
	SnapshotID int64
	// Timestamp reads the latest snapshot committed at or before it (Java
	// scan.timestamp-millis).
	Timestamp time.Time
	// Tag reads the snapshot of this tag (Java scan.tag-name).
	Tag string
	// Allocator allocates the record batches; nil means
	// memory.DefaultAllocator.
	Allocator memory.Allocator
	// BatchSize is the maximum number of rows per batch; 0 means 4096.
	BatchSize int
	// Workers is how many splits Records, ReadSplits and NewReader read at
	// once, each on a goroutine of its own taking the next unread split;
	// batches still come out in plan order unless Unordered is set.
	// 1 reads one split after the other on a background goroutine, a few
	// batches ahead of the consumer (prefetch: decoding overlaps the
	// consumer's work); a negative value reads on the consumer's
	// goroutine. 0, the default, reads GOMAXPROCS splits at once when
	// there are several and no Limit, and otherwise on the consumer's
	// goroutine (a limited read stops early, and reading ahead would
	// decode splits it never yields). In order, the workers on splits the
	// consumer has not reached yet read ahead within ReadAheadBytes. When
	// several splits are read at once, each file of a split read without
	// a merge counts as a split of its own, so that the workers share
	// the files evenly; unordered, the largest are taken first.
	Workers int
	// Unordered, with Workers above 1, yields every batch as soon as a
	// worker has read it, instead of split after split in plan order.
	// Each worker then holds at most three batches (one being decoded).
	Unordered bool
	// ReadAheadBytes bounds, in Arrow buffer bytes (capacities), the
	// batches that the workers of an ordered parallel read (Workers other
	// than -1, without Unordered) hold for splits the consumer has not
	// reached yet, so that they keep reading while the consumer drains an
	// earlier split. Zero means DefaultReadAheadBytes (128 MiB), or
	// DefaultMergeReadAheadBytes (16 MiB) when a split of a primary-key
	// table merges sorted runs that decode ahead (ReadAhead not negative:
	// those goroutines keep the cores busy already); a negative value allows
	// no look-ahead beyond one batch per worker. Whatever the budget, each
	// worker may queue one batch (so a batch larger than the budget never
	// stalls the read) and the split being consumed holds up to two, so a
	// read holds at most ReadAheadBytes plus about three batches per
	// worker (one being decoded), plus ReadAhead batches per sorted run of
	// the primary-key merges being read.
	ReadAheadBytes int64
	// ReadAhead is how many batches each sorted run of a primary-key merge
	// decodes ahead of the merge, on a goroutine of its own, so that
	// decoding overlaps merging (on two cores a deduplicating read of five
	// overlapping runs takes about a third less time). Zero means
	// DefaultReadAhead; a negative value decodes every run on the reading
	// goroutine, in turn with the merge. It costs up to ReadAhead batches
	// per sorted run of memory.
	ReadAhead int
	// AuditLog reads the table as Java's $audit_log system table: a
	// leading "rowkind" column ("+I", "-U", "+U", "-D") and, for
	// primary-key tables, deleted keys kept as "-D" rows.
	AuditLog bool
	// IncrementalStart and IncrementalEnd, when set, read the changes of
	// snapshots IncrementalStart+1 to IncrementalEnd instead of a snapshot
	// (see WithIncremental); IncrementalMode picks delta or changelog
	// files.
	IncrementalStart, IncrementalEnd int64
	IncrementalMode                  string
	// RowTracking reads a row-tracking table as Java's $row_tracking
	// system table: all columns then _ROW_ID and _SEQUENCE_NUMBER (see
	// WithRowTracking). Columns of a row-tracking table may name these two
	// either way.
	RowTracking bool

	// follow marks a follower's incremental step (withFollow).
	follow bool
	// followRead marks every scan a Follower makes (withFollowRead): the
	// follower has already honoured the table options that choose where a
	// streaming read starts, which batch reads refuse.
	followRead bool
}

// ScanOption sets a field of a ScanSpec.
type ScanOption func(*ScanSpec)

// WithColumns selects the columns to return, in order.
func WithColumns(names ...string) ScanOption {
	return func(s *ScanSpec) { s.Columns = append([]string(nil), names...) }
}

// WithFilter sets the row filter.
func WithFilter(p *predicate.Predicate) ScanOption { return func(s *ScanSpec) { s.Filter = p } }

// WithLimit stops the scan after n rows.
func WithLimit(n int64) ScanOption { return func(s *ScanSpec) { s.Limit = n } }

// WithSnapshotID reads snapshot id.
func WithSnapshotID(id int64) ScanOption { return func(s *ScanSpec) { s.SnapshotID = id } }

// WithTimestamp reads the latest snapshot committed at or before t.
func WithTimestamp(t time.Time) ScanOption { return func(s *ScanSpec) { s.Timestamp = t } }

// WithTag reads the snapshot of a tag.
func WithTag(name string) ScanOption { return func(s *ScanSpec) { s.Tag = name } }

// WithAuditLog reads the table as its $audit_log system table.
func WithAuditLog() ScanOption { return func(s *ScanSpec) { s.AuditLog = true } }

// WithRowTracking reads a table with row-tracking.enabled as its
// $row_tracking system table: every row with its _ROW_ID (stable across
// compactions and column updates) and _SEQUENCE_NUMBER (the snapshot that
// last wrote it). Without WithColumns the output is the table's columns
// followed by these two.
func WithRowTracking() ScanOption { return func(s *ScanSpec) { s.RowTracking = true } }

// WithAllocator sets the allocator of the returned batches.
func WithAllocator(mem memory.Allocator) ScanOption { return func(s *ScanSpec) { s.Allocator = mem } }

// WithBatchSize sets the maximum number of rows per batch.
func WithBatchSize(n int) ScanOption { return func(s *ScanSpec) { s.BatchSize = n } }

// WithWorkers reads n splits at once (see ScanSpec.Workers).
func WithWorkers(n int) ScanOption { return func(s *ScanSpec) { s.Workers = n } }

// WithUnordered yields batches in the order workers read them (see
// ScanSpec.Unordered).
func WithUnordered() ScanOption { return func(s *ScanSpec) { s.Unordered = true } }

// WithReadAheadBytes sets ReadAheadBytes: the bytes of batches an ordered
// parallel read may hold for splits ahead of the consumer; a negative n
// allows one batch per worker.
func WithReadAheadBytes(n int64) ScanOption { return func(s *ScanSpec) { s.ReadAheadBytes = n } }

// DefaultReadAhead is the ReadAhead of a ScanSpec that sets none.
const DefaultReadAhead = 2

// WithReadAhead sets ReadAhead: n batches decoded ahead per sorted run of a
// primary-key merge; a negative n turns decoding ahead off.
func WithReadAhead(n int) ScanOption { return func(s *ScanSpec) { s.ReadAhead = n } }

// Scan is a configured read of a table. It is an immutable value: it does no
// I/O until ArrowSchema, Plan, Records or ReadSplits is called, and it is
// safe for concurrent use.
type Scan struct {
	table *Table
	spec  ScanSpec
}

// NewScan returns a scan of the table configured by opts. Invalid options
// are reported by the first call that does I/O.
func (t *Table) NewScan(opts ...ScanOption) *Scan {
	s := &Scan{table: t}
	for _, o := range opts {
		o(&s.spec)
	}
	return s
}

// Spec returns the scan's configuration.
func (s *Scan) Spec() ScanSpec {
	sp := s.spec
	sp.Columns = append([]string(nil), sp.Columns...)
	return sp
}

func (s *Scan) allocator() memory.Allocator {
	if s.spec.Allocator != nil {
		return s.spec.Allocator
	}
	return memory.DefaultAllocator
}

func (s *Scan) validate() error {
	n := 0
	if s.spec.SnapshotID != 0 {
		n++
	}
	if !s.spec.Timestamp.IsZero() {
		n++
	}
	if s.spec.Tag != "" {
		n++
	}
	if n > 1 {
		return fmt.Errorf("%w: at most one of snapshot id, timestamp and tag may be set", ErrInvalidScan)
	}
	if s.spec.SnapshotID < 0 {
		return fmt.Errorf("%w: snapshot id %d", ErrInvalidScan, s.spec.SnapshotID)
	}
	if s.spec.Limit < 0 {
		return fmt.Errorf("%w: negative limit %d", ErrInvalidScan, s.spec.Limit)
	}
	if s.spec.BatchSize < 0 {
		return fmt.Errorf("%w: negative batch size %d", ErrInvalidScan, s.spec.BatchSize)
	}
	return s.validateIncremental()
}

// ArrowSchema returns the schema of every batch the scan yields. It is known
// before reading: for time travel it reads the chosen snapshot to learn the
// schema that was current then, as Java does.
func (s *Scan) ArrowSchema(ctx context.Context) (*arrow.Schema, error) {
	st, err := s.resolve(ctx)
	if err != nil {
		return nil, err
	}
	return st.outSchema, nil
}

// Records plans the scan and reads every split in order. The consumer must
// Release each batch; breaking out of the loop releases everything else.
// Errors come out as the second value, after which the sequence ends.
func (s *Scan) Records(ctx context.Context) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		plan, err := s.Plan(ctx)
		if err != nil {
			yield(nil, err)
			return
		}
		s.readSplits(ctx, plan.state, plan.Splits, yield)
	}
}

// ReadSplits reads the given splits, which may come from a Plan of another
// process (see Split.MarshalBinary). The scan must have the same columns and
// filter as the planning scan; the splits' snapshot decides the schema.
func (s *Scan) ReadSplits(ctx context.Context, splits ...Split) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		if len(splits) == 0 {
			return
		}
		st, err := s.stateForSplits(ctx, splits)
		if err != nil {
			yield(nil, err)
			return
		}
		s.readSplits(ctx, st, splits, yield)
	}
}

// NewReader returns an array.RecordReader over the given splits, or over the
// whole scan when none are given. Release the reader when done; its Err
// reports a read error after Next returns false.
func (s *Scan) NewReader(ctx context.Context, splits ...Split) (array.RecordReader, error) {
	var st *scanState
	var err error
	if len(splits) == 0 {
		var plan *Plan
		plan, err = s.Plan(ctx)
		if err != nil {
			return nil, err
		}
		st, splits = plan.state, plan.Splits
	} else {
		st, err = s.stateForSplits(ctx, splits)
		if err != nil {
			return nil, err
		}
	}
	seq := func(yield func(arrow.RecordBatch, error) bool) { s.readSplits(ctx, st, splits, yield) }
	return array.ReaderFromIter(st.outSchema, seq), nil
}

package paimon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/partpath"
)

// SnapshotCommit publishes the snapshots a TableCommit builds in place of
// the file system's create-if-absent of snapshot-<id>. It mirrors Java's
// SnapshotCommit: RenamingSnapshotCommit is the file-system path this
// library takes when TableOptions.SnapshotCommit is nil, and
// CatalogSnapshotCommit, which a REST catalog hands its tables, sends the
// snapshot to the catalog server, which validates and publishes it
// atomically.
//
// Everything else about a commit stays the same: the committer writes the
// manifests itself, checks conflicts against the latest snapshot, retries
// lost races with backoff and, when an attempt's outcome is unknown, looks
// for its own snapshot before trying again.
type SnapshotCommit interface {
	// LatestSnapshot returns the newest snapshot of branch that the
	// publisher knows, nil when the branch has none (Java
	// SnapshotLoader.load). An error wrapping ErrUnsupported makes the
	// committer read the file system instead.
	LatestSnapshot(ctx context.Context, branch string) (*snapshot.Snapshot, error)

	// CommitSnapshot publishes s as the next snapshot of branch; stats are
	// the per-partition changes s makes (Java PartitionStatistics). It
	// returns true when s was published and false when another writer
	// published snapshot s.ID first, so nothing of s is visible. Any error
	// leaves the outcome unknown (the committer keeps its files and checks
	// before retrying) unless it wraps ErrNotPublished.
	CommitSnapshot(ctx context.Context, branch string, s *snapshot.Snapshot, stats []PartitionStatistics) (bool, error)
}

// ErrNotPublished marks a SnapshotCommit error after which the snapshot is
// known not to have been published (a request the server refused), so the
// commit fails at once and removes its files.
var ErrNotPublished = errors.New("paimon: snapshot not published")

// PartitionStatistics is what a commit changes in one partition (Java
// PartitionStatistics, built from PartitionEntry): counts are deltas, so a
// commit that deletes files makes them negative.
type PartitionStatistics struct {
	// Spec maps each partition key to its value as in partition directory
	// names (unescaped; the default partition name for NULL).
	Spec                 map[string]string
	RecordCount          int64
	FileSizeInBytes      int64
	FileCount            int64
	LastFileCreationTime int64 // epoch milliseconds, as Java creationTimeEpochMillis
	TotalBuckets         int32
}

// partitionStatistics sums the changes of entries per partition (Java
// PartitionEntry.merge followed by toPartitionStatistics), in the order
// partitions first appear.
func (c *TableCommit) partitionStatistics(entries []manifest.ManifestEntry) ([]PartitionStatistics, error) {
	index := map[string]int{}
	var out []PartitionStatistics
	for i := range entries {
		e := &entries[i]
		rows, size, files := e.File.RowCount, e.File.FileSize, int64(1)
		if e.Kind == manifest.FileKindDelete {
			rows, size, files = -rows, -size, -files
		}
		created := int64(0)
		if t, ok := e.File.CreationTimeIn(time.Local); ok {
			created = t.UnixMilli()
		}
		k, seen := index[string(e.Partition)]
		if !seen {
			spec, err := c.partitionSpec(e.Partition)
			if err != nil {
				return nil, err
			}
			k = len(out)
			index[string(e.Partition)] = k
			out = append(out, PartitionStatistics{Spec: spec})
		}
		p := &out[k]
		p.RecordCount += rows
		p.FileSizeInBytes += size
		p.FileCount += files
		p.LastFileCreationTime = max(p.LastFileCreationTime, created)
		p.TotalBuckets = e.TotalBuckets
	}
	return out, nil
}

// partitionSpec renders a serialized partition row as Java's
// InternalRowPartitionComputer.generatePartValues does.
func (c *TableCommit) partitionSpec(partition []byte) (map[string]string, error) {
	p := c.pather
	spec := make(map[string]string, len(p.fields))
	if len(p.fields) == 0 {
		return spec, nil
	}
	values, err := p.values(partition)
	if err != nil {
		return nil, fmt.Errorf("paimon: partition statistics: %w", err)
	}
	for i, f := range p.fields {
		s := ""
		if values[i] != nil {
			if s, err = partpath.ValueString(values[i], f.Type, p.legacy); err != nil {
				return nil, fmt.Errorf("paimon: partition statistics: field %s: %w", f.Name, err)
			}
		}
		if partpath.Blank(s) {
			s = p.defaultName
		}
		spec[f.Name] = s
	}
	return spec, nil
}

// publishThrough hands snap to the table's SnapshotCommit (Java
// FileStoreCommitImpl.commitSnapshotImpl with a CatalogSnapshotCommit).
func (c *TableCommit) publishThrough(ctx context.Context, pub SnapshotCommit, snap *snapshot.Snapshot,
	ch commitChanges) (*snapshot.Snapshot, attemptOutcome, error) {
	stats, err := c.partitionStatistics(ch.files)
	if err != nil {
		c.mw.removeWritten(context.WithoutCancel(ctx))
		return nil, outcomeLostRace, err
	}
	ok, err := pub.CommitSnapshot(ctx, c.meta.Branch(), snap, stats)
	switch {
	case err == nil && ok:
		c.mw.reset()
		return snap, outcomePublished, nil
	case err == nil:
		c.mw.removeWritten(context.WithoutCancel(ctx))
		return snap, outcomeLostRace, nil
	case errors.Is(err, ErrNotPublished):
		c.mw.removeWritten(context.WithoutCancel(ctx))
		return nil, outcomeLostRace, fmt.Errorf("paimon: publish snapshot %d: %w", snap.ID, err)
	default:
		c.mw.reset() // may be referenced by a published snapshot
		return snap, outcomeUnknown, fmt.Errorf("paimon: publish snapshot %d: %w", snap.ID, err)
	}
}

// latestThrough asks the table's SnapshotCommit for the latest snapshot,
// falling back to the file system when it cannot say.
func (c *TableCommit) latestThrough(ctx context.Context, pub SnapshotCommit) (*snapshot.Snapshot, error) {
	s, err := pub.LatestSnapshot(ctx, c.meta.Branch())
	if errors.Is(err, ErrUnsupported) {
		return latestSnapshotOf(ctx, c.meta)
	}
	return s, err
}

// SnapshotRollback is implemented by a SnapshotCommit whose catalog also
// rolls tables back (Java TableRollback, Catalog.rollbackTo): the server
// then makes the snapshot, or the tag's snapshot when tag is not empty,
// the latest one.
type SnapshotRollback interface {
	RollbackTo(ctx context.Context, branch string, snapshotID int64, tag string) error
}

// rollbackThrough rolls back through the table's catalog.
func (t *Table) rollbackThrough(ctx context.Context, id int64, tag string) (*RollbackResult, error) {
	rb, ok := t.publisher.(SnapshotRollback)
	if !ok {
		return nil, fmt.Errorf("%w: rollback of %s: its catalog publishes snapshots but cannot roll back", ErrUnsupported, t.id)
	}
	if err := rb.RollbackTo(ctx, t.meta.Branch(), id, tag); err != nil {
		return nil, fmt.Errorf("paimon: rollback %s: %w", t.id, err)
	}
	res := &RollbackResult{SnapshotID: id}
	if tag != "" {
		if tg, err := t.meta.ReadTag(ctx, tag); err == nil {
			res.SnapshotID = tg.Snapshot.ID
		}
	}
	return res, nil
}

package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/paimon"
)

// committer is the paimon.SnapshotCommit of a table loaded from the
// catalog (Java CatalogSnapshotCommit and SnapshotLoaderImpl): the server
// knows the latest snapshot and publishes new ones atomically.
type committer struct {
	c    *Catalog
	id   paimon.Identifier // the table, without branch
	uuid string            // the table's id, checked by the server
}

var (
	_ paimon.SnapshotCommit   = (*committer)(nil)
	_ paimon.SnapshotRollback = (*committer)(nil)
	_ paimon.CatalogBranches  = (*committer)(nil)
	_ paimon.CatalogSchemas   = (*committer)(nil)
)

func (m *committer) object(branch string) paimon.Identifier {
	id := m.id
	if branch != paimon.MainBranch {
		id.Branch = branch
	}
	return id
}

// LatestSnapshot implements paimon.SnapshotCommit (Java
// RESTCatalog.loadSnapshot): a 404 about the snapshot means none, a 501
// makes the committer read the file system.
func (m *committer) LatestSnapshot(ctx context.Context, branch string) (*snapshot.Snapshot, error) {
	s, _, err := m.c.LatestSnapshot(ctx, m.object(branch))
	return s, err
}

// CommitSnapshot implements paimon.SnapshotCommit (Java
// RESTCatalog.commitSnapshot). Refusals (4xx) are certain: nothing was
// published. Server failures, dropped connections, timeouts, malformed
// answers and the "try later" answers 408 and 429 leave the outcome
// unknown: the request is sent once (request.once) and the committer
// re-reads the latest snapshot before it tries again.
func (m *committer) CommitSnapshot(ctx context.Context, branch string, s *snapshot.Snapshot, stats []paimon.PartitionStatistics) (bool, error) {
	id := m.object(branch)
	body := commitRequest{TableID: m.uuid, Snapshot: json.RawMessage(s.Encode()), Statistics: make([]partitionStatisticsJSON, 0, len(stats))}
	for _, st := range stats {
		body.Statistics = append(body.Statistics, partitionStatisticsJSON(st))
	}
	var resp struct {
		Success *bool `json:"success"`
	}
	err := m.c.postOnce(ctx, m.c.paths.table(id.Database, objectName(id), "commit"), body, &resp)
	var e *Error
	switch {
	case errors.As(err, &e) && e.Code >= 400 && e.Code < 500 &&
		e.Code != http.StatusRequestTimeout && e.Code != http.StatusTooManyRequests:
		return false, wrapKind(tableError(id, err), paimon.ErrNotPublished, "commit to %s refused", id)
	case err != nil:
		return false, err
	case resp.Success == nil:
		return false, fmt.Errorf("rest catalog: commit %s: %w: no success member", id, ErrProtocol)
	}
	return *resp.Success, nil
}

// RollbackTo implements paimon.SnapshotRollback (Java RESTCatalog.rollbackTo).
func (m *committer) RollbackTo(ctx context.Context, branch string, snapshotID int64, tag string) error {
	return m.c.Rollback(ctx, m.object(branch), snapshotID, tag)
}

// CreateBranch implements paimon.CatalogBranches (Java
// CatalogBranchManager.createBranch).
func (m *committer) CreateBranch(ctx context.Context, name, tag string) error {
	return m.c.CreateBranch(ctx, m.id, name, tag)
}

// DropBranch implements paimon.CatalogBranches.
func (m *committer) DropBranch(ctx context.Context, name string) error {
	return m.c.DropBranch(ctx, m.id, name)
}

// FastForward implements paimon.CatalogBranches: the server makes branch
// current continue as branch name.
func (m *committer) FastForward(ctx context.Context, current, name string) error {
	return m.c.FastForward(ctx, m.object(current), name)
}

// AlterSchema implements paimon.CatalogSchemas (Java
// RESTCatalog.alterTable): the server applies the changes, which
// paimon.Table.Alter has checked.
func (m *committer) AlterSchema(ctx context.Context, branch string, changes []paimon.SchemaChange) error {
	return m.c.alterSchema(ctx, m.object(branch), changes)
}

// TableSnapshot is the latest snapshot of a table with the totals the
// server keeps (Java TableSnapshot).
type TableSnapshot struct {
	Snapshot             *snapshot.Snapshot
	RecordCount          int64
	FileSizeInBytes      int64
	FileCount            int64
	LastFileCreationTime time.Time
}

// LatestSnapshot returns the table's latest snapshot as the server knows
// it; nil when the table has none. A server that does not track snapshots
// yields an error wrapping paimon.ErrUnsupported.
func (c *Catalog) LatestSnapshot(ctx context.Context, id paimon.Identifier) (*snapshot.Snapshot, *TableSnapshot, error) {
	id, err := normalize(id)
	if err != nil {
		return nil, nil, err
	}
	var resp struct {
		Snapshot *tableSnapshotJSON `json:"snapshot"`
	}
	err = c.get(ctx, c.paths.table(id.Database, objectName(id), "snapshot"), nil, &resp)
	switch {
	case errors.Is(err, ErrNotFound) && resourceIs(err, resourceSnapshot):
		return nil, nil, nil
	case errors.Is(err, ErrNotFound):
		return nil, nil, tableError(id, err)
	case err != nil:
		return nil, nil, wrapf(err, "latest snapshot of %s", id)
	case resp.Snapshot == nil || len(resp.Snapshot.Snapshot) == 0 || string(resp.Snapshot.Snapshot) == "null":
		return nil, nil, nil
	}
	s, err := snapshot.Decode(resp.Snapshot.Snapshot)
	if err != nil {
		return nil, nil, fmt.Errorf("rest catalog: latest snapshot of %s: %w: %w", id, ErrProtocol, err)
	}
	ts := &TableSnapshot{Snapshot: s, RecordCount: resp.Snapshot.RecordCount, FileSizeInBytes: resp.Snapshot.FileSizeInBytes,
		FileCount: resp.Snapshot.FileCount, LastFileCreationTime: time.UnixMilli(resp.Snapshot.LastFileCreationTime)}
	return s, ts, nil
}

// Rollback makes a snapshot (or, when tag is set, the tag's snapshot) the
// latest of the table on the server (Java RESTCatalog.rollbackTo).
func (c *Catalog) Rollback(ctx context.Context, id paimon.Identifier, snapshotID int64, tag string) error {
	id, err := normalize(id)
	if err != nil {
		return err
	}
	instant := map[string]any{"type": "snapshot", "snapshotId": snapshotID}
	if tag != "" {
		instant = map[string]any{"type": "tag", "tagName": tag}
	}
	err = c.post(ctx, c.paths.table(id.Database, objectName(id), "rollback"), map[string]any{"instant": instant}, nil)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound) && resourceIs(err, resourceSnapshot):
		return fmt.Errorf("%w: snapshot %d of %s: %w", paimon.ErrSnapshotNotFound, snapshotID, id, err)
	case errors.Is(err, ErrNotFound) && resourceIs(err, resourceTag):
		return fmt.Errorf("%w: tag %q of %s: %w", paimon.ErrTagNotFound, tag, id, err)
	}
	return tableError(id, err)
}

package paimon

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
)

// chooseSnapshot returns the snapshot a scan reads, nil when the table has
// none (or no snapshot is as old as the requested timestamp). It mirrors
// Java's batch starting scanners: FullStartingScanner (latest),
// StaticFromSnapshotStartingScanner, StaticFromTimestampStartingScanner and
// StaticFromTagStartingScanner.
func (s *Scan) chooseSnapshot(ctx context.Context) (*snapshot.Snapshot, error) {
	meta := s.table.meta
	switch {
	case s.spec.Tag != "":
		tag, err := meta.ReadTag(ctx, s.spec.Tag)
		if err != nil {
			return nil, err
		}
		snap := tag.Snapshot
		return &snap, nil
	case s.spec.SnapshotID != 0:
		return meta.ReadSnapshot(ctx, s.spec.SnapshotID)
	case !s.spec.Timestamp.IsZero():
		return s.snapshotAsOf(ctx, s.spec.Timestamp.UnixMilli())
	}
	id, ok, err := meta.LatestSnapshotID(ctx)
	if err != nil || !ok {
		return nil, err
	}
	return meta.ReadSnapshot(ctx, id)
}

// snapshotAsOf returns the latest snapshot whose commit time is at or before
// millis (Java SnapshotManager.earlierOrEqualTimeMills), by binary search
// over the snapshot files present; nil when all are younger.
func (s *Scan) snapshotAsOf(ctx context.Context, millis int64) (*snapshot.Snapshot, error) {
	meta := s.table.meta
	ids, err := meta.SnapshotIDs(ctx)
	if err != nil {
		return nil, err
	}
	var found *snapshot.Snapshot
	var readErr error
	// Snapshot times increase with ids; find the first id committed after
	// millis.
	i := sort.Search(len(ids), func(i int) bool {
		if readErr != nil {
			return true
		}
		snap, err := meta.ReadSnapshot(ctx, ids[i])
		if errors.Is(err, ErrSnapshotNotFound) {
			return false // expired meanwhile: treat as older
		}
		if err != nil {
			readErr = err
			return true
		}
		if snap.TimeMillis > millis {
			return true
		}
		if found == nil || snap.ID > found.ID {
			found = snap
		}
		return false
	})
	if readErr != nil {
		return nil, readErr
	}
	if i == 0 {
		return nil, nil
	}
	if found == nil || found.ID != ids[i-1] {
		if found, err = meta.ReadSnapshot(ctx, ids[i-1]); err != nil {
			return nil, fmt.Errorf("paimon: snapshot as of %d: %w", millis, err)
		}
	}
	return found, nil
}

// schemaCache reads each schema id once per scan.
type schemaCache struct {
	meta *TableMeta
	mu   sync.Mutex
	m    map[int64]*schema.TableSchema
}

func newSchemaCache(meta *TableMeta, current *schema.TableSchema) *schemaCache {
	return &schemaCache{meta: meta, m: map[int64]*schema.TableSchema{current.ID: current}}
}

func (c *schemaCache) get(ctx context.Context, id int64) (*schema.TableSchema, error) {
	c.mu.Lock()
	s, ok := c.m[id]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	s, err := c.meta.ReadSchema(ctx, id)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.m[id] = s
	c.mu.Unlock()
	return s, nil
}

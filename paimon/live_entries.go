package paimon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
)

// bucketDirectory is the directory of a bucket's data files relative to the
// table root (Java FileStorePathFactory.relativeBucketPath): the partition
// path, then bucket-<n> (bucket-postpone for -2), under
// data-file.path-directory when set.
func bucketDirectory(ts *schema.TableSchema, partitionPath string, bucket int32) string {
	name := "bucket-" + strconv.Itoa(int(bucket))
	if bucket == -2 {
		name = "bucket-postpone"
	}
	dir := partitionPath + name
	if d := ts.Options[optDataFilePathDir]; d != "" {
		dir = d + "/" + dir
	}
	return dir
}

// latestSnapshotOf reads the newest snapshot, nil when the table has none.
func latestSnapshotOf(ctx context.Context, meta *TableMeta) (*snapshot.Snapshot, error) {
	for range 3 {
		id, ok, err := meta.LatestSnapshotID(ctx)
		if err != nil || !ok {
			return nil, err
		}
		s, err := meta.ReadSnapshot(ctx, id)
		if errors.Is(err, ErrSnapshotNotFound) {
			continue // expired or rolled back between listing and reading
		}
		return s, err
	}
	return nil, fmt.Errorf("%w: the latest snapshot keeps disappearing", ErrSnapshotNotFound)
}

// liveEntries returns copies of the live ADD entries of s, keeping those of
// the partitions match accepts (all when match is nil). cache may be nil.
func liveEntries(ctx context.Context, meta *TableMeta, cache *manifestCache, s *snapshot.Snapshot,
	match func([]byte) (bool, error)) ([]manifest.ManifestEntry, error) {
	fs := newFileScan(meta, cache)
	if match != nil {
		// The scanner reads manifests in parallel and calls keepEntry from
		// its workers; callers' match functions keep caches, so calls are
		// serialised here.
		var mu sync.Mutex
		fs.keepEntry = func(e *manifest.ManifestEntry) (bool, error) {
			mu.Lock()
			defer mu.Unlock()
			return match(e.Partition)
		}
	}
	return fs.liveEntries(ctx, s)
}

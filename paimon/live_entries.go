package paimon

import (
	"context"
	"errors"
	"fmt"
	"strconv"

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

// liveEntries merges the data manifests of s into its live ADD entries,
// keeping those of the partitions match accepts (all when match is nil).
// cache may be nil.
func liveEntries(ctx context.Context, meta *TableMeta, cache *manifestCache, s *snapshot.Snapshot,
	match func([]byte) (bool, error)) ([]manifest.ManifestEntry, error) {
	metas, err := meta.DataManifests(ctx, s)
	if err != nil {
		return nil, err
	}
	var m manifest.Merger
	for _, f := range metas {
		var entries []manifest.ManifestEntry
		if cache != nil {
			entries, err = cache.get(ctx, meta, &f)
		} else {
			entries, err = meta.ReadListedManifest(ctx, &f)
		}
		if err != nil {
			return nil, err
		}
		if match != nil {
			kept := make([]manifest.ManifestEntry, 0, len(entries))
			for i := range entries {
				ok, err := match(entries[i].Partition)
				if err != nil {
					return nil, err
				}
				if ok {
					kept = append(kept, entries[i])
				}
			}
			entries = kept
		}
		if err := m.Add(entries...); err != nil {
			return nil, fmt.Errorf("%w: manifest %s: %w", ErrCorrupt, f.FileName, err)
		}
	}
	out := m.Result()
	live := out[:0]
	for _, e := range out {
		if e.Kind == manifest.FileKindAdd {
			live = append(live, e)
		}
	}
	return live, nil
}

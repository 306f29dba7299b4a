package paimon

import (
	"bytes"
	"context"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// writerCompaction is the compaction a fixed-bucket TableWriter runs after
// each PrepareCommit (Java AppendOnlyWriter.flush triggering
// BucketedAppendCompactManager.triggerCompaction(false)).
type writerCompaction struct {
	t   *Table
	cfg *appendCompactConfig
	rw  *compactRewriter
	// files are the restored files of each partition/bucket.
	files map[bucketKey][]*manifest.DataFileMeta
	// synced is the snapshot each bucket's queue was last checked against
	// (see sync).
	synced map[bucketKey]int64
}

func newWriterCompaction(t *Table, ts *schema.TableSchema, mem memory.Allocator, now func() time.Time, budget *datafile.Budget) (*writerCompaction, error) {
	o := tableOptions(ts.Options)
	// Java clusters (sorts) instead with incremental clustering on
	// unordered buckets (BucketedAppendClusterManager): no compaction is
	// better than a different one.
	if o.boolean(optClusteringIncr, false) && !o.boolean(optBucketAppendOrdered, true) && !o.deletionVectors() {
		return nil, nil
	}
	cfg, err := newAppendCompactConfig(o)
	if err != nil {
		return nil, err
	}
	pather, err := newPartitionPather(ts)
	if err != nil {
		return nil, err
	}
	buckets, err := ts.Bucket()
	if err != nil {
		return nil, err
	}
	rw := &compactRewriter{t: t, ts: ts, mem: mem, now: now, pather: pather, totalBuckets: int32(buckets), shared: budget}
	return &writerCompaction{t: t, cfg: cfg, rw: rw}, nil
}

// restore records the live files of the latest snapshot s and its
// deletion vectors.
func (c *writerCompaction) restore(ctx context.Context, s *snapshot.Snapshot, live []manifest.ManifestEntry) error {
	c.files = map[bucketKey][]*manifest.DataFileMeta{}
	c.synced = map[bucketKey]int64{}
	if s != nil {
		for i := range live {
			c.synced[bucketKey{string(live[i].Partition), live[i].Bucket}] = s.ID
		}
	}
	for i := range live {
		k := bucketKey{string(live[i].Partition), live[i].Bucket}
		c.files[k] = append(c.files[k], &live[i].File)
	}
	if c.cfg.deletionVectors && s != nil && s.IndexManifest != nil && *s.IndexManifest != "" {
		idx, err := c.t.meta.ReadIndexManifest(ctx, *s.IndexManifest)
		if err != nil {
			return err
		}
		c.rw.dvs = newCompactDVs(c.t.meta, idx, true, c.cfg.dvTargetSize)
	}
	return nil
}

// restored returns the restored files of a bucket, for its writer's queue.
func (c *writerCompaction) restored(partition []byte, bucket int32) []*manifest.DataFileMeta {
	return slices.Clone(c.files[bucketKey{string(partition), bucket}])
}

// compact adds the files a bucket just flushed to its queue and runs one
// compaction if the queue holds one worth doing (Java
// pickCompactBefore), waiting for it. The picked files leave the queue;
// the last file written joins it again while it is small (Java
// getCompactionResult).
func (c *writerCompaction) compact(ctx context.Context, bw *bucketWriter, flushed []manifest.DataFileMeta) (*CompactIncrement, error) {
	for i := range flushed {
		bw.queue = append(bw.queue, &flushed[i])
	}
	bw.queue = bySequence(bw.queue)
	picked := c.cfg.pickBucketed(bw.queue)
	if picked == nil {
		return nil, nil
	}
	resynced, err := c.sync(ctx, bw, flushed)
	if err != nil {
		return nil, err
	}
	if resynced {
		if picked = c.cfg.pickBucketed(bw.queue); picked == nil {
			return nil, nil
		}
	}
	inc, err := c.rw.rewrite(ctx, bw.partition, bw.bucket, picked, nil)
	if err != nil {
		return nil, err
	}
	bw.queue = slices.DeleteFunc(bw.queue, func(f *manifest.DataFileMeta) bool { return slices.Contains(picked, f) })
	if n := len(inc.After); n > 0 && inc.After[n-1].FileSize < c.cfg.compactionFileSize {
		last := inc.After[n-1]
		bw.queue = append(bw.queue, &last)
	}
	return inc, nil
}

// sync checks, before a compaction, that the bucket's queue still matches
// the table: every file in it but those just flushed must be live in the
// latest snapshot. It may not be when the writer's previous compaction lost
// a race (CommitResult.CompactErr: its output was removed, its inputs stay
// live) or when another process compacted the bucket's files away; Java's
// writer fails over and restores in both cases. The queue is then rebuilt
// from the latest snapshot's files of the bucket plus the files just
// flushed, and the bucket's deletion vectors are reloaded; resynced
// reports it. The check reads the live files only when a snapshot was
// committed since the bucket's last check.
func (c *writerCompaction) sync(ctx context.Context, bw *bucketWriter, flushed []manifest.DataFileMeta) (resynced bool, err error) {
	s, err := latestSnapshotOf(ctx, c.t.meta)
	if err != nil || s == nil {
		return false, err
	}
	bk := bucketKey{string(bw.partition), bw.bucket}
	if id, ok := c.synced[bk]; ok && id == s.ID {
		return false, nil
	}
	entries, err := liveEntries(ctx, c.t.meta, nil, s, func(p []byte) (bool, error) { return bytes.Equal(p, bw.partition), nil })
	if err != nil {
		return false, err
	}
	live := map[string]*manifest.DataFileMeta{}
	for i := range entries {
		if entries[i].Bucket == bw.bucket {
			live[entries[i].File.FileName] = &entries[i].File
		}
	}
	fresh := map[*manifest.DataFileMeta]bool{}
	for i := range flushed {
		fresh[&flushed[i]] = true
	}
	inSync := true
	for _, f := range bw.queue {
		if !fresh[f] && live[f.FileName] == nil {
			inSync = false
			break
		}
	}
	if !inSync {
		queue := make([]*manifest.DataFileMeta, 0, len(live)+len(flushed))
		for _, f := range live {
			queue = append(queue, f)
		}
		for i := range flushed {
			queue = append(queue, &flushed[i])
		}
		bw.queue = bySequence(queue)
	}
	if c.cfg.deletionVectors {
		var idx []manifest.IndexManifestEntry
		if s.IndexManifest != nil && *s.IndexManifest != "" {
			if idx, err = c.t.meta.ReadIndexManifest(ctx, *s.IndexManifest); err != nil {
				return false, err
			}
		}
		if c.rw.dvs == nil {
			c.rw.dvs = newCompactDVs(c.t.meta, idx, true, c.cfg.dvTargetSize)
		} else {
			c.rw.dvs.resetBucket(bk, idx)
		}
	}
	c.synced[bk] = s.ID
	return !inSync, nil
}

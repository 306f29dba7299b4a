package paimon

import (
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

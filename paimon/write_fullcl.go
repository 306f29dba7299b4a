package paimon

import (
	"context"
	"fmt"
	"strconv"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

const optFullCompactionDeltaCommits = coreoptions.FullCompactionDeltaCommits

// pkFullCompaction is the full compaction a primary-key TableWriter runs
// every full-compaction.delta-commits commits, as Java's Flink writer does
// (StoreSinkWrite.createWriteProvider choosing GlobalFullCompactionSinkWrite
// when changelog-producer = full-compaction or the option is set, and the
// table is not write-only): at the n-th PrepareCommit of the writer (Java's
// commit identifier, the checkpoint id, counts the same way from 1), when
// n is a multiple of the option (1 when unset, max(option, 1) else:
// FullCompactedStartingScanner.isFullCompactedIdentifier), every bucket
// written since the last such compaction is compacted fully
// (write.compact(partition, bucket, true)): its live files and the files
// of this PrepareCommit go into one sorted run at the highest level, with
// changelog files for changelog-producer = full-compaction. The messages of
// those buckets carry the compaction, which their TableCommit publishes in
// a COMPACT snapshot after the APPEND one.
//
// Unlike Java's writer, which keeps its buckets' levels in memory, the
// compaction takes each bucket's files from the latest snapshot: commit
// every PrepareCommit's messages before the next PrepareCommit, or files
// not yet committed stay out of the compaction (at level 0, for a later
// one). A bucket whose compaction is refused at commit
// (CommitResult.CompactErr) is compacted again once written again.
type pkFullCompaction struct {
	t            *Table
	deltaCommits int64
	prepared     int64
	written      []bucketKey
	writtenSet   map[bucketKey]bool
	partitions   map[string][]byte
}

// newPKFullCompaction returns the writer's full compaction, or nil when
// Java's writer would not run one (write-only, no full-compaction producer
// and no full-compaction.delta-commits, postpone buckets) or when
// Table.Compact refuses the table (then the writer only writes, as with
// write-only; Table.Compact reports why).
func newPKFullCompaction(t *Table, ts *schema.TableSchema, writeOnly bool, mode int) (*pkFullCompaction, error) {
	if writeOnly || mode == bucketPostpone {
		return nil, nil
	}
	o := tableOptions(ts.Options)
	v, set := o[optFullCompactionDeltaCommits]
	if o.str(optChangelogProducer, "none") != "full-compaction" && !set {
		return nil, nil
	}
	delta := int64(1)
	if set {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%w: %s = %q is not an integer", ErrInvalidOption, optFullCompactionDeltaCommits, v)
		}
		delta = max(n, 1)
	}
	if _, err := newPKCompactConfig(ts); err != nil {
		return nil, nil //nolint:nilerr // the writer then writes only, see above
	}
	return &pkFullCompaction{t: t, deltaCommits: delta, writtenSet: map[bucketKey]bool{}, partitions: map[string][]byte{}}, nil
}

// afterPrepare notes the buckets msgs wrote and, on a full-compaction
// commit, adds the compaction of every bucket written since the last one
// to msgs (a message of its own for a bucket this commit did not write).
// On error the compaction's files are removed; msgs stay the caller's.
func (c *pkFullCompaction) afterPrepare(ctx context.Context, w *TableWriter, msgs []CommitMessage) ([]CommitMessage, error) {
	c.prepared++
	for i := range msgs {
		m := &msgs[i]
		if len(m.NewFiles) == 0 {
			continue
		}
		k := bucketKey{string(m.Partition), m.Bucket}
		if !c.writtenSet[k] {
			c.writtenSet[k] = true
			c.written = append(c.written, k)
			c.partitions[k.partition] = m.Partition
		}
	}
	if len(c.written) == 0 || c.prepared%c.deltaCommits != 0 {
		return msgs, nil
	}
	latest, err := c.t.meta.LatestSchema(ctx)
	if err != nil {
		return nil, err
	}
	if latest.ID != w.schema.ID {
		return nil, fmt.Errorf("%w: the table's schema changed to %d while writing with schema %d: the full compaction of this commit would mix them",
			ErrSchemaChanged, latest.ID, w.schema.ID)
	}
	run, err := c.t.newCompactRun(ctx, &CompactOptions{Full: true, Allocator: w.mem, Now: w.now, Workers: 1})
	if err != nil {
		return nil, err
	}
	snap, err := latestSnapshotOf(ctx, c.t.meta)
	if err != nil {
		return nil, err
	}
	var live []manifest.ManifestEntry
	if snap != nil {
		live, err = liveEntries(ctx, c.t.meta, w.pk.cache, snap, func(p []byte) (bool, error) {
			_, ok := c.partitions[string(p)]
			return ok, nil
		})
		if err != nil {
			return nil, err
		}
		if run.cfg.deletionVectors && snap.IndexManifest != nil && *snap.IndexManifest != "" {
			idx, err := c.t.meta.ReadIndexManifest(ctx, *snap.IndexManifest)
			if err != nil {
				return nil, err
			}
			run.dvs = newCompactDVs(c.t.meta, idx, true, run.cfg.dvTargetSize)
		}
	} else {
		snap = &snapshot.Snapshot{SchemaID: w.schema.ID} // nothing committed yet: only this commit's files
	}
	run.snap = snap
	var entries []manifest.ManifestEntry
	for _, e := range live {
		if c.writtenSet[bucketKey{string(e.Partition), e.Bucket}] {
			entries = append(entries, e)
		}
	}
	for i := range msgs {
		m := &msgs[i]
		for _, f := range m.NewFiles {
			entries = append(entries, manifest.ManifestEntry{Kind: manifest.FileKindAdd, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f})
		}
	}
	tasks, err := run.planPK(entries)
	if err != nil {
		return nil, err
	}
	if len(tasks) == 0 {
		c.written, c.writtenSet, c.partitions = nil, map[bucketKey]bool{}, map[string][]byte{}
		return msgs, nil
	}
	compacted, err := run.rewriteAll(ctx, tasks)
	if err != nil {
		return nil, err
	}
	for _, cm := range compacted {
		found := false
		for i := range msgs {
			if msgs[i].Bucket == cm.Bucket && string(msgs[i].Partition) == string(cm.Partition) {
				msgs[i].Compact, found = cm.Compact, true
				break
			}
		}
		if !found {
			msgs = append(msgs, cm)
		}
	}
	c.written, c.writtenSet, c.partitions = nil, map[bucketKey]bool{}, map[string][]byte{}
	return msgs, nil
}

package paimon

import (
	"context"
	"fmt"
	"slices"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
)

// checkMessageBucket checks a message's bucket against the table's bucket
// option: fixed buckets 0..N-1 written for N buckets; append tables without
// buckets use bucket 0 for -1; dynamic-bucket primary-key tables any bucket
// for -1 (Java's numBuckets is the option's -1); postpone-bucket tables
// bucket -2 for -2.
func checkMessageBucket(m *CommitMessage, i, buckets int, pk bool) error {
	want := int32(buckets)
	if buckets <= 0 && !(pk && buckets == -2) {
		want = -1
	}
	if m.TotalBuckets != want {
		return fmt.Errorf("%w: message %d was written for %d buckets, the table now has %d",
			ErrSchemaChanged, i, m.TotalBuckets, want)
	}
	var ok bool
	switch {
	case buckets > 0:
		ok = m.Bucket >= 0 && int(m.Bucket) < buckets
	case pk && buckets == -1:
		ok = m.Bucket >= 0
	case pk && buckets == -2:
		ok = m.Bucket == postponeBucket
	default:
		ok = m.Bucket == 0
	}
	if !ok {
		return fmt.Errorf("%w: message %d has bucket %d", ErrInvalidCommitMessage, i, m.Bucket)
	}
	if len(m.ChangelogFiles) > 0 && !pk {
		return fmt.Errorf("%w: message %d has changelog files for an append table", ErrInvalidCommitMessage, i)
	}
	for _, f := range m.NewIndexFiles {
		if f.IndexType != manifest.IndexTypeHash || !pk || buckets != -1 {
			return fmt.Errorf("%w: message %d adds a %s index file to a table without dynamic buckets",
				ErrInvalidCommitMessage, i, f.IndexType)
		}
	}
	return nil
}

// checkPrimaryKeyMessages runs the checks the files of primary-key messages
// need against the snapshot a commit attempt builds on (which Java leaves to
// Flink's one-writer-per-bucket rule):
//
//   - sequence order: the new data files of a bucket must have sequence
//     numbers above every live file of the bucket, or a row written later
//     could lose to one written before (another writer committed to the
//     bucket after this writer restored it). Compaction never raises a
//     bucket's largest sequence number, so compacting concurrently is fine.
//   - dynamic buckets: the partition's HASH index files must be those the
//     writer loaded its bucket assignment from; otherwise another writer may
//     have put the same new key into another bucket.
//
// Both fail with ErrCommitConflict: the writer must restart from the
// latest snapshot.
func (c *TableCommit) checkPrimaryKeyMessages(ctx context.Context, latest *snapshot.Snapshot, msgs []CommitMessage) error {
	if latest == nil || len(c.t.schema.PrimaryKeys) == 0 {
		return nil
	}
	type bucketKey struct {
		partition string
		bucket    int32
	}
	minSeq := map[bucketKey]int64{}
	partitions := map[string]bool{}
	indexParts := map[string][]string{}
	for i := range msgs {
		m := &msgs[i]
		if m.Bucket == postponeBucket {
			continue // unordered until compaction assigns sequence numbers
		}
		for _, f := range m.NewFiles {
			k := bucketKey{string(m.Partition), m.Bucket}
			if cur, ok := minSeq[k]; !ok || f.MinSequenceNumber < cur {
				minSeq[k] = f.MinSequenceNumber
			}
			partitions[string(m.Partition)] = true
		}
		if m.IndexBase != nil {
			indexParts[string(m.Partition)] = m.IndexBase
		}
	}
	if len(minSeq) > 0 {
		live, err := c.liveEntries(ctx, latest, func(p []byte) (bool, error) { return partitions[string(p)], nil })
		if err != nil {
			return err
		}
		for _, e := range live {
			k := bucketKey{string(e.Partition), e.Bucket}
			if s, ok := minSeq[k]; ok && e.File.MaxSequenceNumber >= s {
				return fmt.Errorf("%w: bucket %d of %s holds sequence numbers up to %d (file %s, snapshot %d), "+
					"but the new files start at %d: another writer wrote to the bucket since this writer started; "+
					"start a new writer and write the rows again", ErrCommitConflict, e.Bucket, c.partitionName(e.Partition),
					e.File.MaxSequenceNumber, e.File.FileName, latest.ID, s)
			}
		}
	}
	if len(indexParts) > 0 {
		current := map[string][]string{}
		if latest.IndexManifest != nil {
			idx, err := c.meta.ReadIndexManifest(ctx, *latest.IndexManifest)
			if err != nil {
				return err
			}
			for _, e := range idx {
				if e.IndexFile.IndexType == manifest.IndexTypeHash {
					current[string(e.Partition)] = append(current[string(e.Partition)], e.IndexFile.FileName)
				}
			}
		}
		for p, base := range indexParts {
			now := current[p]
			slices.Sort(now)
			if !slices.Equal(now, base) {
				return fmt.Errorf("%w: the dynamic-bucket index of %s changed since this writer loaded it (snapshot %d); "+
					"start a new writer and write the rows again", ErrCommitConflict, c.partitionName([]byte(p)), latest.ID)
			}
		}
	}
	return nil
}

// partitionName names a serialized partition in messages.
func (c *TableCommit) partitionName(partition []byte) string {
	if len(c.pather.fields) == 0 {
		return "the table"
	}
	vals, err := c.pather.values(partition)
	if err != nil {
		return "a partition"
	}
	p, err := c.pather.path(vals)
	if err != nil {
		return "a partition"
	}
	return "partition " + p
}

package paimon

import (
	"fmt"
	"slices"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Row ids at commit (Java RowTrackingCommitUtils.assignRowTracking, called
// by FileStoreCommitImpl.tryCommitOnce when row-tracking.enabled): a writer
// leaves _FIRST_ROW_ID unset, and every attempt of a commit numbers the new
// files from the next row id of the snapshot it builds on, so a retry after
// a lost race numbers them again from the new latest snapshot. The snapshot
// records the next free id (Snapshot.nextRowId).
//
// Per delta entry, in order:
//
//   - sequence numbers: a file whose minimum sequence number is 0 (every
//     file of a data-evolution writer, whose counter restarts at 0 per file,
//     and the first file of an append writer) gets the new snapshot id as
//     minimum and maximum; Java 2.0.0 also gives a file whose maximum is 0
//     (and minimum not) the snapshot id as maximum, which 1.4.2 leaves alone
//     (no writer of either version produces such a file);
//   - first row id: an APPEND file without one whose _WRITE_COLS does not
//     hold _ROW_ID gets the next id, and the counter moves on by its row
//     count; a .blob file instead continues the row range of its column
//     from the first row id of the last data file before it (the rows of a
//     BLOB column sit in .blob files beside the data file of the other
//     columns); COMPACT files and files with ids keep theirs.
//
// Java 2.0.0 first groups the delta by partition when
// row-tracking.partition-group-on-commit is true (its default; 1.4.2 has
// no such option and keeps the delta's order), so that the ids of a
// partition are contiguous. It groups with Collectors.groupingBy into a
// HashMap: partitionGroups reproduces that map's iteration order.

// Table options of row-id assignment.
const optRowTrackingPartitionGroup = coreoptions.RowTrackingPartitionGroupOnCommit

// assignRowTracking returns a copy of the delta entries with sequence
// numbers and first row ids assigned for snapshot id, and the next row id
// after them. entries are not modified: a retried attempt assigns again
// from its own base.
func assignRowTracking(id, next int64, entries []manifest.ManifestEntry, groupByPartition bool) ([]manifest.ManifestEntry, int64, error) {
	out := make([]manifest.ManifestEntry, 0, len(entries))
	if groupByPartition {
		for _, g := range partitionGroups(entries) {
			out = append(out, g...)
		}
	} else {
		out = append(out, entries...)
	}
	start := next
	blobDefault := next
	blobStarts := map[string]int64{}
	for i := range out {
		f := out[i].File // a copy: ExtraFiles etc. are shared, scalars are not
		switch {
		case f.MinSequenceNumber == 0:
			f.MinSequenceNumber, f.MaxSequenceNumber = id, id
		case f.MaxSequenceNumber == 0:
			f.MaxSequenceNumber = id // Java 2.0.0
		}
		if f.FileSource == nil {
			return nil, 0, fmt.Errorf("%w: data file %s of a row-tracking table has no file source", ErrInvalidCommitMessage, f.FileName)
		}
		if *f.FileSource == manifest.FileSourceAppend && f.FirstRowID == nil && !slices.Contains(f.WriteCols, rowIDFieldName) {
			if isBlobFile(f.FileName) {
				if len(f.WriteCols) == 0 {
					return nil, 0, fmt.Errorf("%w: blob file %s names no column", ErrInvalidCommitMessage, f.FileName)
				}
				col := f.WriteCols[0]
				bs, ok := blobStarts[col]
				if !ok {
					bs = blobDefault
				}
				if bs >= start {
					return nil, 0, fmt.Errorf("%w: blob file %s has no data file before it to take row ids from", ErrInvalidCommitMessage, f.FileName)
				}
				v := bs
				f.FirstRowID = &v
				blobStarts[col] = bs + f.RowCount
			} else {
				v := start
				f.FirstRowID = &v
				blobDefault = start
				clear(blobStarts)
				start += f.RowCount
			}
		}
		out[i].File = f
	}
	return out, start, nil
}

// partitionGroups groups entries by partition, each group in the entries'
// order, the groups in the iteration order of the java.util.HashMap that
// Collectors.groupingBy fills: by bucket index (the key's hash spread as
// HashMap.hash does, masked by the table size) and, within a bucket, by
// insertion. The table starts at 16 slots and doubles whenever the keys
// exceed three quarters of it, or when a bucket would get a ninth key
// while it has fewer than 64 slots (treeifyBin); resizing keeps the
// relative order within a bucket. A bucket that does get nine keys in a
// table of 64 slots or more becomes a tree in Java, whose order is not
// reproduced (its groups stay in insertion order): that needs nine
// partitions of one commit with colliding hashes.
func partitionGroups(entries []manifest.ManifestEntry) [][]manifest.ManifestEntry {
	var keys []string
	groups := map[string][]manifest.ManifestEntry{}
	for _, e := range entries {
		k := string(e.Partition)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], e)
	}
	if len(keys) <= 1 {
		out := make([][]manifest.ManifestEntry, 0, len(keys))
		for _, k := range keys {
			out = append(out, groups[k])
		}
		return out
	}
	spread := func(k string) uint32 {
		h := uint32(partitionHash([]byte(k)))
		return h ^ h>>16
	}
	capacity := uint32(16)
	count := map[uint32]int{} // keys per bucket index at the current capacity
	resize := func(n int) {
		capacity *= 2
		clear(count)
		for _, k := range keys[:n] {
			count[spread(k)&(capacity-1)]++
		}
	}
	for n, k := range keys {
		if count[spread(k)&(capacity-1)] >= 8 && capacity < 64 {
			resize(n) // treeifyBin on a small table resizes instead
		}
		count[spread(k)&(capacity-1)]++
		if uint32(n+1) > capacity/4*3 {
			resize(n + 1)
		}
	}
	order := slices.Clone(keys)
	slices.SortStableFunc(order, func(a, b string) int {
		ba, bb := spread(a)&(capacity-1), spread(b)&(capacity-1)
		switch {
		case ba < bb:
			return -1
		case ba > bb:
			return 1
		}
		return 0
	})
	out := make([][]manifest.ManifestEntry, 0, len(order))
	for _, k := range order {
		out = append(out, groups[k])
	}
	return out
}

// partitionHash is Java BinaryRow.hashCode of a serialized partition row
// (4-byte arity prefix, then the row's bytes).
func partitionHash(serialized []byte) int32 {
	if len(serialized) < 4 {
		return binaryrow.Hash(nil)
	}
	return binaryrow.Hash(serialized[4:])
}

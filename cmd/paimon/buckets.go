package main

import (
	"context"
	"sort"
)

// bucketsColumns are the columns of Java's $buckets system table
// (org.apache.paimon.table.system.BucketsTable, Paimon 1.4.2), in order.
var bucketsColumns = []column{
	{"partition", stringNull},
	{"bucket", intNotNull},
	{"record_count", bigintNotNull},
	{"file_size_in_bytes", bigintNotNull},
	{"file_count", bigintNotNull},
	{"last_update_time", tsNull},
}

func runBuckets(ctx context.Context, e *env, c *command, args []string) error {
	// Java's BucketsTable reads through a bare snapshot reader, which
	// ignores scan.snapshot-id and scan.tag-name: always the latest.
	return runSnapshotMeta(ctx, e, c, args, false, bucketsColumns, bucketRows)
}

// bucketRows emits one row per partition and bucket holding files, sorted
// by partition text ("{v1, v2}") and bucket, with the sums of
// Java's BucketEntry over the snapshot's manifest entries.
func bucketRows(ctx context.Context, src *snapshotSource, emit func([]any) error) error {
	entries, err := src.dataEntries(ctx)
	if err != nil {
		return err
	}
	groups := sumEntries(entries, true)
	parts := src.schema.PartitionFields()
	type row struct {
		name string
		g    *entrySum
	}
	rows := make([]row, 0, len(groups))
	for _, g := range groups {
		name, err := partitionRowText(g.partition, parts)
		if err != nil {
			return err
		}
		rows = append(rows, row{name, g})
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].name != rows[j].name {
			return rows[i].name < rows[j].name
		}
		return rows[i].g.bucket < rows[j].g.bucket
	})
	for _, r := range rows {
		err := emit([]any{r.name, r.g.bucket, r.g.records, r.g.bytes, r.g.files, r.g.lastUpdate()})
		if err != nil {
			return err
		}
	}
	return nil
}

package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/partpath"
)

// partitionsColumns are the columns of Java's $partitions system table
// (org.apache.paimon.table.system.PartitionsTable, Paimon 1.4.2), in order.
var partitionsColumns = []column{
	{"partition", stringNull},
	{"record_count", bigintNotNull},
	{"file_size_in_bytes", bigintNotNull},
	{"file_count", bigintNotNull},
	{"last_update_time", tsNull},
	{"created_at", tsNull},
	{"created_by", stringNull},
	{"updated_by", stringNull},
	{"options", stringNull},
}

func runPartitions(ctx context.Context, e *env, c *command, args []string) error {
	return runSnapshotMeta(ctx, e, c, args, true, partitionsColumns, partitionRows)
}

// partitionRows emits one row per partition holding files, sorted by the
// partition text "k1=v1/k2=v2". Like Java's file-system catalog it sums the
// snapshot's manifest entries (ADD counts up, DELETE down; PartitionEntry)
// and keeps partitions with files left; created_at, created_by, updated_by
// and options are only known to a metastore and are NULL.
func partitionRows(ctx context.Context, src *snapshotSource, emit func([]any) error) error {
	entries, err := src.dataEntries(ctx)
	if err != nil {
		return err
	}
	if postponeTable(src.schema) {
		// DataTableBatchScan.onlyReadRealBuckets.
		entries = realBuckets(entries)
	}
	groups := sumEntries(entries, false)
	parts := src.schema.PartitionFields()
	defaultName := src.schema.Options["partition.default-name"]
	if defaultName == "" {
		defaultName = partpath.DefaultName
	}
	type row struct {
		name string
		g    *entrySum
	}
	rows := make([]row, 0, len(groups))
	for _, g := range groups {
		name, err := partitionSpecText(g.partition, parts, defaultName)
		if err != nil {
			return err
		}
		rows = append(rows, row{name, g})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
	for _, r := range rows {
		err := emit([]any{r.name, r.g.records, r.g.bytes, r.g.files, r.g.lastUpdate(), nil, nil, nil, nil})
		if err != nil {
			return err
		}
	}
	return nil
}

// entrySum is Java's PartitionEntry / BucketEntry: the sums over manifest
// entries of one partition (and bucket), DELETE entries counting negative,
// and the latest creation time of any entry.
type entrySum struct {
	partition []byte
	bucket    int32
	records   int64
	bytes     int64
	files     int64
	// lastCreation is the largest _CREATION_TIME (wall-clock millis) seen;
	// hasCreation is false when no entry recorded one.
	lastCreation int64
	hasCreation  bool
}

// lastUpdate is last_update_time: the newest creation time, shown as the
// wall-clock time the writer recorded (Java converts it to epoch millis in
// the local zone and back).
func (g *entrySum) lastUpdate() any {
	if !g.hasCreation {
		return nil
	}
	return data.Timestamp{Millis: g.lastCreation}
}

// sumEntries groups entries by partition, and by bucket too when byBucket is
// set, and drops the groups with no file left (AbstractFileStoreScan
// readPartitionEntries / readBucketEntries). The groups come in order of
// first appearance.
func sumEntries(entries []manifest.ManifestEntry, byBucket bool) []*entrySum {
	type key struct {
		partition string
		bucket    int32
	}
	index := map[key]*entrySum{}
	var order []*entrySum
	for i := range entries {
		e := &entries[i]
		k := key{partition: string(e.Partition)}
		if byBucket {
			k.bucket = e.Bucket
		}
		g := index[k]
		if g == nil {
			g = &entrySum{partition: e.Partition, bucket: k.bucket}
			index[k] = g
			order = append(order, g)
		}
		sign := int64(1)
		if e.Kind == manifest.FileKindDelete {
			sign = -1
		}
		g.records += sign * e.File.RowCount
		g.bytes += sign * e.File.FileSize
		g.files += sign
		if ct := e.File.CreationTime; ct != nil && (!g.hasCreation || *ct > g.lastCreation) {
			g.lastCreation, g.hasCreation = *ct, true
		}
	}
	out := order[:0]
	for _, g := range order {
		if g.files > 0 {
			out = append(out, g)
		}
	}
	return out
}

// postponeTable reports a primary-key table in postpone-bucket mode
// (bucket = -2), whose batch scans read only real buckets.
func postponeTable(s *schema.TableSchema) bool {
	n, err := s.Bucket()
	return err == nil && n == postponeBucketMode && len(s.PrimaryKeys) > 0
}

// postponeBucketMode is the bucket option of postpone-bucket tables and the
// bucket their unassigned files sit in (Java BucketMode.POSTPONE_BUCKET).
const postponeBucketMode = -2

// realBuckets drops the entries of the postpone bucket.
func realBuckets(entries []manifest.ManifestEntry) []manifest.ManifestEntry {
	out := make([]manifest.ManifestEntry, 0, len(entries))
	for _, e := range entries {
		if e.Bucket >= 0 {
			out = append(out, e)
		}
	}
	return out
}

// partitionValuesOf decodes a serialized partition row with the partition
// fields' types. Fields the row lacks (statistics of an older partition
// layout) decode as NULL instead of failing.
func partitionValuesOf(b []byte, parts []schema.DataField) ([]any, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	row, err := binaryrow.ParseSerialized(b)
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(parts))
	for i := range min(row.Arity(), len(parts)) {
		if vals[i], err = row.Value(i, &parts[i].Type); err != nil {
			return nil, fmt.Errorf("partition field %s: %w", parts[i].Name, err)
		}
	}
	return vals, nil
}

// partitionRowText renders a partition as Java casts the partition ROW to
// STRING (RowToStringCastRule): "{v1, v2}", NULL fields as "null", "{}" for
// an unpartitioned table. $files, $manifests and $buckets show partitions
// this way.
func partitionRowText(b []byte, parts []schema.DataField) (string, error) {
	vals, err := partitionValuesOf(b, parts)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.WriteByte('{')
	for i, f := range parts {
		if i > 0 {
			sb.WriteString(", ")
		}
		if vals[i] == nil {
			sb.WriteString("null")
			continue
		}
		s, err := castToString(vals[i], f.Type)
		if err != nil {
			return "", fmt.Errorf("partition field %s: %w", f.Name, err)
		}
		sb.WriteString(s)
	}
	sb.WriteByte('}')
	return sb.String(), nil
}

// partitionStatsText is partitionRowText for the partition statistics of a
// manifest: empty statistics (no row bytes) are NULL.
func partitionStatsText(b []byte, parts []schema.DataField) (any, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return partitionRowText(b, parts)
}

// partitionSpecText renders a partition as $partitions does: "k1=v1/k2=v2"
// with each value cast to STRING, NULL and blank values shown as the
// partition default name (InternalRowPartitionComputer.generatePartValues
// followed by PartitionsTable.toRow); "" for an unpartitioned table.
func partitionSpecText(b []byte, parts []schema.DataField, defaultName string) (string, error) {
	vals, err := partitionValuesOf(b, parts)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for i, f := range parts {
		if i > 0 {
			sb.WriteByte('/')
		}
		sb.WriteString(f.Name)
		sb.WriteByte('=')
		s := defaultName
		if vals[i] != nil {
			v, err := castToString(vals[i], f.Type)
			if err != nil {
				return "", fmt.Errorf("partition field %s: %w", f.Name, err)
			}
			if strings.TrimSpace(v) != "" {
				s = v
			}
		}
		sb.WriteString(s)
	}
	return sb.String(), nil
}

// castToString renders a scalar value as Java's CastExecutors cast it to
// STRING: DATE as yyyy-mm-dd, TIME and TIMESTAMP with their precision,
// TIMESTAMP_LTZ in the local zone, BINARY decoded as UTF-8.
func castToString(v any, t schema.DataType) (string, error) {
	switch x := v.(type) {
	case []byte:
		return strings.ToValidUTF8(string(x), "\uFFFD"), nil
	case data.Timestamp:
		if t.Root == schema.TimestampLTZ {
			local := localTimestamp(x.Millis, time.Local)
			local.NanoOfMilli = x.NanoOfMilli
			v = local
		}
	}
	return partpath.ValueString(v, t, false)
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/paimon"
)

// groupStats is what $partitions and $buckets report for one group,
// computed by the test on its own from the manifests.
type groupStats struct {
	records, bytes, files int64
	lastUpdate            int64
}

// expectedGroups reads the latest snapshot of a golden table directly:
// live files are the merged manifest entries, grouped by the partition
// text that key renders, and the last update is the newest creation time
// of any entry of the group, deleted files included (Java's
// PartitionEntry.merge takes the max over every entry).
func expectedGroups(t *testing.T, sc scenario, key func(parts []string, fields []string, bucket int32) string) map[string]*groupStats {
	t.Helper()
	ctx := context.Background()
	fsys, root, err := fs.OpenURI(ctx, sc.warehouse())
	require.NoError(t, err)
	defer fsys.Close()
	id, err := paimon.ParseIdentifier(sc.Table)
	require.NoError(t, err)
	meta := paimon.NewTableMeta(fsys, root+"/"+id.Database+".db/"+id.Table)
	sch, err := meta.LatestSchema(ctx)
	require.NoError(t, err)
	latest, ok, err := meta.LatestSnapshotID(ctx)
	require.NoError(t, err)
	out := map[string]*groupStats{}
	if !ok {
		return out
	}
	snap, err := meta.ReadSnapshot(ctx, latest)
	require.NoError(t, err)
	lists, err := meta.DataManifests(ctx, snap)
	require.NoError(t, err)
	var all []manifest.ManifestEntry
	for _, l := range lists {
		es, err := meta.ReadManifest(ctx, l.FileName)
		require.NoError(t, err)
		all = append(all, es...)
	}
	parts := sch.PartitionFields()
	render := func(e *manifest.ManifestEntry) string {
		row, err := binaryrow.ParseSerialized(e.Partition)
		require.NoError(t, err)
		var vals, names []string
		for i, f := range parts {
			v, err := row.Value(i, &f.Type)
			require.NoError(t, err)
			s := fmt.Sprint(v)
			if f.Type.Root == schema.Date {
				s = time.Unix(int64(v.(int32))*86400, 0).UTC().Format(time.DateOnly)
			}
			vals, names = append(vals, s), append(names, f.Name)
		}
		return key(vals, names, e.Bucket)
	}
	last := map[string]int64{}
	for i := range all {
		k := render(&all[i])
		if ct := all[i].File.CreationTime; ct != nil && *ct > last[k] {
			last[k] = *ct
		}
	}
	live, err := manifest.MergeEntries(all)
	require.NoError(t, err)
	for i := range live {
		e := &live[i]
		require.Equal(t, manifest.FileKindAdd, e.Kind)
		k := render(e)
		g := out[k]
		if g == nil {
			g = &groupStats{lastUpdate: last[k]}
			out[k] = g
		}
		g.records += e.File.RowCount
		g.bytes += e.File.FileSize
		g.files++
	}
	return out
}

// TestPartitionsAndBucketsGolden checks partitions and buckets on every
// Java golden table against sums the test computes from the manifests.
func TestPartitionsAndBucketsGolden(t *testing.T) {
	partitionKey := func(vals, names []string, _ int32) string {
		kv := make([]string, len(vals))
		for i := range vals {
			kv[i] = names[i] + "=" + vals[i]
		}
		return strings.Join(kv, "/")
	}
	bucketKey := func(vals, _ []string, bucket int32) string {
		return "{" + strings.Join(vals, ", ") + "}#" + strconv.Itoa(int(bucket))
	}
	var compared atomic.Int64
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range goldenScenarios(t) {
			if !strings.HasPrefix(sc.name(), "java-") {
				continue
			}
			t.Run(sc.name(), func(t *testing.T) {
				t.Parallel()
				for _, tt := range []struct {
					cmd string
					key func(vals, names []string, bucket int32) string
					row func(map[string]any) string
				}{
					{"partitions", partitionKey, func(r map[string]any) string { return r["partition"].(string) }},
					{"buckets", bucketKey, func(r map[string]any) string {
						return r["partition"].(string) + "#" + r["bucket"].(json.Number).String()
					}},
				} {
					if tt.cmd == "partitions" && postponeTable(t, sc) {
						continue // Java's $partitions reads the real buckets only
					}
					want := expectedGroups(t, sc, tt.key)
					rows := jsonRows(t, runOK(t, tt.cmd, "--warehouse", sc.warehouse(), "--output", "jsonl", sc.Table))
					require.Len(t, rows, len(want), tt.cmd)
					var keys []string
					for _, r := range rows {
						k := tt.row(r)
						keys = append(keys, k)
						g := want[k]
						require.NotNil(t, g, "%s: unexpected group %s", tt.cmd, k)
						num := func(col string) int64 {
							n, err := r[col].(json.Number).Int64()
							require.NoError(t, err)
							return n
						}
						require.Equal(t, g.records, num("record_count"), "%s %s", tt.cmd, k)
						require.Equal(t, g.bytes, num("file_size_in_bytes"), "%s %s", tt.cmd, k)
						require.Equal(t, g.files, num("file_count"), "%s %s", tt.cmd, k)
						ts, err := canon.ParseTimestamp(r["last_update_time"].(string))
						require.NoError(t, err)
						require.Equal(t, g.lastUpdate, ts.Millis, "%s %s", tt.cmd, k)
						if tt.cmd == "partitions" {
							for _, c := range []string{"created_at", "created_by", "updated_by", "options"} {
								require.Nil(t, r[c], c)
							}
						}
					}
					require.True(t, sort.SliceIsSorted(keys, func(i, j int) bool { return keys[i] < keys[j] }) ||
						tt.cmd == "buckets", "%s sorted by partition: %v", tt.cmd, keys)
					compared.Add(1)
				}
			})
		}
	})
	require.Greater(t, compared.Load(), int64(40))
}

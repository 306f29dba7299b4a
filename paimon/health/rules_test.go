package health

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

const mib = 1 << 20

var healthTestNow = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// synthInput is a table with one snapshot of the given files, committed
// just now.
func synthInput(t *testing.T, pk bool, opts map[string]string, files ...file) *input {
	t.Helper()
	s := &schema.TableSchema{
		ID:      0,
		Fields:  []schema.DataField{{ID: 0, Name: "id", Type: schema.IntType().NotNull()}},
		Options: opts,
	}
	if pk {
		s.PrimaryKeys = []string{"id"}
	}
	cfg, err := readConfig(s, 0)
	require.NoError(t, err)
	return &input{
		name: "db.t", schema: s, cfg: cfg, snapshotID: 1, files: files,
		snapshotIDs: []int64{1}, times: map[int64]int64{1: healthTestNow.UnixMilli()}, now: healthTestNow,
	}
}

// files returns n files of one size in a bucket.
func files(partition string, bucket int32, level int32, n int, size int64) []file {
	out := make([]file, n)
	for i := range out {
		out[i] = file{partition: partition, bucket: bucket, level: level, size: size, rows: 10}
	}
	return out
}

func concat(groups ...[]file) []file { return slices.Concat(groups...) }

func rules(rep *Report) []string {
	out := []string{}
	for _, f := range rep.Findings {
		out = append(out, f.Rule)
	}
	return out
}

// TestHealthRules checks each finding on synthetic tables, and that
// healthy ones get none.
func TestHealthRules(t *testing.T) {
	fixed := func(n int) map[string]string { return map[string]string{"bucket": strconv.Itoa(n)} }
	dv := map[string]string{"bucket": "2", "deletion-vectors.enabled": "true"}
	firstRow := map[string]string{"bucket": "2", "merge-engine": "first-row"}
	for _, tt := range []struct {
		name  string
		in    *input
		want  []string
		scope string // of the first finding
	}{
		{"healthy append", synthInput(t, false, nil, files("", 0, 0, 3, 200*mib)...), nil, ""},
		{"healthy primary key", synthInput(t, true, fixed(1), concat(files("", 0, 5, 1, 120*mib), files("", 0, 0, 2, mib))...), nil, ""},
		{"small files", synthInput(t, false, nil, files("", 0, 0, 6, mib)...), []string{"small-files"}, "bucket 0"},
		{"few small files", synthInput(t, false, nil, files("", 0, 0, 4, mib)...), nil, ""},
		{"small files by option", synthInput(t, false, map[string]string{"compaction.min.file-num": "3"}, files("", 0, 0, 3, mib)...), []string{"small-files"}, "bucket 0"},
		{"small relative to target", synthInput(t, false, map[string]string{"target-file-size": "1gb"}, files("", 0, 0, 5, 500*mib)...), []string{"small-files"}, "bucket 0"},
		{"sorted runs", synthInput(t, true, fixed(1), concat(files("dt=1", 0, 5, 1, 120*mib), files("dt=1", 0, 0, 4, 120*mib))...), []string{"sorted-runs"}, "partition dt=1 bucket 0"},
		{"runs count levels", synthInput(t, true, fixed(1), concat(files("", 0, 5, 2, 120*mib), files("", 0, 3, 1, 120*mib), files("", 0, 0, 2, 120*mib))...), nil, ""},
		{"write stall", synthInput(t, true, fixed(1), files("", 0, 0, 8, 120*mib)...), []string{"write-stall"}, "bucket 0"},
		{"stall trigger option", synthInput(t, true, map[string]string{"bucket": "1", "num-sorted-run.stop-trigger": "6"}, files("", 0, 0, 6, 120*mib)...), []string{"write-stall"}, "bucket 0"},
		{"level 0 with deletion vectors", synthInput(t, true, dv, concat(files("", 0, 5, 1, 120*mib), files("", 0, 0, 1, mib))...), []string{"level0-invisible"}, "table"},
		{"level 0 with first-row", synthInput(t, true, firstRow, files("", 1, 0, 2, mib)...), []string{"level0-invisible"}, "table"},
		{"level 0 without deletion vectors", synthInput(t, true, fixed(2), files("", 0, 0, 2, mib)...), nil, ""},
		{"postpone", synthInput(t, true, map[string]string{"bucket": "-2"}, files("", -2, 0, 3, 120*mib)...), []string{"postpone-files"}, "table"},
		{"large bucket", synthInput(t, false, fixed(2), concat(files("", 0, 0, 8, 256*mib), files("", 1, 0, 4, 256*mib))...), []string{"bucket-too-large"}, "bucket 0"},
		{"large dynamic bucket", synthInput(t, true, nil, files("", 3, 5, 5, 256*mib)...), []string{"bucket-too-large"}, "bucket 3"},
		{"large unaware bucket", synthInput(t, false, nil, files("", 0, 0, 8, 256*mib)...), nil, ""},
		{"skew", synthInput(t, false, fixed(4), concat(files("", 0, 0, 1, 1000*mib), files("", 1, 0, 1, 150*mib), files("", 2, 0, 1, 150*mib), files("", 3, 0, 1, 200*mib))...), []string{"bucket-skew"}, "table"},
		{"tiny skew", synthInput(t, false, fixed(4), concat(files("", 0, 0, 1, 25*mib), files("", 1, 0, 1, mib/4))...), nil, ""},
		{"balanced", synthInput(t, false, fixed(2), concat(files("", 0, 0, 1, 250*mib), files("", 1, 0, 1, 240*mib))...), nil, ""},
		{"too many buckets", synthInput(t, false, fixed(8), slices.Concat(
			files("", 0, 0, 1, 190*mib), files("", 1, 0, 1, 190*mib), files("", 2, 0, 1, 190*mib), files("", 3, 0, 1, 190*mib),
			files("", 4, 0, 1, 190*mib), files("", 5, 0, 1, 190*mib), files("", 6, 0, 1, 190*mib), files("", 7, 0, 1, 190*mib))...),
			[]string{"buckets-too-small"}, "table"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := analyze(tt.in)
			want := tt.want
			if want == nil {
				want = []string{}
			}
			require.Equal(t, want, rules(rep), "%+v", rep.Findings)
			for _, f := range rep.Findings {
				require.NotEmpty(t, f.Message)
				require.NotEmpty(t, f.Options, "every finding names the options that address it")
			}
			if tt.scope != "" {
				require.Equal(t, tt.scope, rep.Findings[0].Scope)
			}
		})
	}
}

// TestHealthSnapshotRules checks expiration and consumer findings.
func TestHealthSnapshotRules(t *testing.T) {
	// Snapshots 5..20, one a minute, the newest an hour old.
	mk := func(opts map[string]string, consumers ...Consumer) *input {
		in := synthInput(t, false, opts, files("", 0, 0, 1, 200*mib)...)
		in.snapshotIDs, in.times = nil, map[int64]int64{}
		for id := int64(5); id <= 20; id++ {
			in.snapshotIDs = append(in.snapshotIDs, id)
			in.times[id] = healthTestNow.Add(-time.Hour - time.Duration(20-id)*time.Minute).UnixMilli()
		}
		in.snapshotID = 20
		in.consumers = consumers
		return in
	}
	for _, tt := range []struct {
		name            string
		in              *input
		want            []string
		overdue, held   int
		lag             int64
		scopeOfFirstHit string
	}{
		{"defaults keep ten", mk(nil), []string{"snapshots-overdue"}, 6, 0, 0, "snapshots"},
		{"min retained", mk(map[string]string{"snapshot.num-retained.min": "16"}), []string{}, 0, 0, 0, ""},
		{"time retained", mk(map[string]string{"snapshot.time-retained": "1 d"}), []string{}, 0, 0, 0, ""},
		// 70 minutes keeps snapshot 10 (committed exactly 70 minutes ago) and
		// the newer ones.
		{"time retained partly", mk(map[string]string{"snapshot.time-retained": "70min", "snapshot.num-retained.min": "1"}), []string{"snapshots-overdue"}, 5, 0, 0, "snapshots"},
		{"max retained", mk(map[string]string{"snapshot.time-retained": "1 d", "snapshot.num-retained.min": "1", "snapshot.num-retained.max": "4"}), []string{"snapshots-overdue"}, 12, 0, 0, "snapshots"},
		{"consumer blocks", mk(nil, Consumer{ID: "job", NextSnapshot: 8}), []string{"snapshots-overdue", "consumer-blocking"}, 3, 3, 13, "snapshots"},
		{"consumer caught up", mk(map[string]string{"snapshot.num-retained.min": "16"}, Consumer{ID: "job", NextSnapshot: 21}), []string{}, 0, 0, 0, ""},
		{"consumer expired", mk(map[string]string{"snapshot.num-retained.min": "16"}, Consumer{ID: "old", NextSnapshot: 2}), []string{"consumer-expired"}, 0, 0, 19, "consumer old"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := analyze(tt.in)
			require.Equal(t, tt.want, rules(rep), "%+v", rep.Findings)
			require.Equal(t, tt.overdue, rep.Snapshots.Overdue)
			require.Equal(t, tt.held, rep.Snapshots.HeldByConsumers)
			require.Equal(t, 16, rep.Snapshots.Count)
			require.Equal(t, int64(5), rep.Snapshots.Earliest)
			require.Equal(t, int64(3600), rep.Snapshots.LatestAge)
			require.Equal(t, int64(3600+15*60), rep.Snapshots.EarliestAge)
			if len(rep.Consumers) > 0 {
				require.Equal(t, tt.lag, rep.Consumers[0].Lag)
			}
			if tt.scopeOfFirstHit != "" {
				require.Equal(t, tt.scopeOfFirstHit, rep.Findings[0].Scope)
			}
		})
	}
	empty := synthInput(t, false, nil)
	empty.snapshotIDs, empty.snapshotID = nil, 0
	require.Equal(t, []string{"no-snapshot"}, rules(analyze(empty)))
}

func TestHealthBucketStats(t *testing.T) {
	in := synthInput(t, true, map[string]string{"bucket": "2"},
		concat(files("dt=a", 1, 0, 2, 10), files("dt=a", 1, 4, 1, 100), files("dt=a", 1, 5, 1, 1000), files("dt=a", 0, 5, 1, 7))...)
	rep := analyze(in)
	require.Equal(t, []Bucket{
		{Partition: "dt=a", Bucket: 0, Files: 1, Bytes: 7, Records: 10, AvgFile: 7, MedianFile: 7, SmallFiles: 1, SortedRuns: 1},
		{Partition: "dt=a", Bucket: 1, Files: 4, Bytes: 1120, Records: 40, AvgFile: 280, MedianFile: 55, SmallFiles: 4, Level0Files: 2, SortedRuns: 4},
	}, rep.Buckets)
	require.Equal(t, 5, rep.Table.Files)
	require.Equal(t, int64(1127), rep.Table.Bytes)
	require.Equal(t, 1, rep.Table.Partitions)
}

func TestFormat(t *testing.T) {
	require.Equal(t, "512 B", FormatBytes(512))
	require.Equal(t, "1.5 KiB", FormatBytes(1536))
	require.Equal(t, "89.6 MiB", FormatBytes(128<<20/10*7))
	require.Equal(t, "2d3h", FormatDuration(51*time.Hour+20*time.Second))
	require.Equal(t, "1h", FormatDuration(time.Hour))
	require.Equal(t, "1m5s", FormatDuration(65*time.Second))
	require.Equal(t, int64(3), median([]int64{1, 2, 4, 9}))
}

// TestMalformedOptions checks that an option value the report cannot
// interpret is an error naming it, not a silent default.
func TestMalformedOptions(t *testing.T) {
	for _, opts := range []map[string]string{
		{"compaction.min.file-num": "many"},
		{"deletion-vectors.enabled": "yes"},
		{"target-file-size": "big"},
	} {
		_, err := readConfig(&schema.TableSchema{Options: opts}, 0)
		require.ErrorIs(t, err, ErrOptions)
		for k := range opts {
			require.ErrorContains(t, err, k)
		}
	}
}

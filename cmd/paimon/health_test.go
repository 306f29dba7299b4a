package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	pfs "github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

const mib = 1 << 20

var healthTestNow = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// synthInput is a table with one snapshot of the given files, committed
// just now.
func synthInput(t *testing.T, pk bool, opts map[string]string, files ...healthFile) *healthInput {
	t.Helper()
	s := &schema.TableSchema{
		ID:      0,
		Fields:  []schema.DataField{{ID: 0, Name: "id", Type: schema.IntType().NotNull()}},
		Options: opts,
	}
	if pk {
		s.PrimaryKeys = []string{"id"}
	}
	cfg, err := readHealthConfig(s, 0)
	require.NoError(t, err)
	return &healthInput{
		name: "db.t", schema: s, cfg: cfg, snapshotID: 1, files: files,
		snapshotIDs: []int64{1}, times: map[int64]int64{1: healthTestNow.UnixMilli()}, now: healthTestNow,
	}
}

// files returns n files of one size in a bucket.
func files(partition string, bucket int32, level int32, n int, size int64) []healthFile {
	out := make([]healthFile, n)
	for i := range out {
		out[i] = healthFile{partition: partition, bucket: bucket, level: level, size: size, rows: 10}
	}
	return out
}

func concat(groups ...[]healthFile) []healthFile { return slices.Concat(groups...) }

func rules(rep *healthReport) []string {
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
		in    *healthInput
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
			rep := analyzeHealth(tt.in)
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
	mk := func(opts map[string]string, consumers ...healthConsumer) *healthInput {
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
		in              *healthInput
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
		{"consumer blocks", mk(nil, healthConsumer{ID: "job", NextSnapshot: 8}), []string{"snapshots-overdue", "consumer-blocking"}, 3, 3, 13, "snapshots"},
		{"consumer caught up", mk(map[string]string{"snapshot.num-retained.min": "16"}, healthConsumer{ID: "job", NextSnapshot: 21}), []string{}, 0, 0, 0, ""},
		{"consumer expired", mk(map[string]string{"snapshot.num-retained.min": "16"}, healthConsumer{ID: "old", NextSnapshot: 2}), []string{"consumer-expired"}, 0, 0, 19, "consumer old"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := analyzeHealth(tt.in)
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
	require.Equal(t, []string{"no-snapshot"}, rules(analyzeHealth(empty)))
}

func TestHealthBucketStats(t *testing.T) {
	in := synthInput(t, true, map[string]string{"bucket": "2"},
		concat(files("dt=a", 1, 0, 2, 10), files("dt=a", 1, 4, 1, 100), files("dt=a", 1, 5, 1, 1000), files("dt=a", 0, 5, 1, 7))...)
	rep := analyzeHealth(in)
	require.Equal(t, []healthBucket{
		{Partition: "dt=a", Bucket: 0, Files: 1, Bytes: 7, Records: 10, AvgFile: 7, MedianFile: 7, SmallFiles: 1, SortedRuns: 1},
		{Partition: "dt=a", Bucket: 1, Files: 4, Bytes: 1120, Records: 40, AvgFile: 280, MedianFile: 55, SmallFiles: 4, Level0Files: 2, SortedRuns: 4},
	}, rep.Buckets)
	require.Equal(t, 5, rep.Table.Files)
	require.Equal(t, int64(1127), rep.Table.Bytes)
	require.Equal(t, 1, rep.Table.Partitions)
}

func TestHealthHelpers(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want time.Duration
	}{
		{"1h", time.Hour}, {"30 min", 30 * time.Minute}, {"500", 500 * time.Millisecond}, {"2 D", 48 * time.Hour},
		{"10s", 10 * time.Second},
	} {
		got, err := paimon.ParseDuration(tt.in)
		require.NoError(t, err, tt.in)
		require.Equal(t, tt.want, got, tt.in)
	}
	for _, bad := range []string{"", "h", "1 fortnight", "-1h"} {
		_, err := paimon.ParseDuration(bad)
		require.Error(t, err, bad)
	}
	require.Equal(t, "512 B", humanBytes(512))
	require.Equal(t, "1.5 KiB", humanBytes(1536))
	require.Equal(t, "89.6 MiB", humanBytes(128<<20/10*7))
	require.Equal(t, "2d3h", humanDuration(51*time.Hour+20*time.Second))
	require.Equal(t, "1h", humanDuration(time.Hour))
	require.Equal(t, "1m5s", humanDuration(65*time.Second))
	require.Equal(t, "just now", age(0))
	require.Contains(t, age(-90), "in the future")
	require.Equal(t, int64(3), median([]int64{1, 2, 4, 9}))
}

// copyTree copies a directory (a golden warehouse) so a test can change it.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	require.NoError(t, err)
}

// alterOptions writes a new latest schema of the table in dir with extra
// options, as ALTER TABLE SET would.
func alterOptions(t *testing.T, dir string, opts map[string]string) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "schema", "schema-*"))
	require.NoError(t, err)
	var latest *schema.TableSchema
	for _, n := range names {
		b, err := os.ReadFile(n)
		require.NoError(t, err)
		s, err := schema.Decode(b)
		require.NoError(t, err)
		if latest == nil || s.ID > latest.ID {
			latest = s
		}
	}
	next := latest.Clone()
	next.ID++
	for k, v := range opts {
		next.Options[k] = v
	}
	b, err := next.Encode()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "schema", "schema-"+strconv.FormatInt(next.ID, 10)), b, 0o644))
}

// goldenCopy copies a Java golden warehouse and returns it with the table
// directory.
func goldenCopy(t *testing.T, scenario, table string) (wh, dir string) {
	t.Helper()
	wh = t.TempDir()
	copyTree(t, warehouse("java-1.4.2", scenario), wh)
	return wh, filepath.Join(wh, "interop.db", table)
}

func healthJSON(t *testing.T, args ...string) *healthReport {
	t.Helper()
	out := runOK(t, append([]string{"health", "--output", "json"}, args...)...)
	var rep healthReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	return &rep
}

func setHealthNow(t *testing.T, now time.Time) {
	old := healthNow
	healthNow = func() time.Time { return now }
	t.Cleanup(func() { healthNow = old })
}

// TestHealthGoldenPrimaryKey checks the compaction findings on Java's
// primary-key tables: pk-dedup has a level-0 file beside the compacted
// level in each partition (two sorted runs), which is healthy under the
// default triggers.
func TestHealthGoldenPrimaryKey(t *testing.T) {
	rep := healthJSON(t, "--warehouse", warehouse("java-1.4.2", "pk-dedup"), "interop.pk_dedup")
	require.Empty(t, rep.Findings)
	require.Equal(t, "primary-key", rep.Table.Type)
	require.Equal(t, "fixed", rep.Table.BucketMode)
	require.Len(t, rep.Buckets, 2)
	for _, b := range rep.Buckets {
		require.Equal(t, 1, b.Level0Files)
		require.Equal(t, 2, b.SortedRuns)
	}

	for _, tt := range []struct {
		name string
		opts map[string]string
		want string
	}{
		{"compaction trigger", map[string]string{"num-sorted-run.compaction-trigger": "2"}, "sorted-runs"},
		{"stop trigger", map[string]string{"num-sorted-run.compaction-trigger": "1", "num-sorted-run.stop-trigger": "2"}, "write-stall"},
		{"deletion vectors", map[string]string{"deletion-vectors.enabled": "true"}, "level0-invisible"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wh, dir := goldenCopy(t, "pk-dedup", "pk_dedup")
			alterOptions(t, dir, tt.opts)
			rep := healthJSON(t, "--warehouse", wh, "interop.pk_dedup")
			require.Contains(t, rules(rep), tt.want)
			text := runOK(t, "health", "--warehouse", wh, "interop.pk_dedup")
			require.Contains(t, text, "Findings:")
			for _, f := range rep.Findings {
				if f.Rule == tt.want && f.Rule != "level0-invisible" {
					require.Contains(t, []string{"partition dt=d1 bucket 0", "partition dt=d2 bucket 0"}, f.Scope)
				}
			}
		})
	}

	// Every golden primary-key table is small and compacted enough to show
	// no compaction finding.
	for _, sc := range goldenScenarios(t) {
		if !strings.HasPrefix(sc.name(), "java-") || !strings.Contains(sc.name(), "/pk-") {
			continue
		}
		rep := healthJSON(t, "--warehouse", sc.warehouse(), sc.Table)
		require.Equal(t, "primary-key", rep.Table.Type, sc.name())
		for _, r := range rules(rep) {
			require.NotContains(t, []string{"sorted-runs", "write-stall", "small-files"}, r, sc.name())
		}
	}
}

// TestHealthGoldenSnapshots checks expiration and consumers on a copy of a
// golden table with nine snapshots.
func TestHealthGoldenSnapshots(t *testing.T) {
	wh, dir := goldenCopy(t, "pk-deletion-vectors", "pk_deletion_vectors")
	table := "interop.pk_deletion_vectors"
	b, err := os.ReadFile(filepath.Join(dir, "snapshot", "snapshot-9"))
	require.NoError(t, err)
	latest, err := snapshot.Decode(b)
	require.NoError(t, err)
	setHealthNow(t, time.UnixMilli(latest.TimeMillis).Add(24*time.Hour))

	rep := healthJSON(t, "--warehouse", wh, table)
	require.Equal(t, 9, rep.Snapshots.Count)
	require.Equal(t, 0, rep.Snapshots.Overdue, "ten snapshots are kept by default")
	require.Equal(t, int64(24*3600), rep.Snapshots.LatestAge)
	require.Empty(t, rep.Findings)

	alterOptions(t, dir, map[string]string{"snapshot.num-retained.min": "2", "snapshot.time-retained": "1 min"})
	rep = healthJSON(t, "--warehouse", wh, table)
	require.Equal(t, 7, rep.Snapshots.Overdue)
	require.Equal(t, []string{"snapshots-overdue"}, rules(rep))

	require.NoError(t, os.MkdirAll(filepath.Join(dir, "consumer"), 0o755))
	writeConsumer := func(id string, next int64) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "consumer", "consumer-"+id), snapshot.Consumer{NextSnapshot: next}.Encode(), 0o644))
	}
	writeConsumer("reader", 4)
	rep = healthJSON(t, "--warehouse", wh, table)
	require.Equal(t, 3, rep.Snapshots.Overdue)
	require.Equal(t, 4, rep.Snapshots.HeldByConsumers)
	require.Equal(t, []string{"snapshots-overdue", "consumer-blocking"}, rules(rep))
	require.Equal(t, []healthConsumer{{ID: "reader", NextSnapshot: 4, Lag: 6}}, stripModified(rep.Consumers))

	// Expire snapshots 1 and 2 by hand: a consumer still at 2 cannot resume.
	for _, id := range []string{"1", "2"} {
		require.NoError(t, os.Remove(filepath.Join(dir, "snapshot", "snapshot-"+id)))
	}
	writeConsumer("stale", 2)
	rep = healthJSON(t, "--warehouse", wh, table)
	require.Contains(t, rules(rep), "consumer-expired")
	text := runOK(t, "health", "--warehouse", wh, table)
	require.Contains(t, text, "stale: next snapshot 2, 8 behind")
	require.Contains(t, text, "consumer stale: its next snapshot 2 has expired")
}

func stripModified(cs []healthConsumer) []healthConsumer {
	out := slices.Clone(cs)
	for i := range out {
		out[i].Modified = time.Time{}
	}
	return out
}

// TestHealthTesttable builds append tables with many small files and checks
// the finding appears only where they are.
func TestHealthTesttable(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	fsys, root, err := pfs.OpenURI(ctx, wh)
	require.NoError(t, err)
	t.Cleanup(func() { fsys.Close() })
	mem := memory.NewGoAllocator()

	create := func(name string, opts map[string]string) *testtable.Table {
		b := schema.NewSchemaBuilder().
			Column("id", schema.BigIntType().NotNull()).
			Column("s", schema.StringType()).
			Options(opts)
		s, err := b.Build()
		require.NoError(t, err)
		ts, err := schema.NewTableSchema(0, s, healthTestNow.UnixMilli())
		require.NoError(t, err)
		tbl, err := testtable.Create(ctx, fsys, root+"/db.db/"+name, ts)
		require.NoError(t, err)
		return tbl
	}
	batch := func(tbl *testtable.Table, n int) []arrow.RecordBatch {
		rows := make([][]any, n)
		for i := range rows {
			rows[i] = []any{int64(i), "row " + strconv.Itoa(i)}
		}
		rec, err := testtable.BuildRecord(mem, tbl.Schema().Fields, rows)
		require.NoError(t, err)
		t.Cleanup(rec.Release)
		return []arrow.RecordBatch{rec}
	}

	healthy := create("healthy", nil)
	for range 3 {
		_, err := healthy.Commit(ctx, testtable.DataFile{Records: batch(healthy, 10)})
		require.NoError(t, err)
	}
	text := runOK(t, "health", "--warehouse", wh, "db.healthy")
	require.Contains(t, text, "No findings.")
	require.Contains(t, text, "unaware (bucket = -1)")

	skewed := create("skewed", map[string]string{"bucket": "2", "bucket-key": "id"})
	for i := range 7 {
		files := []testtable.DataFile{{Bucket: 1, Records: batch(skewed, 5)}}
		if i == 0 {
			files = append(files, testtable.DataFile{Bucket: 0, Records: batch(skewed, 5)})
		}
		_, err := skewed.Commit(ctx, files...)
		require.NoError(t, err)
	}
	rep := healthJSON(t, "--warehouse", wh, "db.skewed")
	require.Equal(t, []string{"small-files"}, rules(rep))
	require.Equal(t, "bucket 1", rep.Findings[0].Scope)
	require.Equal(t, []string{"compaction.min.file-num", "target-file-size", "write-only"}, rep.Findings[0].Options)
	require.Len(t, rep.Buckets, 2)
	require.Equal(t, 1, rep.Buckets[0].Files)
	require.Equal(t, 7, rep.Buckets[1].Files)
	require.Equal(t, 7, rep.Buckets[1].SmallFiles)
	require.Equal(t, int64(40), rep.Table.Records)

	// A threshold below every file's size: no small files.
	rep = healthJSON(t, "--warehouse", wh, "--small-file-threshold", "10b", "db.skewed")
	require.Empty(t, rep.Findings)
	require.Equal(t, int64(10), rep.Table.SmallFileSize)

	text = runOK(t, "health", "--warehouse", wh, "db.skewed")
	require.Regexp(t, `(?m)^  warning  bucket 1: 7 of 7 files are smaller than 179\.2 MiB`, text)
	require.Regexp(t, `(?m)^partition +bucket +files +size +avg +median +small$`, text)

	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--output", "csv", "db.skewed"}, exitUsage, `--output "csv"`},
		{[]string{"--small-file-threshold", "big", "db.skewed"}, exitUsage, "--small-file-threshold"},
		{[]string{"db.nope"}, exitFailure, "paimon: "},
		{nil, exitUsage, "missing table name"},
	} {
		r := runCmd(t, append([]string{"health", "--warehouse", wh}, tt.args...)...)
		require.Equal(t, tt.code, r.code, r.stderr)
		require.Contains(t, r.stderr, tt.want)
	}
}

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
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	pfs "github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon/health"
)

var healthTestNow = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func rules(rep *health.Report) []string {
	out := []string{}
	for _, f := range rep.Findings {
		out = append(out, f.Rule)
	}
	return out
}

func TestHealthHelpers(t *testing.T) {
	require.Equal(t, "just now", health.FormatAge(0))
	require.Contains(t, health.FormatAge(-90), "in the future")
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

func healthJSON(t *testing.T, args ...string) *health.Report {
	t.Helper()
	out := runOK(t, append([]string{"health", "--output", "json"}, args...)...)
	var rep health.Report
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
	require.Equal(t, []health.Consumer{{ID: "reader", NextSnapshot: 4, Lag: 6}}, stripModified(rep.Consumers))

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

func stripModified(cs []health.Consumer) []health.Consumer {
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
	mem := memcheck.New()

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

// TestHealthUnreferenced checks that health counts the files nothing
// references with the library's orphan scan: a stray data file, then the
// files a rollback leaves, the same files "paimon orphans" lists.
func TestHealthUnreferenced(t *testing.T) {
	wh, dir := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	rep := healthJSON(t, "--warehouse", wh, table)
	require.Equal(t, &health.Unreferenced{}, rep.Unreferenced)
	require.NotContains(t, rules(rep), "unreferenced-files")
	require.Contains(t, runOK(t, "health", "--warehouse", wh, table), "Unreferenced files  none\n")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "bucket-0", "data-stray-0.parquet"), make([]byte, 123), 0o644))
	rep = healthJSON(t, "--warehouse", wh, table)
	require.Equal(t, &health.Unreferenced{Files: 1, Bytes: 123}, rep.Unreferenced)
	require.Contains(t, rules(rep), "unreferenced-files")
	text := runOK(t, "health", "--warehouse", wh, table)
	require.Contains(t, text, "Unreferenced files  1, 123 B (paimon orphans lists them)\n")
	require.Contains(t, text, "  info     table: 1 file (123 B) that no snapshot")
	require.Nil(t, healthJSON(t, "--warehouse", wh, table, "--skip-unreferenced").Unreferenced)

	runOK(t, "rollback", "--warehouse", wh, table, "--snapshot", "2")
	rep = healthJSON(t, "--warehouse", wh, table)
	var orphans orphansJSON
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "orphans", "--warehouse", wh, table, "--older-than", "1ns", "--output", "json")), &orphans))
	require.Greater(t, len(orphans.Files), 1)
	require.Equal(t, &health.Unreferenced{Files: len(orphans.Files), Bytes: orphans.Bytes}, rep.Unreferenced)
}

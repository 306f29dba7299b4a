package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// javaBinary and goBinary match a binary value inside a $files statistics
// or key text: Java prints the array's identity ("[B@1b6d3586"), which no
// other process can reproduce, the command a hex literal.
var (
	javaBinary = regexp.MustCompile(`\[B@[0-9a-f]+`)
	goBinary   = regexp.MustCompile(`X'[0-9A-F]*'`)
)

// TestFilesGolden runs files and manifests on every golden table Java
// dumped them for, and compares the jsonl output with Java's $files and
// $manifests. The warehouse location in file paths is replaced by
// $WAREHOUSE as in the dumps, and binary values by a placeholder.
func TestFilesGolden(t *testing.T) {
	var compared atomic.Int64
	cmds := []struct {
		cmd, file string
		cols      []rowio.Column
	}{
		{"files", "meta-files.jsonl", filesColumns},
		{"manifests", "meta-manifests.jsonl", manifestsColumns},
	}
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range goldenScenarios(t) {
			if !strings.HasPrefix(sc.name(), "java-") {
				continue // pypaimon's dumps are its own rendering, not Java's
			}
			t.Run(sc.name(), func(t *testing.T) {
				t.Parallel()
				for _, mc := range cmds {
					file := filepath.Join(sc.dir, mc.file)
					if _, err := os.Stat(file); err != nil {
						continue
					}
					t.Run(mc.cmd, func(t *testing.T) {
						if mc.cmd == "files" && tableOption(t, sc, "scan.primary-branch") != "" {
							t.Skip("Java's $files lists the primary branch's files for the partitions both branches have; ours the table's own")
						}
						wh := sc.warehouse()
						r := runCmd(t, mc.cmd, "--warehouse", wh, "--output", "canon", sc.Table)
						require.Equal(t, exitOK, r.code, r.stderr)
						require.Empty(t, r.stderr)
						got := strings.ReplaceAll(r.stdout, wh, "$WAREHOUSE")
						got = goBinary.ReplaceAllString(got, "<binary>")
						want := javaBinary.ReplaceAllString(expectedMeta(t, file, mc.cols, nil), "<binary>")
						wantLines, gotLines := canonLines(t, want), canonLines(t, got)
						if mc.cmd == "files" && strings.HasPrefix(sc.name(), "java-1.4.2/") {
							// Java 1.4.2's $files reads the statistics of
							// partial-column files (data evolution) as if they
							// covered every column; 2.0.0 and we map them by
							// _WRITE_COLS. Those rows are not compared.
							wantLines, gotLines = withoutPartialFiles(wantLines), withoutPartialFiles(gotLines)
						}
						require.Empty(t, canon.Compare(wantLines, gotLines))
						compared.Add(1)
					})
				}
			})
		}
	})
	t.Logf("%d dumps compared", compared.Load())
	require.Greater(t, compared.Load(), int64(100), "dumps compared")
}

// TestFilesTimeTravel checks that files, partitions and buckets account
// for every record of a snapshot: at every snapshot of every Java 1.4.2
// golden table the record counts they list add up to the snapshot's
// total_record_count (written by Java's commit, not derived from the
// manifests these commands read). Java 2.0.0 writes the same layout; its
// tables are checked at the latest snapshot by the golden comparisons.
func TestFilesTimeTravel(t *testing.T) {
	var checked atomic.Int64
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range goldenScenarios(t) {
			if !strings.HasPrefix(sc.name(), "java-1.4.2/") {
				continue
			}
			t.Run(sc.name(), func(t *testing.T) {
				t.Parallel()
				checkSnapshotTotals(t, sc)
				checked.Add(1)
			})
		}
	})
	require.Greater(t, checked.Load(), int64(25))
}

func checkSnapshotTotals(t *testing.T, sc scenario) {
	if postponeTable(t, sc) {
		// The postpone bucket's files count in the snapshot's totals, but
		// Java's $files and $partitions read the real buckets only.
		return
	}
	wh := sc.warehouse()
	rows := jsonRows(t, runOK(t, "snapshots", "--warehouse", wh, "--output", "jsonl", sc.Table))
	for i, s := range rows {
		id := s["snapshot_id"].(json.Number).String()
		total, err := s["total_record_count"].(json.Number).Int64()
		require.NoError(t, err)
		args := []string{"--warehouse", wh, "--output", "jsonl", sc.Table}
		if i < len(rows)-1 {
			args = append(args, "--snapshot", id)
		}
		files := jsonRows(t, runOK(t, append([]string{"files"}, args...)...))
		parts := jsonRows(t, runOK(t, append([]string{"partitions"}, args...)...))
		require.Equal(t, total, sumColumn(t, files, "record_count"), "snapshot %s: files", id)
		require.Equal(t, total, sumColumn(t, parts, "record_count"), "snapshot %s: partitions", id)
		require.Equal(t, int64(len(files)), sumColumn(t, parts, "file_count"), "snapshot %s", id)
		if i == len(rows)-1 {
			buckets := jsonRows(t, runOK(t, "buckets", "--warehouse", wh, "--output", "jsonl", sc.Table))
			require.Equal(t, total, sumColumn(t, buckets, "record_count"), "buckets")
			require.Equal(t, int64(len(files)), sumColumn(t, buckets, "file_count"), "buckets")
		}
	}
}

// TestFilesTravelSchema checks that an older snapshot's statistics are
// keyed by that snapshot's schema: column s was renamed s2 in schema 2.
func TestFilesTravelSchema(t *testing.T) {
	wh := warehouse("java-1.4.2", "schema-evolution-append")
	table := "interop.schema_evolution_append"
	old := runOK(t, "files", "--warehouse", wh, "--output", "jsonl", "--snapshot", "1", table)
	require.Contains(t, old, `"null_value_counts":"{d=0, id=0, s=0, small=0}"`)
	latest := runOK(t, "files", "--warehouse", wh, "--output", "jsonl", table)
	require.Contains(t, latest, "s2=")
	require.NotContains(t, latest, " s=")

	tagWh := warehouse("java-1.4.2", "tag-expire")
	tagTable := "interop.tag_expire"
	// Tag t1's snapshot has expired; its files are still listed from the tag.
	byTag := runOK(t, "files", "--warehouse", tagWh, "--output", "jsonl", "--tag", "t1", tagTable)
	require.NotEmpty(t, byTag)
	require.NotEqual(t, byTag, runOK(t, "files", "--warehouse", tagWh, "--output", "jsonl", tagTable))

	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"both", []string{"files", "--snapshot", "1", "--tag", "x"}, exitUsage, "exclusive"},
		{"bad id", []string{"manifests", "--snapshot", "zero"}, exitUsage, "positive snapshot id"},
		{"buckets do not travel", []string{"buckets", "--snapshot", "1"}, exitUsage, "flag provided but not defined"},
		{"missing snapshot", []string{"partitions", "--snapshot", "3"}, exitFailure, "snapshot not found"},
		{"missing tag", []string{"files", "--tag", "nope"}, exitFailure, "tag not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, append(tt.args, "--warehouse", tagWh, tagTable)...)
			require.Equal(t, tt.code, r.code, r.stderr)
			require.Contains(t, r.stderr, tt.want)
			if tt.code == exitFailure {
				require.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
			}
		})
	}
}

// runOK runs a command that must succeed and returns its stdout.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	r := runCmd(t, args...)
	require.Equal(t, exitOK, r.code, "%v: %s", args, r.stderr)
	require.Empty(t, r.stderr)
	return r.stdout
}

// jsonRows decodes jsonl output, numbers as json.Number.
func jsonRows(t *testing.T, jsonl string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		if line == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var m map[string]any
		require.NoError(t, dec.Decode(&m), line)
		out = append(out, m)
	}
	return out
}

func sumColumn(t *testing.T, rows []map[string]any, col string) int64 {
	t.Helper()
	var n int64
	for _, r := range rows {
		v, err := r[col].(json.Number).Int64()
		require.NoError(t, err)
		n += v
	}
	return n
}

// withoutPartialFiles drops the $files rows of files that list the columns
// they hold (write_cols not null).
func withoutPartialFiles(lines []string) []string {
	out := lines[:0:0]
	for _, l := range lines {
		if !strings.Contains(l, `"write_cols":[`) {
			out = append(out, l)
		}
	}
	return out
}

// postponeTable reports a golden table in postpone-bucket mode (bucket -2).
func postponeTable(t *testing.T, sc scenario) bool {
	return tableOption(t, sc, "bucket") == "-2"
}

// tableOption is an option of a golden table ("" when unset).
func tableOption(t *testing.T, sc scenario, key string) string {
	t.Helper()
	rows := jsonRows(t, runOK(t, "options", "--warehouse", sc.warehouse(), "--output", "jsonl", sc.Table))
	for _, r := range rows {
		if r["key"] == key {
			return r["value"].(string)
		}
	}
	return ""
}

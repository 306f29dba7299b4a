package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// metaCommands maps each system-table command to its golden dump and the
// columns whose values are times Java rendered in the producer's zone.
var metaCommands = []struct {
	cmd, file string
	cols      []rowio.Column
	zoned     []string
}{
	{"snapshots", "meta-snapshots.jsonl", snapshotsColumns, []string{"commit_time"}},
	{"schemas", "meta-schemas.jsonl", schemasColumns, []string{"update_time"}},
	{"options", "meta-options.jsonl", optionsColumns, nil},
	{"tags", "meta-tags.jsonl", tagsColumns, []string{"commit_time"}},
}

// pythonSchemaText adapts a $schemas line for comparison with pypaimon's
// own dump, whose JSON texts are pypaimon's rendering, not Java's: it
// writes nested types with "nullable" members and TIME(0) as "TIME", and
// keeps options in file order where Java lists them in HashMap order. The
// fields column is dropped and options are compared as a set of pairs.
func pythonSchemaText(t *testing.T, obj map[string]any) {
	t.Helper()
	delete(obj, "fields")
	if s, ok := obj["options"].(string); ok {
		var m map[string]string
		require.NoError(t, json.Unmarshal([]byte(s), &m))
		b, err := json.Marshal(m) // sorted keys
		require.NoError(t, err)
		obj["options"] = string(b)
	}
}

// adaptLines re-encodes each JSONL line after fix has edited its object.
func adaptLines(t *testing.T, text string, fix func(map[string]any)) string {
	t.Helper()
	var sb strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var obj map[string]any
		require.NoError(t, dec.Decode(&obj), line)
		fix(obj)
		out, err := json.Marshal(obj)
		require.NoError(t, err)
		sb.Write(out)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// expectedMeta reads a golden system-table dump and adapts it to what the
// commands print: columns that Java versions after 1.4.2 added ($snapshots'
// operation, writer_version) are dropped, and zoned times, which the
// producers wrote in UTC (the corpus machine's zone), are moved into the
// local zone that the commands use, so the test holds in any TZ.
func expectedMeta(t *testing.T, file string, cols []rowio.Column, zoned []string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	keep := map[string]bool{}
	for _, c := range cols {
		keep[c.Name] = true
	}
	return adaptLines(t, string(b), func(obj map[string]any) {
		for k := range obj {
			if !keep[k] {
				delete(obj, k)
			}
		}
		for _, k := range zoned {
			s, ok := obj[k].(string)
			if !ok {
				continue
			}
			ts, err := canon.ParseTimestamp(s)
			require.NoError(t, err)
			obj[k] = canon.FormatTimestamp(localTimestamp(ts.Millis, time.Local))
		}
	})
}

// TestMetaGolden runs every system-table command on every golden table and
// compares the jsonl output with Java's dump of the same system table.
func TestMetaGolden(t *testing.T) {
	var compared atomic.Int64
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range goldenScenarios(t) {
			t.Run(sc.name(), func(t *testing.T) {
				t.Parallel()
				for _, mc := range metaCommands {
					file := filepath.Join(sc.dir, mc.file)
					if _, err := os.Stat(file); err != nil {
						continue
					}
					t.Run(mc.cmd, func(t *testing.T) {
						r := runCmd(t, mc.cmd, "--warehouse", sc.warehouse(), "--output", "canon", sc.Table)
						require.Equal(t, exitOK, r.code, r.stderr)
						require.Empty(t, r.stderr)
						want, got := expectedMeta(t, file, mc.cols, mc.zoned), r.stdout
						if mc.cmd == "schemas" && strings.HasPrefix(sc.name(), "pypaimon-") {
							fix := func(obj map[string]any) { pythonSchemaText(t, obj) }
							want, got = adaptLines(t, want, fix), adaptLines(t, got, fix)
						}
						require.Empty(t, canon.Compare(canonLines(t, want), canonLines(t, got)))
						compared.Add(1)
					})
				}
			})
		}
	})
	t.Logf("%d dumps compared", compared.Load())
	require.Greater(t, compared.Load(), int64(200), "dumps compared")
}

// TestMetaCommands covers the other output formats, help and usage errors
// of the system-table commands.
func TestMetaCommands(t *testing.T) {
	t.Setenv(warehouseEnv, "")
	wh := warehouse("java-1.4.2", "tag-expire")
	table := "interop.tag_expire"
	t.Run("table is the default", func(t *testing.T) {
		r := runCmd(t, "tags", "--warehouse", wh, table)
		require.Equal(t, exitOK, r.code, r.stderr)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		require.Regexp(t, `^tag_name +snapshot_id +schema_id +commit_time +record_count +create_time +time_retained$`, lines[0])
		require.Equal(t, "(2 rows)", lines[len(lines)-1])
		require.Contains(t, r.stdout, "NULL")
	})
	t.Run("csv", func(t *testing.T) {
		r := runCmd(t, "options", "--warehouse", wh, "--output", "csv", table)
		require.Equal(t, exitOK, r.code, r.stderr)
		require.True(t, strings.HasPrefix(r.stdout, "key,value\n"), r.stdout)
	})
	t.Run("json", func(t *testing.T) {
		r := runCmd(t, "snapshots", table, "--output", "json", "--warehouse", wh)
		require.Equal(t, exitOK, r.code, r.stderr)
		var rows []map[string]any
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &rows))
		require.NotEmpty(t, rows)
		require.Contains(t, rows[0], "next_row_id")
	})
	t.Run("warehouse from the environment", func(t *testing.T) {
		t.Setenv(warehouseEnv, wh)
		r := runCmd(t, "schemas", "--output", "jsonl", table)
		require.Equal(t, exitOK, r.code, r.stderr)
		require.Contains(t, r.stdout, `"schema_id":0`)
	})
	t.Run("help", func(t *testing.T) {
		for _, cmd := range []string{"snapshots", "schemas", "options", "tags"} {
			r := runCmd(t, "help", cmd)
			require.Equal(t, exitOK, r.code, r.stderr)
			require.Contains(t, r.stdout, "Usage: paimon "+cmd)
			require.Contains(t, r.stdout, "--output format")
			r = runCmd(t, "help")
			require.Contains(t, r.stdout, cmd)
		}
	})
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no table", []string{"tags", "--warehouse", wh}, "missing table name"},
		{"two tables", []string{"tags", "--warehouse", wh, "a.b", "c.d"}, "expected one table name"},
		{"bad identifier", []string{"schemas", "--warehouse", wh, "nodot"}, "invalid table identifier"},
		{"no warehouse", []string{"snapshots", table}, "no warehouse"},
		{"bad output", []string{"options", "--warehouse", wh, "--output", "xml", table}, `--output "xml"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, tt.args...)
			require.Equal(t, exitUsage, r.code, r.stderr)
			require.Contains(t, r.stderr, tt.want)
		})
	}
	t.Run("missing table", func(t *testing.T) {
		r := runCmd(t, "snapshots", "--warehouse", wh, "interop.nope")
		require.Equal(t, exitFailure, r.code)
		require.True(t, strings.HasPrefix(r.stderr, "paimon: "), r.stderr)
	})
}

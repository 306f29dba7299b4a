package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/goldensrc"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// scenario is the part of a golden scenario.json the tests use.
type scenario struct {
	dir       string
	Table     string   `json:"table"`
	Snapshots []int64  `json:"snapshots"`
	Tags      []string `json:"tags"`
	// Dumps are the plan's extra reads (interop's DumpSpec).
	Dumps []struct {
		Name            string   `json:"name"`
		Branch          string   `json:"branch"`
		System          string   `json:"system"`
		Cols            []string `json:"cols"`
		Snapshot        int64    `json:"snapshot"`
		Tag             string   `json:"tag"`
		Incremental     string   `json:"incremental"`
		IncrementalMode string   `json:"incrementalMode"`
		Filter          string   `json:"filter"`
	} `json:"dumps"`
}

func goldenScenarios(t *testing.T) []scenario {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenRoot, "*", "*", "scenario.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no golden scenarios under %s", goldenRoot)
	// The files the golden BLOB descriptors point to.
	require.NoError(t, goldensrc.Restore(filepath.Join(goldenRoot, "..", "..")))
	out := make([]scenario, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var sc scenario
		require.NoError(t, json.Unmarshal(b, &sc), f)
		sc.dir = filepath.Dir(f)
		out = append(out, sc)
	}
	return out
}

func (sc scenario) name() string {
	return filepath.Base(filepath.Dir(sc.dir)) + "/" + filepath.Base(sc.dir)
}

func (sc scenario) warehouse() string { return filepath.Join(sc.dir, "warehouse") }

func readExpected(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	lines, err := canon.ReadLines(f)
	require.NoError(t, err)
	return lines
}

func canonLines(t *testing.T, jsonl string) []string {
	t.Helper()
	lines, err := canon.ReadLines(strings.NewReader(jsonl))
	require.NoError(t, err)
	return lines
}

// TestScanGolden runs "paimon scan" on every table of the golden corpus and
// compares the jsonl output with the producer's dump: the latest snapshot,
// every dumped snapshot (--snapshot) and every tag (--tag).
func TestScanGolden(t *testing.T) {
	var compared atomic.Int64
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range goldenScenarios(t) {
			t.Run(sc.name(), func(t *testing.T) {
				t.Parallel()
				id, err := paimon.ParseIdentifier(sc.Table)
				require.NoError(t, err)
				_, closeCatalog, err := loadTable(context.Background(), sc.warehouse(), id)
				require.NoError(t, err)
				closeCatalog()
				check := func(t *testing.T, expected string, extra ...string) {
					t.Helper()
					args := append([]string{"scan", "--warehouse", sc.warehouse(), "--output", "canon", sc.Table}, extra...)
					r := runCmd(t, args...)
					require.Equal(t, exitOK, r.code, "args %v\nstderr: %s", extra, r.stderr)
					require.Empty(t, r.stderr)
					diff := canon.Compare(readExpected(t, filepath.Join(sc.dir, expected)), canonLines(t, r.stdout))
					require.Empty(t, diff, "args %v", extra)
					compared.Add(1)
				}
				check(t, "expected.jsonl")
				for _, id := range sc.Snapshots {
					file := fmt.Sprintf("expected-snapshot-%d.jsonl", id)
					if _, err := os.Stat(filepath.Join(sc.dir, file)); err == nil {
						check(t, file, "--snapshot", fmt.Sprint(id))
					}
				}
				for _, tag := range sc.Tags {
					check(t, "expected-tag-"+tag+".jsonl", "--tag", tag)
				}
				if _, err := os.Stat(filepath.Join(sc.dir, "audit.jsonl")); err == nil {
					check(t, "audit.jsonl", "--audit")
				}
				for _, d := range sc.Dumps {
					table := sc.Table
					if d.Branch != "" {
						table += "$branch_" + d.Branch
					}
					if d.System != "" {
						table += "$" + d.System
					}
					args := []string{"scan", "--warehouse", sc.warehouse(), "--output", "canon", table}
					if len(d.Cols) > 0 {
						args = append(args, "--select", strings.Join(d.Cols, ","))
					}
					if d.Snapshot > 0 {
						args = append(args, "--snapshot", fmt.Sprint(d.Snapshot))
					}
					if d.Tag != "" {
						args = append(args, "--tag", d.Tag)
					}
					if d.Incremental != "" {
						args = append(args, "--incremental", d.Incremental)
						if d.IncrementalMode != "" {
							args = append(args, "--incremental-mode", d.IncrementalMode)
						}
					}
					if d.Filter != "" {
						args = append(args, "--where", whereOf(t, d.Filter))
					}
					r := runCmd(t, args...)
					require.Equal(t, exitOK, r.code, "dump %s: %v\nstderr: %s", d.Name, args, r.stderr)
					diff := canon.Compare(readExpected(t, filepath.Join(sc.dir, "dump-"+d.Name+".jsonl")), canonLines(t, r.stdout))
					require.Empty(t, diff, "dump %s: %v", d.Name, args)
					compared.Add(1)
				}
			})
		}
	})
	t.Logf("%d dumps compared", compared.Load())
	require.Greater(t, compared.Load(), int64(40), "dumps compared")
}

// TestScanPlainJSON parses the default jsonl output of every golden table
// back with the table's column types (rowio.DecodeJSON, as load reads it)
// and compares the values with the producer's dump: the plain JSON mapping
// is lossless for every type the corpus holds. Every line is plain JSON (no
// canon-v1 "f32:"/"f64:" strings), as jq needs.
//
// When jq is installed, every table's output is also piped through
// "jq -c ." (the Go check above runs either way; the log says which ran).
func TestScanPlainJSON(t *testing.T) {
	jq, _ := exec.LookPath("jq")
	if jq == "" {
		t.Log("jq is not installed: JSON lines checked with encoding/json only")
	} else {
		t.Logf("JSON lines checked with encoding/json and %s", jq)
	}
	var compared atomic.Int64
	for _, sc := range goldenScenarios(t) {
		t.Run(sc.name(), func(t *testing.T) {
			t.Parallel()
			r := runCmd(t, "scan", "--warehouse", sc.warehouse(), sc.Table)
			require.Equal(t, exitOK, r.code, r.stderr)
			require.NotRegexp(t, `"f(32|64):`, r.stdout)
			if jq != "" {
				// jq itself reads the output as JSON lines, one value a line.
				cmd := exec.Command(jq, "-c", ".")
				cmd.Stdin = strings.NewReader(r.stdout)
				got, err := cmd.Output()
				require.NoError(t, err, "jq rejects the output:\n%s", r.stdout)
				require.Equal(t, strings.Count(r.stdout, "\n"), strings.Count(string(got), "\n"), "jq read a different number of values")
			}
			diff := canon.Compare(readExpected(t, filepath.Join(sc.dir, "expected.jsonl")), plainToCanon(t, sc.warehouse(), sc.Table, r.stdout))
			require.Empty(t, diff)
			compared.Add(1)
		})
	}
	t.Cleanup(func() { require.Greater(t, compared.Load(), int64(20), "tables compared") })
}

// plainToCanon decodes plain jsonl rows of table with its column types and
// re-encodes them as canon-v1 lines.
func plainToCanon(t *testing.T, wh, table, jsonl string) []string {
	t.Helper()
	id, err := paimon.ParseIdentifier(table)
	require.NoError(t, err)
	tbl, closeCatalog, err := loadTable(context.Background(), wh, id)
	require.NoError(t, err)
	defer closeCatalog()
	fields := tbl.Schema().Fields
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		if line == "" {
			continue
		}
		require.True(t, json.Valid([]byte(line)), line)
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var obj map[string]any
		require.NoError(t, dec.Decode(&obj), line)
		require.Len(t, obj, len(fields), line)
		values := make([]any, len(fields))
		for i, f := range fields {
			v, err := rowio.DecodeJSON(f.Type, obj[f.Name])
			require.NoError(t, err, "column %s of %s", f.Name, line)
			values[i] = v
		}
		b, err := canon.EncodeRow(fields, values)
		require.NoError(t, err)
		c, err := canon.Canonicalize(b)
		require.NoError(t, err)
		out = append(out, c)
	}
	slices.Sort(out) // as canon.ReadLines
	return out
}

// TestScanOutputsAgree checks that json, csv and table print the same rows
// as jsonl on the all-types table, and that jsonl keeps the column order.
func TestScanOutputsAgree(t *testing.T) {
	wh := warehouse("java-1.4.2", "all-types-parquet")
	table := "interop.all_types_parquet"
	expected := readExpected(t, filepath.Join(goldenRoot, "java-1.4.2", "all-types-parquet", "expected.jsonl"))
	scan := func(t *testing.T, args ...string) string {
		t.Helper()
		r := runCmd(t, append([]string{"scan", "--warehouse", wh, table}, args...)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		return r.stdout
	}
	jsonl := scan(t)
	require.Empty(t, canon.Compare(expected, plainToCanon(t, wh, table, jsonl)))
	require.Empty(t, canon.Compare(expected, canonLines(t, scan(t, "--output", "canon"))))

	t.Run("jsonl column order", func(t *testing.T) {
		first, _, _ := strings.Cut(jsonl, "\n")
		require.True(t, strings.HasPrefix(first, `{"id":`), first)
		require.Less(t, strings.Index(first, `"c_bool"`), strings.Index(first, `"c_tiny"`))
		require.Less(t, strings.Index(first, `"c_tiny"`), strings.Index(first, `"c_nn_str"`))
	})
	t.Run("json", func(t *testing.T) {
		var rows []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(scan(t, "--output", "json")), &rows))
		var sb strings.Builder
		for _, r := range rows {
			sb.Write(r)
			sb.WriteByte('\n')
		}
		require.Empty(t, canon.Compare(expected, plainToCanon(t, wh, table, sb.String())))
	})
	t.Run("csv", func(t *testing.T) {
		recs, err := csv.NewReader(strings.NewReader(scan(t, "--output", "csv"))).ReadAll()
		require.NoError(t, err)
		require.Len(t, recs, len(expected)+1)
		header := recs[0]
		require.Equal(t, "id", header[0])
		require.Contains(t, header, "c_dec_38_10")
		col := slices.Index(header, "c_float")
		floats := make([]string, 0, len(recs)-1)
		for _, r := range recs[1:] {
			floats = append(floats, r[col])
		}
		require.Contains(t, floats, "1.25") // canon "f32:3fa00000"
		require.Contains(t, floats, "NaN")
	})
	t.Run("table", func(t *testing.T) {
		out := scan(t, "--output", "table", "--select", "id,c_string,c_row")
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		require.Len(t, lines, len(expected)+3) // header, rule, rows, count
		require.Regexp(t, `^id +c_string +c_row$`, lines[0])
		require.Regexp(t, `^-+  -+  -+$`, lines[1])
		require.Equal(t, fmt.Sprintf("(%d rows)", len(expected)), lines[len(lines)-1])
		require.Contains(t, out, "…", "the wide ROW column is truncated")
		require.Contains(t, out, "NULL")
	})
}

func TestScanSelectWhereLimit(t *testing.T) {
	wh := warehouse("java-1.4.2", "append-unpartitioned")
	table := "interop.append_unpartitioned"
	expected := readExpected(t, filepath.Join(goldenRoot, "java-1.4.2", "append-unpartitioned", "expected.jsonl"))
	rows := make([]map[string]any, len(expected))
	for i, l := range expected {
		require.NoError(t, json.Unmarshal([]byte(l), &rows[i]))
	}

	t.Run("select keeps the given order", func(t *testing.T) {
		r := runCmd(t, "scan", "--warehouse", wh, table, "--select", "name, id")
		require.Equal(t, exitOK, r.code, r.stderr)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		require.Len(t, lines, len(expected))
		for _, l := range lines {
			require.True(t, strings.HasPrefix(l, `{"name":`), l)
			require.NotContains(t, l, "score")
		}
	})
	t.Run("where", func(t *testing.T) {
		r := runCmd(t, "scan", "--where", "id = 1", "--warehouse", wh, table, "--output", "canon")
		require.Equal(t, exitOK, r.code, r.stderr)
		var want []string
		for i, row := range rows {
			if row["id"] == float64(1) {
				want = append(want, expected[i])
			}
		}
		require.NotEmpty(t, want)
		require.Empty(t, canon.Compare(want, canonLines(t, r.stdout)))
	})
	t.Run("limit", func(t *testing.T) {
		r := runCmd(t, "scan", "--warehouse", wh, table, "--limit", "3", "--output", "canon")
		require.Equal(t, exitOK, r.code, r.stderr)
		got := canonLines(t, r.stdout)
		require.Len(t, got, 3)
		for _, l := range got {
			require.Contains(t, expected, l)
		}
	})
	t.Run("as-of the future reads the latest snapshot", func(t *testing.T) {
		r := runCmd(t, "scan", "--warehouse", wh, table, "--as-of", "2999-01-01T00:00:00Z", "--output", "canon")
		require.Equal(t, exitOK, r.code, r.stderr)
		require.Empty(t, canon.Compare(expected, canonLines(t, r.stdout)))
	})
	t.Run("warehouse from the environment", func(t *testing.T) {
		t.Setenv(warehouseEnv, wh)
		r := runCmd(t, "scan", table, "--output", "canon")
		require.Equal(t, exitOK, r.code, r.stderr)
		require.Empty(t, canon.Compare(expected, canonLines(t, r.stdout)))
	})
	t.Run("flag beats the environment", func(t *testing.T) {
		t.Setenv(warehouseEnv, filepath.Join(t.TempDir(), "elsewhere"))
		r := runCmd(t, "scan", "--warehouse", wh, table)
		require.Equal(t, exitOK, r.code, r.stderr)
	})
}

func TestScanRuntimeErrors(t *testing.T) {
	wh := warehouse("java-1.4.2", "append-unpartitioned")
	table := "interop.append_unpartitioned"
	tests := []struct {
		name string
		args []string
		code int
		want []string // substrings of stderr
	}{
		{"unknown table", []string{"interop.nope"}, exitFailure, []string{"table not found", "interop.nope"}},
		{"unknown database", []string{"nodb.t"}, exitFailure, []string{"database not found: nodb"}},
		{"unknown column in where", []string{table, "--where", "nope = 1"}, exitFailure,
			[]string{`--where "nope = 1"`, "unknown field", "columns: id, name, score"}},
		{"type mismatch in where", []string{table, "--where", "id = 'abc'"}, exitFailure,
			[]string{`--where "id = 'abc'"`, "type mismatch"}},
		{"unknown column with time travel", []string{table, "--where", "nope = 1", "--snapshot", "1"}, exitFailure,
			[]string{"--where", "unknown field"}},
		{"where syntax", []string{table, "--where", "id = = 1"}, exitUsage, []string{"paimon scan: --where:"}},
		{"unknown column in select", []string{table, "--select", "id,nope"}, exitFailure,
			[]string{"--select", "nope", "columns: id, name, score"}},
		{"missing snapshot", []string{table, "--snapshot", "999"}, exitFailure, []string{"999"}},
		{"missing tag", []string{table, "--tag", "nope"}, exitFailure, []string{"nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, append([]string{"scan", "--warehouse", wh}, tt.args...)...)
			require.Equal(t, tt.code, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
			require.True(t, strings.HasPrefix(r.stderr, "paimon"), r.stderr)
			for _, w := range tt.want {
				require.Contains(t, r.stderr, w)
			}
			require.Empty(t, r.stdout)
		})
	}
	t.Run("missing warehouse directory", func(t *testing.T) {
		r := runCmd(t, "scan", "--warehouse", filepath.Join(t.TempDir(), "none"), table)
		require.Equal(t, exitFailure, r.code)
		require.True(t, strings.HasPrefix(r.stderr, "paimon: "), r.stderr)
	})
	t.Run("cloud scheme, bad URI", func(t *testing.T) {
		// s3fs is linked; an unknown query parameter makes its opener fail
		// before loading credentials, so the test stays offline.
		r := runCmd(t, "scan", "--warehouse", "s3://bucket/warehouse?bogus=1", table)
		require.Equal(t, exitFailure, r.code, r.stderr)
		require.True(t, strings.HasPrefix(r.stderr, "paimon: "), r.stderr)
		require.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
		require.Contains(t, r.stderr, `unknown query parameter "bogus"`)
		require.NotContains(t, r.stderr, "no opener registered", "s3 is registered by s3fs")
		require.Empty(t, r.stdout)
	})
	t.Run("cloud schemes registered", func(t *testing.T) {
		for _, s := range []string{"s3", "gs", "azblob"} {
			require.Contains(t, fs.Schemes(), s)
		}
	})
}

func TestExplain(t *testing.T) {
	t.Run("text", func(t *testing.T) {
		r := runCmd(t, "scan", "--warehouse", warehouse("java-1.4.2", "append-partitioned-avro"),
			"interop.append_partitioned_avro", "--explain")
		require.Equal(t, exitOK, r.code, r.stderr)
		for _, w := range []string{"table:", "snapshot:", "schema:", "manifests:", "data files:", "- partition:",
			"- bucket:", "- stats:", "- limit:", "splits:", "PARTITION", "BUCKET", "FILES", "ROWS", "BYTES", "dt=2024-03-01/hr="} {
			require.Contains(t, r.stdout, w)
		}
	})
	t.Run("json", func(t *testing.T) {
		r := runCmd(t, "scan", "--warehouse", warehouse("java-1.4.2", "append-partitioned-avro"),
			"interop.append_partitioned_avro", "--explain", "--output", "json")
		require.Equal(t, exitOK, r.code, r.stderr)
		var plan struct {
			Table      string `json:"table"`
			SnapshotID int64  `json:"snapshot_id"`
			Stats      struct {
				Files    int   `json:"files"`
				RowCount int64 `json:"row_count"`
			} `json:"stats"`
			Splits []struct {
				Partition string `json:"partition"`
				Files     int    `json:"files"`
				Rows      int64  `json:"rows"`
				Bytes     int64  `json:"bytes"`
			} `json:"splits"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &plan))
		require.Equal(t, "interop.append_partitioned_avro", plan.Table)
		require.Positive(t, plan.SnapshotID)
		require.NotEmpty(t, plan.Splits)
		var files int
		var rows int64
		for _, s := range plan.Splits {
			require.Regexp(t, `^dt=[^/]+/hr=[^/]+$`, s.Partition)
			require.Positive(t, s.Bytes)
			files += s.Files
			rows += s.Rows
		}
		require.Equal(t, plan.Stats.RowCount, rows)
		require.LessOrEqual(t, files, plan.Stats.Files)
	})
	t.Run("partition filter prunes", func(t *testing.T) {
		wh := warehouse("java-1.4.2", "append-partitioned-avro")
		all := runExplainJSON(t, wh, "interop.append_partitioned_avro")
		some := runExplainJSON(t, wh, "interop.append_partitioned_avro", "--where", "hr = 23")
		require.Less(t, len(some.Splits), len(all.Splits))
		require.Positive(t, some.Stats["files_pruned_by_partition"]+some.Stats["manifests_pruned"])
	})
	t.Run("snapshot", func(t *testing.T) {
		p := runExplainJSON(t, warehouse("java-1.4.2", "append-unpartitioned"), "interop.append_unpartitioned", "--snapshot", "2")
		require.Equal(t, int64(2), p.SnapshotID)
	})
}

type explainDoc struct {
	SnapshotID int64            `json:"snapshot_id"`
	Stats      map[string]int64 `json:"stats"`
	Splits     []map[string]any `json:"splits"`
}

func runExplainJSON(t *testing.T, wh, table string, extra ...string) explainDoc {
	t.Helper()
	r := runCmd(t, append([]string{"scan", "--warehouse", wh, table, "--explain", "--output", "json"}, extra...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	var d explainDoc
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &d))
	return d
}

// TestScanMemWarehouse copies a golden warehouse into a named in-memory file
// system and reads it through a mem:// URI.
func TestScanMemWarehouse(t *testing.T) {
	ctx := context.Background()
	src := warehouse("java-1.4.2", "append-unpartitioned")
	mem := memfs.Named("paimon-cli-test")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return fs.WriteFile(ctx, mem, "wh/"+filepath.ToSlash(rel), b, nil)
	})
	require.NoError(t, err)
	r := runCmd(t, "scan", "--warehouse", "mem://paimon-cli-test/wh", "interop.append_unpartitioned", "--output", "canon")
	require.Equal(t, exitOK, r.code, r.stderr)
	expected := readExpected(t, filepath.Join(goldenRoot, "java-1.4.2", "append-unpartitioned", "expected.jsonl"))
	require.Empty(t, canon.Compare(expected, canonLines(t, r.stdout)))
}

func TestLoadTableBranchIdentifier(t *testing.T) {
	id, err := paimon.ParseIdentifier("interop.append_unpartitioned$branch_nope")
	require.NoError(t, err)
	_, _, err = loadTable(context.Background(), warehouse("java-1.4.2", "append-unpartitioned"), id)
	require.ErrorIs(t, err, paimon.ErrTableNotFound)
}

// TestScanIncremental reads the changes between snapshots of a primary-key
// table: every row carries its rowkind, and bad ranges are usage errors.
func TestScanIncremental(t *testing.T) {
	wh := warehouse("java-1.4.2", "pk-dedup")
	r := runCmd(t, "scan", "--warehouse", wh, "interop.pk_dedup", "--incremental", "0,1")
	require.Equal(t, exitOK, r.code, r.stderr)
	lines := canonLines(t, r.stdout)
	require.NotEmpty(t, lines)
	for _, l := range lines {
		require.Contains(t, l, `"rowkind":`)
	}
	for _, bad := range [][]string{
		{"--incremental", "3,1"},
		{"--incremental", "x"},
		{"--incremental-mode", "delta"},
		{"--incremental", "0,1", "--snapshot", "1"},
	} {
		r := runCmd(t, append([]string{"scan", "--warehouse", wh, "interop.pk_dedup"}, bad...)...)
		require.Equal(t, exitUsage, r.code, "%v: %s", bad, r.stderr)
	}
}

// whereOf turns a filter of the interop harness ("<col> <op> <canon-v1
// literal>", "<col> is null", "<col> is not null") into a --where
// expression.
func whereOf(t *testing.T, filter string) string {
	t.Helper()
	col, rest, ok := strings.Cut(strings.TrimSpace(filter), " ")
	require.True(t, ok, filter)
	switch rest = strings.TrimSpace(rest); rest {
	case "is null":
		return "`" + col + "` IS NULL"
	case "is not null":
		return "`" + col + "` IS NOT NULL"
	}
	op, lit, ok := strings.Cut(rest, " ")
	require.True(t, ok, filter)
	var v any
	dec := json.NewDecoder(strings.NewReader(lit))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&v), filter)
	var sql string
	switch x := v.(type) {
	case json.Number:
		sql = x.String()
	case bool:
		sql = strconv.FormatBool(x)
	case string:
		if bits, ok := strings.CutPrefix(x, "f64:"); ok {
			u, err := strconv.ParseUint(bits, 16, 64)
			require.NoError(t, err, filter)
			sql = strconv.FormatFloat(math.Float64frombits(u), 'g', -1, 64)
		} else {
			sql = "'" + strings.ReplaceAll(x, "'", "''") + "'"
		}
	default:
		t.Fatalf("filter %q: literal %s", filter, lit)
	}
	return "`" + col + "` " + op + " " + sql
}

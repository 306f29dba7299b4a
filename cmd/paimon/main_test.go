package main

// The tests are white-box (package main) because a command's package cannot
// be imported; they drive the whole program through run, in-process.

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// result is what one run of the command produced.
type result struct {
	stdout, stderr string
	code           int
}

func runCmd(t *testing.T, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// goldenRoot is the golden corpus, relative to this package.
var goldenRoot = filepath.Join("..", "..", "testdata", "golden")

// warehouse returns the warehouse directory of a golden scenario.
func warehouse(producer, scenario string) string {
	return filepath.Join(goldenRoot, producer, scenario, "warehouse")
}

func TestHelp(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // substrings of stdout
	}{
		{"help", []string{"help"}, []string{"Usage:", "scan", "help"}},
		{"-h", []string{"-h"}, []string{"Usage:", "scan"}},
		{"--help", []string{"--help"}, []string{"Usage:", "scan"}},
		{"help help", []string{"help", "help"}, []string{"Usage:"}},
		{"help scan", []string{"help", "scan"}, []string{"Usage: paimon scan", "--warehouse URI", "--where EXPR", "--explain", "Exit status"}},
		{"scan -h", []string{"scan", "-h"}, []string{"Usage: paimon scan", "--select columns"}},
		{"scan --help after args", []string{"scan", "db.t", "--help"}, []string{"Usage: paimon scan"}},
		{"help lists every command", []string{"help"}, []string{"db ", "table ", "load ", "expire ", "tag ", "rollback ", "health ", "buckets "}},
		{"help db", []string{"help", "db"}, []string{"Usage: paimon db <action>", "db create --warehouse URI [--if-not-exists] NAME", "db drop", "db list"}},
		{"db -h", []string{"db", "-h"}, []string{"Usage: paimon db <action>"}},
		{"help db create", []string{"help", "db", "create"}, []string{"Usage: paimon db create", "--if-not-exists"}},
		{"db drop -h", []string{"db", "drop", "-h"}, []string{"Usage: paimon db drop", "--cascade"}},
		{"help table alter", []string{"help", "table", "alter"}, []string{"Usage: paimon table alter", "--add-column 'NAME TYPE [FIRST | AFTER COL]'", "--rename-column OLD=NEW"}},
		{"help table describe", []string{"help", "table", "describe"}, []string{"--output format"}},
		{"help load", []string{"help", "load"}, []string{"Usage: paimon load", "--format format", "--batch-rows", "--commit-user", "nothing is committed"}},
		{"help expire", []string{"help", "expire"}, []string{"--retain-min N", "--older-than DURATION"}},
		{"help tag delete", []string{"help", "tag", "delete"}, []string{"Usage: paimon tag delete", "--if-exists"}},
		{"help rollback", []string{"help", "rollback"}, []string{"--snapshot N", "--tag T"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, tt.args...)
			require.Equal(t, exitOK, r.code, "stderr: %s", r.stderr)
			require.Empty(t, r.stderr)
			for _, w := range tt.want {
				require.Contains(t, r.stdout, w)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	t.Setenv(warehouseEnv, "")
	wh := warehouse("java-1.4.2", "append-unpartitioned")
	table := "interop.append_unpartitioned"
	tests := []struct {
		name string
		args []string
		want string // substring of stderr
	}{
		{"no command", nil, "no command given"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"flag before command", []string{"--warehouse", wh, "scan"}, "flag --warehouse before the command"},
		{"help unknown", []string{"help", "nope"}, `unknown command "nope"`},
		{"help too many", []string{"help", "scan", "x"}, "too many arguments"},
		{"help unknown action", []string{"help", "db", "x"}, `db has no action "x" (actions: list, create, drop)`},
		{"help action too many", []string{"help", "db", "create", "x"}, "too many arguments"},
		{"no table", []string{"scan", "--warehouse", wh}, "missing table name"},
		{"two tables", []string{"scan", "--warehouse", wh, "a.b", "c.d"}, "expected one table name"},
		{"bad identifier", []string{"scan", "--warehouse", wh, "nodot"}, "invalid table identifier"},
		{"no warehouse", []string{"scan", table}, "no warehouse"},
		{"unknown flag", []string{"scan", "--warehouse", wh, "--colour", "x", table}, "flag provided but not defined: -colour"},
		{"flag without value", []string{"scan", table, "--warehouse"}, "flag needs an argument"},
		{"empty select", []string{"scan", "--warehouse", wh, "--select", "id,,name", table}, "empty column name"},
		{"empty where", []string{"scan", "--warehouse", wh, "--where", " ", table}, "--where: empty expression"},
		{"snapshot zero", []string{"scan", "--warehouse", wh, "--snapshot", "0", table}, "--snapshot"},
		{"snapshot text", []string{"scan", "--warehouse", wh, "--snapshot", "latest", table}, "--snapshot"},
		{"empty tag", []string{"scan", "--warehouse", wh, "--tag", "", table}, "--tag: empty tag name"},
		{"bad as-of", []string{"scan", "--warehouse", wh, "--as-of", "yesterday", table}, "--as-of"},
		{"snapshot and tag", []string{"scan", "--warehouse", wh, "--snapshot", "1", "--tag", "t", table}, "--snapshot and --tag cannot be combined"},
		{"tag and as-of", []string{"scan", "--warehouse", wh, "--tag", "t", "--as-of", "2024-01-01", table}, "--tag and --as-of cannot be combined"},
		{"negative limit", []string{"scan", "--warehouse", wh, "--limit", "-1", table}, "--limit"},
		{"zero limit", []string{"scan", "--warehouse", wh, "--limit", "0", table}, "--limit"},
		{"unknown output", []string{"scan", "--warehouse", wh, "--output", "xml", table}, `--output "xml"`},
		{"explain csv", []string{"scan", "--warehouse", wh, "--explain", "--output", "csv", table}, "--explain prints text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, tt.args...)
			require.Equal(t, exitUsage, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
			require.Contains(t, r.stderr, tt.want)
			require.Contains(t, r.stderr, "Run 'paimon help")
			require.Empty(t, r.stdout)
		})
	}
}

func TestParseArgsInterspersed(t *testing.T) {
	c := &command{name: "x"}
	tests := []struct {
		name     string
		args     []string
		wantPos  []string
		wantFlag string
	}{
		{"flags first", []string{"--f", "v", "a"}, []string{"a"}, "v"},
		{"flags last", []string{"a", "--f", "v"}, []string{"a"}, "v"},
		{"mixed", []string{"a", "-f=v", "b"}, []string{"a", "b"}, "v"},
		{"terminator", []string{"a", "--", "--f", "v"}, []string{"a", "--f", "v"}, ""},
		{"none", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFlagSet(c)
			f := fs.String("f", "", "")
			pos, err := parseArgs(&env{}, c, fs, tt.args)
			require.NoError(t, err)
			require.Equal(t, tt.wantPos, pos)
			require.Equal(t, tt.wantFlag, *f)
		})
	}
}

func TestErrorText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"paimon: x", "x"},
		{"catalog: open: paimon: table not found", "catalog: open: table not found"},
		{"--select: paimon: projection on t: paimon: column not found", "--select: projection on t: column not found"},
		{"t.json: schema: invalid table schema: schema JSON: \"fields\"[0]: schema: corrupt schema JSON: x",
			"t.json: invalid table schema: schema JSON: \"fields\"[0]: corrupt schema JSON: x"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			require.Equal(t, tt.want, errorText(errString(tt.in)))
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }

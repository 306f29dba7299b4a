package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// goIdentifier matches what only Go code names: a package-qualified
// exported name (paimon.SetOption), a pointer receiver or a struct field
// path (ExpireOptions.RetainMax).
var goIdentifier = regexp.MustCompile(`\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b|\(\*[A-Za-z]|\b[A-Z][a-z]+[A-Z][A-Za-z]*\.[A-Z]|\b[a-z]+[A-Z][a-z]+\b`)

// checkErrorText checks one failing run: a non-zero exit, nothing on
// standard output, one line on standard error for a runtime error (the
// message and the help hint for a usage error), one "paimon" prefix, no
// word repeated as a prefix, no Go identifiers.
func checkErrorText(t *testing.T, args []string) {
	t.Helper()
	r := runCmd(t, args...)
	require.NotEqual(t, exitOK, r.code, "%v succeeded: %s", args, r.stdout)
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	msg := lines[0]
	switch r.code {
	case exitFailure:
		require.Len(t, lines, 1, "%v: %q", args, r.stderr)
	case exitUsage:
		require.LessOrEqual(t, len(lines), 2, "%v: %q", args, r.stderr)
		require.True(t, strings.HasPrefix(lines[len(lines)-1], "Run 'paimon help"), "%v: %q", args, r.stderr)
	}
	prefix, rest, ok := strings.Cut(msg, ": ")
	require.True(t, ok && (prefix == "paimon" || strings.HasPrefix(prefix, "paimon ")), "%v: %q", args, msg)
	require.NotContains(t, rest, "paimon:", "%v: one prefix", args)
	require.NotContains(t, rest, prefix+":", "%v: one prefix", args)
	require.False(t, repeatsPrefix(msg), "%v: repeated prefix: %q", args, msg)
	require.NotRegexp(t, goIdentifier, msg, "%v: Go identifier", args)
}

// repeatsPrefix reports a message in which a prefix (a part before ": "
// of at most three words) comes back later, as in "unsupported:
// unsupported operation" or "table not found: x: table not found: y".
func repeatsPrefix(msg string) bool {
	parts := strings.Split(msg, ": ")
	for i, p := range parts[:len(parts)-1] {
		if i == 0 || len(strings.Fields(p)) > 3 {
			continue // the "paimon" or "paimon <command>" prefix
		}
		for _, q := range parts[i+1:] {
			if strings.HasPrefix(q, p) {
				return true
			}
		}
	}
	return false
}

// TestErrorsOfEveryCommand runs every command and action with bad input: no
// arguments, an unknown flag, a warehouse that does not exist, one that is
// a file, and a table that does not exist.
func TestErrorsOfEveryCommand(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	wh := warehouse("java-1.4.2", "append-unpartitioned")
	var names []string
	for _, c := range commands {
		if len(c.actions) == 0 {
			names = append(names, c.name)
		}
		for _, a := range c.actions {
			names = append(names, a.name)
		}
	}
	for _, name := range names {
		if name == "help" || name == "version" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Setenv(warehouseEnv, "")
			cmd := strings.Fields(name)
			with := func(args ...string) []string { return append(append([]string{}, cmd...), args...) }
			checkErrorText(t, with("--no-such-flag"))
			checkErrorText(t, with("--warehouse", missing, "db.t", "x", "y"))
			checkErrorText(t, with("--warehouse", file, "db.t", "x"))
			if !strings.Contains(name, "create") && name != "load" {
				checkErrorText(t, with("--warehouse", wh, "interop.nope", "x"))
			}
			if name == "expire" {
				checkErrorText(t, with("--warehouse", wh, "interop.append_unpartitioned", "--retain-max", "3", "--retain-min", "10"))
			}
		})
	}
}

// TestDidYouMean: commands, actions, databases and tables.
func TestDidYouMean(t *testing.T) {
	wh := warehouse("java-1.4.2", "append-unpartitioned")
	r := runCmd(t, "scna")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, `unknown command "scna" (did you mean "scan"?)`)
	r = runCmd(t, "db", "lst")
	require.Contains(t, r.stderr, `unknown action "lst" (did you mean "list"?)`)
	runFail(t, `table not found: interop.append_unpartitiond in warehouse `+absPath(t, wh)+` (did you mean "interop.append_unpartitioned"?)`,
		"scan", "--warehouse", wh, "interop.append_unpartitiond")
	runFail(t, `database not found: interp in warehouse `+absPath(t, wh)+` (did you mean "interop"?)`,
		"scan", "--warehouse", wh, "interp.append_unpartitioned")
	runFail(t, "table not found: interop.zzz in warehouse", "scan", "--warehouse", wh, "interop.zzz")
}

// TestMissingWarehouse: a warehouse that does not exist or is not a
// directory is its own error, not an empty warehouse; DDL creates it.
func TestMissingWarehouse(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	runFail(t, "warehouse "+missing+" does not exist", "db", "list", "--warehouse", missing)
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	runFail(t, "warehouse "+file+" is not a directory", "db", "list", "--warehouse", file)
	runFail(t, "warehouse "+file+" is not a directory", "scan", "--warehouse", file, "db.t")
	runOK(t, "db", "create", "--warehouse", missing, "shop")
	require.Contains(t, runOK(t, "db", "list", "--warehouse", missing), "shop")
}

func absPath(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	require.NoError(t, err)
	return abs
}

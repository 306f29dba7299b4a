package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// updateGolden rewrites the golden files under testdata instead of
// comparing with them: go test ./cmd/paimon -run Describe -update.
var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata")

// checkGolden compares got with testdata/name.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *updateGolden {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(p)
	require.NoError(t, err, "missing golden file; run the test with -update")
	require.Equal(t, string(want), got)
}

// runFail runs a command that must fail at run time with one line on
// stderr containing want, and nothing on stdout.
func runFail(t *testing.T, want string, args ...string) {
	t.Helper()
	r := runCmd(t, args...)
	require.Equal(t, exitFailure, r.code, "%v\nstdout: %s\nstderr: %s", args, r.stdout, r.stderr)
	require.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
	require.True(t, strings.HasPrefix(r.stderr, "paimon: "), r.stderr)
	require.Contains(t, r.stderr, want)
	require.Empty(t, r.stdout)
}

// runUsage runs a command that must fail as a usage error.
func runUsage(t *testing.T, want string, args ...string) {
	t.Helper()
	r := runCmd(t, args...)
	require.Equal(t, exitUsage, r.code, "%v\nstdout: %s\nstderr: %s", args, r.stdout, r.stderr)
	require.Contains(t, r.stderr, want)
	require.Contains(t, r.stderr, "Run 'paimon help")
	require.Empty(t, r.stdout)
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// itemsSchema is a partitioned append table with a nested column.
const itemsSchema = `{
 "fields": [
  {"name": "id", "type": "INT NOT NULL"},
  {"name": "name", "type": "STRING"},
  {"name": "qty", "type": "INT"},
  {"name": "extra", "type": "STRING"},
  {"name": "dt", "type": "STRING"}
 ],
 "partitionKeys": ["dt"],
 "options": {"file.format": "parquet", "bucket": "-1"},
 "comment": "items on sale"
}`

func TestDBCommands(t *testing.T) {
	wh := t.TempDir()
	schemaFile := writeTemp(t, "s.json", itemsSchema)
	w := "--warehouse=" + wh
	require.Equal(t, "database_name\n-------------\n(0 rows)\n", runOK(t, "db", "list", w))
	require.Equal(t, "Created database shop.\n", runOK(t, "db", "create", w, "shop"))
	runFail(t, "database already exists: shop", "db", "create", w, "shop")
	require.Equal(t, "Database shop already exists.\n", runOK(t, "db", "create", "shop", w, "--if-not-exists"))
	runOK(t, "db", "create", w, "other")
	require.Equal(t, "database_name\nother\nshop\n", runOK(t, "db", "list", w, "--output", "csv"))
	runOK(t, "table", "create", w, "--schema", schemaFile, "shop.items")
	runFail(t, "database is not empty: shop holds table items (pass --cascade to drop its tables too)", "db", "drop", w, "shop")
	require.Equal(t, "Dropped database shop.\n", runOK(t, "db", "drop", w, "shop", "--cascade"))
	_, err := os.Stat(filepath.Join(wh, "shop.db"))
	require.True(t, os.IsNotExist(err), "the database directory is gone")
	runFail(t, "database not found", "db", "drop", w, "shop")
	require.Equal(t, "Database shop does not exist.\n", runOK(t, "db", "drop", w, "shop", "--if-exists"))
	require.Equal(t, "[\n{\"database_name\":\"other\"}\n]\n", runOK(t, "db", "list", w, "--output", "json"))
	runFail(t, "sys", "db", "create", w, "sys")

	runUsage(t, "missing action: want one of list, create, drop", "db")
	runUsage(t, "flag "+w+" before the action", "db", w, "list")
	runUsage(t, `unknown action "rename"`, "db", "rename", w)
	runUsage(t, "missing database name", "db", "create", w)
	runUsage(t, "too many arguments", "db", "drop", w, "a", "b")
	runUsage(t, `--output "xml"`, "db", "list", w, "--output", "xml")
	t.Setenv(warehouseEnv, "")
	runUsage(t, "no warehouse", "db", "list")
}

func TestTableCommands(t *testing.T) {
	wh := t.TempDir()
	w := "--warehouse=" + wh
	schemaFile := writeTemp(t, "s.json", itemsSchema)
	runOK(t, "db", "create", w, "shop")
	require.Equal(t, "Created table shop.items.\n", runOK(t, "table", "create", w, "--schema", schemaFile, "shop.items"))
	runFail(t, "table already exists: shop.items", "table", "create", w, "--schema", schemaFile, "shop.items")
	require.Equal(t, "Table shop.items already exists.\n", runOK(t, "table", "create", w, "--schema", schemaFile, "shop.items", "--if-not-exists"))
	runFail(t, "database not found", "table", "create", w, "--schema", schemaFile, "nope.items")
	runOK(t, "table", "create", w, "--schema", schemaFile, "shop.other")
	require.Equal(t, "table_name\nitems\nother\n", runOK(t, "table", "list", w, "shop", "--output", "csv"))
	checkGolden(t, "describe/created.txt", runOK(t, "table", "describe", w, "shop.items"))

	out := runOK(t, "table", "alter", w, "shop.items",
		"--set", "snapshot.num-retained.min=3",
		"--add-column", "note STRING AFTER id",
		"--add-column", "`first col` ROW<a INT, b ARRAY<STRING>> FIRST",
		"--rename-column", "name=title",
		"--alter-column-type", "qty BIGINT",
		"--drop-column", "extra",
		"--set", "write-only=true",
		"--unset", "write-only",
		"--comment", "renamed")
	require.Equal(t, "Altered table shop.items: schema 1.\n", out)
	checkGolden(t, "describe/altered.json", runOK(t, "table", "describe", w, "shop.items", "--output", "json"))
	runOK(t, "table", "alter", w, "shop.items", "--add-column", "`first col`.c DOUBLE")
	var rep describeReport
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "table", "describe", w, "shop.items", "--output", "json")), &rep))
	require.Equal(t, "ROW<`a` INT, `b` ARRAY<STRING>, `c` DOUBLE>", rep.Fields[0].Type)
	require.Equal(t, "BIGINT", rep.Fields[4].Type, "qty kept its nullability")
	// As in Java, the option that allows NOT NULL is read from the schema
	// before the alter.
	runFail(t, "cannot make nullable column qty NOT NULL", "table", "alter", w, "shop.items",
		"--set", "alter-column-null-to-not-null.disabled=false", "--alter-column-type", "qty BIGINT NOT NULL")
	runOK(t, "table", "alter", w, "shop.items", "--set", "alter-column-null-to-not-null.disabled=false")
	runOK(t, "table", "alter", w, "shop.items", "--alter-column-type", "qty BIGINT NOT NULL")
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "table", "describe", w, "shop.items", "--output", "json")), &rep))
	require.Equal(t, "BIGINT NOT NULL", rep.Fields[4].Type)

	// Refused changes leave the schema alone.
	runFail(t, "partition", "table", "alter", w, "shop.items", "--drop-column", "dt")
	runFail(t, "table not found", "table", "alter", w, "shop.nope", "--set", "snapshot.num-retained.min=4")

	// Unknown option keys are refused with the closest Java key, unless
	// named by --custom-option.
	runFail(t, `invalid option target-file-sizee = "1mb": not a Java Paimon option (did you mean "target-file-size"?) (pass --custom-option KEY`,
		"table", "alter", w, "shop.items", "--set", "target-file-sizee=1mb")
	runFail(t, `invalid option my.app.owner = "me": not a Java Paimon option (pass --custom-option KEY`,
		"table", "alter", w, "shop.items", "--set", "my.app.owner=me", "--set", "bucket-key=id")
	runOK(t, "table", "alter", w, "shop.items", "--set", "my.app.owner=me", "--custom-option", "my.app.owner", "--set", "fields.qty.ignore-retract=true")
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "table", "describe", w, "shop.items", "--output", "json")), &rep))
	require.Contains(t, runOK(t, "options", w, "shop.items", "--output", "csv"), "my.app.owner,me")
	misspelt := writeTemp(t, "misspelt.json", `{"fields": [{"name": "a", "type": "INT"}], "options": {"file.formatt": "orc"}}`)
	runFail(t, `misspelt.json: invalid option file.formatt = "orc": not a Java Paimon option (did you mean "file.format"?)`,
		"table", "create", w, "--schema", misspelt, "shop.x")
	require.Equal(t, "Created table shop.x.\n", runOK(t, "table", "create", w, "--schema", misspelt, "shop.x", "--custom-option", "file.formatt"))
	runOK(t, "table", "drop", w, "shop.x")
	runUsage(t, "nothing to change", "table", "alter", w, "shop.items")
	runUsage(t, `invalid value "qty WHATEVER" for flag -alter-column-type`, "table", "alter", w, "shop.items", "--alter-column-type", "qty WHATEVER")
	runUsage(t, "want OLD=NEW", "table", "alter", w, "shop.items", "--rename-column", "qty")
	runUsage(t, "want KEY=VALUE", "table", "alter", w, "shop.items", "--set", "novalue")
	runUsage(t, "want a column name and a type", "table", "alter", w, "shop.items", "--add-column", "lonely")
	runUsage(t, "missing --schema", "table", "create", w, "shop.x")
	bad := writeTemp(t, "bad.json", `{"fields": [{"name": "a", "type": "NOPE"}]}`)
	runFail(t, "bad.json: invalid table schema", "table", "create", w, "--schema", bad, "shop.x")

	require.Equal(t, "Dropped table shop.other.\n", runOK(t, "table", "drop", w, "shop.other"))
	runFail(t, "table not found", "table", "drop", w, "shop.other")
	require.Equal(t, "Table shop.other does not exist.\n", runOK(t, "table", "drop", w, "shop.other", "--if-exists"))
	require.Equal(t, "table_name\nitems\n", runOK(t, "table", "list", w, "shop", "--output", "csv"))
	runFail(t, "database not found", "table", "list", w, "nope")
}

// TestDescribeGolden describes Java's tables: fields and types, keys,
// bucket mode, merge engine, changelog producer, format, options and the
// latest snapshot.
func TestDescribeGolden(t *testing.T) {
	old := describeZone
	describeZone = time.UTC
	t.Cleanup(func() { describeZone = old })
	for _, tc := range []struct{ scenario, table string }{
		{"append-unpartitioned", "append_unpartitioned"},
		{"pk-dedup", "pk_dedup"},
		{"pk-changelog-lookup", "pk_changelog_lookup"},
		{"append-fixed-bucket", "append_fixed_bucket"},
		{"all-types-parquet", "all_types_parquet"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			args := []string{"table", "describe", "--warehouse", warehouse("java-1.4.2", tc.scenario), "interop." + tc.table}
			checkGolden(t, "describe/"+tc.scenario+".txt", runOK(t, args...))
			checkGolden(t, "describe/"+tc.scenario+".json", runOK(t, append(args, "--output", "json")...))
		})
	}
	runFail(t, "table not found", "table", "describe", "--warehouse", warehouse("java-1.4.2", "pk-dedup"), "interop.nope")
	// An s3:// URI with a parameter the opener rejects: fails offline.
	runFail(t, `unknown query parameter "bogus"`, "table", "describe", "--warehouse", "s3://bucket/wh?bogus=1", "interop.t")
	runUsage(t, `--output "csv"`, "table", "describe", "--warehouse", "x", "--output", "csv", "a.b")
}

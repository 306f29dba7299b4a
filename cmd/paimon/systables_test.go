package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// The columns of the system tables the golden comparisons keep: Java's
// columns as the library declares them.
var (
	snapshotsColumns = systemColumns("snapshots")
	schemasColumns   = systemColumns("schemas")
	optionsColumns   = systemColumns("options")
	tagsColumns      = systemColumns("tags")
	filesColumns     = systemColumns("files")
	manifestsColumns = systemColumns("manifests")
)

func systemColumns(name string) []rowio.Column {
	fields, err := paimon.SystemTableFields(name)
	if err != nil {
		panic(err)
	}
	out := make([]rowio.Column, len(fields))
	for i, f := range fields {
		out[i] = rowio.Column{Name: f.Name, Type: f.Type}
	}
	return out
}

// localTimestamp is epoch milliseconds as the wall-clock TIMESTAMP(3) in
// loc that the commands print for commit times.
func localTimestamp(ms int64, loc *time.Location) data.Timestamp {
	t := time.UnixMilli(ms).In(loc)
	u := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return data.Timestamp{Millis: u.UnixMilli(), NanoOfMilli: int32(u.Nanosecond() % 1_000_000)}
}

// TestSystemTableView checks the table output's narrow default columns,
// --wide and --columns, and that cut cells keep their distinguishing end.
func TestSystemTableView(t *testing.T) {
	wh := warehouse("java-1.4.2", "pk-dedup")
	table := "interop.pk_dedup"
	header := func(out string) []string { return strings.Fields(strings.SplitN(out, "\n", 2)[0]) }

	require.Equal(t, narrowColumns["snapshots"], header(runOK(t, "snapshots", "--warehouse", wh, table)))
	require.Equal(t, narrowColumns["files"], header(runOK(t, "files", "--warehouse", wh, table)))
	wide := runOK(t, "snapshots", "--warehouse", wh, table, "--wide")
	require.Contains(t, header(wide), "base_manifest_list")
	require.Len(t, header(wide), 14)
	// JSON keeps every column; --columns picks them in every format.
	rows := jsonRows(t, runOK(t, "snapshots", "--warehouse", wh, table, "--output", "jsonl"))
	require.Len(t, rows[0], 14)
	rows = jsonRows(t, runOK(t, "snapshots", "--warehouse", wh, table, "--output", "jsonl", "--columns", "commit_kind,snapshot_id"))
	require.Len(t, rows[0], 2)
	require.Equal(t, []string{"commit_kind", "snapshot_id"}, header(runOK(t, "snapshots", "--warehouse", wh, table, "--columns", "commit_kind, snapshot_id")))

	// A manifest name cut to 40 characters keeps its start and its end;
	// --wide prints it whole.
	full := jsonRows(t, runOK(t, "manifests", "--warehouse", wh, table, "--output", "jsonl"))[0]["file_name"].(string)
	require.Greater(t, len(full), 40)
	cut := runOK(t, "manifests", "--warehouse", wh, table)
	require.Contains(t, cut, full[:19]+"…"+full[len(full)-20:])
	require.Contains(t, runOK(t, "manifests", "--warehouse", wh, table, "--wide"), full)

	runUsage(t, `--columns: no column "comit_user" (did you mean "commit_user"?)`, "snapshots", "--warehouse", wh, table, "--columns", "comit_user")
	runUsage(t, "empty column name", "snapshots", "--warehouse", wh, table, "--columns", "a,,b")
}

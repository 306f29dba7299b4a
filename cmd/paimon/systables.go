package main

import (
	"context"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/paimon"
)

// metaDetails is the help text shared by the system-table commands.
const metaDetails = `
The table is "database.table" or "database.table$branch_NAME". Flags may come
before or after it.

Times are shown as wall-clock times in the local time zone, as Java's system
tables show them (ZoneId.systemDefault()).

Table output (the default) cuts cells wider than 40 characters in the
middle ("…"), keeping the start and the end that tell values apart; snapshots
shows only its main columns. --wide prints every column uncut; --columns
a,b,c picks the columns (in any output format).

Exit status: 0 ok, 1 runtime error, 2 usage error.`

// travelDetails is the help text of the system-table commands that read one
// snapshot's files.
const travelDetails = `
The table is "database.table" or "database.table$branch_NAME". Flags may come
before or after it. --snapshot and --tag read an older snapshot, as Java's
scan.snapshot-id and scan.tag-name options do for the system table; values
are then rendered with that snapshot's schema.

Times are shown as Java's system tables show them: wall-clock times in the
local time zone; data-file creation times as the writer recorded them.

Table output (the default) cuts cells wider than 40 characters in the
middle ("…"), keeping the start and the end that tell values apart; files
shows only its main columns. --wide prints every column uncut; --columns
a,b,c picks the columns (in any output format).

Exit status: 0 ok, 1 runtime error, 2 usage error.`

// systemTableCommand is a command printing one of the library's system
// tables (Table.SystemTable); travel adds --snapshot and --tag.
func systemTableCommand(name, summary string, travel bool) *command {
	synopsis, details := "--warehouse URI [--output FORMAT] [--wide] [--columns LIST] db.table", metaDetails
	if travel {
		synopsis, details = "--warehouse URI [--output FORMAT] [--wide] [--columns LIST] [--snapshot N | --tag T] db.table", travelDetails
	}
	return &command{name: name, summary: summary, synopsis: synopsis, details: details,
		run: func(ctx context.Context, e *env, c *command, args []string) error {
			return runSystemTable(ctx, e, c, args, name, travel)
		}}
}

// narrowColumns are the columns the table output of the widest system
// tables shows unless --wide or --columns asks otherwise (a $snapshots row
// is some 330 characters wide).
var narrowColumns = map[string][]string{
	"snapshots": {"snapshot_id", "schema_id", "commit_kind", "commit_time", "commit_identifier", "total_record_count", "delta_record_count"},
	// One string: the column names partition and bucket would otherwise
	// read as option-key literals to internal/lint.
	"files": strings.Fields("partition bucket file_path level record_count file_size_in_bytes creation_time"),
}

func runSystemTable(ctx context.Context, e *env, c *command, args []string, name string, travel bool) error {
	fs := newFlagSet(c)
	var view tableView
	var columns string
	fs.BoolVar(&view.wide, "wide", false, "table output: every column, cells uncut")
	fs.StringVar(&columns, "columns", "", "comma-separated `columns` to print, in order (every format)")
	a, err := parseTable(e, c, fs, args, tableSpec{formats: rowFormats, output: formatTable, travel: travel})
	if err != nil {
		return err
	}
	switch {
	case columns != "":
		for col := range strings.SplitSeq(columns, ",") {
			if col = strings.TrimSpace(col); col == "" {
				return usagef(c.name, "--columns %q: empty column name", columns)
			}
			view.columns = append(view.columns, col)
		}
	case a.output == formatTable && !view.wide:
		view.columns = narrowColumns[name]
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	// File paths start with the table's location as Java prints it: the
	// warehouse as given, then <database>.db/<table>.
	loc := tableLocation(ctx, &a.catalog, a.warehouse, a.table)
	rr, err := tbl.SystemTable(ctx, name, &paimon.SystemTableOptions{SnapshotID: a.snapshot, Tag: a.tag, Location: loc})
	if err != nil {
		return err
	}
	defer rr.Release()
	// A --columns name the table lacks is a bad command line (exit 2),
	// found before the first row is printed.
	names := make([]string, 0, rr.Schema().NumFields())
	for _, f := range rr.Schema().Fields() {
		names = append(names, f.Name)
	}
	for _, col := range view.columns {
		if !slices.Contains(names, col) {
			return usagef(c.name, "--columns: no column %q%s; the columns are %s", col, didYouMean(col, names), strings.Join(names, ", "))
		}
	}
	return printRecords(e.stdout, a.output, nil, rr, 0, nil, view)
}

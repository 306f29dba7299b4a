package main

import (
	"context"

	"github.com/paimon-go/paimon-go/paimon"
)

// metaDetails is the help text shared by the system-table commands.
const metaDetails = `
The table is "database.table" or "database.table$branch_NAME". Flags may come
before or after it.

Times are shown as wall-clock times in the local time zone, as Java's system
tables show them (ZoneId.systemDefault()).

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

Exit status: 0 ok, 1 runtime error, 2 usage error.`

// systemTableCommand is a command printing one of the library's system
// tables (Table.SystemTable); travel adds --snapshot and --tag.
func systemTableCommand(name, summary string, travel bool) *command {
	synopsis, details := "--warehouse URI [--output FORMAT] db.table", metaDetails
	if travel {
		synopsis, details = "--warehouse URI [--output FORMAT] [--snapshot N | --tag T] db.table", travelDetails
	}
	return &command{name: name, summary: summary, synopsis: synopsis, details: details,
		run: func(ctx context.Context, e *env, c *command, args []string) error {
			return runSystemTable(ctx, e, c, args, name, travel)
		}}
}

func runSystemTable(ctx context.Context, e *env, c *command, args []string, name string, travel bool) error {
	a, err := parseTable(e, c, newFlagSet(c), args, tableSpec{formats: rowFormats, output: formatTable, travel: travel})
	if err != nil {
		return err
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
	return printRecords(e.stdout, a.output, nil, rr, 0, nil)
}

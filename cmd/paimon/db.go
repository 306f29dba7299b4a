package main

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// dbDetails is the help text of the db group.
const dbDetails = `
A database of the filesystem catalog is the directory <warehouse>/<name>.db.
"db drop" refuses a database that still holds tables unless --cascade is
given, which drops them with all their files.

Exit status: 0 ok, 1 runtime error, 2 usage error.`

func dbCommand() *command {
	return &command{
		name:     "db",
		summary:  "list, create and drop databases",
		synopsis: "list|create|drop ...",
		details:  dbDetails,
		run:      runGroup,
		actions: []*command{
			{name: "db list", summary: "list the databases of a warehouse", synopsis: "--warehouse URI [--output FORMAT]", details: dbDetails, run: runDBList},
			{name: "db create", summary: "create a database", synopsis: "--warehouse URI [--if-not-exists] NAME", details: dbDetails, run: runDBCreate},
			{name: "db drop", summary: "drop a database", synopsis: "--warehouse URI [--cascade] [--if-exists] NAME", details: dbDetails, run: runDBDrop},
		},
	}
}

// dbSpec is the command line of db create and db drop: one database name.
var dbSpec = tableSpec{noTable: true, minRest: 1, maxRest: 1, args: "database name"}

var dbListColumns = []rowio.Column{{Name: "database_name", Type: stringNotNull}}

func runDBList(ctx context.Context, e *env, c *command, args []string) (err error) {
	a, err := parseTable(e, c, newFlagSet(c), args, tableSpec{noTable: true, formats: rowFormats, output: formatTable, args: "no arguments"})
	if err != nil {
		return err
	}
	cat, closeCat, err := openCatalog(ctx, a)
	if err != nil {
		return err
	}
	defer closeCat()
	var names []string
	for name, err := range cat.ListDatabases(ctx) {
		if err != nil {
			return err
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return writeAll(e, a.output, dbListColumns, func(emit func([]any) error) error {
		for _, n := range names {
			if err := emit([]any{n}); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeAll prints the rows rows emits under cols, flushing even when rows
// fails part way.
func writeAll(e *env, format string, cols []rowio.Column, rows func(emit func([]any) error) error) (err error) {
	out, err := rowio.NewWriter(format, e.stdout, cols, false)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	return rows(out.WriteRow)
}

func runDBCreate(ctx context.Context, e *env, c *command, args []string) error {
	var ifNotExists bool
	fs := newFlagSet(c)
	fs.BoolVar(&ifNotExists, "if-not-exists", false, "succeed without doing anything when the database exists")
	a, err := parseTable(e, c, fs, args, dbSpec)
	if err != nil {
		return err
	}
	_, ddl, closeCat, err := openDDL(ctx, a)
	if err != nil {
		return err
	}
	defer closeCat()
	name := a.rest[0]
	err = ddl.CreateDatabase(ctx, name, false)
	if ifNotExists && errors.Is(err, catalog.ErrDatabaseExists) {
		fmt.Fprintf(e.stdout, "Database %s already exists.\n", name)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Created database %s.\n", name)
	return nil
}

func runDBDrop(ctx context.Context, e *env, c *command, args []string) error {
	var ifExists, cascade bool
	fs := newFlagSet(c)
	fs.BoolVar(&ifExists, "if-exists", false, "succeed without doing anything when the database does not exist")
	fs.BoolVar(&cascade, "cascade", false, "drop the tables of the database too")
	a, err := parseTable(e, c, fs, args, dbSpec)
	if err != nil {
		return err
	}
	_, ddl, closeCat, err := openDDL(ctx, a)
	if err != nil {
		return err
	}
	defer closeCat()
	name := a.rest[0]
	err = ddl.DropDatabase(ctx, name, false, cascade)
	if ifExists && errors.Is(err, catalog.ErrDatabaseNotFound) {
		fmt.Fprintf(e.stdout, "Database %s does not exist.\n", name)
		return nil
	}
	if errors.Is(err, catalog.ErrDatabaseNotEmpty) {
		return fmt.Errorf("%w (pass --cascade to drop its tables too)", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Dropped database %s.\n", name)
	return nil
}

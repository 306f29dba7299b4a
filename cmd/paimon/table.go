package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// tableDetails is the help text of the table group.
const tableDetails = `
Tables are named "database.table". "table create" reads the table
definition from a JSON file in the form of Java Paimon's Schema:

  {"fields": [{"id": 0, "name": "id", "type": "INT NOT NULL"},
              {"id": 1, "name": "dt", "type": "STRING"}],
   "partitionKeys": ["dt"], "primaryKeys": [],
   "options": {"bucket": "-1", "file.format": "parquet"},
   "comment": "optional"}

Field ids may be left out (then all of them): fields are numbered in order.
Types are Paimon type strings (INT, BIGINT, DECIMAL(10, 2), STRING,
TIMESTAMP(3), ...); nested types may also be given as Java's JSON objects.

Option keys must be Java Paimon's (a misspelt key would be stored and do
nothing): an unknown key is refused with the closest known one. Pass
--custom-option KEY (repeatable) to "table create" or "table alter" to
store a key of your own or of another system.

"table alter" applies its changes in the order given, as one new schema:

  --set KEY=VALUE              set a table option
  --unset KEY                  remove a table option
  --comment TEXT               replace the table comment
  --add-column 'NAME TYPE [FIRST | AFTER COL]'
                               add a nullable column (appended by default)
  --drop-column COL            drop a column
  --rename-column OLD=NEW      rename a column
  --alter-column-type 'COL TYPE'
                               change a column's type to one its values cast
                               to; without NULL or NOT NULL the column keeps
                               its nullability

A column inside a ROW column is named by its path (address.city); quote a
name holding a dot or a space in back-quotes (` + "`first name`, `a.b`.c" + `).

"table describe" shows the columns, keys, bucket mode, merge engine,
changelog producer, file format, options and latest snapshot; --output json
prints the same as one JSON object.

Exit status: 0 ok, 1 runtime error, 2 usage error.`

func tableCommand() *command {
	return &command{
		name:     "table",
		summary:  "list, describe, create, drop and alter tables",
		synopsis: "list|describe|create|drop|alter ...",
		details:  tableDetails,
		run:      runGroup,
		actions: []*command{
			{name: "table list", summary: "list the tables of a database", synopsis: "--warehouse URI [--output FORMAT] DATABASE", details: tableDetails, run: runTableList},
			{name: "table describe", summary: "describe a table", synopsis: "--warehouse URI [--output text|json] db.table", details: tableDetails, run: runTableDescribe},
			{name: "table create", summary: "create a table from a Paimon schema JSON file", synopsis: "--warehouse URI --schema FILE [--if-not-exists] db.table", details: tableDetails, run: runTableCreate},
			{name: "table drop", summary: "drop a table with all its files", synopsis: "--warehouse URI [--if-exists] db.table", details: tableDetails, run: runTableDrop},
			{name: "table alter", summary: "change a table's options or columns", synopsis: "--warehouse URI CHANGE... db.table", details: tableDetails, run: runTableAlter},
		},
	}
}

var tableListColumns = []rowio.Column{{Name: "table_name", Type: stringNotNull}}

func runTableList(ctx context.Context, e *env, c *command, args []string) error {
	spec := dbSpec
	spec.formats, spec.output = rowFormats, formatTable
	a, err := parseTable(e, c, newFlagSet(c), args, spec)
	if err != nil {
		return err
	}
	cat, closeCat, err := openCatalog(ctx, a)
	if err != nil {
		return err
	}
	defer closeCat()
	var names []string
	for id, err := range cat.ListTables(ctx, a.rest[0]) {
		if err != nil {
			return err
		}
		names = append(names, id.Table)
	}
	slices.Sort(names)
	return writeAll(e, a.output, tableListColumns, func(emit func([]any) error) error {
		for _, n := range names {
			if err := emit([]any{n}); err != nil {
				return err
			}
		}
		return nil
	})
}

func runTableCreate(ctx context.Context, e *env, c *command, args []string) error {
	var schemaFile string
	var ifNotExists bool
	fs := newFlagSet(c)
	fs.StringVar(&schemaFile, "schema", "", "`FILE` holding the table definition as Paimon schema JSON")
	fs.BoolVar(&ifNotExists, "if-not-exists", false, "succeed without doing anything when the table exists")
	var custom keyList
	fs.Var(&custom, "custom-option", "accept option `KEY` although Java Paimon does not know it (repeatable)")
	a, err := parseTable(e, c, fs, args, tableSpec{})
	if err != nil {
		return err
	}
	id := a.table
	if schemaFile == "" {
		return usagef(c.name, "missing --schema FILE")
	}
	b, err := os.ReadFile(schemaFile)
	if err != nil {
		return err
	}
	s, err := schema.DecodeSchema(b)
	if err != nil {
		return fmt.Errorf("%s: %w", schemaFile, err)
	}
	if err := paimon.CheckOptionKeys(s.Options, custom...); err != nil {
		return fmt.Errorf("%s: %w (pass --custom-option KEY to store a key of your own)", schemaFile, err)
	}
	_, ddl, closeCat, err := openDDL(ctx, a)
	if err != nil {
		return err
	}
	defer closeCat()
	err = ddl.CreateTable(ctx, id, s, false)
	if ifNotExists && errors.Is(err, catalog.ErrTableExists) {
		fmt.Fprintf(e.stdout, "Table %s already exists.\n", id)
		return nil
	}
	if errors.Is(err, catalog.ErrDatabaseNotFound) {
		return fmt.Errorf("%w (create it with 'paimon db create %s')", err, id.Database)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Created table %s.\n", id)
	return nil
}

func runTableDrop(ctx context.Context, e *env, c *command, args []string) error {
	var ifExists bool
	fs := newFlagSet(c)
	fs.BoolVar(&ifExists, "if-exists", false, "succeed without doing anything when the table does not exist")
	a, err := parseTable(e, c, fs, args, tableSpec{})
	if err != nil {
		return err
	}
	id := a.table
	_, ddl, closeCat, err := openDDL(ctx, a)
	if err != nil {
		return err
	}
	defer closeCat()
	err = ddl.DropTable(ctx, id, false)
	if ifExists && errors.Is(err, catalog.ErrTableNotFound) {
		fmt.Fprintf(e.stdout, "Table %s does not exist.\n", id)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Dropped table %s.\n", id)
	return nil
}

// keyList is a repeatable flag collecting option keys.
type keyList []string

func (l *keyList) String() string { return strings.Join(*l, ",") }

func (l *keyList) Set(v string) error {
	v = strings.TrimSpace(v)
	if v == "" {
		return errors.New("want an option key")
	}
	*l = append(*l, v)
	return nil
}

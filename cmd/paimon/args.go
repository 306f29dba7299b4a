package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

// warehouseUsage is the help text of every --warehouse flag.
const warehouseUsage = "warehouse `URI`: a path, file://, mem://, s3://, gs:// or azblob:// (default $" + warehouseEnv + ")"

// tableArgs is the command line shared by the commands: --warehouse, the
// table (for the commands on one table), --output when the command prints
// something selectable, --snapshot and --tag when it reads an older
// snapshot, and the other positional arguments.
type tableArgs struct {
	warehouse string
	catalog   catalogFlags // --catalog-option, --catalog-config
	table     paimon.Identifier
	output    string
	snapshot  int64 // 0: not given
	tag       string
	rest      []string        // positional arguments after the table
	set       map[string]bool // the flags given
}

// tableSpec says which shared flags a command on one table takes.
type tableSpec struct {
	// formats are the --output choices and output the default ("" means
	// the first); nil formats means no --output flag.
	formats []string
	output  string
	// travel adds --snapshot and --tag, which exclude each other;
	// snapshotUsage and tagUsage replace their help texts.
	travel                  bool
	snapshotUsage, tagUsage string
	// minRest and maxRest bound the positional arguments after the table
	// (maxRest -1: any number); args names all positionals for messages.
	minRest, maxRest int
	args             string
	// noTable: the command takes no table (the db commands, table list);
	// minRest and maxRest then bound all positionals.
	noTable bool
}

// parseTable registers the shared flags of spec on fs (which holds the
// command's own flags), parses args and checks them.
func parseTable(e *env, c *command, fs *flag.FlagSet, args []string, spec tableSpec) (*tableArgs, error) {
	a := &tableArgs{}
	var snapshotFlag string
	fs.StringVar(&a.warehouse, "warehouse", "", warehouseUsage)
	a.catalog.register(fs)
	if spec.formats != nil {
		fs.StringVar(&a.output, "output", cmp.Or(spec.output, spec.formats[0]), "output `format`: "+strings.Join(spec.formats, ", "))
	}
	if spec.travel {
		fs.StringVar(&snapshotFlag, "snapshot", "", cmp.Or(spec.snapshotUsage, "read snapshot `N` instead of the latest"))
		fs.StringVar(&a.tag, "tag", "", cmp.Or(spec.tagUsage, "read the snapshot of tag `T`"))
	}
	pos, err := parseArgs(e, c, fs, args)
	if err != nil {
		return nil, err
	}
	if spec.noTable {
		if err := positionals(c, pos, spec.minRest, spec.maxRest, spec.args); err != nil {
			return nil, err
		}
		a.rest = pos
	} else {
		names := cmp.Or(spec.args, "table name (database.table)")
		switch {
		case len(pos) < 1+spec.minRest:
			return nil, usagef(c.name, "missing %s", names)
		case spec.maxRest == 0 && len(pos) > 1:
			return nil, usagef(c.name, "expected one table name, got %d arguments: %s", len(pos), strings.Join(pos, " "))
		case spec.maxRest > 0 && len(pos) > 1+spec.maxRest:
			return nil, usagef(c.name, "too many arguments: %s (want %s)", strings.Join(pos, " "), names)
		}
		if a.table, err = paimon.ParseIdentifier(pos[0]); err != nil {
			return nil, usagef(c.name, "%v", err)
		}
		a.rest = pos[1:]
	}
	if err := a.catalog.resolve(); err != nil {
		return nil, usagef(c.name, "%v", err)
	}
	if a.warehouse = warehouseFlag(a.warehouse); a.warehouse == "" && !a.catalog.locates() {
		return nil, usagef(c.name, "no warehouse: pass --warehouse URI, set $%s, or give the catalog's uri or warehouse with --catalog-option or --catalog-config", warehouseEnv)
	}
	if spec.formats != nil && !slices.Contains(spec.formats, a.output) {
		return nil, usagef(c.name, "--output %q: want one of %s", a.output, strings.Join(spec.formats, ", "))
	}
	a.set = flagsSet(fs)
	if !spec.travel {
		return a, nil
	}
	if a.set["snapshot"] {
		if a.snapshot, err = strconv.ParseInt(strings.TrimSpace(snapshotFlag), 10, 64); err != nil || a.snapshot <= 0 {
			return nil, usagef(c.name, "--snapshot %q: want a positive snapshot id", snapshotFlag)
		}
	}
	if a.set["tag"] && a.tag == "" {
		return nil, usagef(c.name, "--tag: empty tag name")
	}
	if a.set["snapshot"] && a.set["tag"] {
		return nil, usagef(c.name, "--snapshot and --tag cannot be combined: they are exclusive")
	}
	return a, nil
}

// load opens the catalog and loads the table. The returned function closes
// the catalog; the table must not be used after it.
func (a *tableArgs) load(ctx context.Context) (*paimon.Table, func(), error) {
	return a.catalog.loadTable(ctx, a.warehouse, a.table)
}

// positionals checks the number of positional arguments; names describes
// them for the messages ("database name").
func positionals(c *command, pos []string, min, max int, names string) error {
	switch {
	case len(pos) < min:
		return usagef(c.name, "missing %s", names)
	case len(pos) > max:
		return usagef(c.name, "too many arguments: %s (want %s)", strings.Join(pos, " "), names)
	}
	return nil
}

// flagsSet returns the names of the flags given on the command line.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// positiveInt parses the value of a flag that must be a positive integer.
func positiveInt(c *command, flagName, v string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n <= 0 {
		return 0, usagef(c.name, "--%s %q: want a positive integer", flagName, v)
	}
	return n, nil
}

// openCatalog opens the catalog the command line names. The returned
// function closes it.
func openCatalog(ctx context.Context, a *tableArgs) (catalog.Catalog, func(), error) {
	return openCatalogFor(ctx, a, false)
}

// openCatalogFor is openCatalog; mayCreate accepts a local warehouse
// directory that does not exist yet (the DDL commands create it).
func openCatalogFor(ctx context.Context, a *tableArgs, mayCreate bool) (catalog.Catalog, func(), error) {
	if err := checkLocalWarehouse(a.warehouse, mayCreate); err != nil {
		return nil, nil, err
	}
	cat, err := a.catalog.open(ctx, a.warehouse)
	if err != nil {
		return nil, nil, err
	}
	return cat, func() { _ = cat.Close() }, nil
}

// openDDL opens the catalog of a warehouse for creating, dropping and
// altering databases and tables.
func openDDL(ctx context.Context, a *tableArgs) (catalog.Catalog, catalog.DDL, func(), error) {
	cat, closeCat, err := openCatalogFor(ctx, a, true)
	if err != nil {
		return nil, nil, nil, err
	}
	ddl, ok := cat.(catalog.DDL)
	if !ok {
		closeCat()
		return nil, nil, nil, fmt.Errorf("the catalog of %s cannot create, drop or alter anything", a.warehouse)
	}
	return cat, ddl, closeCat, nil
}

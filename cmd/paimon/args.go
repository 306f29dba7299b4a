package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

// warehouseUsage is the help text of every --warehouse flag.
const warehouseUsage = "warehouse `URI`: a path, file://, mem://, s3://, gs:// or azblob:// (default $" + warehouseEnv + ")"

// resolveWarehouse applies the $PAIMON_WAREHOUSE default to *w and refuses
// a command line that gives neither.
func resolveWarehouse(c *command, w *string) error {
	if *w = warehouseFlag(*w); *w == "" {
		return usagef(c.name, "no warehouse: pass --warehouse URI or set $%s", warehouseEnv)
	}
	return nil
}

// positionals checks the number of positional arguments; names describes
// them for the messages ("table name (database.table)").
func positionals(c *command, pos []string, min, max int, names string) error {
	switch {
	case len(pos) < min:
		return usagef(c.name, "missing %s", names)
	case len(pos) > max:
		return usagef(c.name, "too many arguments: %s (want %s)", strings.Join(pos, " "), names)
	}
	return nil
}

// tableArg parses a "database.table" argument.
func tableArg(c *command, s string) (paimon.Identifier, error) {
	id, err := paimon.ParseIdentifier(s)
	if err != nil {
		return id, usagef(c.name, "%v", err)
	}
	return id, nil
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

// openCatalog opens the catalog of a warehouse. The returned function
// closes it.
func openCatalog(ctx context.Context, warehouse string) (catalog.Catalog, func(), error) {
	cat, err := catalog.Open(ctx, warehouse, nil)
	if err != nil {
		return nil, nil, err
	}
	return cat, func() { _ = cat.Close() }, nil
}

// openDDL opens the catalog of a warehouse for creating, dropping and
// altering databases and tables.
func openDDL(ctx context.Context, warehouse string) (catalog.Catalog, catalog.DDL, func(), error) {
	cat, closeCat, err := openCatalog(ctx, warehouse)
	if err != nil {
		return nil, nil, nil, err
	}
	ddl, ok := cat.(catalog.DDL)
	if !ok {
		closeCat()
		return nil, nil, nil, fmt.Errorf("the catalog of %s cannot create, drop or alter anything", warehouse)
	}
	return cat, ddl, closeCat, nil
}

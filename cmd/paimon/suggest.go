package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/internal/textdist"
	"github.com/paimon-go/paimon-go/paimon"
)

// didYouMean returns ` (did you mean "x"?)` naming the candidate closest
// to name (textdist.Closest), or "" when none is close.
func didYouMean(name string, candidates []string) string {
	best := textdist.Closest(name, candidates)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// commandNames lists the top-level commands.
func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

// errWarehouse marks a warehouse that cannot be one: missing or not a
// directory.
var errWarehouse = errors.New("warehouse")

// checkLocalWarehouse refuses a local warehouse path that does not exist
// (unless the command creates it) or is not a directory, so that a typo
// does not read as an empty warehouse. Other schemes are left to their
// catalog.
func checkLocalWarehouse(warehouse string, mayCreate bool) error {
	p, ok := localPath(warehouse)
	if !ok {
		return nil
	}
	abs, err := filepath.Abs(p)
	if err == nil {
		p = abs
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if mayCreate {
			return nil
		}
		return fmt.Errorf("%w %s does not exist", errWarehouse, p)
	case err != nil:
		return fmt.Errorf("%w %s: %w", errWarehouse, p, err)
	case !fi.IsDir():
		return fmt.Errorf("%w %s is not a directory", errWarehouse, p)
	}
	return nil
}

// localPath returns the operating-system path of a plain path or file:
// warehouse.
func localPath(warehouse string) (string, bool) {
	if warehouse == "" {
		return "", false
	}
	if rest, ok := strings.CutPrefix(warehouse, "file://"); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(warehouse, "file:"); ok {
		return rest, true
	}
	if strings.Contains(warehouse, "://") {
		return "", false
	}
	return warehouse, true
}

// tableNotFound rewrites a failure to load a table that does not exist as
// one line naming the table, the warehouse (absolute for a local one), and
// the closest table or database there is. Other errors are returned as
// they are.
func tableNotFound(ctx context.Context, cat catalog.Catalog, id paimon.Identifier, warehouse string, err error) error {
	if !errors.Is(err, paimon.ErrTableNotFound) && !errors.Is(err, catalog.ErrDatabaseNotFound) {
		return err
	}
	where := ""
	if warehouse != "" {
		if p, ok := localPath(warehouse); ok {
			if abs, aerr := filepath.Abs(p); aerr == nil {
				warehouse = abs
			}
		}
		where = " in warehouse " + warehouse
	}
	var dbs []string
	for name, lerr := range cat.ListDatabases(ctx) {
		if lerr != nil {
			return err
		}
		dbs = append(dbs, name)
	}
	if !slices.Contains(dbs, id.Database) {
		return &hintedError{msg: fmt.Sprintf("database not found: %s%s%s", id.Database, where, didYouMean(id.Database, dbs)), err: err}
	}
	var tables []string
	for tid, lerr := range cat.ListTables(ctx, id.Database) {
		if lerr != nil {
			return err
		}
		tables = append(tables, id.Database+"."+tid.Table)
	}
	name := id.Database + "." + id.Table
	return &hintedError{msg: fmt.Sprintf("table not found: %s%s%s", name, where, didYouMean(name, tables)), err: err}
}

// hintedError replaces the text of err (the library's, with its paths
// inside the file system) by a message for the command line, keeping err
// for errors.Is.
type hintedError struct {
	msg string
	err error
}

func (e *hintedError) Error() string { return e.msg }
func (e *hintedError) Unwrap() error { return e.err }

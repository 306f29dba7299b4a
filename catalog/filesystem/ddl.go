package filesystem

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon"
)

var _ catalog.DDL = (*Catalog)(nil)

// Table options the catalog itself interprets when creating a table (Java
// CoreOptions.PATH, TYPE and CatalogOptions' AUTO_CREATE).
const (
	optionPath       = coreoptions.Path
	optionType       = coreoptions.Type
	optionAutoCreate = coreoptions.AutoCreate
)

// CreateDatabase creates the directory <warehouse>/<name>.db, which is all
// a database is to Java's FileSystemCatalog (it keeps no properties). On an
// object store fs.MkdirAll writes a directory marker "<name>.db/", as
// Java's FileIO.mkdirs does through Hadoop's S3A and GCS connectors, so the
// empty database exists and a table can be created in it.
func (c *Catalog) CreateDatabase(ctx context.Context, name string, ignoreIfExists bool) error {
	if err := checkDatabaseName(name); err != nil {
		return err
	}
	err := c.checkDatabase(ctx, name)
	switch {
	case err == nil:
		if ignoreIfExists {
			return nil
		}
		return fmt.Errorf("%w: %s", catalog.ErrDatabaseExists, name)
	case !errors.Is(err, catalog.ErrDatabaseNotFound):
		return err
	}
	if err := fs.MkdirAll(ctx, c.fsys, c.DatabasePath(name)); err != nil {
		return fmt.Errorf("filesystem catalog: create database %s: %w", name, err)
	}
	return nil
}

// DropDatabase removes the database directory with everything below it.
// Without cascade a database that holds a table (a directory with a schema
// file) is refused with catalog.ErrDatabaseNotEmpty.
func (c *Catalog) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	if err := checkDatabaseName(name); err != nil {
		return err
	}
	if err := c.checkDatabase(ctx, name); err != nil {
		if ignoreIfNotExists && errors.Is(err, catalog.ErrDatabaseNotFound) {
			return nil
		}
		return err
	}
	if !cascade {
		for id, err := range c.ListTables(ctx, name) {
			if err != nil {
				return err
			}
			return fmt.Errorf("%w: %s holds table %s", catalog.ErrDatabaseNotEmpty, name, id.Table)
		}
	}
	if err := fs.RemoveAll(ctx, c.fsys, c.DatabasePath(name)); err != nil {
		return fmt.Errorf("filesystem catalog: drop database %s: %w", name, err)
	}
	return nil
}

// CreateTable writes schema-0 of a new table in <database>.db/<table> (see
// paimon.CreateTable), after the checks of Java's AbstractCatalog: no
// branch, no system table, no "path" option, auto-create not set, and only
// ordinary tables (type "table" or "materialized-table"; format and object
// tables are not supported here).
func (c *Catalog) CreateTable(ctx context.Context, id paimon.Identifier, s *schema.Schema, ignoreIfExists bool) error {
	id, err := ddlIdentifier(id, false)
	if err != nil {
		return err
	}
	if s == nil {
		return fmt.Errorf("filesystem catalog: create table %s: %w: nil schema", id, paimon.ErrInvalidSchema)
	}
	if err := checkCreateOptions(s.Options); err != nil {
		return fmt.Errorf("filesystem catalog: create table %s: %w", id, err)
	}
	if err := c.checkDatabase(ctx, id.Database); err != nil {
		return err
	}
	path := c.TablePath(id)
	exists, err := c.isTable(ctx, path)
	if err != nil {
		return fmt.Errorf("filesystem catalog: table %s: %w", id, err)
	}
	if !exists {
		_, err = paimon.CreateTable(ctx, c.fsys, path, s)
		exists = errors.Is(err, paimon.ErrTableExists)
	}
	switch {
	case exists && ignoreIfExists:
		return nil
	case exists:
		return fmt.Errorf("%w: %s", catalog.ErrTableExists, id)
	case err != nil:
		return fmt.Errorf("filesystem catalog: create table %s: %w", id, err)
	}
	return nil
}

// checkCreateOptions mirrors Java CatalogUtils.validateCreateTable and
// AbstractCatalog.validateCustomTablePath for a filesystem catalog.
func checkCreateOptions(opts map[string]string) error {
	if v, ok := opts[optionAutoCreate]; ok && !strings.EqualFold(v, "false") {
		return fmt.Errorf("%w: the value of the %s option should be false", paimon.ErrInvalidSchema, optionAutoCreate)
	}
	if _, ok := opts[optionPath]; ok {
		return fmt.Errorf("%w: the filesystem catalog does not support specifying the table path", paimon.ErrUnsupported)
	}
	switch t := strings.ToLower(opts[optionType]); t {
	case "", "table", "materialized-table":
	case "format-table", "object-table", "lance-table":
		return fmt.Errorf("%w: creating a table of type %s", paimon.ErrUnsupported, t)
	default:
		return fmt.Errorf("%w: option %s=%q: unknown table type", paimon.ErrInvalidSchema, optionType, opts[optionType])
	}
	return nil
}

// DropTable removes the table directory with all its files and branches.
// Data files written to external paths (data-file.external-paths) are not
// removed.
func (c *Catalog) DropTable(ctx context.Context, id paimon.Identifier, ignoreIfNotExists bool) error {
	id, err := ddlIdentifier(id, false)
	if err != nil {
		return err
	}
	if err := fs.CheckDir("stat", c.warehouse); err != nil {
		return fmt.Errorf("filesystem catalog: warehouse: %w", err)
	}
	path := c.TablePath(id)
	exists, err := c.isTable(ctx, path)
	if err != nil {
		return fmt.Errorf("filesystem catalog: table %s: %w", id, err)
	}
	if !exists {
		if ignoreIfNotExists {
			return nil
		}
		return fmt.Errorf("%w: %s", catalog.ErrTableNotFound, id)
	}
	if err := fs.RemoveAll(ctx, c.fsys, path); err != nil {
		return fmt.Errorf("filesystem catalog: drop table %s: %w", id, err)
	}
	return nil
}

// AlterTable applies changes to the table's latest schema on id.Branch: it
// loads the table and calls paimon.Table.Alter, the one way a schema
// changes.
func (c *Catalog) AlterTable(ctx context.Context, id paimon.Identifier, changes []paimon.SchemaChange, ignoreIfNotExists bool) error {
	id, err := ddlIdentifier(id, true)
	if err != nil {
		return err
	}
	tbl, err := c.LoadTable(ctx, id)
	if errors.Is(err, catalog.ErrTableNotFound) && ignoreIfNotExists {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = tbl.Alter(ctx, changes...)
	switch {
	case errors.Is(err, paimon.ErrTableNotFound): // dropped meanwhile
		if ignoreIfNotExists {
			return nil
		}
		return fmt.Errorf("%w: %s", catalog.ErrTableNotFound, id)
	case err != nil:
		return fmt.Errorf("filesystem catalog: alter table %s: %w", id, err)
	}
	return nil
}

// checkDatabaseName is catalog.CheckDatabaseName.
func checkDatabaseName(name string) error {
	if err := catalog.CheckDatabaseName(name); err != nil {
		return fmt.Errorf("filesystem catalog: %w", err)
	}
	return nil
}

// ddlIdentifier is catalog.DDLIdentifier.
func ddlIdentifier(id paimon.Identifier, allowBranch bool) (paimon.Identifier, error) {
	n, err := catalog.DDLIdentifier(id, allowBranch)
	if err != nil {
		return n, fmt.Errorf("filesystem catalog: %w", err)
	}
	return n, nil
}

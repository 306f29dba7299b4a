package filesystem

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"iter"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/paimon"
)

// DatabaseSuffix ends the directory name of every database (Java
// Catalog.DB_SUFFIX).
const DatabaseSuffix = ".db"

func init() {
	catalog.RegisterMetastore(catalog.DefaultMetastore, open)
}

// open is the catalog.MetastoreOpener for "filesystem"; the catalog it
// returns owns fsys.
func open(_ context.Context, fsys fs.FS, warehouse string, o *catalog.Options) (catalog.Catalog, error) {
	if err := fs.CheckDir("open", warehouse); err != nil {
		return nil, fmt.Errorf("filesystem catalog: warehouse: %w", err)
	}
	c := New(fsys, warehouse, &Options{BlobOpener: o.BlobOpener})
	c.ownsFS = true
	return c, nil
}

// Options configures New; nil is fine.
type Options struct {
	// BlobOpener is given to the tables the catalog loads
	// (paimon.TableOptions.BlobOpener).
	BlobOpener paimon.BlobOpener
}

// Catalog is a catalog.Catalog over a warehouse directory. It is safe for
// concurrent use and caches nothing: every call reads the file system, so
// tables created by other processes are seen at once.
type Catalog struct {
	fsys       fs.FS
	warehouse  string
	ownsFS     bool
	blobOpener paimon.BlobOpener
}

var _ catalog.Catalog = (*Catalog)(nil)

// New returns the catalog of the warehouse directory warehouse ("." for the
// root) of fsys. The caller keeps ownership of fsys: Close does not close
// it. An invalid warehouse name makes every operation fail.
func New(fsys fs.FS, warehouse string, opts *Options) *Catalog {
	if warehouse == "" {
		warehouse = "."
	}
	c := &Catalog{fsys: fsys, warehouse: strings.TrimSuffix(warehouse, "/")}
	if opts != nil {
		c.blobOpener = opts.BlobOpener
	}
	return c
}

// Warehouse returns the warehouse directory inside the file system.
func (c *Catalog) Warehouse() string { return c.warehouse }

// DatabasePath returns the directory of database inside the file system.
func (c *Catalog) DatabasePath(database string) string {
	return fs.Join(c.warehouse, database+DatabaseSuffix)
}

// TablePath returns the directory of the table inside the file system (the
// branch does not change it).
func (c *Catalog) TablePath(id paimon.Identifier) string {
	return fs.Join(c.DatabasePath(id.Database), id.Table)
}

// Close closes the file system when the catalog was made by catalog.Open,
// and does nothing when it was made by New.
func (c *Catalog) Close() error {
	if c.ownsFS {
		return c.fsys.Close()
	}
	return nil
}

// ListDatabases yields the database names in lexical order: the warehouse
// subdirectories ending in ".db", without the suffix (Java
// AbstractCatalog.listDatabasesInFileSystem). A missing warehouse yields
// nothing.
func (c *Catalog) ListDatabases(ctx context.Context) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		if err := fs.CheckDir("list", c.warehouse); err != nil {
			yield("", fmt.Errorf("filesystem catalog: warehouse: %w", err))
			return
		}
		entries, err := fs.ReadDir(ctx, c.fsys, c.warehouse)
		if err != nil {
			yield("", fmt.Errorf("filesystem catalog: list databases in %s: %w", c.warehouse, err))
			return
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name, DatabaseSuffix)
			if !e.IsDir || !ok || checkName(name) != nil {
				continue
			}
			if !yield(name, nil) {
				return
			}
		}
	}
}

// ListTables yields the tables of database in lexical order: its
// subdirectories that hold a schema file on the main branch (Java
// AbstractCatalog.listTablesInFileSystem). Directories without one are
// skipped. A missing database yields an error wrapping
// catalog.ErrDatabaseNotFound.
func (c *Catalog) ListTables(ctx context.Context, database string) iter.Seq2[paimon.Identifier, error] {
	return func(yield func(paimon.Identifier, error) bool) {
		if err := c.checkDatabase(ctx, database); err != nil {
			yield(paimon.Identifier{}, err)
			return
		}
		dir := c.DatabasePath(database)
		entries, err := fs.ReadDir(ctx, c.fsys, dir)
		if err != nil {
			yield(paimon.Identifier{}, fmt.Errorf("filesystem catalog: list tables in %s: %w", dir, err))
			return
		}
		for _, e := range entries {
			if !e.IsDir || checkName(e.Name) != nil {
				continue
			}
			ok, err := c.isTable(ctx, fs.Join(dir, e.Name))
			if err != nil {
				yield(paimon.Identifier{}, fmt.Errorf("filesystem catalog: table %s.%s: %w", database, e.Name, err))
				return
			}
			if ok && !yield(paimon.Identifier{Database: database, Table: e.Name}, nil) {
				return
			}
		}
	}
}

// checkDatabase fails unless database names an existing database
// directory (Java FileSystemCatalog.getDatabaseImpl).
func (c *Catalog) checkDatabase(ctx context.Context, database string) error {
	if err := checkName(database); err != nil {
		return fmt.Errorf("filesystem catalog: database %q: %w", database, err)
	}
	if err := fs.CheckDir("stat", c.warehouse); err != nil {
		return fmt.Errorf("filesystem catalog: warehouse: %w", err)
	}
	fi, err := c.fsys.Stat(ctx, c.DatabasePath(database))
	if errors.Is(err, iofs.ErrNotExist) || (err == nil && !fi.IsDir) {
		return fmt.Errorf("%w: %s", catalog.ErrDatabaseNotFound, database)
	}
	if err != nil {
		return fmt.Errorf("filesystem catalog: database %s: %w", database, err)
	}
	return nil
}

// isTable reports whether dir holds a schema file on the main branch.
// Like Java it tries schema-0 first, which is one request on object
// stores, and lists the schema directory only when schema-0 is gone
// (expired or never written by this writer).
func (c *Catalog) isTable(ctx context.Context, dir string) (bool, error) {
	meta := paimon.NewTableMeta(c.fsys, dir)
	ok, err := fs.Exists(ctx, c.fsys, meta.SchemaPath(0))
	if err != nil || ok {
		return ok, err
	}
	ids, err := meta.SchemaIDs(ctx)
	return len(ids) > 0, err
}

// LoadTable opens the table id names, on id.Branch when it is set. A table
// name in Java's "table$branch_name" form selects that branch too; other
// names containing '$' (system tables such as "orders$snapshots") fail
// with an error wrapping paimon.ErrUnsupported.
func (c *Catalog) LoadTable(ctx context.Context, id paimon.Identifier) (*paimon.Table, error) {
	id, err := normalize(id)
	if err != nil {
		return nil, err
	}
	if err := fs.CheckDir("open", c.warehouse); err != nil {
		return nil, fmt.Errorf("filesystem catalog: warehouse: %w", err)
	}
	t, err := paimon.OpenTable(ctx, c.fsys, c.TablePath(id), &paimon.TableOptions{Branch: id.Branch, Identifier: id, BlobOpener: c.blobOpener})
	if errors.Is(err, paimon.ErrTableNotFound) {
		return nil, fmt.Errorf("%w: %s: %w", catalog.ErrTableNotFound, id, err)
	}
	if err != nil {
		return nil, fmt.Errorf("filesystem catalog: load %s: %w", id, err)
	}
	return t, nil
}

// normalize validates id and splits a "table$branch_name" table name
// (catalog.NormalizeIdentifier).
func normalize(id paimon.Identifier) (paimon.Identifier, error) {
	n, err := catalog.NormalizeIdentifier(id)
	if err != nil {
		return n, fmt.Errorf("filesystem catalog: %w", err)
	}
	return n, nil
}

// checkName is catalog.CheckName.
func checkName(name string) error { return catalog.CheckName(name) }

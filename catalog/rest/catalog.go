package rest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon"
)

func init() {
	catalog.RegisterService(MetastoreName, func(ctx context.Context, uri string, o *catalog.Options) (catalog.Catalog, error) {
		props := map[string]string{}
		if o != nil {
			maps.Copy(props, o.Properties)
		}
		if uri != "" {
			props[OptionURI] = uri
		}
		return New(ctx, props, nil)
	})
}

// Catalog is a catalog.Catalog (with catalog.DDL) served by a Paimon REST
// catalog server, as Java's RESTCatalog. Tables it loads commit through
// the server. It is safe for concurrent use.
type Catalog struct {
	api       *client
	paths     paths
	options   map[string]string // the server's defaults, the caller's options, the server's overrides
	dataToken bool
	defaults  map[string]string // table-default.*
	o         Options

	mu      sync.Mutex
	closed  bool
	fsCache map[string]openedFS // opened table file systems by path
	tokens  []*tokenFS
}

var (
	_ catalog.Catalog = (*Catalog)(nil)
	_ catalog.DDL     = (*Catalog)(nil)
)

// New connects to the REST catalog server at opts["uri"] and fetches its
// configuration for opts["warehouse"] (Java RESTCatalog and RESTApi): the
// server's defaults, then opts, then the server's overrides make the
// catalog options. Authentication comes from token.provider ("bear" with
// token, "dlf" with the dlf.* keys) unless o.Auth is set. o may be nil.
func New(ctx context.Context, opts map[string]string, o *Options) (*Catalog, error) {
	var cfg Options
	if o != nil {
		cfg = *o
	}
	base, err := normalizeURI(opts[OptionURI])
	if err != nil {
		return nil, err
	}
	auth := cfg.Auth
	if auth == nil {
		if auth, err = newAuthProvider(opts); err != nil {
			return nil, err
		}
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	cl := &client{
		base: base, host: hostOf(base), http: hc, auth: auth, headers: prefixed(opts, OptionHeaderPrefix),
		maxRetries: cfg.MaxRetries, retryBase: cfg.RetryBase, timeout: cfg.Timeout,
	}
	if cl.maxRetries <= 0 {
		cl.maxRetries = defaultMaxRetries
	}
	if cl.retryBase <= 0 {
		cl.retryBase = defaultRetryBase
	}
	if cl.timeout == 0 {
		cl.timeout = defaultTimeout
	}
	if sh, ok := auth.(secretHolder); ok {
		cl.secretsOf = sh.secrets
	}
	c := &Catalog{api: cl, o: cfg, fsCache: map[string]openedFS{}}
	query := map[string]string{}
	if wh := opts[OptionWarehouse]; wh != "" {
		// Java puts the warehouse in already encoded, and encodes it again
		// on the way out; do the same so servers see the same bytes.
		query[OptionWarehouse] = encodeString(wh)
	}
	var conf configResponse
	if err := c.get(ctx, configPath, query, &conf); err != nil {
		return nil, wrapf(err, "get configuration")
	}
	merged := map[string]string{}
	maps.Copy(merged, conf.Defaults)
	maps.Copy(merged, opts)
	maps.Copy(merged, conf.Overrides)
	c.options = merged
	maps.Copy(cl.headers, prefixed(merged, OptionHeaderPrefix))
	c.paths = paths{prefix: merged[OptionPrefix]}
	c.dataToken = strings.EqualFold(merged[OptionDataTokenEnabled], "true")
	c.defaults = tableDefaults(merged)
	return c, nil
}

// Options returns the catalog options in force (the server's defaults and
// overrides merged with the caller's). Secrets are included: do not log
// them.
func (c *Catalog) Options() map[string]string { return maps.Clone(c.options) }

// Close closes the file systems the catalog opened for its tables; tables
// loaded earlier must not be used afterwards.
func (c *Catalog) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	var errs []error
	for _, f := range c.fsCache {
		errs = append(errs, f.fsys.Close())
	}
	for _, t := range c.tokens {
		errs = append(errs, t.closeAll())
	}
	c.fsCache, c.tokens = nil, nil
	return errors.Join(errs...)
}

// ListDatabases yields the database names, page by page.
func (c *Catalog) ListDatabases(ctx context.Context) iter.Seq2[string, error] {
	return c.pages(ctx, c.paths.databases(), func(p *pagedNames) []string { return p.Databases })
}

// GetDatabase returns what the server says about a database.
func (c *Catalog) GetDatabase(ctx context.Context, name string) (*DatabaseInfo, error) {
	if err := checkName(name); err != nil {
		return nil, wrapf(err, "database %q", name)
	}
	var d DatabaseInfo
	if err := c.get(ctx, c.paths.database(name), nil, &d); err != nil {
		return nil, databaseError(name, err)
	}
	return &d, nil
}

// ListTables yields the tables of database, page by page, each name once
// (servers may list a table again for each of its branches, as Java's
// RESTCatalogServer does).
func (c *Catalog) ListTables(ctx context.Context, database string) iter.Seq2[paimon.Identifier, error] {
	return func(yield func(paimon.Identifier, error) bool) {
		if err := checkName(database); err != nil {
			yield(paimon.Identifier{}, wrapf(err, "database %q", database))
			return
		}
		seen := map[string]bool{}
		for name, err := range c.pages(ctx, c.paths.tables(database), func(p *pagedNames) []string { return p.Tables }) {
			if err != nil {
				yield(paimon.Identifier{}, databaseError(database, err))
				return
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			if !yield(paimon.Identifier{Database: database, Table: name}, nil) {
				return
			}
		}
	}
}

// GetTable returns what the server says about a table: its uuid, path and
// latest schema.
func (c *Catalog) GetTable(ctx context.Context, id paimon.Identifier) (*TableInfo, error) {
	id, err := normalize(id)
	if err != nil {
		return nil, err
	}
	var info TableInfo
	if err := c.get(ctx, c.paths.table(id.Database, objectName(id)), nil, &info); err != nil {
		return nil, tableError(id, err)
	}
	if info.Path == "" {
		return nil, fmt.Errorf("rest catalog: table %s: %w: no path", id, ErrProtocol)
	}
	return &info, nil
}

// LoadTable opens the table id names on its storage path, as the server
// gives it. The table commits through the server (Java
// CatalogSnapshotCommit); with data-token.enabled its file system uses the
// server's short-lived credentials.
func (c *Catalog) LoadTable(ctx context.Context, id paimon.Identifier) (*paimon.Table, error) {
	id, err := normalize(id)
	if err != nil {
		return nil, err
	}
	info, err := c.GetTable(ctx, id)
	if err != nil {
		return nil, err
	}
	base := paimon.Identifier{Database: id.Database, Table: id.Table}
	fsys, name, err := c.tableFS(ctx, base, info.Path)
	if err != nil {
		return nil, wrapf(err, "table %s", id)
	}
	t, err := paimon.OpenTable(ctx, fsys, name, &paimon.TableOptions{
		Branch:         id.Branch,
		Identifier:     id,
		SnapshotCommit: &committer{c: c, id: base, uuid: info.ID},
	})
	if errors.Is(err, paimon.ErrTableNotFound) {
		return nil, fmt.Errorf("%w: %s: no schema at the path the server gave: %w", catalog.ErrTableNotFound, id, err)
	}
	if err != nil {
		return nil, wrapf(err, "load %s", id)
	}
	if t.Schema().ID < info.SchemaID {
		return nil, fmt.Errorf("rest catalog: load %s: %w: the server's schema %d is newer than the newest schema file (%d)",
			id, ErrProtocol, info.SchemaID, t.Schema().ID)
	}
	return t, nil
}

// tableFS opens the file system of a table path: through data tokens when
// the catalog has them, else by URI. Each path's file system is opened
// once and closed with the catalog.
func (c *Catalog) tableFS(ctx context.Context, id paimon.Identifier, path string) (fs.FS, string, error) {
	if c.dataToken {
		return c.newTokenFS(ctx, id, path)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, "", errors.New("catalog is closed")
	}
	if f, ok := c.fsCache[path]; ok {
		return f.fsys, f.name, nil
	}
	open := c.o.FS
	if open == nil {
		open = fs.OpenURI
	}
	f, name, err := open(ctx, path)
	if err != nil {
		return nil, "", err
	}
	c.fsCache[path] = openedFS{f, name}
	return f, name, nil
}

type openedFS struct {
	fsys fs.FS
	name string
}

// CreateDatabase creates an empty database (Java RESTCatalog.createDatabase).
func (c *Catalog) CreateDatabase(ctx context.Context, name string, ignoreIfExists bool) error {
	return c.CreateDatabaseWithOptions(ctx, name, nil, ignoreIfExists)
}

// CreateDatabaseWithOptions creates a database with properties.
func (c *Catalog) CreateDatabaseWithOptions(ctx context.Context, name string, options map[string]string, ignoreIfExists bool) error {
	if err := checkDatabaseName(name); err != nil {
		return err
	}
	if options == nil {
		options = map[string]string{}
	}
	err := c.post(ctx, c.paths.databases(), map[string]any{"name": name, "options": options}, nil)
	switch {
	case errors.Is(err, ErrAlreadyExists):
		if ignoreIfExists {
			return nil
		}
		return fmt.Errorf("%w: %s: %w", catalog.ErrDatabaseExists, name, err)
	case err != nil:
		return wrapf(err, "create database %s", name)
	}
	return nil
}

// AlterDatabase sets and removes database properties.
func (c *Catalog) AlterDatabase(ctx context.Context, name string, set map[string]string, remove []string, ignoreIfNotExists bool) error {
	if err := checkDatabaseName(name); err != nil {
		return err
	}
	if set == nil {
		set = map[string]string{}
	}
	if remove == nil {
		remove = []string{}
	}
	err := c.post(ctx, c.paths.database(name), map[string]any{"removals": remove, "updates": set}, nil)
	if errors.Is(err, ErrNotFound) && ignoreIfNotExists {
		return nil
	}
	if err != nil {
		return databaseError(name, err)
	}
	return nil
}

// DropDatabase drops a database; without cascade a database holding tables
// is refused (Java RESTCatalog.dropDatabase).
func (c *Catalog) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	if err := checkDatabaseName(name); err != nil {
		return err
	}
	if !cascade {
		for id, err := range c.ListTables(ctx, name) {
			if errors.Is(err, catalog.ErrDatabaseNotFound) && ignoreIfNotExists {
				return nil
			}
			if err != nil {
				return err
			}
			return fmt.Errorf("%w: %s holds table %s", catalog.ErrDatabaseNotEmpty, name, id.Table)
		}
	}
	err := c.del(ctx, c.paths.database(name))
	if errors.Is(err, ErrNotFound) && ignoreIfNotExists {
		return nil
	}
	if err != nil {
		return databaseError(name, err)
	}
	return nil
}

// CreateTable creates a table; the catalog's table-default.* options fill
// in what the schema does not set (Java RESTCatalog.createTable).
func (c *Catalog) CreateTable(ctx context.Context, id paimon.Identifier, s *schema.Schema, ignoreIfExists bool) error {
	id, err := ddlIdentifier(id, false)
	if err != nil {
		return err
	}
	if s == nil {
		return fmt.Errorf("rest catalog: create table %s: %w: nil schema", id, paimon.ErrInvalidSchema)
	}
	if v, ok := s.Options[coreoptions.AutoCreate]; ok && !strings.EqualFold(v, "false") {
		return fmt.Errorf("rest catalog: create table %s: %w: the value of the auto-create option should be false", id, paimon.ErrInvalidSchema)
	}
	req, err := toSchemaJSON(s, c.defaults)
	if err != nil {
		return fmt.Errorf("rest catalog: create table %s: %w: %w", id, paimon.ErrInvalidSchema, err)
	}
	body := map[string]any{
		"identifier": identifierJSON{Database: id.Database, Object: id.Table},
		"schema":     req,
	}
	err = c.post(ctx, c.paths.tables(id.Database), body, nil)
	switch {
	case errors.Is(err, ErrAlreadyExists):
		if ignoreIfExists {
			return nil
		}
		return fmt.Errorf("%w: %s: %w", catalog.ErrTableExists, id, err)
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("%w: %s: %w", catalog.ErrDatabaseNotFound, id.Database, err)
	case errors.Is(err, ErrBadRequest):
		return wrapKind(err, paimon.ErrInvalidSchema, "create table %s: invalid schema", id)
	case err != nil:
		return wrapf(err, "create table %s", id)
	}
	return nil
}

// DropTable drops a table (Java RESTCatalog.dropTable).
func (c *Catalog) DropTable(ctx context.Context, id paimon.Identifier, ignoreIfNotExists bool) error {
	id, err := ddlIdentifier(id, false)
	if err != nil {
		return err
	}
	err = c.del(ctx, c.paths.table(id.Database, id.Table))
	if errors.Is(err, ErrNotFound) && ignoreIfNotExists {
		return nil
	}
	if err != nil {
		return tableError(id, err)
	}
	return nil
}

// RenameTable renames a table (Java RESTCatalog.renameTable).
func (c *Catalog) RenameTable(ctx context.Context, from, to paimon.Identifier, ignoreIfNotExists bool) error {
	from, err := ddlIdentifier(from, false)
	if err != nil {
		return err
	}
	if to, err = ddlIdentifier(to, false); err != nil {
		return err
	}
	body := map[string]any{
		"source":      identifierJSON{Database: from.Database, Object: from.Table},
		"destination": identifierJSON{Database: to.Database, Object: to.Table},
	}
	err = c.post(ctx, c.paths.renameTable(), body, nil)
	switch {
	case errors.Is(err, ErrNotFound) && ignoreIfNotExists:
		return nil
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("%w: %s: %w", catalog.ErrTableNotFound, from, err)
	case errors.Is(err, ErrAlreadyExists):
		return fmt.Errorf("%w: %s: %w", catalog.ErrTableExists, to, err)
	case err != nil:
		return wrapf(err, "rename %s to %s", from, to)
	}
	return nil
}

// AlterTable changes the table's schema (Java RESTCatalog.alterTable): it
// loads the table and calls paimon.Table.Alter, which checks the changes
// against the latest schema as the filesystem catalog does, then sends them
// for the server to apply (alterSchema).
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
	if _, err := tbl.Alter(ctx, changes...); err != nil {
		if errors.Is(err, catalog.ErrTableNotFound) && ignoreIfNotExists {
			return nil // dropped meanwhile
		}
		return wrapf(err, "alter table %s", id)
	}
	return nil
}

// alterSchema sends schema changes for the server to apply (the request of
// Java RESTCatalog.alterTable).
func (c *Catalog) alterSchema(ctx context.Context, id paimon.Identifier, changes []paimon.SchemaChange) error {
	body, err := schemaChangesJSON(changes)
	if err != nil {
		return err
	}
	err = c.post(ctx, c.paths.table(id.Database, objectName(id)), map[string]any{"changes": body}, nil)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound) && resourceIs(err, resourceColumn):
		return wrapKind(err, paimon.ErrInvalidSchema, "invalid change")
	case errors.Is(err, ErrNotFound):
		return tableError(id, err)
	case errors.Is(err, ErrAlreadyExists), errors.Is(err, ErrBadRequest):
		return wrapKind(err, paimon.ErrInvalidSchema, "invalid change")
	}
	return err
}

// databaseError maps an error about database name to the catalog's
// sentinels.
func databaseError(name string, err error) error {
	switch {
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("%w: %s: %w", catalog.ErrDatabaseNotFound, name, err)
	case errors.Is(err, catalog.ErrDatabaseNotFound):
		return err
	}
	return wrapf(err, "database %s", name)
}

// tableError maps an error about table id to the catalog's sentinels.
func tableError(id paimon.Identifier, err error) error {
	if errors.Is(err, ErrNotFound) {
		if resourceIs(err, resourceDatabase) {
			return fmt.Errorf("%w: %s (database %s not found): %w", catalog.ErrTableNotFound, id, id.Database, err)
		}
		return fmt.Errorf("%w: %s: %w", catalog.ErrTableNotFound, id, err)
	}
	return wrapf(err, "table %s", id)
}

// objectName is Java Identifier.getObjectName: the table name with
// "$branch_<b>" for a branch other than main.
func objectName(id paimon.Identifier) string {
	if id.Branch != "" && id.Branch != paimon.MainBranch {
		return id.Table + branchMarker + id.Branch
	}
	return id.Table
}

const branchMarker = "$branch_"

// normalize is catalog.NormalizeIdentifier (the filesystem catalog's name
// rules, so that names stay directory names).
func normalize(id paimon.Identifier) (paimon.Identifier, error) {
	n, err := catalog.NormalizeIdentifier(id)
	if err != nil {
		return n, fmt.Errorf("rest catalog: %w", err)
	}
	return n, nil
}

func checkName(name string) error { return catalog.CheckName(name) }

func checkDatabaseName(name string) error {
	if err := catalog.CheckDatabaseName(name); err != nil {
		return fmt.Errorf("rest catalog: %w", err)
	}
	return nil
}

func ddlIdentifier(id paimon.Identifier, allowBranch bool) (paimon.Identifier, error) {
	n, err := catalog.DDLIdentifier(id, allowBranch)
	if err != nil {
		return n, fmt.Errorf("rest catalog: %w", err)
	}
	return n, nil
}

// now is the catalog's clock.
func (c *Catalog) now() time.Time {
	if c.o.Now != nil {
		return c.o.Now()
	}
	return time.Now()
}

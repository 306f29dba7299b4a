package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"time"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
)

// Errors of table creation and schema evolution (Java SchemaManager,
// SchemaValidation and the Catalog exceptions they throw).
var (
	// ErrTableExists reports a table directory that already holds a schema
	// file, or whose schema-0 another writer created first.
	ErrTableExists = errors.New("paimon: table already exists")

	// ErrInvalidSchema reports a table definition Java would refuse:
	// malformed columns or keys, or options that break SchemaValidation's
	// rules (bucket-key without fixed buckets, unknown merge engine, ...).
	ErrInvalidSchema = errors.New("paimon: invalid table schema")

	// ErrColumnExists reports a schema change adding or renaming to a
	// column name already in use (Java Catalog.ColumnAlreadyExistException).
	ErrColumnExists = errors.New("paimon: column already exists")

	// ErrSchemaChangeRefused reports a schema change Java refuses: changing
	// an immutable option, dropping or retyping a key column, a type change
	// Java cannot cast, ...
	ErrSchemaChangeRefused = errors.New("paimon: schema change refused")
)

// maxCommitAttempts bounds the retries of Table.Alter when other
// writers keep winning the race for the next schema id (Java retries
// forever); it also stops a loop on a store whose listing lags its writes.
const maxCommitAttempts = 100

// nowMillis is the creation time recorded in new schema files (Java
// System.currentTimeMillis).
var nowMillis = func() int64 { return time.Now().UnixMilli() }

// Alter applies changes, in order, to the latest schema of the table's
// branch and returns the new schema, as Java's SchemaManager.commitChanges
// does for ALTER TABLE. It is the one way to change a table's schema: the
// catalogs' DDL AlterTable loads the table and calls it.
//
// The changes are applied to the latest schema (not necessarily the one t
// was opened with) and the result validated like Java's SchemaValidation.
// On the file system the result is written as the next schema file with
// create-if-absent; when another writer took that id first, the latest
// schema is read again and the changes reapplied. A table whose catalog
// commits schema changes (TableOptions.SnapshotCommit implementing
// CatalogSchemas, as a REST catalog's tables do) gets the same checks here,
// then the changes go to the catalog, and the new schema is read back.
//
// t itself keeps the schema it was opened with: open the table again to
// read or write with the new one. Refused changes yield errors wrapping
// ErrColumnNotFound, ErrColumnExists or ErrSchemaChangeRefused; a result
// Java would not accept wraps ErrInvalidSchema. Option changes are checked
// against Java's immutable options only once the table has a snapshot, as
// Java does. The new file is byte for byte what Java writes (options in
// Java's HashMap order), except for timeMillis.
func (t *Table) Alter(ctx context.Context, changes ...SchemaChange) (*schema.TableSchema, error) {
	if t.publisher == nil {
		return commitSchemaChanges(ctx, t.meta, changes)
	}
	cs, ok := t.publisher.(CatalogSchemas)
	if !ok {
		return nil, fmt.Errorf("%w: alter %s: its catalog commits its snapshots but not its schema changes", ErrUnsupported, t.id)
	}
	if _, err := nextSchema(ctx, t.meta, changes, newSnapshotProbe(ctx, t.meta)); err != nil {
		return nil, err
	}
	if err := cs.AlterSchema(ctx, t.meta.Branch(), changes); err != nil {
		return nil, err
	}
	return t.meta.LatestSchema(ctx)
}

// CatalogSchemas is implemented by a SnapshotCommit whose catalog commits
// the table's schema changes (Java RESTCatalog.alterTable: the server runs
// SchemaManager.commitChanges). Table.Alter of such a table checks the
// changes against the latest schema as on the file system, then hands them
// to AlterSchema instead of writing the schema file.
type CatalogSchemas interface {
	// AlterSchema applies changes to the latest schema of branch.
	AlterSchema(ctx context.Context, branch string, changes []SchemaChange) error
}

// newSnapshotProbe returns whether the table has a snapshot, asking once.
func newSnapshotProbe(ctx context.Context, meta *TableMeta) func() (bool, error) {
	var known, has bool
	return func() (bool, error) {
		if !known {
			_, ok, err := meta.LatestSnapshotID(ctx)
			if err != nil {
				return false, fmt.Errorf("paimon: alter table %s: %w", meta.Root(), err)
			}
			known, has = true, ok
		}
		return has, nil
	}
}

// nextSchema reads the latest schema of meta's branch and returns the
// validated result of applying changes to it. A table without schema
// yields ErrTableNotFound.
func nextSchema(ctx context.Context, meta *TableMeta, changes []SchemaChange,
	hasSnapshots func() (bool, error)) (*schema.TableSchema, error) {
	old, err := meta.LatestSchema(ctx)
	if errors.Is(err, ErrSchemaNotFound) {
		return nil, fmt.Errorf("%w: %s: %w", ErrTableNotFound, meta.Root(), err)
	}
	if err != nil {
		return nil, err
	}
	next, err := applySchemaChanges(old, changes, hasSnapshots)
	if err != nil {
		return nil, fmt.Errorf("paimon: alter table %s: %w", meta.Root(), err)
	}
	if err := validateTableSchema(ctx, meta, next); err != nil {
		return nil, err
	}
	return next, nil
}

// commitSchemaChanges is Table.Alter on the file system (Java
// SchemaManager.commitChanges).
func commitSchemaChanges(ctx context.Context, meta *TableMeta, changes []SchemaChange) (*schema.TableSchema, error) {
	hasSnapshots := newSnapshotProbe(ctx, meta)
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next, err := nextSchema(ctx, meta, changes, hasSnapshots)
		if err != nil {
			return nil, err
		}
		err = writeSchema(ctx, meta, next)
		if errors.Is(err, iofs.ErrExist) {
			if attempt >= maxCommitAttempts {
				return nil, fmt.Errorf("paimon: alter table %s: schema %d: gave up after %d concurrent commits: %w",
					meta.Root(), next.ID, attempt, err)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		return next, nil
	}
}

// writeSchema publishes schema-<id> with create-if-absent (Java
// FileIO.tryToWriteAtomic); losing the race is an error wrapping
// io/fs.ErrExist.
func writeSchema(ctx context.Context, meta *TableMeta, ts *schema.TableSchema) error {
	data, err := ts.Encode()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	p := meta.SchemaPath(ts.ID)
	if err := fs.WriteFile(ctx, meta.FS(), p, data, &fs.CreateOptions{IfNotExist: true}); err != nil {
		return fmt.Errorf("paimon: write %s: %w", p, err)
	}
	return nil
}

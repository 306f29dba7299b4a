package catalog

import (
	"context"
	"errors"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// DDL is the optional write side of a Catalog: creating and dropping
// databases and tables and altering table schemas, as Java Paimon's
// Catalog.createDatabase, dropDatabase, createTable, dropTable and
// alterTable do. Test for it with a type assertion:
//
//	if ddl, ok := cat.(catalog.DDL); ok { ... }
//
// Implementations are safe for concurrent use. Names are checked like
// LoadTable's (ErrInvalidIdentifier); the system database "sys" and system
// tables ("t$snapshots") cannot be created, dropped or altered.
type DDL interface {
	// CreateDatabase creates an empty database. An existing one yields
	// ErrDatabaseExists unless ignoreIfExists.
	CreateDatabase(ctx context.Context, name string, ignoreIfExists bool) error

	// DropDatabase removes a database and everything in it. A missing one
	// yields ErrDatabaseNotFound unless ignoreIfNotExists; one that still
	// holds tables yields ErrDatabaseNotEmpty unless cascade.
	DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error

	// CreateTable creates a table with the given definition (see
	// paimon.CreateTable; s may come from schema.NewSchemaBuilder,
	// schema.DecodeSchema or a literal) in an existing database
	// (ErrDatabaseNotFound otherwise). An existing table yields
	// ErrTableExists unless ignoreIfExists. Branches cannot be created
	// this way.
	CreateTable(ctx context.Context, id paimon.Identifier, s *schema.Schema, ignoreIfExists bool) error

	// DropTable removes a table with all its files and branches. A missing
	// one yields ErrTableNotFound unless ignoreIfNotExists.
	DropTable(ctx context.Context, id paimon.Identifier, ignoreIfNotExists bool) error

	// AlterTable applies schema changes to the table, on id.Branch when it
	// is set: it loads the table and calls paimon.Table.Alter, so the
	// changes are checked the same way in every catalog. A missing table
	// yields ErrTableNotFound unless ignoreIfNotExists.
	AlterTable(ctx context.Context, id paimon.Identifier, changes []paimon.SchemaChange, ignoreIfNotExists bool) error
}

// SystemDatabase is the name of Java Paimon's system database, which holds
// global system tables and cannot be created or dropped (Java
// Catalog.SYSTEM_DATABASE_NAME).
const SystemDatabase = "sys"

var (
	// ErrDatabaseExists reports a database that already exists. Errors
	// wrapping it name the database.
	ErrDatabaseExists = errors.New("catalog: database already exists")

	// ErrDatabaseNotEmpty reports dropping, without cascade, a database
	// that still holds tables.
	ErrDatabaseNotEmpty = errors.New("catalog: database is not empty")

	// ErrTableExists reports a table that already exists. It wraps
	// paimon.ErrTableExists, so errors.Is(err, paimon.ErrTableExists)
	// holds for it too. Errors wrapping it name the table.
	ErrTableExists error = &derivedError{msg: "catalog: table already exists", parent: paimon.ErrTableExists}
)

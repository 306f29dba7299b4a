package catalog

import (
	"context"
	"iter"

	"github.com/paimon-go/paimon-go/paimon"
)

// Catalog finds Paimon tables by name. It mirrors the read side of Java
// Paimon's org.apache.paimon.catalog.Catalog. Implementations are safe for
// concurrent use.
//
// Optional capabilities (DDL) are separate interfaces that an
// implementation may also satisfy; test for them with a type assertion.
type Catalog interface {
	// ListDatabases yields the names of all databases. On failure it yields
	// one error and stops.
	ListDatabases(ctx context.Context) iter.Seq2[string, error]

	// ListTables yields the identifiers (on the main branch) of the tables
	// in database. A missing database yields an error wrapping
	// ErrDatabaseNotFound.
	ListTables(ctx context.Context, database string) iter.Seq2[paimon.Identifier, error]

	// LoadTable opens the named table, on id.Branch when it is set. A
	// missing database, table or branch yields an error wrapping
	// ErrTableNotFound (and therefore paimon.ErrTableNotFound).
	LoadTable(ctx context.Context, id paimon.Identifier) (*paimon.Table, error)

	// Close releases what the catalog owns (for a catalog made by Open, the
	// file system). Tables loaded earlier must not be used afterwards if
	// they share that file system.
	Close() error
}

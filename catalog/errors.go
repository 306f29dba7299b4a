package catalog

import (
	"errors"

	"github.com/paimon-go/paimon-go/paimon"
)

var (
	// ErrDatabaseNotFound reports a database that does not exist. Errors
	// wrapping it name the database.
	ErrDatabaseNotFound = errors.New("catalog: database not found")

	// ErrTableNotFound reports a table that does not exist (or a branch of
	// it that does not). It wraps paimon.ErrTableNotFound, so
	// errors.Is(err, paimon.ErrTableNotFound) holds for it too and code
	// written against paimon.OpenTable keeps working with catalogs. Errors
	// wrapping it name the table.
	ErrTableNotFound error = &derivedError{msg: "catalog: table not found", parent: paimon.ErrTableNotFound}

	// ErrInvalidIdentifier reports a database, table or branch name the
	// catalog cannot use: empty, or containing a path separator or "..".
	ErrInvalidIdentifier = errors.New("catalog: invalid identifier")

	// ErrForbidden reports an operation the catalog's server refused for
	// lack of permission (Java's DatabaseNoPermissionException and
	// TableNoPermissionException).
	ErrForbidden = errors.New("catalog: permission denied")
)

// derivedError is a sentinel with its own message that also matches a
// broader sentinel through Unwrap (iceberg-go errors.go style). A plain
// fmt.Errorf("%w") would repeat the parent's message in every error text.
type derivedError struct {
	msg    string
	parent error
}

func (e *derivedError) Error() string { return e.msg }
func (e *derivedError) Unwrap() error { return e.parent }

package schema

import "errors"

// Sentinel errors of the schema package. Errors returned by this package wrap
// one (sometimes two) of them with %w, so callers can classify with errors.Is.
var (
	// ErrCorrupt marks schema JSON that cannot be decoded: malformed JSON,
	// missing required members, members of the wrong JSON kind, or content Java
	// Paimon would refuse to load (an invalid type string, duplicate column
	// names, bucket keys outside the columns, ...).
	ErrCorrupt = errors.New("schema: corrupt schema JSON")

	// ErrInvalidType marks a type string ParseType cannot parse, or a DataType
	// whose parameters are out of range (DECIMAL(40, 2), CHAR(0), TIME(10),
	// a VECTOR of strings, ...).
	ErrInvalidType = errors.New("schema: invalid data type")

	// ErrInvalidSchema marks a table definition that breaks one of Paimon's
	// structural rules (duplicate columns, a primary key that is not a column,
	// a primary key made only of partition keys, ...).
	ErrInvalidSchema = errors.New("schema: invalid table schema")

	// ErrUnsupported marks a type with no mapping to or from Arrow.
	ErrUnsupported = errors.New("schema: unsupported type mapping")
)

func isCorrupt(err error) bool { return errors.Is(err, ErrCorrupt) }

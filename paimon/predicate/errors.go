package predicate

import (
	"errors"
	"fmt"
)

var (
	// ErrUnknownField reports a predicate naming a field the schema does not
	// have (names are matched exactly, case-sensitively).
	ErrUnknownField = errors.New("predicate: unknown field")
	// ErrTypeMismatch reports a literal that cannot be converted to its
	// column's type, or a function not defined on the column's type.
	ErrTypeMismatch = errors.New("predicate: type mismatch")
	// ErrUnsupported reports a predicate this package cannot evaluate, such
	// as a filter on a nested column or NOT over STARTS WITH.
	ErrUnsupported = fmt.Errorf("predicate: unsupported: %w", errors.ErrUnsupported)
	// ErrInvalid reports a malformed predicate, such as a nil predicate or
	// an AND/OR without children.
	ErrInvalid = errors.New("predicate: invalid predicate")
	// ErrBatch reports an Arrow batch that does not match the fields a
	// predicate was bound with (missing column, wrong Arrow type, ragged
	// columns), or a failure to gather the selected rows.
	ErrBatch = errors.New("predicate: batch does not match the bound fields")
)

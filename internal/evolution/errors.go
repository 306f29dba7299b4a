package evolution

import "errors"

// ErrIncompatible reports a type change Java's read path cannot follow: no
// cast rule exists for the pair (CastExecutors.resolve returns null), a MAP's
// key type changed, or a nested type changed in a way only identity allows
// (MULTISET, VECTOR, VARIANT, BLOB).
var ErrIncompatible = errors.New("evolution: incompatible type change")

// ErrCast reports a value the cast rejects, e.g. a string that does not parse
// as the new numeric type. Java fails the read the same way ("Failed to cast
// value for field ...").
var ErrCast = errors.New("evolution: cannot cast value")

// ErrBatch reports a record batch that does not have the columns and types
// Mapping.FileFields promised.
var ErrBatch = errors.New("evolution: batch does not match the file fields")

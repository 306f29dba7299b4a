package mergetree

import (
	"errors"
	"fmt"
)

// ErrInvalid reports Options or a table schema Read cannot work with (no
// primary key, no merge function, a sequence field index out of range).
var ErrInvalid = errors.New("mergetree: invalid read")

// ErrCorrupt reports data that breaks the format: undecodable min/max keys,
// an unknown _VALUE_KIND, a NULL system column, a batch without the columns
// ReadFields promises, or (with the invariants tag) keys out of order.
var ErrCorrupt = errors.New("mergetree: corrupt data")

// ErrUnsupported reports a key or sequence field type Java cannot compare
// either (MAP, MULTISET, VARIANT, BLOB), or whose Java comparison is not
// reproduced.
var ErrUnsupported = fmt.Errorf("mergetree: unsupported: %w", errors.ErrUnsupported)

package parquet

import (
	"errors"
	"fmt"
)

// ErrCorrupt reports a Parquet file that cannot be decoded.
var ErrCorrupt = errors.New("parquet: corrupt file")

// ErrSchema reports a requested field that the file does not hold, or holds
// with a type that cannot be converted to the requested Paimon type.
var ErrSchema = errors.New("parquet: schema mismatch")

// ErrUnsupported reports a well-formed Parquet file that uses something this
// package cannot decode (a compression codec such as LZO). It is never
// ErrCorrupt: the file is fine, the reader lacks the feature.
var ErrUnsupported = fmt.Errorf("parquet: unsupported: %w", errors.ErrUnsupported)

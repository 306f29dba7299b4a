package parquet

import "errors"

// ErrCorrupt reports a Parquet file that cannot be decoded.
var ErrCorrupt = errors.New("parquet: corrupt file")

// ErrSchema reports a requested field that the file does not hold, or holds
// with a type that cannot be converted to the requested Paimon type.
var ErrSchema = errors.New("parquet: schema mismatch")

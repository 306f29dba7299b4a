package avrofile

import "errors"

// ErrCorrupt reports an Avro data file that cannot be decoded.
var ErrCorrupt = errors.New("avrofile: corrupt file")

// ErrSchema reports a requested field that the file does not hold, or holds
// with a type that cannot be converted to the requested Paimon type.
var ErrSchema = errors.New("avrofile: schema mismatch")

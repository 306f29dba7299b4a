package avro

import "errors"

// ErrCorrupt is wrapped by every error caused by the content of a container
// file: bad magic, truncated blocks, codec failures, data that does not match
// the writer schema, or a writer schema the reader schema cannot read.
var ErrCorrupt = errors.New("avro: corrupt container file")

// ErrIncompatibleSchema is wrapped (together with ErrCorrupt) when a file's
// writer schema cannot be resolved against the reader schema, e.g. a field
// the reader needs is missing and has no default, or the types differ.
var ErrIncompatibleSchema = errors.New("avro: writer schema incompatible with reader schema")

// ErrUnsupportedCodec is returned for codec names this package cannot write,
// and wrapped (together with ErrCorrupt) when a file uses a codec it cannot
// read (Avro's bzip2 and xz, which Java could write if configured to).
var ErrUnsupportedCodec = errors.New("avro: unsupported codec")

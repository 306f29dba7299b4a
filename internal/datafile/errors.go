package datafile

import "errors"

// ErrInvalid is wrapped by errors about input a Writer cannot write: a table
// option with a malformed value, a batch whose columns do not match the
// table, a NULL in a NOT NULL column, a Write after Close.
var ErrInvalid = errors.New("datafile: invalid")

// ErrUnsupported is wrapped when the table asks for something this package
// does not write (file formats other than Parquet and Avro, compression
// codecs without a Go implementation, column types the format cannot hold).
var ErrUnsupported = errors.New("datafile: unsupported")

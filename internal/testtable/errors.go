package testtable

import "errors"

// ErrInvalid is wrapped by errors about input the builder cannot write: a
// batch whose schema does not match the table, an empty data file, a bucket
// outside the table's range, a partition value of the wrong type.
var ErrInvalid = errors.New("testtable: invalid input")

// ErrUnsupported is wrapped when the table or a value uses a feature the
// builder does not write (primary keys, file formats other than Parquet and
// Avro, TIMESTAMP(7..9) columns, ...). Errors from internal/datafile carry
// its sentinel too.
var ErrUnsupported = errors.New("testtable: unsupported")

package parquet

// Int96Nanos exposes int96Nanos to the black-box tests.
var Int96Nanos = int96Nanos

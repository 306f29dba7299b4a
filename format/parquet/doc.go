// Package parquet reads Paimon Parquet data files into Arrow record batches.
//
// It wraps arrow-go's parquet/file and parquet/pqarrow and adds what Paimon
// needs on top: columns are resolved by Parquet field id (the Paimon field id
// Java's ParquetSchemaConverter writes) with a fallback to the column name,
// and every output column has exactly the Arrow type schema.ToArrowType gives
// for its Paimon type, whatever physical encoding the writer chose (INT96 for
// TIMESTAMP(7..9), MILLIS/MICROS timestamps, INT32/INT64/FLBA decimals, ...).
// The reader mirrors Java ParquetReaderFactory in role, not in code.
//
// The package is a pure codec: it takes an io.ReaderAt and a size and never
// opens files itself. Schema evolution (missing columns, type promotion) is
// the caller's job; a requested field absent from the file is an error.
package parquet

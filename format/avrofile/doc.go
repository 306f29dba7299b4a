// Package avrofile reads Paimon Avro data files into Arrow record batches and
// writes Arrow record batches as Paimon Avro data files (NewWriter: the
// schema, codec names and block cutting of Java's AvroBulkWriter).
//
// Paimon writes Avro data files as object container files whose schema Java's
// AvroSchemaConverter derives from the table's row type; this package reads
// them the way Java's AvroBulkFormat and FieldReaderFactory do, but straight
// into Arrow builders: the writer schema in the file header is compiled,
// together with the requested Paimon types, into a tree of decoders, so rows
// are never materialised as generic values. Columns are resolved by name
// (Paimon's Avro files carry no field ids), and every output column has
// exactly the Arrow type schema.ToArrowType gives for its Paimon type — the
// same batches format/parquet produces for the same data.
//
// # Type mapping
//
// Following AvroSchemaConverter:
//
//	BOOLEAN                         boolean
//	TINYINT, SMALLINT, INT          int (TINYINT/SMALLINT range-checked)
//	BIGINT                          long
//	FLOAT, DOUBLE                   float, double
//	DECIMAL(p, s)                   bytes (or fixed) with logicalType decimal; scale must match
//	CHAR, VARCHAR                   string
//	BINARY, VARBINARY, BLOB         bytes (for BLOB, Java stores a serialized BlobDescriptor;
//	                                it is returned as stored, not resolved)
//	DATE                            int (date)
//	TIME(p)                         int (time-millis); Java cannot write p > 3
//	TIMESTAMP(p), TIMESTAMP_LTZ(p)  long (timestamp-millis for p <= 3, -micros for p <= 6; the
//	                                local- variants for LTZ); Java cannot write p > 6
//	ARRAY, VECTOR                   array
//	MAP, MULTISET                   map when the key is CHAR/VARCHAR, else an array of
//	                                {key, value} records (logicalType "map"); MULTISET counts are int
//	ROW                             record, fields matched by name
//	nullable T                      ["null", T] (either branch order)
//
// Reading is driven by the writer schema, as in Java: a timestamp column is
// rescaled from whatever unit its logical type names (the nanos variants
// included) to the column's Arrow unit, and the Avro promotions (int to long,
// float or double; long to float or double; float to double; string and
// bytes into each other) are applied. VARIANT has no Avro mapping in Java and
// is rejected. Files written by Paimon before 0.9, whose rows are a
// ["null", record] union, are read as well.
//
// The codecs are null, deflate, snappy and zstandard (decompression lives in
// internal/avro, the only package that talks to the Avro library).
//
// The package is a pure codec: it takes an io.ReaderAt and a size and never
// opens files itself. Schema evolution (missing columns, type promotion) is
// the caller's job; a requested field absent from the file is an error.
package avrofile

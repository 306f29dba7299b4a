// Package rowio moves table rows in and out of text: the JSON and text
// forms of values (EncodeJSON, CellText), their parsing back into values of
// a column type (ParseText, DecodeJSON, exact or an error), the exact casts
// between column types (Castable, Cast), and Sources that turn CSV, JSON
// lines and Parquet files into Arrow batches of a table's columns, ready
// for paimon.TableWriter, and Writers that print rows (WriteRecords: a
// RecordReader's batches) as JSON lines, JSON, CSV, an aligned text table or
// canon-v1 lines. "paimon scan" and the system-table commands print with it
// and "paimon load" reads with it, so that a table dumped by one loads back unchanged with
// the other.
//
// Values are in the format/data model (see package format/data); Value
// reads one from an Arrow column.
//
// The JSON forms: Canon is canon-v1, the interop harness's encoding
// (interop/README.md), exact and comparable with Java's and pypaimon's
// dumps; Text is plain JSON for people and tools, as lossless. Both write
// DECIMAL as strings with their scale, BINARY as hex, DATE/TIME/TIMESTAMP
// as ISO text, ROW as an object in field order, MAP as [key, value] pairs;
// they differ in FLOAT/DOUBLE (IEEE bits or JSON numbers), in the fraction
// digits of TIME and TIMESTAMP (always 3 and 9, or the column's precision)
// and in MAP entry order (sorted or stored).
package rowio

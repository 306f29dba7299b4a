// Command paimon reads Apache Paimon tables from the command line.
//
// Usage:
//
//	paimon <command> [flags] [arguments]
//	paimon help [command]
//	paimon <command> -h
//
// Commands:
//
//	scan       print the rows of a table, or its scan plan
//	snapshots  the table's snapshots (Java's $snapshots system table)
//	schemas    the table's schema versions ($schemas)
//	options    the table's options ($options)
//	tags       the table's tags ($tags)
//
// The inspection commands take the same --warehouse and a table name, and
// print --output table (default), json, jsonl or csv with the columns of
// Java's system tables.
//
// # paimon scan
//
//	paimon scan --warehouse URI db.table [flags]
//
// Flags may come before or after the table name. The table name is
// "database.table", or "database.table$branch_NAME" for a branch.
//
//	--warehouse URI   the catalog's warehouse; defaults to $PAIMON_WAREHOUSE.
//	                  A plain path, file:///abs/path, mem://name/path, or a
//	                  cloud URI (s3://bucket/path, gs://..., azblob://...)
//	--select a,b      columns to return, in order ("row_col.field" selects a
//	                  field of a ROW column); default all
//	--where EXPR      row filter, SQL-like: a = 1 AND s LIKE 'x%' ...
//	                  (the syntax is predicate.Parse's: comparisons, IN,
//	                  IS NULL, prefix LIKE, AND/OR/NOT, typed literals)
//	--snapshot N      read snapshot N instead of the latest
//	--tag T           read the snapshot of tag T
//	--as-of TIME      read the latest snapshot committed at or before TIME:
//	                  RFC 3339 ("2024-05-01T12:00:00Z"), a local date-time
//	                  ("2024-05-01 12:00:00" or "2024-05-01"), or epoch
//	                  milliseconds; at most one of --snapshot, --tag, --as-of
//	--limit N         stop after N rows
//	--audit           read the audit log: a leading rowkind column, and
//	                  deleted keys of primary-key tables as -D rows
//	--incremental S,E read the changes committed after snapshot S up to
//	                  snapshot E, each row with its rowkind
//	                  (--incremental-mode auto, delta or changelog)
//	--output FORMAT   jsonl (default), json, csv or table
//	--explain         print the scan plan instead of the rows
//
// # Output formats
//
// jsonl prints one JSON object per row, keys in column order; json prints the
// same objects as one JSON array. Their values follow the "canon-v1" encoding
// of the interop harness (interop/README.md), so the output can be compared
// with what Java Paimon and pypaimon dump for the same table:
//
//	BOOLEAN, TINYINT … BIGINT   JSON booleans and integers (exact)
//	FLOAT, DOUBLE               "f32:<IEEE bits in hex>", "f64:<bits>"
//	DECIMAL(p, s)               string with exactly s fraction digits: "-0.50"
//	CHAR, VARCHAR               string as stored
//	BINARY, VARBINARY           lowercase hex string
//	DATE, TIME                  "2024-02-29", "12:34:56.789"
//	TIMESTAMP                   "2024-02-29T12:34:56.789000000"
//	TIMESTAMP_LTZ               the UTC instant, with a trailing "Z"
//	ARRAY, VECTOR               JSON array
//	MAP, MULTISET               array of [key, value] pairs sorted by key
//	ROW                         object keyed by field name
//	VARIANT                     {"value": hex, "metadata": hex}
//	BLOB                        lowercase hex string
//
// csv (a header line, then RFC 4180 records) and table (aligned columns, wide
// cells truncated) are meant for people: they render FLOAT and DOUBLE as
// decimal numbers ("1.5", "NaN", "Infinity"), nested values as compact JSON,
// and NULL as an empty field (csv) or NULL (table).
//
// # Explain
//
// --explain plans the scan without reading data files and prints the chosen
// snapshot and schema, the pruning funnel (manifests read and skipped, live
// data files and how many partition, bucket, statistics and limit pruning
// removed) and one line per split: its partition, bucket, file count, rows
// and bytes. With --output json it prints the same as one JSON object.
//
// # Exit status
//
// 0 on success, 1 on a runtime error (the message is printed on standard
// error, prefixed "paimon: "), 2 on a usage error.
//
// # Cloud storage
//
// The command registers the s3, gs and azblob schemes with fs/blobfs.
// Opening a bucket also needs the gocloud.dev driver for its scheme linked
// into the binary; until a driver package is linked, such URIs fail with
// gocloud's "no driver registered" error.
package main

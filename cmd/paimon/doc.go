// Command paimon reads, writes and maintains Apache Paimon tables from the
// command line.
//
// Usage:
//
//	paimon <command> [flags] [arguments]
//	paimon <group> <action> [flags] [arguments]
//	paimon help [command [action]]
//	paimon <command> -h
//
// Every command takes --warehouse URI, which defaults to $PAIMON_WAREHOUSE:
// a plain path, file:///abs/path, mem://name/path, or a cloud URI
// (s3://bucket/path, gs://..., azblob://...). Tables are named
// "database.table" ("database.table$branch_NAME" for a branch where noted).
//
// A REST catalog server is a --warehouse http:// or https:// URI; its
// options (Java's names: warehouse, token.provider, token, dlf.*,
// header.*) come from --catalog-config FILE (KEY=VALUE lines, default
// $PAIMON_CATALOG_CONFIG; keeps secrets off the command line) and
// repeatable --catalog-option KEY=VALUE flags over it. Every command then
// works through the server; commits are published by it:
//
//	paimon db list --warehouse https://host:8080 --catalog-config rest.conf
//
// Flags may come before or after the arguments, but after the command (and
// the action of a group).
//
// Commands:
//
//	scan        print the rows of a table, or its scan plan
//	snapshots   the table's snapshots (Java's $snapshots system table)
//	schemas     the table's schema versions ($schemas)
//	options     the table's options ($options)
//	tags        the table's tags ($tags)
//	manifests   the manifest files of a snapshot ($manifests)
//	files       the data files of a snapshot with their statistics ($files)
//	partitions  the partitions of a table with their sizes ($partitions)
//	buckets     the buckets of a table with their sizes ($buckets)
//	health      a report on layout, compaction backlog, snapshots, consumers
//	db          list, create and drop databases
//	table       list, describe, create, drop and alter tables
//	load        append CSV, JSON lines or Parquet files to an append table
//	expire      expire old snapshots and the files only they reference
//	tag         create, delete and list tags
//	rollback    roll a table back to a snapshot or a tag
//	orphans     list or remove the files nothing references
//	version     print the version and commit the binary was built from
//
// # Inspection
//
//	paimon snapshots|schemas|options|tags|buckets [--output FORMAT] db.table
//	paimon manifests|files|partitions [--output FORMAT] [--snapshot N | --tag T] db.table
//
// These print the rows of Java's system tables, with their columns, as
// --output table (default), json, jsonl, csv or canon. --snapshot and --tag read an
// older snapshot (Java's scan.snapshot-id and scan.tag-name). Times are
// wall-clock times in the local time zone, as Java shows them.
//
//	paimon health [--output text|json] [--small-file-threshold SIZE] db.table
//
// health reads only metadata and reports the table's kind and write
// options, its data per partition and bucket, its snapshots and retention,
// its consumers, and findings (small files, sorted runs and write stalls,
// level-0 files invisible to batch reads, postponed buckets, bucket sizes
// and skew, overdue snapshots, expired or blocking consumers), each naming
// the table options that address it. "paimon help health" lists the rules.
//
// # paimon scan
//
//	paimon scan [flags] db.table
//
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
//	--output FORMAT   jsonl (default), json, csv, table or canon
//	--explain         print the scan plan instead of the rows
//
// --explain plans the scan without reading data files and prints the chosen
// snapshot and schema, the pruning funnel (manifests read and skipped, live
// data files and how many partition, bucket, statistics and limit pruning
// removed) and one line per split: its partition, bucket, file count, rows
// and bytes. With --output json it prints the same as one JSON object.
//
// # Databases and tables
//
//	paimon db list [--output FORMAT]
//	paimon db create [--if-not-exists] NAME
//	paimon db drop [--cascade] [--if-exists] NAME
//	paimon table list [--output FORMAT] DATABASE
//	paimon table describe [--output text|json] db.table
//	paimon table create --schema FILE [--if-not-exists] db.table
//	paimon table drop [--if-exists] db.table
//	paimon table alter CHANGE... db.table
//
// "table create" reads the table definition from a JSON file in the form of
// Java's Schema: {"fields": [{"id": 0, "name": "id", "type": "INT NOT
// NULL"}, ...], "partitionKeys": [...], "primaryKeys": [...], "options":
// {...}, "comment": "..."}; field ids may be left out. "table describe" shows
// the columns and their types, primary and partition keys, bucket mode,
// bucket count and bucket key, merge engine, changelog producer, file
// format, comment, options and the latest snapshot (id, commit time, record
// count). "table alter" applies its changes in the order given, as one new
// schema:
//
//	--set KEY=VALUE               set a table option
//	--unset KEY                   remove a table option
//	--comment TEXT                replace the table comment ("" removes it)
//	--add-column 'NAME TYPE [FIRST | AFTER COL]'
//	--drop-column COL
//	--rename-column OLD=NEW
//	--alter-column-type 'COL TYPE'
//
// Types are Paimon type strings (format/schema.ParseType); a column inside a
// ROW is named by its path (address.city), back-quotes quote a name. A new
// type without NULL or NOT NULL keeps the column's nullability.
//
// # paimon load
//
//	paimon load [--format csv|jsonl|parquet] [--batch-rows N] [--commit-user U]
//	            [--delimiter C] db.table FILE...
//
// load appends the files' rows to an append-only table in one commit and
// prints the new snapshot's id and the number of rows. CSV files start with
// a header of column names and read an empty field as NULL; JSON lines files
// hold one object per line keyed by column name, values as scan prints them
// (plain JSON, or canon-v1); Parquet columns are
// matched by name and cast when every value converts exactly. The format
// comes from --format or the file name. A bad value (reported with file and
// line, or row), a column the table lacks, a missing NOT NULL column, a
// primary-key table: any failure commits nothing and removes the data files
// already written. "paimon help load" details the value syntax.
//
// # Maintenance
//
//	paimon expire [--retain-min N] [--retain-max N] [--older-than DURATION]
//	              [--max-deletes N] [--output text|json] db.table
//	paimon compact [--full] [--where EXPR] [--workers N] [--commit-user U]
//	               [--output text|json] db.table
//	paimon tag create [--snapshot N] [--time-retained DURATION] db.table NAME
//	paimon tag delete [--if-exists] db.table NAME
//	paimon tag list [--output FORMAT] db.table
//	paimon rollback (--snapshot N | --tag T) db.table
//	paimon branch create [--tag T | --snapshot N] db.table NAME
//	paimon branch drop [--if-exists] db.table NAME
//	paimon branch fast-forward db.table NAME
//	paimon branch list [--output FORMAT] db.table
//	paimon orphans [--delete] [--older-than DURATION] [--output text|json] db.table
//
// expire deletes old snapshots and the files only they reference, as Java's
// expire_snapshots procedure; unset flags take the table's snapshot.*
// options. compact rewrites the small files of an append table into larger
// ones in a COMPACT snapshot with Java's compaction rules (--full for a full
// compaction of fixed buckets, --where to pick partitions) and prints the
// files and bytes before and after. "tag create" writes a tag file as Java's TagManager does (the
// snapshot's JSON, plus its creation time and retention when it has one).
// "tag delete" removes a tag while its snapshot still exists or another tag
// holds it; a tag that alone keeps an expired snapshot's files is refused,
// since deleting those files is not implemented. rollback removes the
// snapshots (and tags) newer than the target and makes it the latest again,
// restoring an expired snapshot from its tag; data files are left in place
// as Java leaves them. branch create, drop and fast-forward manage branches
// as Java's FileSystemBranchManager does (a branch starts empty, at a tag or
// at a snapshot; it is read and written as db.table$branch_NAME). orphans
// lists the files no snapshot, tag, changelog or branch references (failed
// commits, crashed writers, the data files a rollback leaves), older than
// --older-than (1 d), with their absolute paths and total size; --delete
// removes them (Java's remove_orphan_files).
//
// # Progress
//
// load, expire, compact, and scan with its output redirected draw a progress line on
// standard error when standard error is a terminal, and stay quiet when it
// is piped or redirected.
//
// # Output formats
//
// jsonl prints one JSON object per row, keys (the column names) in column
// order; json prints the same objects as one JSON array. Values are plain
// JSON, ready for jq, and lossless: load reads every value back unchanged.
//
//	BOOLEAN                     true, false
//	TINYINT … BIGINT            JSON integers (exact; a BIGINT beyond 2^53
//	                            needs a parser that keeps big integers)
//	FLOAT, DOUBLE               JSON numbers, the shortest decimal that reads
//	                            back to the same value: 1.5, 0.1, -0;
//	                            "NaN", "Infinity", "-Infinity" as strings
//	DECIMAL(p, s)               string with exactly s fraction digits: "-0.50"
//	CHAR, VARCHAR               string as stored
//	BINARY, VARBINARY, BLOB     lowercase hex string
//	DATE                        "2024-02-29"
//	TIME(p)                     "12:34:56" with p fraction digits (at most 3)
//	TIMESTAMP(p)                "2024-02-29T12:34:56.789" with p fraction
//	                            digits, wall clock, no zone
//	TIMESTAMP_LTZ(p)            the UTC instant, the same with a trailing "Z"
//	ARRAY, VECTOR               JSON array
//	MAP, MULTISET               array of [key, value] pairs in stored order
//	                            (a MULTISET's value is the element's count)
//	ROW                         object keyed by field name, in field order
//	VARIANT                     {"value": hex, "metadata": hex}
//	NULL                        null
//
// A TIME or TIMESTAMP value holding more digits than its column's
// precision shows them (in steps of three), so nothing is cut.
//
// canon prints jsonl in the "canon-v1" encoding of the interop harness
// (interop/README.md) instead, comparable line by line with what Java
// Paimon and pypaimon dump for the same table: FLOAT and DOUBLE as their
// IEEE bits ("f32:3fc00000", "f64:3ff8000000000000"), TIME with three
// and TIMESTAMP with nine fraction digits, MAP pairs sorted by key; the
// other types as jsonl.
//
// csv (a header line, then RFC 4180 records) and table (aligned columns, wide
// cells truncated) are meant for people: they render values as jsonl does,
// nested values as compact JSON, and NULL as an empty field (csv) or NULL
// (table). What scan prints as csv, jsonl or canon, load reads back.
//
// # Structure (for maintainers)
//
// The command parses flags, prints and draws progress; the library does
// the work: package paimon (scans, writes, commits, expiration, rollback,
// tags, and Table.SystemTable behind the system-table commands),
// paimon/health (the health report as values) and paimon/rowio (the JSON
// and text forms of values, and the CSV, JSON lines and Parquet sources of
// load). In this package, args.go's parseTable is the one command line of
// every command (--warehouse, the table or database, --output, --snapshot
// and --tag), output.go prints rows in every format, and commands.go lists
// the commands. A new command is a run function and one entry in
// commands.go; what it needs beyond flags and printing belongs in the
// library (internal/lint keeps the command off the internal packages).
//
// # Exit status
//
// 0 on success, 1 on a runtime error (one line on standard error, prefixed
// "paimon: "), 2 on a usage error (the message and a hint to the help).
//
// # Cloud storage
//
// The command links fs/blobfs/s3fs, gcsfs and azurefs, so s3://, gs:// and
// azblob:// warehouses work out of the box. Endpoints and credentials come
// from each cloud's standard environment, never from flags or table
// options; see those packages for details. In short:
//
//   - s3://bucket/path: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
//     AWS_REGION, AWS_PROFILE and ~/.aws; AWS_ENDPOINT_URL_S3 for
//     S3-compatible servers. URI parameters such as
//     ?endpoint=...&region=...&use_path_style=true override them.
//   - gs://bucket/path: Application Default Credentials
//     (GOOGLE_APPLICATION_CREDENTIALS, gcloud); STORAGE_EMULATOR_HOST for
//     an emulator; ?anonymous=true for public buckets.
//   - azblob://container/path: AZURE_STORAGE_ACCOUNT with
//     AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN or
//     AZURE_STORAGE_CONNECTION_STRING (else Azure's default credential);
//     AZURE_STORAGE_DOMAIN/_PROTOCOL or ?domain=...&protocol=http for
//     Azurite.
//
// An unknown URI parameter is an error.
//
// # Cloud drivers and binary size
//
// Each cloud driver is linked by its own file (driver_s3.go, driver_gcs.go,
// driver_azure.go) behind a build tag that is off by default, so a plain
// build has all three. Leave out what you do not use:
//
//	go build -tags nos3,nogcs,noazure ./cmd/paimon   # local, mem:// and REST only
//
// Stripped (go build -ldflags='-s -w', CGO_ENABLED=0, linux/amd64, Go
// 1.26), measured when gcsfs left gocloud's gcsblob for the JSON API:
//
//	build                     before     after
//	default (all drivers)     76.3 MB    59.4 MB
//	local only                44.0 MB    43.9 MB
//	-tags nogcs,noazure (S3)  54.3 MB    54.3 MB
//	-tags nos3,noazure (GCS)  64.4 MB    47.5 MB
//	-tags nos3,nogcs (Azure)  49.0 MB    49.0 MB
//
// The Google Cloud Storage client (cloud.google.com/go/storage) brought
// about 17 MB by itself: its gRPC transport with xDS (Envoy's protobuf
// registry) and the OpenTelemetry Cloud Monitoring exporter, linked
// whether or not gRPC is used; gcsfs now speaks the JSON API through
// google.golang.org/api/storage/v1 (see fs/blobfs/gcsfs). What remains:
// the AWS SDK about 10 MB (the S3 client and the default credential chain
// with STS, SSO and IMDS), the Azure SDK about 5 MB; the local-only binary
// is mostly Arrow (its compute kernels, which pqarrow uses) and the
// Parquet, ORC, Avro and compression codecs. Measure with
// `go tool nm -size -sort size` on an unstripped build (MB = 10^6 bytes). A
// warehouse whose scheme was left out fails with an error naming the
// missing driver.
package main

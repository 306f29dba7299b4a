// Package paimon is the table core of paimon-go: it locates and decodes a
// table's files, plans scans and reads them into Arrow record batches,
// creates and alters tables, writes append-only tables and commits
// snapshots, and expires old snapshots.
//
// # Scanning
//
// A Scan is an immutable description of a read, built from a Table with
// functional options that fill a ScanSpec:
//
//	scan := tbl.NewScan(
//		paimon.WithColumns("id", "address.city"),
//		paimon.WithFilter(predicate.And(predicate.Equal("dt", "2026-08-01"), predicate.GreaterThan("amount", int64(100)))),
//		paimon.WithSnapshotID(42), // or WithTimestamp, WithTag; none means the latest snapshot
//	)
//	sch, err := scan.ArrowSchema(ctx) // known before reading, even for an empty result
//	for rec, err := range scan.Records(ctx) {
//		if err != nil { ... }
//		use(rec)
//		rec.Release() // the consumer owns every batch
//	}
//
// Planning (Scan.Plan) mirrors Java's batch scan: it reads the snapshot, its
// manifest lists and its manifests (concurrently, merged in order), then
// drops what the filter proves empty — manifests by their partition
// statistics, files by partition value, by bucket when the filter fixes the
// bucket key (Java BucketSelector), and by min/max/null-count statistics
// written under any older schema (mapped by field id), and on append tables
// by the file indexes (bloom-filter, bitmap, bsi, range-bitmap) embedded in the manifest
// (a separate .index file is tested when its data file is read; see
// file_index.go) — and packs the rest
// into Splits per partition and bucket (Java AppendOnlySplitGenerator).
// PlanStats records the funnel. A Split is a plain serialisable value
// (MarshalBinary), so one process can plan and many read with
// Scan.ReadSplits or Scan.NewReader.
//
// Reading opens each data file with the decoder of its format (Parquet,
// ORC and Avro), skips Parquet row groups and ORC stripes and row groups
// whose statistics exclude the filter, maps columns from the file's schema to the
// scan's by field id with Java's casts (internal/evolution), removes rows
// deleted by deletion vectors, applies the filter exactly (Java's read
// filter is only a pruning hint: engines filter again, and so do we), and
// projects the requested columns. Time travel reads with the schema of the
// chosen snapshot, as Java's AbstractFileStoreTable.tryTimeTravel does.
//
// Primary-key tables are planned as Java's MergeTreeSplitGenerator does:
// a bucket whose files need no merging (all above level 0 and free of
// retractions, with deletion vectors, the first-row engine or a single
// level) is read file by file; otherwise the bucket's files are merged by
// internal/mergetree, which combines the versions of each key with the
// table's merge engine (internal/mergefunc), drops retractions (or keeps
// them for the audit log, WithAuditLog) and hands the merged rows to the
// filter and the projection. Files are pruned by key statistics only.
//
// Tables with row tracking (row-tracking.enabled) give every row a stable
// _ROW_ID and the _SEQUENCE_NUMBER of the commit that last wrote it; a scan
// returns them when WithColumns names them, and WithRowTracking reads the
// table as Java's $row_tracking system table. With data evolution
// (data-evolution.enabled) a writer may update some columns of existing
// rows by adding files of those columns only: a row is assembled from the
// files covering its row id, each column from the newest file that wrote it
// (Java DataEvolutionSplitRead; see data_evolution.go). BLOB columns of
// such tables are read from their .blob files (format/blobfile) as Arrow
// large_binary, a value a later partial write of the column left as a
// placeholder (Java 2.0.0) taken from the newest older file that holds it
// (blob_fallback.go); blob-as-descriptor tables read the same (the option
// only changes what engines show); BLOB columns stored as descriptors in the
// data files (blob-descriptor-field) return the bytes the descriptors name,
// fetched through TableOptions.BlobOpener (blob_descriptor.go).
//
// Writes to such tables: appends get their row ids at commit, as Java's
// commit assigns them (row_tracking_commit.go; a retried commit numbers
// its files again from the new latest snapshot); BLOB columns go to .blob
// files beside the data file (internal/datafile/blob.go); ColumnUpdate
// (Table.NewColumnUpdate) updates some columns of existing rows by _ROW_ID,
// as pypaimon's update_by_arrow_with_row_id does, writing one file per
// row-id group it touches (column_update.go). Compaction of such tables is
// refused.
//
// # Concurrency and memory
//
// A Scan of several splits reads GOMAXPROCS of them at once by default (a
// bounded pool, each worker taking the next unread split), yielding batches
// in plan order, so the rows are those of a sequential read; a scan with a
// Limit reads one split at a time. The files of a split that needs no merge
// are shared out one by one, so that two workers reading five two-file
// splits do not leave the fifth to one of them. WithWorkers(n) sets the pool's size,
// WithUnordered yields batches as they are ready, WithWorkers(1) reads on
// one background goroutine a few batches ahead of the consumer, and a
// negative count reads on the consumer's goroutine. In order, the workers
// on splits the consumer has not reached keep reading into a shared
// look-ahead budget (WithReadAheadBytes, DefaultReadAheadBytes = 128 MiB of
// Arrow buffers), so the default read is about as fast as an unordered
// one instead of waiting for the consumer split by split; a read that
// merges sorted runs gets DefaultMergeReadAheadBytes (16 MiB), because its
// runs already decode ahead on goroutines of their own. A primary-key
// merge decodes each sorted run ahead of the merge on a goroutine of its own
// (WithReadAhead), so that decoding and merging overlap. Memory stays
// bounded, never growing with files or rows: a parallel read holds at most
// the look-ahead budget plus about three batches per worker, and each
// sorted run of a merge holds ReadAhead batches more. TableOptions.ManifestCache keeps decoded manifests
// across the plans of one Table. The figures against Java Paimon, pypaimon
// and paimon-rust are in bench/RESULTS.md.
//
// When order does not matter, WithUnordered is the faster choice for a
// primary-key table: in order, the merge of the bucket being consumed runs
// on one goroutine while the worker on the next bucket waits at the
// look-ahead budget (the suite's 10M-row deduplicating read: 1.72-1.75 s
// unordered against 1.93-1.97 s, same CPU time). The library sets no
// process-wide runtime option: batches are allocated per read and left to
// the garbage collector once released, so a process with memory to spare
// reads faster with a higher GOGC (the suite's unordered full scan of 10M
// rows: 0.83 s at GOGC=300 and 160 MiB, against 0.90-0.94 s and 100 MiB at
// the default), and GOMEMLIMIT bounds what that costs.
//
// # Creating and altering tables
//
// A table definition is a schema.Schema of package format/schema, made one
// of three ways that all fit every CreateTable: schema.NewSchemaBuilder,
// schema.DecodeSchema (Paimon's schema JSON, as `paimon table create
// --schema` reads it) or a literal. CreateTable writes schema/schema-0 from
// it, validated as Java's SchemaValidation does; Table.Alter applies
// SchemaChanges by writing the next schema file, refusing what Java's
// SchemaManager refuses. Both files are byte-identical to Java's (apart
// from the time, options in Java's HashMap order) and are created only if
// absent, so concurrent DDL never overwrites. Catalogs expose the same
// through catalog.DDL, whose CreateTable takes the same schema.Schema and
// whose AlterTable loads the table and calls Table.Alter.
//
// # Writing and committing
//
// Writes are split, as in Java, between writers that produce data files and
// a committer that publishes them:
//
//	w, _ := tbl.NewWriter(nil)             // append-only tables; primary keys: ErrUnsupported
//	defer w.Close(ctx)                     // removes files not handed to a committer
//	_ = w.Write(ctx, rec)                  // columns and types of w.ArrowSchema()
//	msgs, _ := w.PrepareCommit(ctx)        // []CommitMessage, serializable
//	c, _ := tbl.NewCommit(&paimon.CommitOptions{User: "ingester-1"})
//	res, err := c.Commit(ctx, checkpointID, msgs)
//
// TableWriter routes each row to the partition directory and bucket Java
// would choose (same partition names and escaping, same bucket hash) and
// writes Parquet or Avro files rolled at target-file-size, with the value
// statistics Java writes (internal/datafile), so Java prunes our files
// correctly. TableCommit mirrors FileStoreCommitImpl: it writes the delta
// manifests and a manifest list, merges the previous manifests
// (ManifestFileMerger), and creates snapshot-<id> only if it does not exist
// (fs create-if-absent; never a check followed by a rename). A lost race
// re-reads the latest snapshot and retries with backoff up to
// commit.max-retries; files of attempts that were not published are
// removed. A commit identifier is committed at most once per commit user,
// so an ingester that restarts after a crash can re-commit safely
// (FilterCommitted lists what is still missing). Overwrite (static,
// dynamic and whole-table), DropPartitions and Truncate produce OVERWRITE
// snapshots with conflict detection. After a commit, snapshots are expired
// per snapshot.num-retained.* and snapshot.time-retained unless the table
// is write-only; ExpireSnapshots runs it explicitly and never deletes a file
// a retained snapshot, a tag or a branch still references.
//
// # Table metadata
//
// TableMeta reads the metadata files of one table directory — schemas,
// snapshots and their hints, tags, manifest lists, manifests, index manifests
// and index files — through an fs.FS, with the layout Java Paimon uses
// (SnapshotManager, SchemaManager, TagManager, FileStorePathFactory).
// TableMeta.LiveFiles lists the data files of a snapshot. Table.SystemTable
// reads Java's system tables (snapshots, schemas, options, tags, branches,
// consumers, manifests, files, partitions, buckets, audit_log) with Java's
// columns and rendering; package paimon/health turns the metadata into a
// report of findings. Inside the package
// one scanner (file_scan.go, Java's FileStoreScan) reads and merges
// manifests for planning, commit conflict checks and overwrites, manifest
// compaction, expiration, orphan cleaning and the writer's restore: change
// how live files are found there and nowhere else.
//
// # Errors
//
// Every decoding failure is a *CorruptError naming the file and wrapping
// ErrCorrupt; a missing file is an *io/fs.PathError wrapping
// io/fs.ErrNotExist, or one of the Err*NotFound sentinels where the caller
// asked by id or name (ErrSnapshotNotFound, ErrTagNotFound,
// ErrSchemaNotFound). Writes and commits use ErrSchemaMismatch (a batch that
// does not fit the table), ErrSchemaChanged (the table was altered since the
// files were written), ErrCommitConflict, ErrInvalidPartition,
// ErrInvalidOption and ErrUnsupported. Scan options that contradict each other wrap
// ErrInvalidScan, unknown projected columns ErrColumnNotFound, and filter
// problems the predicate package's ErrUnknownField and ErrTypeMismatch.
package paimon

// Package testtable writes small and large Paimon append-only tables for
// tests and benchmarks, laid out exactly as Java Paimon 1.4.2 writes them so
// that Java, pypaimon and this module's readers all accept them.
//
// It is a deliberately narrow writer, independent of package paimon (the
// reader under test must not check itself): one table kind (append-only,
// bucket-unaware or fixed-bucket), and data files written by
// internal/datafile, the write path's file writer (Parquet by default, Avro
// with file.format avro). Every Commit writes the given Arrow batches as one
// data file per DataFile, then one manifest, a base and a delta manifest
// list and snapshot-N, the same files Java's FileStoreCommitImpl produces
// for an APPEND commit:
//
//	t, _ := testtable.Create(ctx, fsys, "wh/db.db/t", sch)
//	t.Commit(ctx, testtable.DataFile{Partition: []any{"2024-01-01"}, Records: batches})
//
// # What matches Java
//
//   - Data files, as internal/datafile writes them: Parquet with the Paimon
//     field id of every column and nested field, zstd (table option
//     file.compression) level 1, decimals up to precision 18 as INT32/INT64,
//     root message "paimon_schema", or Avro as Java's AvroFileFormat writes
//     it; named data-<uuid>-<n>.<format> in <partition path>/bucket-<b>/
//     (Java DataFilePathFactory, PartitionPathUtils).
//   - DataFileMeta as DataFileMeta.forAppend fills it, with value statistics
//     computed as Java derives them (from the Parquet footer, or row by row
//     for Avro) under the stats mode options (metadata.stats-mode, default
//     truncate(16), fields.<col>.stats-mode,
//     metadata.stats-keep-first-n-columns, metadata.stats-dense-store).
//   - Manifests, manifest lists, snapshot JSON and hint files through the
//     format/manifest and format/snapshot encoders; the new snapshot's base
//     list holds the previous base and delta manifests, its delta list the new
//     manifest; _PARTITION_STATS by datafile.PartitionStats.
//
// # What differs from Java
//
//   - Manifests are never merged (Java's ManifestFileMerger would combine
//     small manifests once there are 30 of them), so N commits leave N
//     manifests — what a benchmark of manifest planning wants. Readers do not
//     care.
//   - The caller chooses partitions and buckets; the builder does not hash
//     rows into fixed buckets.
//   - One DataFile is always one file: target-file-size does not roll it.
//     Data files of one bucket share a uuid for the Table's lifetime, where
//     Java takes a new one per writer (per commit).
//   - TIMESTAMP with precision above 6, VARIANT, BLOB and VECTOR columns are
//     refused, as internal/datafile refuses them.
//
// A Table is not safe for concurrent use.
package testtable

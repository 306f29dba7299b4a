// Package testtable writes small and large Paimon append-only tables for
// tests and benchmarks, laid out exactly as Java Paimon 1.4.2 writes them so
// that Java, pypaimon and this module's readers all accept them.
//
// It is a deliberately narrow writer, independent of package paimon (the
// reader under test must not check itself): it knows one file format
// (Parquet, through arrow-go's pqarrow) and one table kind (append-only,
// bucket-unaware or fixed-bucket). Every Commit writes the given Arrow
// batches as one Parquet data file per DataFile, then one manifest, a base
// and a delta manifest list and snapshot-N, the same files Java's
// FileStoreCommitImpl produces for an APPEND commit:
//
//	t, _ := testtable.Create(ctx, fsys, "wh/db.db/t", sch)
//	t.Commit(ctx, testtable.DataFile{Partition: []any{"2024-01-01"}, Records: batches})
//
// # What matches Java
//
//   - Data files: Parquet with the Paimon field id of every column and nested
//     field, zstd (table option file.compression) level 1, decimals up to
//     precision 18 as INT32/INT64, root message "paimon_schema"; named
//     data-<uuid>-<n>.parquet in <partition path>/bucket-<b>/ (Java
//     DataFilePathFactory, PartitionPathUtils).
//   - DataFileMeta as DataFileMeta.forAppend fills it, with value statistics
//     computed the way Java derives them from a Parquet footer
//     (ParquetSimpleStatsExtractor over parquet-java 1.16 column statistics)
//     and the stats mode options (metadata.stats-mode, default truncate(16),
//     fields.<col>.stats-mode, metadata.stats-keep-first-n-columns,
//     metadata.stats-dense-store). See stats.go.
//   - Manifests, manifest lists, snapshot JSON and hint files through the
//     format/manifest and format/snapshot encoders; the new snapshot's base
//     list holds the previous base and delta manifests, its delta list the new
//     manifest.
//
// # What differs from Java
//
//   - Manifests are never merged (Java's ManifestFileMerger would combine
//     small manifests once there are 30 of them), so N commits leave N
//     manifests — what a benchmark of manifest planning wants. Readers do not
//     care.
//   - The caller chooses partitions and buckets; the builder does not hash
//     rows into fixed buckets.
//   - TIMESTAMP with precision above 6, VARIANT, BLOB and VECTOR columns are
//     refused: Java writes the first as INT96, which pqarrow cannot do per
//     column, and the others are outside what the readers support.
//
// A Table is not safe for concurrent use.
package testtable

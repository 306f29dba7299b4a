// Package datafile writes the data files of an append-only Paimon table,
// the way Java Paimon 1.4.2's append write path does (RowDataRollingFileWriter
// over RowDataFileWriter): rows arrive as Arrow batches, go into Parquet or
// Avro files named by DataFilePathFactory's rules, roll to a new file at the
// table's target-file-size, and each finished file is described by a
// manifest.DataFileMeta exactly as DataFileMeta.forAppend fills it, value
// statistics included.
//
// Value statistics follow Java per format (colstats.go): for Parquet they
// are what Java's ParquetSimpleStatsExtractor derives from the footer
// parquet-java returns, for ORC what OrcSimpleStatsExtractor derives from
// the ORC footer (orc.go), for Avro what Java's row-by-row
// SimpleStatsCollector gathers; both under the stats options (metadata.stats-mode, default
// truncate(16), fields.<col>.stats-mode,
// metadata.stats-keep-first-n-columns, metadata.stats-dense-store). Tests
// recompute the statistics of every data file of the Java-written golden
// corpus and compare them byte for byte with Java's manifests.
//
// Formats: Parquet through arrow-go's pqarrow (field ids, root
// "paimon_schema", decimals up to precision 18 as integers, row groups cut
// at parquet.block.size), ORC through format/orc (Java's orc.* options,
// stripes at file.block-size or orc.stripe.size), Avro through
// format/avrofile. The other formats Java knows are refused with
// ErrUnsupported.
//
// The package also holds helpers the rest of the write path shares:
// PartitionStats (a manifest's _PARTITION_STATS), NewUUID and FileNames
// (Java's file-name uuids), and ParseMemorySize (Java's MemorySize).
//
// Parallelism (issue 23): a Parquet batch of a flat schema is encoded
// column by column on up to Options.Workers goroutines (parquet_columns.go),
// producing the same bytes as pqarrow's FileWriter; a Finisher
// (finisher.go) finishes rolled files on background goroutines. A Writer is
// still used from one goroutine; Close and Abort wait for its background
// work, so no goroutine outlives them.
//
// File indexes (file-index.*, fileindex.go): bloom-filter, bitmap, bsi
// and range-bitmap indexes of append files and of primary-key data files
// (value columns; changelog files get none), embedded in the DataFileMeta
// or in a separate .index extra file as Java's DataFileIndexWriter stores
// them.
//
// Not written (a table asking for them still gets correct files without
// them): map-key file indexes (file-index.<type>.columns naming
// "column[key]"), a bsi on DECIMAL wider than 18 digits, external data
// paths
// (data-file.external-paths), per-level formats and compressions,
// VARIANT outside Parquet (Parquet VARIANT is written unshredded, Java's
// default layout), BLOB/VECTOR columns, TIMESTAMP(7..9) in Parquet and Avro, ORC
// bloom filters (orc.bloom.filter.columns: an optional index).
package datafile

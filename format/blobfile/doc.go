// Package blobfile reads and writes Paimon's BLOB files (the ".blob" files
// Java's BlobFileFormat writes beside the data files of a table with a BLOB
// column): one BLOB column per file, each value stored whole.
//
// # Layout
//
// Mirrors Java BlobFormatWriter / BlobFileMeta (1.4.2 and 2.0.0 write the
// same bytes for a plain BLOB column). All integers are little endian.
//
//	record*  per non-NULL value: magic (int32 1481511375), the value's bytes,
//	         the record's length (int64: 4 + len(value) + 8 + 4), and the
//	         CRC-32 (IEEE) of magic, value and length (int32)
//	index    the records' lengths in row order, -1 for NULL (2.0.0 also
//	         writes -2, a placeholder: a partial write of the column left
//	         the row's value to an older file of the same row ids, which
//	         the table reader resolves; see Reader.IsPlaceholder),
//	         delta-encoded, zig-zag and varint (Java DeltaVarintCompressor)
//	footer   the index's length (int32) and the version (byte 1)
//
// A NULL value has no record; its row only has -1 in the index. The file
// records no schema: the column is the data file's _WRITE_COLS.
//
// # Memory
//
// Open reads the footer and index (bounded by the file's size); Read reads
// one batch's records at a time, each checked against its magic, length and
// CRC before it is returned. Corrupt input yields ErrCorrupt, never a panic
// or an allocation beyond the file's size.
package blobfile

// Package index encodes and decodes the content of Paimon's index files, the
// files under <table>/index/ that the index manifest lists:
//
//   - deletion-vector index files (index type DELETION_VECTORS): a version
//     byte followed by one serialized deletion vector per data file, in the
//     32-bit format (Java BitmapDeletionVector, a RoaringBitmap) or the
//     Iceberg-compatible 64-bit format (Bitmap64DeletionVector); see
//     DeletionVector, ReadDeletionVector, ReadAll and DVWriter;
//   - dynamic-bucket hash index files (index type HASH): the primary-key hashes
//     of one bucket as big-endian int32 values (Java HashIndexFile,
//     IntFileUtils); see DecodeHashIndex and EncodeHashIndex.
//
// The package works on bytes and io.ReaderAt/io.Reader values; finding the
// files (paths, the index manifest) is the caller's job, and so is naming the
// file in errors.
//
// # Compatibility
//
// Files written here are byte-identical to Java Paimon 1.4.2's, including the
// RoaringBitmap container choices (Java run-optimises 64-bit vectors, with
// rules that differ slightly from Go roaring's RunOptimize, so this package
// applies Java's). Readers accept every valid RoaringBitmap, including run
// containers in 32-bit vectors, and sparse key lists in 64-bit ones.
//
// Beyond what Java checks, reads verify each vector's CRC32 (Java skips it;
// ReadOptions.IgnoreChecksum restores that), validate the bitmap structure,
// compare the recorded cardinality when present, and reject a hash index
// whose length is not a multiple of four (Java silently drops a partial last
// value).
package index

import "errors"

// ErrCorrupt marks an index file whose bytes are malformed: a wrong version
// byte, a bad magic number, a size that disagrees with the index manifest, a
// CRC mismatch, a truncated or invalid bitmap, a partial hash value.
var ErrCorrupt = errors.New("index: corrupt index file")

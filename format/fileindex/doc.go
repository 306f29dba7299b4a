// Package fileindex decodes and writes Paimon's file indexes: the per-data-file
// indexes a table asks for with file-index.<type>.columns, stored inline in
// the manifest (DataFileMeta._EMBEDDED_FILE_INDEX, when smaller than
// file-index.in-manifest-threshold) or in a separate "<data file>.index"
// extra file.
//
// # Layout (Java org.apache.paimon.fileindex.FileIndexFormat, version 1)
//
//	magic            int64  1493475289347502
//	version          int32  1
//	head length      int32  bytes from the magic to the end of the head
//	column count     int32
//	per column:      UTF (Java DataOutput.writeUTF) column name,
//	                 int32 index count, per index: UTF type, int32 start
//	                 (from the beginning of the file; -1: empty index),
//	                 int32 length
//	redundant length int32 (0)
//	body             the serialized indexes
//
// # Index types
//
//   - bloom-filter (Java BloomFilterFileIndex, BloomFilter64, FastHash):
//     int32 hash-function count, then the bit set. Values are hashed with
//     XXH64 (seed 0) for strings and binaries, with Thomas Wang's 64-bit
//     integer hash for numbers, dates, times and timestamps.
//
//   - bitmap (Java BitmapFileIndex with BitmapFileIndexMeta v1 and
//     BitmapFileIndexMetaV2): one RoaringBitmap of row positions per
//     distinct value and one for NULL.
//
//   - bsi (Java BitSliceIndexBitmapFileIndex, BitSliceIndexRoaringBitmap):
//     values mapped to int64, non-negative and negative (by absolute value)
//     ones each in a bit-sliced index with its min and max; comparisons are
//     answered with O'Neil's bit-sliced algorithm as row sets.
//
//   - range-bitmap (Java RangeBitmapFileIndex, RangeBitmap): a sorted
//     dictionary of the distinct values (ChunkedDictionary) and a
//     bit-sliced index of each row's dictionary code; a literal's rank in
//     the dictionary turns every comparison into one of codes.
//
// Other types answer "may match" (Result Remain): the caller keeps the
// file.
//
// Reading is lazy where Java's is: Index checks an index's headers, and a
// Test reads only the entries it looks up (a bitmap index's one index
// block, a range-bitmap's one dictionary chunk) and decodes only the
// bitmaps it needs, so its cost does not grow with the distinct values
// of the column. Serialized RoaringBitmaps are checked in one pass
// (checkRoaring) before roaring decodes them.
//
// # Writing
//
// NewColumnWriter builds each of the four types as Java's FileIndexWriter
// does (BloomFilterFileIndex, BitmapFileIndex version 2,
// BitSliceIndexBitmapFileIndex, RangeBitmapFileIndex) and Encode frames
// them as FileIndexFormat.Writer. The bsi and range-bitmap bytes are
// Java's for the same rows (checked against the golden Java 1.4.2 and
// 2.0.0 files; the format did not change between them): RoaringBitmaps are
// run-optimized before they are serialized, as RoaringBitmap32.serialize
// does. A bitmap index's value order in its body follows first sight here
// and Java's HashMap there, so its bytes may differ while meaning the same.
//
// # Soundness
//
// An index only ever removes a file (or rows) no row of which can match: a
// value the index cannot represent exactly (a floating-point zero or NaN,
// whose equality differs between Java's boxed keys and SQL), an unsupported
// type or a damaged index answers Remain. Damaged input never panics.
package fileindex

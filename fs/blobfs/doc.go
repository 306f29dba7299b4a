// Package blobfs adapts a gocloud.dev *blob.Bucket (S3, GCS, Azure Blob, or
// the in-memory memblob) to fs.FS, playing the role of Java Paimon's
// object-store FileIOs (paimon-s3, paimon-gs, paimon-azure).
//
// # Mapping
//
//   - Names become object keys below an optional prefix ("prefix/name").
//   - Open looks up the object's size once (Bucket.Attributes); every
//     File.ReadAt is one ranged GET (Bucket.NewRangeReader), so concurrent
//     reads of different column chunks need no coordination.
//   - Create streams through Bucket.Upload. The package deliberately avoids
//     Bucket.NewWriter: in the azureblob driver a failed upload on that path
//     (including a lost IfNotExist race) panics the process (see
//     docs/deps.md §3), while Upload reports it as an error.
//   - CreateOptions.IfNotExist maps to blob.WriterOptions.IfNotExist, which
//     the drivers implement with the store's own conditional write
//     (S3 If-None-Match: *, GCS ifGenerationMatch=0, Azure If-None-Match: *,
//     memblob under its lock). A FailedPrecondition answer becomes an error
//     satisfying errors.Is(err, io/fs.ErrExist); NotFound becomes
//     io/fs.ErrNotExist.
//   - List uses delimiter "/" so that common prefixes appear as
//     directories; zero-byte "dir/" marker objects written by Hadoop-style
//     clients are hidden.
//   - Abort cancels the upload's context before ending its input, so no
//     driver ever commits a partial object.
//
// # fileblob is refused for IfNotExist
//
// The fileblob driver implements IfNotExist as os.Stat followed by os.Rename
// under a mutex private to one Writer. Two writers — even two goroutines on
// one bucket — can both pass the check and the later rename silently
// replaces the earlier file: a lost commit. Measured in docs/deps.md §3:
// 3000 keys raced by two handles produced 1411 keys with two "winners".
// blobfs therefore detects fileblob buckets and fails IfNotExist creates
// with an error wrapping fs.ErrUnsupported; use fs/localfs, whose
// create-if-absent is a hard link. Plain creates, reads and listings work on
// fileblob.
//
// # Consistency caveats
//
// A File reads the object as it is at each ReadAt; if the object is replaced
// while open, reads may mix versions or fail with io.ErrUnexpectedEOF. Paimon
// never rewrites data files, and hint files are read whole with fs.ReadFile.
// An error from Writer.Close caused by cancellation or a network failure
// does not prove the object was not written: the store may have committed
// it before the response was lost.
//
// # URIs
//
// Importing blobfs registers nothing and links no cloud SDK. To make
// fs.OpenURI understand cloud URIs, blank-import the gocloud drivers you want
// and call [RegisterSchemes]:
//
//	import _ "gocloud.dev/blob/s3blob"
//
//	blobfs.RegisterSchemes("s3")
//	fsys, name, err := fs.OpenURI(ctx, "s3://bucket/warehouse?region=eu-west-1")
package blobfs

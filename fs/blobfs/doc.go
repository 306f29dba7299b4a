// Package blobfs adapts a gocloud.dev *blob.Bucket (S3, GCS, Azure Blob, or
// the in-memory memblob) to fs.FS, playing the role of Java Paimon's
// object-store FileIOs (paimon-s3, paimon-gs, paimon-azure). Its driver
// packages make cloud warehouses work with a blank import:
//
//   - fs/blobfs/s3fs: s3:// (Amazon S3 and S3-compatible servers);
//   - fs/blobfs/gcsfs: gs:// (Google Cloud Storage, fake-gcs-server);
//   - fs/blobfs/azurefs: azblob:// (Azure Blob Storage, Azurite).
//
// Each takes its endpoint and credentials from the cloud's standard
// environment and configuration files, never from Paimon table options,
// and documents how in its package comment.
//
// # Mapping
//
//   - Names become object keys below an optional prefix ("prefix/name").
//   - Open looks up the object's size once (Bucket.Attributes); every
//     File.ReadAt is one ranged GET (Bucket.NewRangeReader), so concurrent
//     reads of different column chunks, and the footer read of a Parquet
//     file, need no coordination and fetch only what is asked for.
//   - Create streams through Bucket.Upload. The package deliberately avoids
//     Bucket.NewWriter: in the azureblob driver a failed upload on that path
//     (including a lost IfNotExist race) panics the process (see
//     docs/deps.md §3), while Upload reports it as an error.
//   - CreateOptions.IfNotExist maps to blob.WriterOptions.IfNotExist, which
//     the drivers implement with the store's own conditional write
//     (S3 If-None-Match: *, GCS ifGenerationMatch=0, Azure If-None-Match: *,
//     memblob under its lock). Such a create is buffered in memory and
//     uploaded by Close (snapshot and hint files are small), so that its
//     outcome can be verified; see below.
//   - List uses delimiter "/" so that common prefixes appear as
//     directories, one page of up to 1000 entries per request.
//   - Abort cancels the upload's context before ending its input, so no
//     driver ever commits a partial object.
//
// # Verified create-if-absent
//
// SDKs retry failed requests by themselves. When the first attempt of a
// conditional PUT landed but its answer was lost, the retry finds the
// object that attempt wrote and the store answers 412: a win reported as a
// loss, and a committer that believes it lost retries its commit as
// snapshot N+1 — a duplicate commit. S3 may also answer 409
// ConditionalRequestConflict (gocloud code Unknown) while another
// conditional write of the key is in flight.
//
// So when the store answers FailedPrecondition or something ambiguous
// (Unknown, Internal, ResourceExhausted, DeadlineExceeded: transport errors
// and unclassified 5xx), blobfs reads the object back: the same bytes mean
// this writer won (Close returns nil); other bytes mean it lost (an error
// satisfying errors.Is(err, io/fs.ErrExist)); no object after an ambiguous
// answer means the request did not land, and the conditional upload is
// repeated, which If-None-Match keeps safe. If the object cannot be read
// back, or the context ends after the upload was sent, Close fails with
// [ErrUnverifiedConflict]: the outcome is unknown, and commit code must not
// treat it as a lost race. A definite refusal (PermissionDenied,
// InvalidArgument, a missing bucket) is returned as is.
//
// A consequence: creating a file whose name exists with identical content
// succeeds. Two Paimon committers never write identical snapshots (the
// commit user and identifier differ), and for one committer repeating a
// commit it is the right answer.
//
// # Retries
//
// Reads — File.ReadAt, ReadFile, the size lookup of Open and Stat, each
// listing page — are retried on transient errors with exponential backoff
// and jitter, bounded by Options.Retry (default: 4 attempts, 100ms
// doubling to at most 2s) and by the context. NotFound, PermissionDenied,
// FailedPrecondition, InvalidArgument and cancellation are never retried.
// Writes other than create-if-absent and deletes rely on the SDK's own
// retries.
//
// # Directory markers
//
// Zero-byte objects named "dir/", which Hadoop's S3A and GCS connectors,
// consoles and other tools write for empty directories, are directories
// to Stat and List and never files; a directory's own marker is hidden
// from its listing, and RemoveAll deletes markers with everything else.
// Drivers with other marker conventions describe them in Options.Markers
// (see [Markers]); azurefs does so for azureblob's escaped "dir/" keys and
// for the hdi_isfolder blobs of Hadoop's Azure connectors.
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
// An error from Writer.Close of a plain create caused by cancellation or a
// network failure does not prove the object was not written: the store may
// have committed it before the response was lost.
//
// # URIs
//
// Importing blobfs itself registers nothing and links no cloud SDK. The
// driver packages call [Register] from init. For other gocloud drivers,
// blank-import the driver and call [RegisterSchemes]:
//
//	import _ "gocloud.dev/blob/memblob"
//
//	blobfs.RegisterSchemes("mem")
//	fsys, name, err := fs.OpenURI(ctx, "mem://bucket/warehouse")
package blobfs

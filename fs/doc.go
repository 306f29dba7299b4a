// Package fs is the storage abstraction of paimon-go: a small, context-first
// file system interface that Paimon tables are read from and written to.
//
// It plays the role of Java Paimon's org.apache.paimon.fs.FileIO, narrowed to
// what a table format needs: open a file with its size and read byte ranges
// concurrently, create a file (overwrite or create-if-absent), remove a file,
// stat a name and list a directory. Renames are deliberately absent: object
// stores cannot rename atomically, so Paimon's commit protocol is expressed as
// an atomic create-if-absent instead (see [CreateOptions.IfNotExist]).
//
// # Implementations
//
// The interfaces live here; implementations are separate packages so that the
// core never links a cloud SDK:
//
//   - fs/localfs: the operating system's file system, rooted at a directory.
//   - fs/memfs: an in-memory file system for tests and examples.
//   - fs/blobfs: an adapter from a gocloud.dev *blob.Bucket, with the
//     drivers fs/blobfs/s3fs, gcsfs and azurefs (S3, GCS, Azure Blob).
//   - fs/fstest: a conformance suite every implementation runs, plus test
//     decorators (operation counting, fault injection).
//
// # Names
//
// Names are slash-separated paths relative to the root of an [FS], in the
// sense of [io/fs.ValidPath]: no leading slash, no "." or ".." elements, no
// empty elements and no trailing slash. "." names the root and is accepted
// only where a directory is expected ([FS.List], [FS.Stat], [MkdirAll]).
// Names that could escape the root are rejected with an error wrapping
// [ErrInvalidName]; no implementation ever interprets them.
//
// # Errors
//
// Errors about a name are *[io/fs.PathError] values whose Path is the name
// passed in. Missing files satisfy errors.Is(err, io/fs.ErrNotExist); a lost
// create-if-absent race satisfies errors.Is(err, io/fs.ErrExist). Operations
// an implementation cannot perform safely wrap [ErrUnsupported].
//
// # Context
//
// Every operation takes a context.Context first. FS values never store one.
// The short-lived handles do: a [File] is bound to the context given to
// [FS.Open] and a [Writer] to the one given to [FS.Create]; once that context
// is done, their reads fail and their Close publishes nothing.
//
// # Optional capabilities
//
// Beyond the required [FS] methods, an implementation may offer
// [MkdirAllFS], [RemoveAllFS] and [ReadFileFS]. Callers do not type-assert
// these themselves: the helpers [MkdirAll], [RemoveAll] and [ReadFile] use the
// capability when present and fall back to the required methods otherwise.
//
// # URIs
//
// [OpenURI] resolves "scheme://..." strings and plain paths through a registry
// filled by [Register]. Implementation packages register their schemes when
// imported: fs/localfs registers "file" (and plain paths), fs/memfs "mem".
// Cloud schemes are registered by blank-importing their driver package, so
// nothing links a cloud SDK by accident: fs/blobfs/s3fs registers "s3",
// fs/blobfs/gcsfs "gs" and fs/blobfs/azurefs "azblob".
//
//	import (
//		"github.com/paimon-go/paimon-go/fs"
//		_ "github.com/paimon-go/paimon-go/fs/blobfs/s3fs"
//	)
//
//	fsys, root, err := fs.OpenURI(ctx, "s3://bucket/warehouse")
package fs

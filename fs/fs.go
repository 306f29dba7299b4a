package fs

import (
	"context"
	"io"
	"iter"
	"time"
)

// FS is a file system holding Paimon tables. It mirrors the subset of Java
// Paimon's FileIO that the table format relies on.
//
// All methods are safe for concurrent use. Names follow the rules in the
// package documentation; invalid names are rejected with an error wrapping
// [ErrInvalidName].
type FS interface {
	// Open opens the named file for random-access reading. The returned
	// File is bound to ctx: once ctx is done, its ReadAt calls fail.
	//
	// A missing file yields a *io/fs.PathError satisfying
	// errors.Is(err, io/fs.ErrNotExist). Opening a directory fails.
	Open(ctx context.Context, name string) (File, error)

	// Create starts writing the named file, creating parent directories as
	// needed. Nothing is visible under name until Writer.Close succeeds;
	// Writer.Abort discards everything. The Writer is bound to ctx: if ctx
	// is done before Close, Close fails and publishes nothing.
	//
	// Without options (or with IfNotExist false) Close replaces any
	// existing file atomically: readers see either the old or the new
	// content, never a mix.
	//
	// With IfNotExist, Close publishes the file only if name does not exist
	// at that moment, atomically with respect to every other writer in any
	// process; otherwise it fails with an error satisfying
	// errors.Is(err, io/fs.ErrExist) and leaves the existing file
	// untouched. An implementation that cannot guarantee this atomicity
	// must fail Create with an error wrapping [ErrUnsupported] rather than
	// emulate it with a check followed by a write.
	Create(ctx context.Context, name string, opts *CreateOptions) (Writer, error)

	// Remove deletes the named file. A missing file yields a
	// *io/fs.PathError satisfying errors.Is(err, io/fs.ErrNotExist).
	// Whether empty directories can be removed this way is
	// implementation-defined; use [RemoveAll] for directories.
	Remove(ctx context.Context, name string) error

	// Stat describes the named file or directory. "." names the root.
	// Object stores have no real directories: a name is reported as a
	// directory when files exist below it.
	Stat(ctx context.Context, name string) (FileInfo, error)

	// List yields the entries directly inside dir (not recursively), in no
	// particular order; use [ReadDir] for a sorted slice. "." lists the
	// root. A directory that does not exist yields no entries and no error,
	// because object stores cannot tell it apart from an empty one.
	//
	// On failure the sequence yields one zero FileInfo with a non-nil error
	// and stops. Breaking out of the loop early releases all resources.
	// The loop body may modify the FS (remove listed files, say); entries
	// added or removed during the iteration may or may not be reported.
	List(ctx context.Context, dir string) iter.Seq2[FileInfo, error]

	// Close releases resources held by the FS (for example an object-store
	// client it opened itself). Files and Writers obtained earlier must be
	// closed first. Close on an FS that owns nothing is a no-op.
	Close() error
}

// File is an open file for random-access reads. ReadAt follows the
// io.ReaderAt contract and is safe for concurrent use; reading at or past
// Size returns io.EOF. A File is bound to the context of the Open call that
// returned it.
//
// Wrap it in io.NewSectionReader(f, 0, f.Size()) where an io.ReadSeeker is
// needed (for example a Parquet reader).
type File interface {
	io.ReaderAt
	io.Closer
	// Size is the length of the file in bytes, as observed by Open.
	Size() int64
}

// Writer receives the content of a file being created. Nothing becomes
// visible until Close returns nil.
//
// After a failed Write the Writer is unusable and Close publishes nothing.
// Abort after a successful Close is a no-op returning nil, so
// "defer w.Abort()" is a safe way to clean up on every error path. Write or
// Close after Close or Abort fails with an error wrapping io/fs.ErrClosed.
// A Writer is not safe for concurrent use.
type Writer interface {
	io.Writer
	// Close flushes and publishes the file. See FS.Create for the
	// semantics of IfNotExist.
	Close() error
	// Abort discards everything written; no trace of the file remains.
	Abort() error
}

// BufferedWriter is implemented by Writers that hold data in memory
// before it reaches storage (a write buffer, an upload part). Writers of
// many files at once (a table writer touching thousands of partitions)
// count it in their memory budget; use the [WriterBufferSize] helper.
type BufferedWriter interface {
	Writer
	// BufferSize is the most memory the open Writer holds for data not
	// yet handed to storage.
	BufferSize() int64
}

// DefaultWriterBuffer is what [WriterBufferSize] assumes of a Writer that
// does not say.
const DefaultWriterBuffer int64 = 64 << 10

// WriterBufferSize is w's BufferSize when it implements [BufferedWriter],
// else DefaultWriterBuffer.
func WriterBufferSize(w Writer) int64 {
	if b, ok := w.(BufferedWriter); ok {
		return b.BufferSize()
	}
	return DefaultWriterBuffer
}

// CreateOptions tunes [FS.Create]. A nil *CreateOptions is the zero value.
type CreateOptions struct {
	// IfNotExist makes Create publish the file only if its name does not
	// exist yet, atomically across processes. This is Paimon's commit
	// primitive: a snapshot file "snapshot-N" is created this way so that
	// exactly one of several concurrent committers wins snapshot N (Java
	// Paimon reaches the same goal with FileIO.tryToWriteAtomic, a rename
	// that must not replace an existing target).
	IfNotExist bool
	// NoSync says the file need not survive a machine crash: it is a hint
	// that readers verify and can do without (Paimon's snapshot/LATEST and
	// snapshot/EARLIEST, which Java's readers also only trust after a
	// check, and which Java's local FileIO never syncs). Implementations
	// that make a file durable before publishing it (localfs: an fsync of
	// the file, then of its directory) may skip that work; the publish
	// stays atomic, so a reader sees the old file or the new one, and after
	// a crash perhaps the old one or an empty one. Others ignore it.
	NoSync bool
}

// FileInfo describes a file or directory, as returned by [FS.Stat] and
// [FS.List].
type FileInfo struct {
	// Name is the base name (the last element of the path); "." for the
	// root.
	Name string
	// Size is the length in bytes; zero for directories.
	Size int64
	// ModTime is the modification time, when the implementation knows it
	// (zero for object-store directories).
	ModTime time.Time
	// IsDir reports whether the entry is a directory (for object stores: a
	// common prefix).
	IsDir bool
}

// MkdirAllFS is implemented by file systems that can make a directory
// exist without a file in it: real directories, or on object stores
// (fs/blobfs) a directory marker object as Hadoop's connectors write one. Use the
// [MkdirAll] helper rather than asserting this interface: wrappers such as
// [Sub] implement all optional interfaces and delegate to the helpers, so a
// successful assertion says nothing about the underlying store.
type MkdirAllFS interface {
	FS
	// MkdirAll creates dir and any missing parents. It succeeds if dir
	// already exists as a directory.
	MkdirAll(ctx context.Context, dir string) error
}

// RemoveAllFS is implemented by file systems that can remove a directory
// tree more efficiently than file by file. Use the [RemoveAll] helper
// rather than asserting this interface.
type RemoveAllFS interface {
	FS
	// RemoveAll removes name and everything below it. A missing name is
	// not an error. The root "." is refused.
	RemoveAll(ctx context.Context, name string) error
}

// ReadFileFS is implemented by file systems that can read a whole file in
// one request (saving the size lookup of Open on object stores). Use the
// [ReadFile] helper rather than asserting this interface.
type ReadFileFS interface {
	FS
	// ReadFile returns the content of the named file.
	ReadFile(ctx context.Context, name string) ([]byte, error)
}

// Package localfs implements fs.FS on the operating system's file system,
// rooted at a directory. It is the Go counterpart of Java Paimon's
// org.apache.paimon.fs.local.LocalFileIO, with a stronger commit primitive.
//
// # Atomic create-if-absent
//
// Paimon commits snapshot N by creating "snapshot/snapshot-N" only if it does
// not exist yet; of several concurrent committers exactly one may win. Java's
// LocalFileIO gets there with an in-JVM lock around "exists, then rename",
// which protects only committers inside one JVM, and rename(2) itself
// silently replaces an existing target. localfs instead:
//
//  1. writes the content to a temporary file ".<name>.<random>.tmp" in the
//     target directory (the leading dot matters: Java Paimon lists
//     "snapshot-*" and parses the rest of the name, and it names its own
//     temporary files the same way, see Path.createTempPath);
//  2. fsyncs it;
//  3. hard-links it to the final name with link(2), which fails with EEXIST
//     if the name exists, atomically in the kernel, for every process on the
//     machine (and over NFS, where link is the classic lock primitive);
//  4. removes the temporary name.
//
// There is never a separate existence check, so there is no window in which
// two writers can both believe they won. A file system without hard links
// makes Close fail with an error wrapping fs.ErrUnsupported rather than fall
// back to something weaker.
//
// A plain (overwriting) Create also writes a temporary file and publishes it
// with rename(2), so readers see the old or the new content, never a partial
// file.
//
// # Durability
//
// Files are fsynced before they are published, and their directory
// afterwards (best effort), so a snapshot that is visible after a crash
// never points at data files that were lost. Options.NoSync skips this for
// tests and scratch data. On Linux a file being written asks the kernel to
// start writing each 8 MiB to disk as it goes (sync_file_range), so the
// fsync before publishing waits for the last piece, not the whole file.
//
// # URIs
//
// Importing this package registers the "file" scheme with fs.Register, which
// also serves plain paths given to fs.OpenURI. The returned FS is rooted at
// the file system root ("/" or the volume on Windows) and the name is the
// absolute path without its leading separator.
//
// # Symbolic links
//
// Names are validated lexically (no "..", no absolute names), which keeps a
// caller inside the root. Symbolic links found inside the root are followed,
// as Java does; the root is a naming boundary, not a security sandbox.
package localfs

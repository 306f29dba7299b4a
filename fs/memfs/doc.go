// Package memfs implements fs.FS in memory, for tests and examples.
//
// It follows the semantics of fs/localfs closely so that code tested on
// memfs behaves the same on disk: directories are real (created implicitly
// by Create and explicitly by MkdirAll, and kept after their last file is
// removed), a file is invisible until its Writer's Close, plain Create
// replaces atomically, and IfNotExist is decided atomically under the file
// system's lock. Open takes a snapshot of the file's bytes, so a reader
// keeps seeing the content it opened even if the file is replaced, like an
// open descriptor of a renamed-over file.
//
// Importing the package registers the "mem" scheme with fs.Register:
// "mem://NAME/path" resolves to the process-wide file system [Named](NAME).
//
// To count or fail operations (for example to prove that a scan opened only
// the files it had to), wrap an FS with fs/fstest.NewCountingFS.
package memfs

// Package storetest is the table-level conformance suite for fs.FS
// implementations: where fs/fstest checks the file operations one by one,
// storetest drives the public paimon API (create, write, commit, scan,
// overwrite, concurrent commits, snapshot expiration, tags, rollback,
// orphan-file cleaning, and a table written by Java Paimon 1.4.2) on top of
// a file system and checks every row that comes back. Java Paimon runs its
// table tests against each FileIO the same way (the S3/OSS ITCases reuse
// the generic table tests).
//
// It runs against the local and in-memory file systems in its own tests,
// and against real object-store servers (internal/testservers) through
// fs/blobfs:
//
//	storetest.Run(t, func(t *testing.T) fs.FS { return memfs.New(nil) })
//
// Data is small (a few hundred rows, a few dozen files per subtest) so
// that a run against a store over HTTP stays within seconds.
package storetest

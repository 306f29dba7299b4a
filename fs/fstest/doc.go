// Package fstest checks fs.FS implementations against the contract of
// package fs, and provides test decorators.
//
// Every implementation runs the same suite from its own tests, in the
// manner of gocloud's blob/drivertest and iceberg-go's catalogtest:
//
//	func TestConformance(t *testing.T) {
//		fstest.Run(t, func(t *testing.T) fs.FS { return memfs.New(nil) }, nil)
//	}
//
// [Run] covers reads (ranges, EOF, concurrency), writes (visibility, Abort,
// overwrite), create-if-absent (exactly one winner among racing
// goroutines), errors, listing, names that need escaping in URLs, names that
// try to escape the root, and context cancellation.
//
// In-process goroutines cannot catch a create-if-absent that is only
// atomic inside one process (a mutex around "exists, then rename"), so
// [RunCrossProcess] races several OS processes on the same storage. It
// re-executes the running test binary restricted to the calling test, the
// usual Go pattern for multi-process tests.
//
// [CountingFS] wraps any FS to count operations per name (to prove that a
// scan skipped files) and to inject failures.
package fstest

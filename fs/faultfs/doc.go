// Package faultfs wraps an fs.FS to make I/O fail at a chosen step, for
// failure tests of the table format (issue 7: crash injection).
//
// Every call that reaches storage is one numbered step: Open, File.ReadAt,
// Create, Writer.Write, Writer.Close (the publish), Writer.Abort, Remove,
// Stat, List (one step per listing, however many entries it yields),
// MkdirAll and RemoveAll. Closing a File is bookkeeping, not a step. Steps
// are numbered from 1 in the order calls arrive, so a single goroutine
// running the same operation on the same data gets the same numbering every
// time: run it once to count the steps, then once per step with a fault
// there.
//
// Two kinds of fault can be planted at step n:
//
//   - Fail: that one call fails with an error wrapping ErrInjected (the
//     caller sees an I/O error and may carry on, retry or clean up).
//   - Crash: that call and every later one fail with an error wrapping
//     ErrCrashed, as if the process died there. Nothing reaches the wrapped
//     file system any more: writers still open are neither closed nor
//     aborted (on a local disk their temporary files stay behind, as after
//     a real crash), so nothing written after the crash becomes visible.
//
// Either fault can strike after the step instead of before it: the call
// reaches the wrapped file system and succeeds there, and then the caller
// gets the error. At a Writer.Close this is the "lost acknowledgement" of a
// publish that did land, the case Paimon's commit must treat as an unknown
// outcome.
//
// Java Paimon has no such wrapper in its main code; its tests inject
// failures with FailingFileIO (paimon-core test utilities), which plays the
// same role.
package faultfs

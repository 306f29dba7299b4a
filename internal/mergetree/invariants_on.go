//go:build invariants

package mergetree

// invariantsEnabled turns on the heap-order and run-order checks (build with
// -tags invariants), as pebble's internal/invariants does.
const invariantsEnabled = true

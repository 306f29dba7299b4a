package mergetree

import "github.com/paimon-go/paimon-go/internal/mergefunc"

// Selector is an optional interface of merge functions whose result is
// always one of the versions they were given, unchanged, chosen from
// sequence numbers and row kinds alone: Java's DeduplicateMergeFunction
// (the last version, or the last add with ignore-delete) and
// FirstRowMergeFunction (the first add).
//
// Read detects it with a type assertion on the Function a Factory returns.
// It then calls Reset, Add for each version with Row.Values nil (a Selector
// must not look at values), and Selected, never Result; it copies the
// selected version's columns straight from its batch, with its row kind.
// Deduplicating a key thus costs no value conversion at all.
type Selector interface {
	mergefunc.Function
	// Selected returns the position, among the versions added since the
	// last Reset, of the version Result would return, or -1 when Result
	// would return nil (no row for this key).
	Selected() int
}

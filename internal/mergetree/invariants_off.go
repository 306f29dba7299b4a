//go:build !invariants

package mergetree

// invariantsEnabled is false in normal builds: the checks compile away.
const invariantsEnabled = false

// Package memcheck provides the allocator tests hand to the library's
// readers and writers: arrow-go's CheckedAllocator, which reports leaks,
// with freed memory overwritten.
//
// Go's allocator leaves a released buffer's bytes in place until the
// collector reuses them, so code that keeps reading a batch after
// releasing it (a string that aliases an Arrow buffer kept in a map, a
// value held across batches) passes every test and then returns wrong
// rows for a caller whose allocator reuses memory at once (a pool, a C
// allocator, buffers imported through the C data interface). With this
// allocator such a read sees 0xA5 bytes instead, and the test fails.
package memcheck

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Poison is the byte freed memory is overwritten with.
const Poison = 0xA5

// Allocator is a checked allocator whose Free and Reallocate overwrite the
// memory they give up. AssertSize, CurrentAlloc and the other methods of
// memory.CheckedAllocator are its own.
type Allocator struct {
	*memory.CheckedAllocator
}

// New returns an Allocator over Go's allocator.
func New() *Allocator {
	return &Allocator{memory.NewCheckedAllocator(memory.NewGoAllocator())}
}

// Free overwrites b and frees it.
func (a *Allocator) Free(b []byte) {
	fill(b)
	a.CheckedAllocator.Free(b)
}

// Reallocate always moves: it copies b into a new buffer of size bytes and
// overwrites and frees b, so that nothing may keep using the old buffer
// (Go's allocator grows a buffer in place when its capacity allows, which
// would hide such a use).
func (a *Allocator) Reallocate(size int, b []byte) []byte {
	out := a.CheckedAllocator.Allocate(size)
	copy(out, b)
	a.Free(b)
	return out
}

func fill(b []byte) {
	for i := range b {
		b[i] = Poison
	}
}

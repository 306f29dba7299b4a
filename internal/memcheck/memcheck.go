// Package memcheck provides the allocator tests hand to the library's
// readers and writers: it counts what is held, so that a test can assert
// nothing leaked, and overwrites memory when it is freed.
//
// Go's allocator leaves a released buffer's bytes in place until the
// collector reuses them, so code that keeps reading a batch after
// releasing it (a string that aliases an Arrow buffer kept in a map, a
// value held across batches) passes every test and then returns wrong
// rows for a caller whose allocator reuses memory at once (a pool, a C
// allocator, buffers imported through the C data interface). With this
// allocator such a read sees 0xA5 bytes instead, and the test fails.
//
// Leaks are counted, not traced: set PAIMON_MEMCHECK_SITES=1 to build the
// allocator on arrow-go's CheckedAllocator, whose AssertSize also names
// where each leaked buffer was allocated (several times slower, notably
// under the race detector).
package memcheck

import (
	"os"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Poison is the byte freed memory is overwritten with.
const Poison = 0xA5

// Allocator counts the bytes it holds and overwrites the memory it gives
// up (Free, and Reallocate, which always moves).
type Allocator struct {
	mem     memory.Allocator
	checked *memory.CheckedAllocator // PAIMON_MEMCHECK_SITES=1
	size    atomic.Int64
}

// New returns an Allocator over Go's allocator.
func New() *Allocator {
	a := &Allocator{mem: memory.NewGoAllocator()}
	if os.Getenv("PAIMON_MEMCHECK_SITES") == "1" {
		a.checked = memory.NewCheckedAllocator(a.mem)
		a.mem = a.checked
	}
	return a
}

// Allocate returns size bytes, zeroed.
func (a *Allocator) Allocate(size int) []byte {
	a.size.Add(int64(size))
	return a.mem.Allocate(size)
}

// Free overwrites b and frees it.
func (a *Allocator) Free(b []byte) {
	fill(b)
	a.size.Add(-int64(len(b)))
	a.mem.Free(b)
}

// Reallocate always moves: it copies b into a new buffer of size bytes and
// overwrites and frees b, so that nothing may keep using the old buffer
// (Go's allocator grows a buffer in place when its capacity allows, which
// would hide such a use).
func (a *Allocator) Reallocate(size int, b []byte) []byte {
	out := a.Allocate(size)
	copy(out, b)
	a.Free(b)
	return out
}

// CurrentAlloc is the number of bytes allocated and not yet freed.
func (a *Allocator) CurrentAlloc() int { return int(a.size.Load()) }

// AssertSize reports a test error unless exactly sz bytes are held.
func (a *Allocator) AssertSize(t memory.TestingT, sz int) {
	t.Helper()
	if a.checked != nil {
		a.checked.AssertSize(t, sz)
		return
	}
	if got := a.CurrentAlloc(); got != sz {
		t.Errorf("memcheck: %d bytes held, want %d (PAIMON_MEMCHECK_SITES=1 names where they were allocated)", got, sz)
	}
}

// fill overwrites b with Poison by doubling copies: a few range writes
// instead of one per byte, which the race detector would instrument one
// by one (the race tests free gigabytes through this allocator).
func fill(b []byte) {
	if len(b) == 0 {
		return
	}
	b[0] = Poison
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

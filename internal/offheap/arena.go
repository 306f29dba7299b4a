package offheap

import (
	"fmt"
	"runtime"
	"sync"
)

// DefaultPageSize is the size of the pages an Arena maps when none is given.
const DefaultPageSize = 4 << 20

const align = 64

// Pool is a free list of off-heap pages shared by Arenas, so that the
// memory several buffers held at their peaks is reused by whichever buffer
// needs it next (Java's MemoryPoolFactory hands segments between writers
// the same way). It is safe for concurrent use.
type Pool struct {
	mu       sync.Mutex
	pageSize int
	free     [][]byte
	mapped   int64
	state    *arenaState
}

// NewPool returns a Pool of pages of pageSize bytes (0 means
// DefaultPageSize).
func NewPool(pageSize int) *Pool {
	if pageSize <= 0 {
		pageSize = DefaultPageSize
	}
	pageSize = (pageSize + align - 1) &^ (align - 1)
	p := &Pool{pageSize: pageSize, state: &arenaState{}}
	runtime.AddCleanup(p, func(st *arenaState) { st.unmapAll() }, p.state)
	return p
}

// get returns a page, dirty (false when freshly mapped and so zeroed).
func (p *Pool) get() ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		pg := p.free[n-1]
		p.free = p.free[:n-1]
		return pg, true
	}
	pg := mapPages(p.pageSize)
	p.state.add(pg)
	p.mapped += int64(len(pg))
	return pg, false
}

func (p *Pool) put(pages [][]byte) {
	p.mu.Lock()
	p.free = append(p.free, pages...)
	p.mu.Unlock()
}

// mapBig maps an allocation larger than half a page.
func (p *Pool) mapBig(n int) []byte {
	b := mapPages(n)
	p.state.add(b)
	p.mu.Lock()
	p.mapped += int64(len(b))
	p.mu.Unlock()
	return b
}

func (p *Pool) unmapBig(b []byte) {
	p.state.remove(b)
	unmap(b)
	p.mu.Lock()
	p.mapped -= int64(len(b))
	p.mu.Unlock()
}

// Mapped is the number of bytes the Pool and its Arenas hold.
func (p *Pool) Mapped() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mapped
}

// Release unmaps the free pages. Pages Arenas still hold stay mapped.
func (p *Pool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pg := range p.free {
		p.state.remove(pg)
		unmap(pg)
		p.mapped -= int64(len(pg))
	}
	p.free = nil
}

// Arena is a bump allocator over pages of a Pool (see the package doc). It
// is safe for concurrent use.
type Arena struct {
	mu    sync.Mutex
	pool  *Pool
	own   bool     // the Arena made its pool and releases it
	pages [][]byte // pages taken from the pool
	dirty []bool
	cur   int // index of the page being filled
	off   int // offset in pages[cur]
	big   [][]byte
	used  int64
}

// arenaState is what the cleanup of an unreleased Pool unmaps.
type arenaState struct {
	mu    sync.Mutex
	pages [][]byte
}

// New returns an empty Arena with a Pool of its own, whose pages are
// pageSize bytes (0 means DefaultPageSize). Memory is mapped on first use.
func New(pageSize int) *Arena {
	a := NewArena(NewPool(pageSize))
	a.own = true
	return a
}

// NewArena returns an empty Arena taking its pages from pool.
func NewArena(pool *Pool) *Arena { return &Arena{pool: pool, cur: -1} }

func (st *arenaState) unmapAll() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, p := range st.pages {
		unmap(p)
	}
	st.pages = nil
}

func (st *arenaState) add(p []byte) {
	st.mu.Lock()
	st.pages = append(st.pages, p)
	st.mu.Unlock()
}

func (st *arenaState) remove(p []byte) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for i, q := range st.pages {
		if len(q) > 0 && len(p) > 0 && &q[0] == &p[0] {
			st.pages = append(st.pages[:i], st.pages[i+1:]...)
			return
		}
	}
}

// Allocate returns n zeroed bytes, 64-byte aligned.
func (a *Arena) Allocate(n int) []byte {
	if n < 0 {
		panic(fmt.Sprintf("offheap: allocate %d bytes", n))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.allocate(n)
}

func (a *Arena) allocate(n int) []byte {
	size := (n + align - 1) &^ (align - 1)
	if size == 0 {
		size = align
	}
	if size > a.pool.pageSize/2 {
		p := a.pool.mapBig(size)
		a.big = append(a.big, p)
		a.used += int64(size)
		return p[:n:n]
	}
	if a.cur < 0 || a.off+size > len(a.pages[a.cur]) {
		a.cur++
		a.off = 0
		if a.cur == len(a.pages) {
			pg, dirty := a.pool.get()
			a.pages = append(a.pages, pg)
			a.dirty = append(a.dirty, dirty)
		}
	}
	b := a.pages[a.cur][a.off : a.off+n : a.off+n]
	if a.dirty[a.cur] {
		clear(b)
	}
	a.off += size
	a.used += int64(size)
	return b
}

// Reallocate returns n bytes holding b's contents (then zeros).
func (a *Arena) Reallocate(n int, b []byte) []byte {
	if n <= cap(b) {
		// Bytes between len(b) and n were zeroed when b was allocated
		// (and never handed out since: Free is a no-op), unless a
		// shrink-then-grow wrote them; clear to be safe.
		out := b[:n]
		if n > len(b) {
			clear(out[len(b):])
		}
		return out
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.allocate(n)
	copy(out, b)
	return out
}

// Free does nothing: memory comes back at Reset.
func (a *Arena) Free([]byte) {}

// Used is the number of bytes handed out since the last Reset (rounded up
// to the alignment).
func (a *Arena) Used() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.used
}

// Reset makes all memory reusable: the pages go back to the pool, larger
// allocations are unmapped. Nothing handed out before may be used
// afterwards.
func (a *Arena) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, p := range a.big {
		a.pool.unmapBig(p)
	}
	a.big = nil
	a.pool.put(a.pages)
	a.pages, a.dirty = nil, nil
	a.cur, a.off, a.used = -1, 0, 0
}

// Release is Reset, and for an Arena made by New also unmaps its pool's
// pages.
func (a *Arena) Release() {
	a.Reset()
	if a.own {
		a.pool.Release()
	}
}

// Mapped is the number of bytes of memory the Arena's pool holds.
func (a *Arena) Mapped() int64 { return a.pool.Mapped() }

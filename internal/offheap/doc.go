// Package offheap holds an arena of memory outside the Go heap for buffers
// whose size is bounded by an option (Java's MemorySegmentPool, which backs
// write-buffer-size): the pages are mapped from the operating system
// (anonymous mmap on Unix), so the garbage collector neither scans them nor
// counts them towards its heap goal, and a 256 MiB write buffer costs 256 MiB
// of memory instead of up to twice that. On other systems the pages are
// ordinary Go memory.
//
// # Memory
//
// An Arena hands out slices by bumping an offset in its current page
// (Allocate); Free is a no-op and Reset makes every page reusable at once,
// keeping it mapped, as Java's pool keeps its segments between flushes.
// Release unmaps everything. An Arena is an arrow memory.Allocator, so Arrow
// arrays can be copied into it (array.Concatenate); such arrays must not be
// used after Reset or Release.
//
// # Invariants
//
// Memory handed out is zeroed (Arrow's builders expect it, as Go's
// allocator gives it) and 64-byte aligned. No pointer to Go memory may be
// stored in arena memory: the garbage collector does not see it.
package offheap

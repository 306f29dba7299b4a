package datafile

import (
	"container/list"
	"context"
	"sync"
)

// DefaultMemoryBudget is the budget a table writer gives its open files
// when the caller sets none: small enough that a streaming load stays
// under 256 MiB of resident memory for the whole process (the Go heap
// grows to about twice what is live, and the encoders' page buffers and
// zstd state come on top of the budget), large enough that a single
// partition's Parquet row groups hold tens of MiB. Measured (issue 23,
// bench write-stream-10m, 10M rows over 5 partitions): peak RSS 216 MiB
// with 48 MiB, 234-257 MiB with 64 MiB.
const DefaultMemoryBudget int64 = 48 << 20

// BudgetMember is something that holds memory a Budget accounts for and
// can give back on demand: the open file of a Writer, or a primary-key
// writer's sort buffer.
type BudgetMember interface {
	// HeldBytes estimates the memory the member holds now that Release
	// would free. It is called with the Budget's lock held and must not
	// call back into the Budget.
	HeldBytes() int64
	// Release frees what the member holds, typically by finishing
	// (rolling) its current file or spilling its buffer. It must not call
	// back into the Budget. An error is the member's failure; the Budget
	// forgets the member and passes the error on.
	Release(ctx context.Context) error
}

// Budget bounds the memory that the members sharing it hold together
// (Java leaves this to parquet-java's MemoryManager, which shrinks the row
// groups of concurrently open files, and to write-max-writers-to-spill;
// here open files are finished instead, which also frees the fixed cost
// of each open encoder). Members report after each write (Update); when
// their total exceeds the limit, Enforce releases the least recently
// updated members until it fits again. Members holding nothing are not
// tracked, so an Update or Enforce costs O(1) plus the releases it makes.
//
// The bookkeeping is safe for concurrent use, but Enforce calls Release of
// any member from the calling goroutine: members that are written
// concurrently must make Release safe against their own writes. The
// writers of a TableWriter are used from one goroutine.
type Budget struct {
	limit int64

	mu      sync.Mutex
	total   int64
	lru     *list.List // of *budgetEntry, least recently updated first
	members map[BudgetMember]*list.Element
}

type budgetEntry struct {
	m    BudgetMember
	held int64
}

// NewBudget returns a budget of limit bytes; a limit of 0 or less means
// DefaultMemoryBudget.
func NewBudget(limit int64) *Budget {
	if limit <= 0 {
		limit = DefaultMemoryBudget
	}
	return &Budget{limit: limit, lru: list.New(), members: map[BudgetMember]*list.Element{}}
}

// Limit is the budget in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Share is the limit divided among the members holding memory now: what
// one of them may hold without crowding out the others.
func (b *Budget) Share() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limit / int64(max(1, b.lru.Len()))
}

// Held is the memory the tracked members held when they last reported.
func (b *Budget) Held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// Update records what m holds now and makes it the most recently used
// member. A member holding nothing is forgotten until its next Update.
func (b *Budget) Update(m BudgetMember) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.updateLocked(m)
	if el, ok := b.members[m]; ok {
		b.lru.MoveToBack(el)
	}
}

func (b *Budget) updateLocked(m BudgetMember) {
	held := max(m.HeldBytes(), 0)
	el, ok := b.members[m]
	switch {
	case ok && held == 0:
		b.forgetLocked(m)
	case ok:
		e := el.Value.(*budgetEntry)
		b.total += held - e.held
		e.held = held
	case held > 0:
		b.members[m] = b.lru.PushBack(&budgetEntry{m: m, held: held})
		b.total += held
	}
}

// Forget stops tracking m (closed or aborted).
func (b *Budget) Forget(m BudgetMember) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.forgetLocked(m)
}

func (b *Budget) forgetLocked(m BudgetMember) {
	if el, ok := b.members[m]; ok {
		b.total -= el.Value.(*budgetEntry).held
		b.lru.Remove(el)
		delete(b.members, m)
	}
}

// Enforce releases the least recently updated members until the tracked
// total is within the limit. The most recently updated member is released
// too when it alone exceeds the limit. It stops at the first Release that
// fails and returns its error.
func (b *Budget) Enforce(ctx context.Context) error {
	b.mu.Lock()
	tries := b.lru.Len() // each member is asked at most once per call
	b.mu.Unlock()
	for ; tries > 0; tries-- {
		b.mu.Lock()
		if b.total <= b.limit || b.lru.Len() == 0 {
			b.mu.Unlock()
			return nil
		}
		m := b.lru.Front().Value.(*budgetEntry).m
		b.mu.Unlock()
		err := m.Release(ctx)
		b.mu.Lock()
		if err != nil {
			b.forgetLocked(m)
			b.mu.Unlock()
			return err
		}
		b.updateLocked(m)
		if el, ok := b.members[m]; ok {
			b.lru.MoveToBack(el) // it kept something: ask the others first
		}
		b.mu.Unlock()
	}
	return nil
}

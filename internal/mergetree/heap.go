package mergetree

import "fmt"

// mergeHeap is a binary min-heap of run cursors in merge order. It is
// hand-rolled, as pebble's mergingIterHeap is: the hot loop replaces the
// root in place (fixTop) instead of popping and pushing, and no interface
// call sits between a comparison and its callers.
type mergeHeap struct {
	r     *reader
	items []*runCursor
}

// less orders items i and j. Two cursors with cached integer keys that
// differ are decided here, inlined into down and up; anything else goes to
// the reader's full order.
func (h *mergeHeap) less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if a.intKey && b.intKey && a.key != b.key {
		return a.key < b.key
	}
	return h.r.less(a, b)
}

func (h *mergeHeap) init() {
	for i := len(h.items)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	h.check()
}

func (h *mergeHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *mergeHeap) down(i int) {
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
}

func (h *mergeHeap) push(c *runCursor) {
	h.items = append(h.items, c)
	h.up(len(h.items) - 1)
	h.check()
}

// pop removes and returns the smallest cursor.
func (h *mergeHeap) pop() *runCursor {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items[last] = nil
	h.items = h.items[:last]
	if last > 0 {
		h.down(0)
	}
	h.check()
	return top
}

// fixTop restores the order after the root cursor advanced.
func (h *mergeHeap) fixTop() {
	h.down(0)
	h.check()
}

// topIsUnique reports whether no other cursor is at the root's key. The
// second smallest cursor is a child of the root, and the order is key
// first, so comparing the root's key with its children's decides.
func (h *mergeHeap) topIsUnique() bool {
	top := h.items[0]
	for _, c := range h.items[1:min(3, len(h.items))] {
		// compareKeys begins with the same test; repeating it here keeps
		// it inline (calling compareKeys instead was 2-4% slower on the
		// suite's pk-dedup read, three alternating pairs).
		if top.intKey && c.intKey {
			if top.key == c.key {
				return false
			}
			continue
		}
		if h.r.compareKeys(top, c) == 0 {
			return false
		}
	}
	return true
}

// check verifies the heap order with the invariants tag. A violation is a
// bug of this package (inputs cannot cause it), so it panics like pebble's
// invariant checks.
func (h *mergeHeap) check() {
	if !invariantsEnabled {
		return
	}
	for i := 1; i < len(h.items); i++ {
		if h.less(i, (i-1)/2) {
			panic(fmt.Sprintf("mergetree: heap order violated at %d", i))
		}
	}
}

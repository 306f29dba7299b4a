package manifest

import (
	"fmt"
	"hash/maphash"
)

// Merger folds manifest entries in order, cancelling each DELETE against the
// ADD of the same file seen before it (Java FileEntry.mergeEntries with a
// LinkedHashMap). What remains are the ADD entries still live and the DELETE
// entries whose ADD was not among the merged entries (it lives in an earlier
// manifest). Paimon guarantees a file is added at most once and deleted at
// most once; a second ADD of a live file is an error.
//
// Merger keeps copies of the entries it is given; RefMerger merges the same
// way but keeps pointers, for callers that hold the decoded manifests
// anyway (planning).
//
// The zero Merger is ready to use. A Merger is not safe for concurrent use.
type Merger struct {
	state   mergeState
	entries []ManifestEntry
}

// Add merges entries into the state, in order. On error the state holds the
// entries before the offending one.
func (m *Merger) Add(entries ...ManifestEntry) error {
	at := func(p int32) *ManifestEntry { return &m.entries[p] }
	for i := range entries {
		e := &entries[i]
		put, err := m.state.merge(e, at)
		if err != nil {
			return err
		}
		if put {
			m.entries = append(m.entries, *e)
		}
	}
	// Drop the dead slots once they dominate, keeping Add amortized O(1)
	// in memory as well as time.
	if m.state.shouldCompact() {
		j := m.state.compact(at, func(from, to int32) { m.entries[to] = m.entries[from] })
		clear(m.entries[j:])
		m.entries = m.entries[:j]
	}
	return nil
}

// Len returns the number of entries the merged result holds.
func (m *Merger) Len() int { return m.state.len() }

// Result returns the merged entries in the order their identifiers were
// (last) inserted, like the values of Java's LinkedHashMap. The slice is
// freshly allocated; the Merger stays usable.
func (m *Merger) Result() []ManifestEntry {
	out := make([]ManifestEntry, 0, m.Len())
	for i := range m.entries {
		if m.state.live[i] {
			out = append(out, m.entries[i])
		}
	}
	return out
}

// MergeEntries merges entries with a fresh Merger and returns the result.
func MergeEntries(entries []ManifestEntry) ([]ManifestEntry, error) {
	var m Merger
	if err := m.Add(entries...); err != nil {
		return nil, err
	}
	return m.Result(), nil
}

// RefMerger merges like Merger but copies nothing: it keeps pointers into
// the slices given to Add, and Result returns pointers into them. Planning
// merges the entries of every manifest of a snapshot this way, so that the
// only copy of a live file's metadata is the one its split holds. The
// caller must not modify those slices while the RefMerger or its results
// are in use.
//
// The zero RefMerger is ready to use. A RefMerger is not safe for
// concurrent use.
type RefMerger struct {
	state mergeState
	refs  []*ManifestEntry
}

// Grow makes room for n more entries, so that merging a known number of
// entries allocates once.
func (m *RefMerger) Grow(n int) {
	m.state.grow(n)
	if n > cap(m.refs)-len(m.refs) {
		refs := make([]*ManifestEntry, len(m.refs), len(m.refs)+n)
		copy(refs, m.refs)
		m.refs = refs
	}
}

// Add merges entries into the state, in order. On error the state holds the
// entries before the offending one.
func (m *RefMerger) Add(entries []ManifestEntry) error {
	at := func(p int32) *ManifestEntry { return m.refs[p] }
	for i := range entries {
		e := &entries[i]
		put, err := m.state.merge(e, at)
		if err != nil {
			return err
		}
		if put {
			m.refs = append(m.refs, e)
		}
	}
	if m.state.shouldCompact() {
		j := m.state.compact(at, func(from, to int32) { m.refs[to] = m.refs[from] })
		clear(m.refs[j:])
		m.refs = m.refs[:j]
	}
	return nil
}

// Len returns the number of entries the merged result holds.
func (m *RefMerger) Len() int { return m.state.len() }

// Result returns pointers to the merged entries, in Merger.Result's order.
// The slice is freshly allocated; the RefMerger stays usable.
func (m *RefMerger) Result() []*ManifestEntry {
	out := make([]*ManifestEntry, 0, m.Len())
	for i, e := range m.refs {
		if m.state.live[i] {
			out = append(out, e)
		}
	}
	return out
}

// mergeState is the bookkeeping Merger and RefMerger share: which slots
// are live, and an index from a file's identifier to its live slot. The
// index is keyed by a hash of the identifier and resolves collisions by
// comparing entries field by field, so merging builds no Identifier (a
// string copy of the partition and the extra files per entry) and a map
// key is one word.
type mergeState struct {
	seed    maphash.Seed
	heads   map[uint64]int32 // hash → the latest slot inserted with it
	prev    []int32          // slot → the previous slot with the same hash, -1 at the end
	live    []bool           // slot → still in the result
	removed int              // slots no longer live
}

func (s *mergeState) init() {
	if s.heads == nil {
		s.seed = maphash.MakeSeed()
		s.heads = make(map[uint64]int32)
	}
}

func (s *mergeState) grow(n int) {
	if s.heads == nil {
		s.seed = maphash.MakeSeed()
		s.heads = make(map[uint64]int32, n)
	}
	if n > cap(s.prev)-len(s.prev) {
		prev := make([]int32, len(s.prev), len(s.prev)+n)
		copy(prev, s.prev)
		s.prev = prev
		live := make([]bool, len(s.live), len(s.live)+n)
		copy(live, s.live)
		s.live = live
	}
}

func (s *mergeState) len() int { return len(s.live) - s.removed }

// merge folds e in. put reports that e takes a new slot, which the caller
// must then append to its storage; at returns the entry of a slot.
func (s *mergeState) merge(e *ManifestEntry, at func(int32) *ManifestEntry) (put bool, err error) {
	s.init()
	h := fileHash(s.seed, e)
	pos := s.find(h, e, at)
	switch e.Kind {
	case FileKindAdd:
		if pos >= 0 {
			return false, fmt.Errorf("%w: trying to add file %s which is already in the map (kind %s)",
				ErrDuplicateAdd, e.Identifier(), at(pos).Kind)
		}
	case FileKindDelete:
		if pos >= 0 {
			// The ADD was merged here too: the file is gone for good.
			s.live[pos] = false
			s.removed++
			return false, nil
		}
	default:
		return false, fmt.Errorf("%w: unknown file kind %d", ErrInvalid, e.Kind)
	}
	s.insert(h, int32(len(s.live)))
	s.live = append(s.live, true)
	return true, nil
}

// find returns the live slot holding the file e refers to, or -1.
func (s *mergeState) find(h uint64, e *ManifestEntry, at func(int32) *ManifestEntry) int32 {
	p, ok := s.heads[h]
	if !ok {
		return -1
	}
	for ; p >= 0; p = s.prev[p] {
		if s.live[p] && sameFile(at(p), e) {
			return p
		}
	}
	return -1
}

func (s *mergeState) insert(h uint64, slot int32) {
	prev, ok := s.heads[h]
	if !ok {
		prev = -1
	}
	s.heads[h] = slot
	s.prev = append(s.prev, prev)
}

func (s *mergeState) shouldCompact() bool {
	return s.removed > 1024 && s.removed > len(s.live)/2
}

// compact moves the live slots to the front, in order, calling move for
// each, rebuilds the index and returns the new slot count.
func (s *mergeState) compact(at func(int32) *ManifestEntry, move func(from, to int32)) int {
	clear(s.heads)
	s.prev = s.prev[:0]
	j := int32(0)
	for i := range s.live {
		if !s.live[i] {
			continue
		}
		move(int32(i), j)
		s.insert(fileHash(s.seed, at(j)), j)
		j++
	}
	s.live = s.live[:j]
	for i := range s.live {
		s.live[i] = true
	}
	s.removed = 0
	return int(j)
}

// fileHash hashes the identifier fields that tell files apart in practice
// (file names are unique per bucket); sameFile compares the rest.
func fileHash(seed maphash.Seed, e *ManifestEntry) uint64 {
	h := maphash.String(seed, e.File.FileName)
	h ^= maphash.Bytes(seed, e.Partition) * 0x9e3779b97f4a7c15
	h ^= (uint64(uint32(e.Bucket))<<32 | uint64(uint32(e.File.Level))) * 0xc2b2ae3d27d4eb4f
	return h ^ h>>29
}

// sameFile reports whether a and b have equal identifiers (see Identifier:
// nil and empty extra files are equal, nil and empty embedded indexes and
// external paths are not).
func sameFile(a, b *ManifestEntry) bool {
	fa, fb := &a.File, &b.File
	if fa.FileName != fb.FileName || a.Bucket != b.Bucket || fa.Level != fb.Level ||
		string(a.Partition) != string(b.Partition) || len(fa.ExtraFiles) != len(fb.ExtraFiles) ||
		(fa.EmbeddedIndex == nil) != (fb.EmbeddedIndex == nil) || string(fa.EmbeddedIndex) != string(fb.EmbeddedIndex) ||
		(fa.ExternalPath == nil) != (fb.ExternalPath == nil) {
		return false
	}
	for i := range fa.ExtraFiles {
		if fa.ExtraFiles[i] != fb.ExtraFiles[i] {
			return false
		}
	}
	return fa.ExternalPath == nil || *fa.ExternalPath == *fb.ExternalPath
}

package manifest

import "fmt"

// Merger folds manifest entries in order, cancelling each DELETE against the
// ADD of the same file seen before it (Java FileEntry.mergeEntries with a
// LinkedHashMap). What remains are the ADD entries still live and the DELETE
// entries whose ADD was not among the merged entries (it lives in an earlier
// manifest). Paimon guarantees a file is added at most once and deleted at
// most once; a second ADD of a live file is an error.
//
// The zero Merger is ready to use. A Merger is not safe for concurrent use.
type Merger struct {
	index   map[Identifier]int // position in entries of each live identifier
	entries []ManifestEntry
	live    []bool
	removed int
}

// Add merges entries into the state, in order. On error the state holds the
// entries before the offending one.
func (m *Merger) Add(entries ...ManifestEntry) error {
	if m.index == nil {
		m.index = make(map[Identifier]int)
	}
	for i := range entries {
		e := &entries[i]
		id := e.Identifier()
		pos, seen := m.index[id]
		switch e.Kind {
		case FileKindAdd:
			if seen {
				return fmt.Errorf("%w: trying to add file %s which is already in the map (kind %s)",
					ErrDuplicateAdd, id, m.entries[pos].Kind)
			}
			m.put(id, e)
		case FileKindDelete:
			if seen {
				// The ADD was merged here too: the file is gone for good.
				delete(m.index, id)
				m.live[pos] = false
				m.removed++
			} else {
				m.put(id, e)
			}
		default:
			return fmt.Errorf("%w: unknown file kind %d", ErrInvalid, e.Kind)
		}
	}
	// Drop the dead slots once they dominate, keeping Add amortized O(1)
	// in memory as well as time.
	if m.removed > 1024 && m.removed > len(m.entries)/2 {
		m.compact()
	}
	return nil
}

func (m *Merger) put(id Identifier, e *ManifestEntry) {
	m.index[id] = len(m.entries)
	m.entries = append(m.entries, *e)
	m.live = append(m.live, true)
}

func (m *Merger) compact() {
	j := 0
	for i := range m.entries {
		if !m.live[i] {
			continue
		}
		m.entries[j] = m.entries[i]
		m.index[m.entries[j].Identifier()] = j
		j++
	}
	clear(m.entries[j:])
	m.entries = m.entries[:j]
	m.live = m.live[:j]
	for i := range m.live {
		m.live[i] = true
	}
	m.removed = 0
}

// Len returns the number of entries the merged result holds.
func (m *Merger) Len() int { return len(m.entries) - m.removed }

// Result returns the merged entries in the order their identifiers were
// (last) inserted, like the values of Java's LinkedHashMap. The slice is
// freshly allocated; the Merger stays usable.
func (m *Merger) Result() []ManifestEntry {
	out := make([]ManifestEntry, 0, m.Len())
	for i := range m.entries {
		if m.live[i] {
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

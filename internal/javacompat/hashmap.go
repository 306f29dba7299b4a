package javacompat

import "errors"

// ErrTreeified reports that a HashMap bin turned into a red-black tree (8+
// colliding keys in a table of 64+ bins): Java then orders that bin by hash
// and compareTo through tree rotations, which HashMap does not reproduce.
// The operation itself took effect; only the iteration order of that bin
// is no longer Java's.
var ErrTreeified = errors.New("java.util.HashMap bin with more than 8 colliding keys (treeified bin order is not reproduced)")

// HashEntry is one mapping of a HashMap.
type HashEntry struct {
	Hash  int32 // the spread hash Java stores in the node (HashMapSpread)
	Key   any
	Value any
}

// HashMap mirrors the layout of java.util.HashMap (JDK 8 and later) so that
// Entries returns Java's iteration order, which leaks into Paimon's results
// (option order of schema files, aggregated collections and maps): a
// power-of-two table of bins, each bin a list in insertion order (put
// appends, computeIfAbsent prepends), doubled when the size passes 3/4 of
// the capacity, a doubling splitting every bin in order.
//
// Callers pass each key's Java hashCode. Equal is Java's equals for keys
// with equal hashes (nil compares with ==). The zero value is a HashMap
// made by the default constructor; NewHashMapFor is the copy constructor's
// sizing.
type HashMap struct {
	Equal func(a, b any) (bool, error)

	tab       [][]HashEntry
	size      int
	threshold int // the next resize, or the initial capacity before the table exists
}

// NewHashMapFor returns an empty HashMap sized as Java's new HashMap<>(m)
// sizes its copy of a map m of n entries (putMapEntries of JDK 8 to 18: the
// table size for n/0.75+1; JDK 19 dropped the +1).
func NewHashMapFor(n int) *HashMap {
	m := &HashMap{}
	if n > 0 {
		m.threshold = tableSizeFor(int(float32(n)/0.75 + 1))
	}
	return m
}

// tableSizeFor is HashMap.tableSizeFor: the power of two at least n.
func tableSizeFor(n int) int {
	c := 1
	for c < n && c < 1<<30 {
		c <<= 1
	}
	return c
}

// Len is the number of mappings.
func (m *HashMap) Len() int { return m.size }

// Capacity is the number of bins (0 before the first insertion).
func (m *HashMap) Capacity() int { return len(m.tab) }

func (m *HashMap) index(sh int32) int { return int(uint32(sh) & uint32(len(m.tab)-1)) }

func (m *HashMap) keyEq(a, b any) (bool, error) {
	if a == nil || b == nil {
		return a == nil && b == nil, nil
	}
	if m.Equal == nil {
		return a == b, nil
	}
	return m.Equal(a, b)
}

// find returns the bin of sh and key's position in it, or -1.
func (m *HashMap) find(sh int32, key any) (int, int, error) {
	if len(m.tab) == 0 {
		return 0, -1, nil
	}
	i := m.index(sh)
	for j, e := range m.tab[i] {
		if e.Hash != sh {
			continue
		}
		ok, err := m.keyEq(e.Key, key)
		if err != nil {
			return i, -1, err
		}
		if ok {
			return i, j, nil
		}
	}
	return i, -1, nil
}

// resize is HashMap.resize: the first table has the initial capacity (16
// by default), later ones twice the bins; entries keep their relative
// order within each bin, as Java's split into lo and hi lists does.
func (m *HashMap) resize() {
	old := m.tab
	var n int
	switch {
	case len(old) > 0:
		n = 2 * len(old)
		if len(old) >= 16 {
			m.threshold *= 2
		} else {
			m.threshold = int(float32(n) * 0.75)
		}
	case m.threshold > 0:
		n = m.threshold
		m.threshold = int(float32(n) * 0.75)
	default:
		n, m.threshold = 16, 12
	}
	m.tab = make([][]HashEntry, n)
	for _, bin := range old {
		for _, e := range bin {
			i := m.index(e.Hash)
			m.tab[i] = append(m.tab[i], e)
		}
	}
}

// treeifyBin is HashMap.treeifyBin: small tables grow instead.
func (m *HashMap) treeifyBin() error {
	if len(m.tab) < 64 {
		m.resize()
		return nil
	}
	return ErrTreeified
}

// Put is HashMap.put: an existing key keeps its position and takes the new
// value; a new key is appended to its bin.
func (m *HashMap) Put(hashCode int32, key, val any) error {
	sh := HashMapSpread(hashCode)
	if len(m.tab) == 0 {
		m.resize()
	}
	i, j, err := m.find(sh, key)
	if err != nil {
		return err
	}
	if j >= 0 {
		m.tab[i][j].Value = val
		return nil
	}
	before := len(m.tab[i])
	m.tab[i] = append(m.tab[i], HashEntry{Hash: sh, Key: key, Value: val})
	var tree error
	if before >= 8 { // putVal's binCount (before-1) >= TREEIFY_THRESHOLD - 1
		tree = m.treeifyBin()
	}
	m.size++
	if m.size > m.threshold {
		m.resize()
	}
	return tree
}

// ComputeIfAbsent is HashMap.computeIfAbsent for a function that never
// returns null: it grows the table first when the size is already past the
// threshold, and inserts a new key at the head of its bin.
func (m *HashMap) ComputeIfAbsent(hashCode int32, key any, mk func() any) (any, error) {
	sh := HashMapSpread(hashCode)
	if m.size > m.threshold || len(m.tab) == 0 {
		m.resize()
	}
	i, j, err := m.find(sh, key)
	if err != nil {
		return nil, err
	}
	if j >= 0 && m.tab[i][j].Value != nil {
		return m.tab[i][j].Value, nil
	}
	v := mk()
	if j >= 0 {
		m.tab[i][j].Value = v
		return v, nil
	}
	before := len(m.tab[i])
	bin := make([]HashEntry, 0, before+1)
	bin = append(bin, HashEntry{Hash: sh, Key: key, Value: v})
	m.tab[i] = append(bin, m.tab[i]...)
	var tree error
	if before >= 7 { // binCount >= TREEIFY_THRESHOLD - 1
		tree = m.treeifyBin()
	}
	m.size++
	return v, tree
}

// Get is HashMap.get; ok is false for a missing key.
func (m *HashMap) Get(hashCode int32, key any) (val any, ok bool, err error) {
	i, j, err := m.find(HashMapSpread(hashCode), key)
	if err != nil || j < 0 {
		return nil, false, err
	}
	return m.tab[i][j].Value, true, nil
}

// Remove is HashMap.remove.
func (m *HashMap) Remove(hashCode int32, key any) error {
	i, j, err := m.find(HashMapSpread(hashCode), key)
	if err != nil || j < 0 {
		return err
	}
	m.tab[i] = append(m.tab[i][:j:j], m.tab[i][j+1:]...)
	m.size--
	return nil
}

// Entries returns the mappings in Java's iteration order.
func (m *HashMap) Entries() []HashEntry {
	out := make([]HashEntry, 0, m.size)
	for _, bin := range m.tab {
		out = append(out, bin...)
	}
	return out
}

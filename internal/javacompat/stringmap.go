package javacompat

// StringMap is a java.util.HashMap<String, String> as Paimon fills its
// option maps: the values, and the keys in the order Java iterates them
// (HashMap's layout, replayed by HashMap). The order decides how Java
// writes a schema's options, so every schema built, decoded or altered here
// keeps one (format/schema, the schema changes of package paimon).
//
// The zero value is not usable; NewStringMap is Java's new HashMap<>().
type StringMap struct {
	vals   map[string]string
	layout *HashMap // keys only; their order is Java's
}

// NewStringMap returns an empty map, as Java's default HashMap constructor.
func NewStringMap() *StringMap {
	return &StringMap{vals: map[string]string{}, layout: &HashMap{}}
}

// CopyStringMap is Java's new HashMap<>(m) for a map m that iterates its
// keys in order (keys missing from vals map to "").
func CopyStringMap(order []string, vals map[string]string) *StringMap {
	m := &StringMap{vals: map[string]string{}, layout: NewHashMapFor(len(order))}
	for _, k := range order {
		m.Put(k, vals[k])
	}
	return m
}

// Get is HashMap.get.
func (m *StringMap) Get(k string) (string, bool) {
	v, ok := m.vals[k]
	return v, ok
}

// Put is HashMap.put: an existing key keeps its place.
func (m *StringMap) Put(k, v string) {
	m.vals[k] = v
	// The only error of a HashMap of strings is ErrTreeified: 8+ keys in
	// one bin of a 64-bin table, whose order (by hash, then compareTo) is
	// then approximated by insertion order.
	_ = m.layout.Put(StringHashCode(k), k, nil)
}

// Remove is HashMap.remove.
func (m *StringMap) Remove(k string) (string, bool) {
	v, ok := m.vals[k]
	if !ok {
		return "", false
	}
	delete(m.vals, k)
	_ = m.layout.Remove(StringHashCode(k), k)
	return v, true
}

// Copy is new HashMap<>(m).
func (m *StringMap) Copy() *StringMap { return CopyStringMap(m.Keys(), m.vals) }

// Keys returns the keys in Java's iteration order.
func (m *StringMap) Keys() []string {
	es := m.layout.Entries()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Key.(string)
	}
	return out
}

// Values returns the mappings. The map is m's own: callers must not modify
// it.
func (m *StringMap) Values() map[string]string { return m.vals }

// Len is the number of mappings.
func (m *StringMap) Len() int { return len(m.vals) }

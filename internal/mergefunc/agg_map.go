package mergefunc

import (
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// mergeMapAgg mirrors FieldMergeMapAgg: the entries of both maps, the
// input's value winning for a key present in both, in the iteration order of
// the java.util.HashMap Java builds (reproduced with Java's hashCode of the
// keys). Retraction removes the retracted keys.
type mergeMapAgg struct {
	aggBase
	t      schema.DataType
	kt, vt schema.DataType
}

func newMergeMapAgg(t schema.DataType, b aggBase, _ options) (fieldAgg, error) {
	if t.Root != schema.Map {
		return nil, invalidf("data type for merge map column %s must be 'MAP' but was '%s'", b.field, t)
	}
	return &mergeMapAgg{aggBase: b, t: t, kt: *t.Key, vt: *t.Value}, nil
}

// newKeyMap returns a HashMap for keys of type kt, or ErrUnsupported when
// Java's hashCode of such keys is not reproducible.
func newKeyMap(kt schema.DataType, fn, field string) (*jmap, error) {
	if !hashable(kt) {
		return nil, unsupportedf("aggregate function %s (field %s) with %s map keys: Java's HashMap order for such keys is not reproduced",
			fn, field, kt)
	}
	return newJMap(func(p, q any) (bool, error) { return javaEquals(kt, p, q) }), nil
}

func (m *jmap) putKey(kt schema.DataType, k, v any) error {
	h, err := javaHashCode(kt, k)
	if err != nil {
		return err
	}
	return m.put(h, k, v)
}

func (m *jmap) toMap() data.Map {
	es := m.entries()
	out := data.Map{Keys: make([]any, len(es)), Values: make([]any, len(es))}
	for i, e := range es {
		out.Keys[i], out.Values[i] = e.Key, e.Value
	}
	return out
}

func (a *mergeMapAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	x, err := mapValue(a.t, acc)
	if err != nil {
		return nil, err
	}
	y, err := mapValue(a.t, in)
	if err != nil {
		return nil, err
	}
	m, err := newKeyMap(a.kt, a.fn, a.field)
	if err != nil {
		return nil, err
	}
	for _, src := range []data.Map{x, y} {
		for i, k := range src.Keys {
			if err := m.putKey(a.kt, k, src.Values[i]); err != nil {
				return nil, err
			}
		}
	}
	return m.toMap(), nil
}

func (a *mergeMapAgg) retract(acc, in any) (any, error) {
	if acc == nil {
		return nil, nil
	}
	if in == nil {
		return acc, nil
	}
	r, err := mapValue(a.t, in)
	if err != nil {
		return nil, err
	}
	if r.Len() == 0 {
		return acc, nil
	}
	x, err := mapValue(a.t, acc)
	if err != nil {
		return nil, err
	}
	gone, err := newKeyMap(a.kt, a.fn, a.field)
	if err != nil {
		return nil, err
	}
	for _, k := range r.Keys {
		if err := gone.putKey(a.kt, k, nil); err != nil {
			return nil, err
		}
	}
	m, _ := newKeyMap(a.kt, a.fn, a.field)
	for i, k := range x.Keys {
		h, err := javaHashCode(a.kt, k)
		if err != nil {
			return nil, err
		}
		_, found, err := gone.get(h, k)
		if err != nil {
			return nil, err
		}
		if !found {
			if err := m.put(h, k, x.Values[i]); err != nil {
				return nil, err
			}
		}
	}
	return m.toMap(), nil
}

// mergeMapWithKeyTimeAgg mirrors FieldMergeMapWithKeyTimeAgg: MAP<K, ROW>
// values where each entry carries a time string; for every key the entry
// with the greatest time (Java String.compareTo, UTF-16 order) wins, an
// input entry whose ROW is NULL deletes the key, and an input entry whose
// time is NULL is ignored. The time field is fields.<f>.ts-field, default
// the last field of the ROW.
type mergeMapWithKeyTimeAgg struct {
	aggBase
	t      schema.DataType
	kt, vt schema.DataType
	ts     int
}

func newMergeMapWithKeyTimeAgg(t schema.DataType, b aggBase, o options) (fieldAgg, error) {
	if t.Root != schema.Map {
		return nil, invalidf("data type for field '%s' must be 'MAP' but was '%s'", b.field, t)
	}
	vt := *t.Value
	if vt.Root != schema.Row {
		return nil, invalidf("value type of MAP for field '%s' must be ROW but was '%s'", b.field, vt)
	}
	if len(vt.Fields) < 2 {
		return nil, invalidf("ROW type for field '%s' must have at least 2 fields, but found %d", b.field, len(vt.Fields))
	}
	ts := len(vt.Fields) - 1
	if name, ok := o.fieldOpt(b.field, keyMergeMapTsField); ok {
		if ts = vt.FieldIndex(name); ts < 0 {
			return nil, invalidf("timestamp field '%s' not found in ROW type for field '%s'. Available fields: %v", name, b.field, vt.FieldNames())
		}
	}
	if !vt.Fields[ts].Type.Root.IsCharacterString() {
		// Java reads the field with getString whatever its type.
		return nil, unsupportedf("aggregate function %s (field %s): time field %s of type %s is read by Java as a string",
			b.fn, b.field, vt.Fields[ts].Name, vt.Fields[ts].Type)
	}
	return &mergeMapWithKeyTimeAgg{aggBase: b, t: t, kt: *t.Key, vt: vt, ts: ts}, nil
}

func (a *mergeMapWithKeyTimeAgg) agg(acc, in any) (any, error) {
	if acc == nil {
		return in, nil
	}
	if in == nil {
		return acc, nil
	}
	x, err := mapValue(a.t, acc)
	if err != nil {
		return nil, err
	}
	y, err := mapValue(a.t, in)
	if err != nil {
		return nil, err
	}
	m, err := newKeyMap(a.kt, a.fn, a.field)
	if err != nil {
		return nil, err
	}
	for i, k := range x.Keys {
		if err := m.putKey(a.kt, k, x.Values[i]); err != nil {
			return nil, err
		}
	}
	for i, k := range y.Keys {
		h, err := javaHashCode(a.kt, k)
		if err != nil {
			return nil, err
		}
		if y.Values[i] == nil {
			if err := m.remove(h, k); err != nil {
				return nil, err
			}
			continue
		}
		newRow, err := rowValue(a.vt, y.Values[i])
		if err != nil {
			return nil, err
		}
		if newRow[a.ts] == nil {
			continue
		}
		existing, _, err := m.get(h, k)
		if err != nil {
			return nil, err
		}
		replace := existing == nil
		if !replace {
			oldRow, err := rowValue(a.vt, existing)
			if err != nil {
				return nil, err
			}
			if oldRow[a.ts] == nil {
				replace = true
			} else {
				nts, ots, err := pair[string](a.vt.Fields[a.ts].Type, newRow[a.ts], oldRow[a.ts])
				if err != nil {
					return nil, err
				}
				replace = javacompat.CompareStrings(nts, ots) > 0
			}
		}
		if replace {
			if err := m.put(h, k, y.Values[i]); err != nil {
				return nil, err
			}
		}
	}
	return m.toMap(), nil
}

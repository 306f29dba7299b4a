package mergefunc

import (
	"github.com/paimon-go/paimon-go/format/schema"
)

// collectAgg mirrors FieldCollectAgg: ARRAY values are concatenated. With
// fields.<f>.distinct duplicates are dropped, and the result order is Java's:
// for atomic elements the iteration order of the java.util.HashSet the
// elements are collected in (reproduced with Java's hashCode), for nested
// elements (ROW, ARRAY, MAP) the accumulator followed by the new elements
// not yet present according to a generated RecordEqualiser. Retraction
// removes, for every retracted element, one equal element of the
// accumulator.
type collectAgg struct {
	aggBase
	t        schema.DataType
	elem     schema.DataType
	distinct bool
	nested   bool // distinct with a constructed element type: list + equaliser
}

func newCollectAgg(t schema.DataType, b aggBase, o options) (fieldAgg, error) {
	if t.Root != schema.Array {
		return nil, invalidf("data type for collect column %s must be 'Array' but was '%s'", b.field, t)
	}
	distinct, err := o.boolean(fieldsPrefix+"."+b.field+"."+keyDistinct, false)
	if err != nil {
		return nil, err
	}
	return &collectAgg{aggBase: b, t: t, elem: *t.Element, distinct: distinct, nested: distinct && t.Element.Root.IsNested()}, nil
}

// aggReversed overrides Java's default: the accumulator is already distinct,
// so the arguments are not swapped.
func (a *collectAgg) aggReversed(acc, in any) (any, error) { return a.agg(acc, in) }

func (a *collectAgg) agg(acc, in any) (any, error) {
	if acc == nil && in == nil {
		return nil, nil
	}
	if (acc == nil || in == nil) && !a.distinct {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	var xs, ys []any
	var err error
	if acc != nil {
		if xs, err = elements(a.t, acc); err != nil {
			return nil, err
		}
	}
	if in != nil {
		if ys, err = elements(a.t, in); err != nil {
			return nil, err
		}
	}
	switch {
	case a.nested:
		out := make([]any, 0, len(xs)+len(ys))
		out = append(out, xs...)
		for _, y := range ys {
			found, err := a.containsEqualised(out, y)
			if err != nil {
				return nil, err
			}
			if !found {
				out = append(out, y)
			}
		}
		return out, nil
	case a.distinct:
		if !hashable(a.elem) {
			return nil, unsupportedf("aggregate function collect (field %s) with distinct over %s elements: "+
				"Java's HashSet order depends on identity hash codes", a.field, a.elem)
		}
		set := newJMap(func(p, q any) (bool, error) { return javaEquals(a.elem, p, q) })
		for _, v := range append(append(make([]any, 0, len(xs)+len(ys)), xs...), ys...) {
			h, err := javaHashCode(a.elem, v)
			if err != nil {
				return nil, err
			}
			if err := set.put(h, v, nil); err != nil {
				return nil, err
			}
		}
		es := set.entries()
		out := make([]any, len(es))
		for i, e := range es {
			out[i] = e.Key
		}
		return out, nil
	}
	out := make([]any, 0, len(xs)+len(ys))
	return append(append(out, xs...), ys...), nil
}

// containsEqualised mirrors FieldCollectAgg.contains: a NULL element is
// found by identity, any other through the equaliser.
func (a *collectAgg) containsEqualised(list []any, v any) (bool, error) {
	if v == nil {
		for _, o := range list {
			if o == nil {
				return true, nil
			}
		}
		return false, nil
	}
	if !equaliserSupported(a.elem) {
		return false, unsupportedf("aggregate function collect (field %s) with distinct over %s elements", a.field, a.elem)
	}
	for _, o := range list {
		ok, err := equaliserEqual(a.elem, o, v)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func (a *collectAgg) retract(acc, in any) (any, error) {
	if acc == nil {
		return nil, nil
	}
	if in == nil {
		return acc, nil
	}
	rs, err := elements(a.t, in)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return acc, nil
	}
	xs, err := elements(a.t, acc)
	if err != nil {
		return nil, err
	}
	pending := append([]any(nil), rs...)
	out := make([]any, 0, len(xs))
	for _, x := range xs {
		removed := false
		for i, r := range pending {
			eq, err := a.equals(r, x)
			if err != nil {
				return nil, err
			}
			if eq {
				pending = append(pending[:i:i], pending[i+1:]...)
				removed = true
				break
			}
		}
		if !removed {
			out = append(out, x)
		}
	}
	return out, nil
}

// equals mirrors FieldCollectAgg.equals: NULLs equal each other; otherwise
// the equaliser when distinct applies to nested elements, else Java's
// Object.equals.
func (a *collectAgg) equals(x, y any) (bool, error) {
	if x == nil || y == nil {
		return x == nil && y == nil, nil
	}
	if a.nested {
		if !equaliserSupported(a.elem) {
			return false, unsupportedf("aggregate function collect (field %s) with distinct over %s elements", a.field, a.elem)
		}
		return equaliserEqual(a.elem, x, y)
	}
	return javaEquals(a.elem, x, y)
}

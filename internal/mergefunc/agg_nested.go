package mergefunc

import (
	"bytes"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// nestedKey projects the nested-key fields of an ARRAY<ROW> element into a
// BinaryRow, the HashMap key Java's nested aggregators use: its hashCode is
// BinaryRow.hashCode and its equality the bytes.
type nestedKey struct {
	idx   []int
	types []schema.DataType
}

func newNestedKey(elem schema.DataType, names []string, fn, field string) (*nestedKey, error) {
	k := &nestedKey{}
	for _, n := range names {
		i := elem.FieldIndex(n)
		if i < 0 {
			return nil, invalidf("nested key %s of field %s is not a field of %s", n, field, elem)
		}
		k.idx = append(k.idx, i)
		k.types = append(k.types, elem.Fields[i].Type)
	}
	if _, err := binaryrow.Encode(data.Insert, k.types, make([]any, len(k.types))); err != nil {
		return nil, unsupportedf("aggregate function %s (field %s): nested key types %v: %v", fn, field, k.types, err)
	}
	return k, nil
}

// of returns the key bytes of a nested row and their Java hashCode.
func (k *nestedKey) of(row []any) ([]byte, int32, error) {
	vals := make([]any, len(k.idx))
	for j, i := range k.idx {
		vals[j] = row[i]
	}
	b, err := binaryrow.Encode(data.Insert, k.types, vals)
	if err != nil {
		return nil, 0, mergeErrf("nested key: %v", err)
	}
	return b, binaryrow.Hash(b), nil
}

func bytesKeyMap() *jmap {
	return newJMap(func(p, q any) (bool, error) { return bytes.Equal(p.([]byte), q.([]byte)), nil })
}

// nestedOptions reads fields.<f>.nested-key and refuses the options only
// Java 2.0.0 knows, whose merge results differ from 1.4.2.
func nestedOptions(b aggBase, o options) ([]string, error) {
	for _, k := range []string{keyNestedKeyNullStrategy, keyNestedSequenceField} {
		if _, ok := o.fieldOpt(b.field, k); ok {
			return nil, unsupportedf("aggregate function %s (field %s): option fields.%s.%s is a Java 2.0.0 feature", b.fn, b.field, b.field, k)
		}
	}
	v, ok := o.fieldOpt(b.field, keyNestedKey)
	if !ok {
		return nil, nil
	}
	parts := javacompat.Split(v, ",")
	for i, p := range parts {
		parts[i] = javacompat.Trim(p)
	}
	return parts, nil
}

func arrayOfRow(t schema.DataType, b aggBase) error {
	if t.Root != schema.Array || t.Element.Root != schema.Row {
		return invalidf("data type for nested table column %s must be 'Array<Row>' but was '%s'", b.field, t)
	}
	return nil
}

// nonNullRows returns the non-null elements of an ARRAY<ROW>, at most limit
// of them.
func nonNullRows(t schema.DataType, v any, limit int) ([][]any, error) {
	es, err := elements(t, v)
	if err != nil {
		return nil, err
	}
	out := make([][]any, 0, len(es))
	for _, e := range es {
		if len(out) >= limit {
			break
		}
		if e == nil {
			continue
		}
		r, err := rowValue(*t.Element, e)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func rowsToArray(rows [][]any) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out
}

// nestedUpdateAgg mirrors Java 1.4.2 FieldNestedUpdateAgg: ARRAY<ROW>
// values are concatenated (NULL elements dropped, at most
// fields.<f>.count-limit rows); with fields.<f>.nested-key the rows are
// deduplicated by key, the later row winning, in the iteration order of
// Java's HashMap keyed by the key BinaryRow. Retraction removes the rows
// equal to a retracted row (without a key) or having its key.
type nestedUpdateAgg struct {
	aggBase
	t     schema.DataType
	key   *nestedKey
	limit int
}

func newNestedUpdateAgg(t schema.DataType, b aggBase, o options) (fieldAgg, error) {
	names, err := nestedOptions(b, o)
	if err != nil {
		return nil, err
	}
	limit, err := o.int32Opt(fieldsPrefix+"."+b.field+"."+keyCountLimit, defaultCountLimit)
	if err != nil {
		return nil, err
	}
	if err := arrayOfRow(t, b); err != nil {
		return nil, err
	}
	a := &nestedUpdateAgg{aggBase: b, t: t, limit: int(limit)}
	if len(names) > 0 {
		if a.key, err = newNestedKey(*t.Element, names, b.fn, b.field); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a *nestedUpdateAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	accElems, err := elements(a.t, acc)
	if err != nil {
		return nil, err
	}
	if len(accElems) >= a.limit {
		return acc, nil
	}
	rows, err := nonNullRows(a.t, acc, len(accElems))
	if err != nil {
		return nil, err
	}
	more, err := nonNullRows(a.t, in, a.limit-len(accElems))
	if err != nil {
		return nil, err
	}
	rows = append(rows, more...)
	if a.key == nil {
		return rowsToArray(rows), nil
	}
	m := bytesKeyMap()
	for _, r := range rows {
		k, h, err := a.key.of(r)
		if err != nil {
			return nil, err
		}
		if err := m.put(h, k, r); err != nil {
			return nil, err
		}
	}
	return mapValues(m), nil
}

func mapValues(m *jmap) []any {
	es := m.entries()
	out := make([]any, len(es))
	for i, e := range es {
		out[i] = e.Value
	}
	return out
}

func (a *nestedUpdateAgg) retract(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return acc, nil
	}
	accRows, err := nonNullRows(a.t, acc, int(^uint(0)>>1))
	if err != nil {
		return nil, err
	}
	retracted, err := nonNullRows(a.t, in, int(^uint(0)>>1))
	if err != nil {
		return nil, err
	}
	elem := *a.t.Element
	if a.key == nil {
		if !equaliserSupported(elem) {
			return nil, unsupportedf("aggregate function %s (field %s): retraction compares %s rows with a generated equaliser", a.fn, a.field, elem)
		}
		for _, r := range retracted {
			kept := accRows[:0:0]
			for _, x := range accRows {
				eq, err := rowFieldwise(elem, x, r)
				if err != nil {
					return nil, err
				}
				if !eq {
					kept = append(kept, x)
				}
			}
			accRows = kept
		}
		return rowsToArray(accRows), nil
	}
	m := bytesKeyMap()
	for _, x := range accRows {
		k, h, err := a.key.of(x)
		if err != nil {
			return nil, err
		}
		if err := m.put(h, k, x); err != nil {
			return nil, err
		}
	}
	for _, r := range retracted {
		k, h, err := a.key.of(r)
		if err != nil {
			return nil, err
		}
		if err := m.remove(h, k); err != nil {
			return nil, err
		}
	}
	return mapValues(m), nil
}

// nestedPartialUpdateAgg mirrors Java 1.4.2 FieldNestedPartialUpdateAgg:
// ARRAY<ROW> rows with the same fields.<f>.nested-key are merged field by
// field, non-null values of later rows winning, in the iteration order of
// Java's HashMap (filled with computeIfAbsent). It cannot retract.
type nestedPartialUpdateAgg struct {
	aggBase
	t   schema.DataType
	key *nestedKey
}

func newNestedPartialUpdateAgg(t schema.DataType, b aggBase, o options) (fieldAgg, error) {
	names, err := nestedOptions(b, o)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, invalidf("aggregate function %s (field %s) requires fields.%s.%s", b.fn, b.field, b.field, keyNestedKey)
	}
	if err := arrayOfRow(t, b); err != nil {
		return nil, err
	}
	k, err := newNestedKey(*t.Element, names, b.fn, b.field)
	if err != nil {
		return nil, err
	}
	return &nestedPartialUpdateAgg{aggBase: b, t: t, key: k}, nil
}

func (a *nestedPartialUpdateAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	all := int(^uint(0) >> 1)
	rows, err := nonNullRows(a.t, acc, all)
	if err != nil {
		return nil, err
	}
	more, err := nonNullRows(a.t, in, all)
	if err != nil {
		return nil, err
	}
	rows = append(rows, more...)
	n := len(a.t.Element.Fields)
	m := bytesKeyMap()
	for _, r := range rows {
		k, h, err := a.key.of(r)
		if err != nil {
			return nil, err
		}
		v, err := m.computeIfAbsent(h, k, func() any { return make([]any, n) })
		if err != nil {
			return nil, err
		}
		target := v.([]any)
		for i, f := range r {
			if f != nil {
				target[i] = f
			}
		}
	}
	return mapValues(m), nil
}

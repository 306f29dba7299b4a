package mergefunc

import (
	"slices"

	"github.com/paimon-go/paimon-go/format/schema"
)

// NewEngine returns the merge engine of f without the single-version
// shortcut of Java's ReducerMergeFunctionWrapper: the engine runs even on a
// key's only version, as Java's LookupMergeFunction.getResult runs the
// engine it wraps over the level-0 versions and the high-level one. ok is
// false for the first-row engine, which Java does not wrap
// (FirstRowMergeFunctionWrapper).
func NewEngine(f Factory) (fn Function, ok bool) {
	switch ff := f.(type) {
	case *factory:
		return &rawEngine{inner: ff.newEngine(), arity: ff.arity}, true
	case *selectingFactory:
		if !ff.firstRow {
			return &rawEngine{inner: &deduplicate{ignoreDelete: ff.ignoreDelete}, arity: ff.arity}, true
		}
	}
	return nil, false
}

// rawEngine adapts an engineFunc to Function, checking rows as reducer does.
type rawEngine struct {
	inner engineFunc
	arity int
}

func (e *rawEngine) Reset() { e.inner.reset() }

func (e *rawEngine) Add(row *Row) error {
	if row == nil {
		return mergeErrf("nil row")
	}
	if len(row.Values) != e.arity {
		return mergeErrf("row of %d values for %d fields", len(row.Values), e.arity)
	}
	if row.Kind < 0 || row.Kind > 3 {
		return mergeErrf("invalid row kind %d", row.Kind)
	}
	return e.inner.add(row)
}

func (e *rawEngine) Result() (*Row, error) { return e.inner.result() }

// ValueEqualiser returns the equality of two value rows (every field of
// the table, schema order) that Java's changelog-producer.row-deduplicate
// uses (ValueEqualiserSupplier.fromIgnoreFields: a generated
// RecordEqualiser over the fields not named in ignore). Both rows are
// compared field by field: a NULL equals only a NULL, then fieldEq.
//
// Java 1.4.2 and 2.0.0 compare FLOAT and DOUBLE fields differently (2.0.0
// uses Float.compare and Double.compare, 1.4.2 ==, so NaN and -0.0 differ
// between them), and the generated equaliser compares MAP and MULTISET
// values through java.util.Map: a compared field of such a type, at any
// depth, is refused with ErrUnsupported. With every compared field of
// another type, Java's BinaryRow byte equality (taken when neither floats
// nor ignored fields are present) and the field-by-field comparison agree.
func ValueEqualiser(fields []schema.DataField, ignore []string) (func(a, b []any) (bool, error), error) {
	var idx []int
	for i, f := range fields {
		if slices.Contains(ignore, f.Name) {
			continue
		}
		if !equaliserSupported(f.Type) || hasFloating(f.Type) {
			return nil, unsupportedf("changelog-producer.row-deduplicate comparing field %s of type %s", f.Name, f.Type.Root)
		}
		idx = append(idx, i)
	}
	return func(a, b []any) (bool, error) {
		if len(a) != len(fields) || len(b) != len(fields) {
			return false, mergeErrf("rows of %d and %d values for %d fields", len(a), len(b), len(fields))
		}
		for _, i := range idx {
			if ok, err := fieldEq(fields[i].Type, a[i], b[i]); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}, nil
}

// hasFloating reports whether t is or holds a FLOAT or DOUBLE.
func hasFloating(t schema.DataType) bool {
	switch t.Root {
	case schema.Float, schema.Double:
		return true
	case schema.Row:
		for _, f := range t.Fields {
			if hasFloating(f.Type) {
				return true
			}
		}
	case schema.Array, schema.Multiset:
		return t.Element != nil && hasFloating(*t.Element)
	case schema.Map:
		return (t.Key != nil && hasFloating(*t.Key)) || (t.Value != nil && hasFloating(*t.Value))
	}
	return false
}

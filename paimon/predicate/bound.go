package predicate

import (
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
)

// Bound is a predicate resolved against a schema (Java LeafPredicate or
// CompoundPredicate with field indexes): leaves carry the field index and
// literals in the column's value representation. It never contains NOT
// (negation is pushed to the leaves by Bind). A Bound is immutable and safe
// for concurrent use.
type Bound struct {
	kind     Kind
	index    int
	field    schema.DataField
	literals []any
	children []*Bound
}

// Kind returns the function of the node.
func (b *Bound) Kind() Kind { return b.kind }

// FieldIndex returns the index, in the fields given to Bind, of the field a
// leaf tests; -1 for AND/OR.
func (b *Bound) FieldIndex() int { return b.index }

// Field returns the field a leaf tests (zero for AND/OR).
func (b *Bound) Field() schema.DataField { return b.field }

// Literals returns a copy of a leaf's literals in the column's value
// representation (see package format/data); nil entries are NULL literals.
// IS NULL / IS NOT NULL and AND/OR have none.
func (b *Bound) Literals() []any { return append([]any(nil), b.literals...) }

// Children returns the children of an AND/OR node (nil for leaves).
func (b *Bound) Children() []*Bound { return append([]*Bound(nil), b.children...) }

// Leaves returns the leaves of the tree, depth first, left to right (Java
// PredicateBuilder.collectFieldNames-style walks).
func (b *Bound) Leaves() []*Bound {
	if b.kind.IsLeaf() {
		return []*Bound{b}
	}
	var out []*Bound
	for _, c := range b.children {
		out = append(out, c.Leaves()...)
	}
	return out
}

// Negate returns the negation of b as Java's Predicate.negate computes it,
// or false when some leaf (STARTS WITH) has no negation.
func (b *Bound) Negate() (*Bound, bool) {
	if b.kind.IsLeaf() {
		k, ok := negateKind(b.kind)
		if !ok {
			return nil, false
		}
		n := *b
		n.kind = k
		return &n, true
	}
	k := KindAnd
	if b.kind == KindAnd {
		k = KindOr
	}
	n := &Bound{kind: k, index: -1, children: make([]*Bound, len(b.children))}
	for i, c := range b.children {
		nc, ok := c.Negate()
		if !ok {
			return nil, false
		}
		n.children[i] = nc
	}
	return n, true
}

// String renders b in SQL-like form with bound literals, e.g.
// `dt = '2026-08-01' AND amount > 100`.
func (b *Bound) String() string {
	var sb strings.Builder
	b.write(&sb)
	return sb.String()
}

func (b *Bound) write(sb *strings.Builder) {
	if !b.kind.IsLeaf() {
		writeCompound(sb, b.kind, len(b.children), func(i int) (Kind, func()) {
			c := b.children[i]
			return c.kind, func() { c.write(sb) }
		})
		return
	}
	writeLeaf(sb, b.kind, b.field.Name, b.literals, func(v any) string {
		return formatValue(b.field.Type, v)
	})
}

// Test evaluates b on one row whose values are in the data representation,
// indexed like the fields given to Bind (Java Predicate.test(InternalRow)).
// A missing value (index beyond len(values)) counts as NULL. The result is
// exact; NULL handling follows the package documentation.
func (b *Bound) Test(values []any) bool {
	switch b.kind {
	case KindAnd:
		for _, c := range b.children {
			if !c.Test(values) {
				return false
			}
		}
		return true
	case KindOr:
		for _, c := range b.children {
			if c.Test(values) {
				return true
			}
		}
		return false
	}
	var v any
	if b.index < len(values) {
		v = values[b.index]
	}
	return b.testValue(v)
}

// testValue mirrors each Java LeafFunction.test(type, field, literals).
func (b *Bound) testValue(v any) bool {
	switch b.kind {
	case KindIsNull:
		return v == nil
	case KindIsNotNull:
		return v != nil
	case KindIn:
		if v == nil {
			return false
		}
		for _, l := range b.literals {
			if l != nil && cmpIs(l, v, func(c int) bool { return c == 0 }) {
				return true
			}
		}
		return false
	case KindNotIn:
		if v == nil {
			return false
		}
		for _, l := range b.literals {
			if l == nil {
				return false
			}
			c, ok := compare(l, v)
			if !ok || c == 0 {
				return false
			}
		}
		return true
	}
	// Binary functions (Java LeafBinaryFunction): NULL on either side is false.
	if v == nil || len(b.literals) == 0 || b.literals[0] == nil {
		return false
	}
	lit := b.literals[0]
	if b.kind == KindStartsWith {
		s, ok1 := v.(string)
		p, ok2 := lit.(string)
		return ok1 && ok2 && hasPrefix(s, p)
	}
	c, ok := compare(lit, v) // literal compared to field, as Java does
	if !ok {
		return false
	}
	switch b.kind {
	case KindEqual:
		return c == 0
	case KindNotEqual:
		return c != 0
	case KindLessThan:
		return c > 0
	case KindLessOrEqual:
		return c >= 0
	case KindGreaterThan:
		return c < 0
	case KindGreaterOrEqual:
		return c <= 0
	}
	return false
}

func cmpIs(a, b any, pred func(int) bool) bool {
	c, ok := compare(a, b)
	return ok && pred(c)
}

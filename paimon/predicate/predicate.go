package predicate

import (
	"strings"
)

// Kind is the function of a predicate node: one of the leaf functions of
// Java's LeafFunction hierarchy or one of the compound functions And/Or.
type Kind int

// The predicate kinds. Leaf kinds carry a field; KindAnd and KindOr carry
// children.
const (
	KindInvalid        Kind = iota
	KindEqual               // Java Equal
	KindNotEqual            // Java NotEqual
	KindLessThan            // Java LessThan
	KindLessOrEqual         // Java LessOrEqual
	KindGreaterThan         // Java GreaterThan
	KindGreaterOrEqual      // Java GreaterOrEqual
	KindIn                  // Java In
	KindNotIn               // Java NotIn
	KindIsNull              // Java IsNull
	KindIsNotNull           // Java IsNotNull
	KindStartsWith          // Java StartsWith
	KindAnd                 // Java And
	KindOr                  // Java Or
	kindNot                 // unbound only: removed by negation at bind time
)

var kindNames = [...]string{
	KindInvalid:        "INVALID",
	KindEqual:          "=",
	KindNotEqual:       "!=",
	KindLessThan:       "<",
	KindLessOrEqual:    "<=",
	KindGreaterThan:    ">",
	KindGreaterOrEqual: ">=",
	KindIn:             "IN",
	KindNotIn:          "NOT IN",
	KindIsNull:         "IS NULL",
	KindIsNotNull:      "IS NOT NULL",
	KindStartsWith:     "STARTS WITH",
	KindAnd:            "AND",
	KindOr:             "OR",
	kindNot:            "NOT",
}

// String returns the SQL operator of the kind, e.g. "<=" or "IS NULL".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}

// IsLeaf reports whether k is a leaf function (it tests one field).
func (k Kind) IsLeaf() bool { return k >= KindEqual && k <= KindStartsWith }

// Predicate is an unbound filter expression: fields are referred to by name
// and literals are plain Go values. Build one with the functions of this
// package and resolve it against a schema with Bind. A Predicate is
// immutable.
type Predicate struct {
	kind     Kind
	field    string
	literals []any
	children []*Predicate
}

func leaf(k Kind, name string, literals ...any) *Predicate {
	return &Predicate{kind: k, field: name, literals: literals}
}

// Equal returns "name = value" (Java PredicateBuilder.equal).
func Equal(name string, value any) *Predicate { return leaf(KindEqual, name, value) }

// NotEqual returns "name != value" (Java PredicateBuilder.notEqual).
func NotEqual(name string, value any) *Predicate { return leaf(KindNotEqual, name, value) }

// LessThan returns "name < value" (Java PredicateBuilder.lessThan).
func LessThan(name string, value any) *Predicate { return leaf(KindLessThan, name, value) }

// LessOrEqual returns "name <= value" (Java PredicateBuilder.lessOrEqual).
func LessOrEqual(name string, value any) *Predicate { return leaf(KindLessOrEqual, name, value) }

// GreaterThan returns "name > value" (Java PredicateBuilder.greaterThan).
func GreaterThan(name string, value any) *Predicate { return leaf(KindGreaterThan, name, value) }

// GreaterOrEqual returns "name >= value" (Java PredicateBuilder.greaterOrEqual).
func GreaterOrEqual(name string, value any) *Predicate {
	return leaf(KindGreaterOrEqual, name, value)
}

// In returns "name IN (values...)" (Java In). A nil value never matches.
// Unlike Java's PredicateBuilder.in, short lists are not expanded into an OR
// of equalities; the result is the same.
func In(name string, values ...any) *Predicate {
	return leaf(KindIn, name, append([]any(nil), values...)...)
}

// NotIn returns "name NOT IN (values...)" (Java NotIn). A nil value makes
// the predicate false for every row, as in SQL.
func NotIn(name string, values ...any) *Predicate {
	return leaf(KindNotIn, name, append([]any(nil), values...)...)
}

// IsNull returns "name IS NULL" (Java IsNull).
func IsNull(name string) *Predicate { return leaf(KindIsNull, name) }

// IsNotNull returns "name IS NOT NULL" (Java IsNotNull).
func IsNotNull(name string) *Predicate { return leaf(KindIsNotNull, name) }

// StartsWith returns "name STARTS WITH prefix" (Java StartsWith); it binds
// only to CHAR/VARCHAR columns.
func StartsWith(name, prefix string) *Predicate { return leaf(KindStartsWith, name, prefix) }

// And returns the conjunction of ps (Java PredicateBuilder.and). With one
// argument it returns that argument; with none, Bind fails with ErrInvalid.
func And(ps ...*Predicate) *Predicate {
	if len(ps) == 1 {
		return ps[0]
	}
	return &Predicate{kind: KindAnd, children: append([]*Predicate(nil), ps...)}
}

// Or returns the disjunction of ps (Java PredicateBuilder.or). With one
// argument it returns that argument; with none, Bind fails with ErrInvalid.
func Or(ps ...*Predicate) *Predicate {
	if len(ps) == 1 {
		return ps[0]
	}
	return &Predicate{kind: KindOr, children: append([]*Predicate(nil), ps...)}
}

// Not returns the negation of p. Bind pushes it down like Java's
// Predicate.negate (see the package documentation); NOT over STARTS WITH
// does not bind.
func Not(p *Predicate) *Predicate {
	return &Predicate{kind: kindNot, children: []*Predicate{p}}
}

// String renders p in SQL-like form, e.g. `dt = '2026-08-01' AND amount > 100`.
// Parse reads the result back into an equivalent predicate, except for
// literals its syntax cannot express (NULL, NaN and infinities, times
// outside years 0-9999, Go values of other types) and AND/OR without
// children.
func (p *Predicate) String() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

func (p *Predicate) write(b *strings.Builder) {
	if p == nil {
		b.WriteString("<nil>")
		return
	}
	switch p.kind {
	case KindAnd, KindOr:
		writeCompound(b, p.kind, len(p.children), func(i int) (Kind, func()) {
			c := p.children[i]
			k := KindInvalid
			if c != nil {
				k = c.kind
			}
			return k, func() { c.write(b) }
		})
	case kindNot:
		b.WriteString("NOT (")
		p.children[0].write(b)
		b.WriteString(")")
	default:
		writeLeaf(b, p.kind, p.field, p.literals, formatGoLiteral)
	}
}

// writeCompound writes children joined by the operator, parenthesising
// compound children so that the text reads unambiguously.
func writeCompound(b *strings.Builder, k Kind, n int, child func(int) (Kind, func())) {
	if n == 0 {
		b.WriteString(k.String() + " ()")
		return
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(" " + k.String() + " ")
		}
		ck, w := child(i)
		paren := ck == KindAnd || ck == KindOr
		if paren {
			b.WriteString("(")
		}
		w()
		if paren {
			b.WriteString(")")
		}
	}
}

func writeLeaf(b *strings.Builder, k Kind, field string, literals []any, format func(any) string) {
	b.WriteString(quoteIdent(field))
	b.WriteString(" ")
	b.WriteString(k.String())
	switch k {
	case KindIsNull, KindIsNotNull:
	case KindIn, KindNotIn:
		b.WriteString(" (")
		for i, l := range literals {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(format(l))
		}
		b.WriteString(")")
	default:
		b.WriteString(" ")
		if len(literals) > 0 {
			b.WriteString(format(literals[0]))
		}
	}
}

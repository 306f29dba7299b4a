package predicate

import (
	"fmt"

	"github.com/paimon-go/paimon-go/format/schema"
)

// Bind resolves p against fields (usually a table schema's fields): each
// field name is looked up exactly (case-sensitively), each literal is
// converted to the column's value representation (see convert.go), and NOT
// is pushed down to the leaves by negation, as Java's Predicate.negate does.
//
// Errors wrap ErrUnknownField (name not found), ErrTypeMismatch (literal not
// convertible, or STARTS WITH on a non-string column), ErrUnsupported
// (nested or otherwise non-filterable column, NOT over STARTS WITH) or
// ErrInvalid (nil predicate, AND/OR without children).
func Bind(p *Predicate, fields []schema.DataField) (*Bound, error) {
	return bind(p, fields, false)
}

func bind(p *Predicate, fields []schema.DataField, negate bool) (*Bound, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: nil predicate", ErrInvalid)
	}
	switch p.kind {
	case kindNot:
		if len(p.children) != 1 {
			return nil, fmt.Errorf("%w: NOT needs one child", ErrInvalid)
		}
		return bind(p.children[0], fields, !negate)
	case KindAnd, KindOr:
		if len(p.children) == 0 {
			return nil, fmt.Errorf("%w: %s without children", ErrInvalid, p.kind)
		}
		k := p.kind
		if negate {
			// De Morgan, as Java And.negate / Or.negate.
			if k == KindAnd {
				k = KindOr
			} else {
				k = KindAnd
			}
		}
		out := &Bound{kind: k, index: -1, children: make([]*Bound, len(p.children))}
		for i, c := range p.children {
			bc, err := bind(c, fields, negate)
			if err != nil {
				return nil, err
			}
			out.children[i] = bc
		}
		return out, nil
	}
	if !p.kind.IsLeaf() {
		return nil, fmt.Errorf("%w: kind %d", ErrInvalid, int(p.kind))
	}
	idx := -1
	for i := range fields {
		if fields[i].Name == p.field {
			idx = i
			break
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("%w: %q", ErrUnknownField, p.field)
	}
	f := fields[idx]
	if !filterable(f.Type.Root) && !(f.Type.Root == schema.Blob && (p.kind == KindIsNull || p.kind == KindIsNotNull)) {
		return nil, fmt.Errorf("%w: field %q of type %s cannot be filtered", ErrUnsupported, f.Name, f.Type.Root)
	}
	if p.kind == KindStartsWith && !f.Type.Root.IsCharacterString() {
		return nil, fmt.Errorf("%w: STARTS WITH on field %q of type %s (needs CHAR/VARCHAR)", ErrTypeMismatch, f.Name, f.Type.Root)
	}
	lits := make([]any, len(p.literals))
	for i, l := range p.literals {
		v, err := convert(f, l)
		if err != nil {
			return nil, err
		}
		lits[i] = v
	}
	k := p.kind
	if negate {
		nk, ok := negateKind(k)
		if !ok {
			return nil, fmt.Errorf("%w: NOT over %s on field %q (Java StartsWith has no negation)", ErrUnsupported, k, f.Name)
		}
		k = nk
	}
	return &Bound{kind: k, index: idx, field: f, literals: lits}, nil
}

// filterable reports whether columns of root r can be filtered: atomic
// types with an ordering Java's CompareUtils understands. A BLOB column
// takes IS [NOT] NULL alone (as Java's, whose BLOB has no ordering).
func filterable(r schema.TypeRoot) bool {
	switch r {
	case schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt,
		schema.Float, schema.Double, schema.Decimal, schema.Char, schema.VarChar,
		schema.Binary, schema.VarBinary, schema.Date, schema.Time,
		schema.Timestamp, schema.TimestampLTZ:
		return true
	}
	return false
}

// negateKind mirrors the LeafFunction.negate of each Java leaf function.
func negateKind(k Kind) (Kind, bool) {
	switch k {
	case KindEqual:
		return KindNotEqual, true
	case KindNotEqual:
		return KindEqual, true
	case KindLessThan:
		return KindGreaterOrEqual, true
	case KindGreaterOrEqual:
		return KindLessThan, true
	case KindLessOrEqual:
		return KindGreaterThan, true
	case KindGreaterThan:
		return KindLessOrEqual, true
	case KindIn:
		return KindNotIn, true
	case KindNotIn:
		return KindIn, true
	case KindIsNull:
		return KindIsNotNull, true
	case KindIsNotNull:
		return KindIsNull, true
	}
	return k, false
}

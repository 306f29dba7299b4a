package mergefunc

import (
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
)

// listaggAgg mirrors Java 1.4.2 FieldListaggAgg: strings joined with
// fields.<f>.list-agg-delimiter (default ","), empty strings skipped. With
// fields.<f>.distinct, input tokens already present in the accumulator (or
// empty) are dropped; the accumulator itself is kept as is. Tokens are
// split on the delimiter, or on a single space when the delimiter is empty,
// as BinaryStringUtils.splitByWholeSeparatorPreserveAllTokens does.
// (Java 2.0.0 also skips blank, whitespace-only strings and tokens.)
type listaggAgg struct {
	aggBase
	delimiter string
	distinct  bool
}

func newListaggAgg(t schema.DataType, b aggBase, o options) (fieldAgg, error) {
	if t.Root != schema.VarChar {
		return nil, invalidf("data type for list agg column %s must be 'VarCharType' but was '%s'", b.field, t)
	}
	if t.Length != schema.MaxLength {
		return nil, invalidf("data type for list agg column %s must be STRING (unbounded VARCHAR), but was VARCHAR(%d)", b.field, t.Length)
	}
	a := &listaggAgg{aggBase: b, delimiter: defaultListAggDelimiter}
	if v, ok := o.fieldOpt(b.field, keyListAggDelimiter); ok {
		a.delimiter = v
	}
	var err error
	if a.distinct, err = o.boolean(fieldsPrefix+"."+b.field+"."+keyDistinct, false); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *listaggAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	x, y, err := pair[string](schema.StringType(), acc, in)
	if err != nil {
		return nil, err
	}
	if y == "" {
		return x, nil
	}
	if x == "" {
		return y, nil
	}
	if !a.distinct {
		return x + a.delimiter + y, nil
	}
	seen := make(map[string]bool)
	for _, tok := range splitPreserveAllTokens(x, a.delimiter) {
		seen[tok] = true
	}
	var b strings.Builder
	b.WriteString(x)
	for _, tok := range splitPreserveAllTokens(y, a.delimiter) {
		if tok == "" || seen[tok] {
			continue
		}
		seen[tok] = true
		b.WriteString(a.delimiter)
		b.WriteString(tok)
	}
	return b.String(), nil
}

// splitPreserveAllTokens mirrors
// BinaryStringUtils.splitByWholeSeparatorPreserveAllTokens: no tokens for
// an empty string, a single space as separator when the separator is
// empty, and empty tokens kept (leading, trailing and between adjacent
// separators).
func splitPreserveAllTokens(s, sep string) []string {
	if s == "" {
		return nil
	}
	if sep == "" {
		sep = " "
	}
	return strings.Split(s, sep)
}

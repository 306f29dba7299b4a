package predicate

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrSyntax reports a filter expression Parse cannot read. Parse wraps it
// in a *SyntaxError that gives the position.
var ErrSyntax = errors.New("predicate: syntax error")

// SyntaxError is the error Parse returns: a message and the byte offset in
// the expression where the problem was found. It wraps ErrSyntax.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error returns the message with its offset.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s at offset %d: %s", ErrSyntax, e.Offset, e.Msg)
}

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

func syntaxErr(pos int, format string, args ...any) error {
	return &SyntaxError{Offset: pos, Msg: fmt.Sprintf(format, args...)}
}

// maxNesting bounds parentheses and NOT chains, so that hostile input
// cannot exhaust the stack.
const maxNesting = 500

// Parse reads a filter in the SQL-like syntax of the CLI's --where flag
// and of String:
//
//	expr      := term { OR term }
//	term      := factor { AND factor }
//	factor    := NOT factor | '(' expr ')' | condition
//	condition := field ( cmp literal
//	                   | [NOT] IN '(' literal { ',' literal } ')'
//	                   | IS [NOT] NULL
//	                   | [NOT] LIKE 'prefix%'
//	                   | STARTS WITH 'prefix' )
//	cmp       := = | != | <> | < | <= | > | >=
//	field     := name | `any name` (`` for a back-quote)
//	literal   := [+|-] number | 'string' ('' for a quote) | TRUE | FALSE
//	           | X'hex' | DATE 'yyyy-mm-dd' | TIME 'hh:mm:ss[.fffffffff]'
//	           | TIMESTAMP 'yyyy-mm-dd[ hh:mm[:ss[.fffffffff]]][Z|±hh:mm]'
//
// Keywords are case-insensitive; field names are not (Bind matches them
// exactly). AND, OR, NOT, IN, IS, NULL, LIKE, TRUE and FALSE must be
// back-quoted to be used as field names. A nested reference a.b is refused:
// predicates test top-level columns only. NULL is accepted only in IS [NOT]
// NULL, since a comparison with NULL never holds. LIKE accepts only a
// prefix pattern: one trailing %, no other % or _ (nor \), and becomes
// STARTS WITH.
//
// Numbers keep their text until Bind knows the column type: an integer
// literal binds to integer, floating-point and DECIMAL columns (and to DATE
// as days, TIME as milliseconds, like Go integers), a literal with a
// fraction or exponent to FLOAT, DOUBLE and DECIMAL (exactly, without
// rounding) and to integer columns when its value is whole. A TIMESTAMP
// literal without zone is a wall-clock time: TIMESTAMP columns compare wall
// clocks, TIMESTAMP_LTZ columns read it as UTC. A DATE literal also binds to
// timestamp columns, as midnight.
//
// Errors are *SyntaxError values wrapping ErrSyntax.
func Parse(expr string) (*Predicate, error) {
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	out, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, syntaxErr(t.pos, "unexpected %s after the end of the condition", describe(t))
	}
	return out, nil
}

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// keyword reports whether t is the bare word kw (case-insensitively).
func keyword(t token, kw string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, kw) }

func (p *parser) acceptKeyword(kw string) bool {
	if keyword(p.peek(), kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) acceptOp(op string) bool {
	if t := p.peek(); t.kind == tokOp && t.text == op {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectOp(op string, what string) error {
	if !p.acceptOp(op) {
		t := p.peek()
		return syntaxErr(t.pos, "expected %q %s, found %s", op, what, describe(t))
	}
	return nil
}

func (p *parser) expectKeyword(kw string, what string) error {
	if !p.acceptKeyword(kw) {
		t := p.peek()
		return syntaxErr(t.pos, "expected %s %s, found %s", kw, what, describe(t))
	}
	return nil
}

func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokString:
		return "string " + quote(t.text)
	case tokQuoted:
		return "field " + quoteIdent(t.text)
	case tokHex:
		return "binary literal"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) or() (*Predicate, error) {
	return p.chain("OR", p.and, Or)
}

func (p *parser) and() (*Predicate, error) {
	return p.chain("AND", p.factor, And)
}

// chain reads operand { kw operand } into one n-ary node; parentheses
// keep their own node, so String's output parses back to the same tree.
func (p *parser) chain(kw string, operand func() (*Predicate, error), mk func(...*Predicate) *Predicate) (*Predicate, error) {
	first, err := operand()
	if err != nil {
		return nil, err
	}
	ps := []*Predicate{first}
	for p.acceptKeyword(kw) {
		c, err := operand()
		if err != nil {
			return nil, err
		}
		ps = append(ps, c)
	}
	return mk(ps...), nil
}

func (p *parser) factor() (*Predicate, error) {
	t := p.peek()
	if p.depth >= maxNesting {
		return nil, syntaxErr(t.pos, "nested more than %d levels deep", maxNesting)
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.acceptKeyword("NOT") {
		c, err := p.factor()
		if err != nil {
			return nil, err
		}
		return Not(c), nil
	}
	if p.acceptOp("(") {
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")", "to close the parenthesis"); err != nil {
			return nil, err
		}
		return e, nil
	}
	return p.condition()
}

func (p *parser) condition() (*Predicate, error) {
	ft := p.next()
	switch {
	case ft.kind == tokQuoted:
	case ft.kind == tokIdent && !isReserved(ft.text):
	case ft.kind == tokIdent:
		return nil, syntaxErr(ft.pos, "expected a field name, found keyword %s (back-quote a field with this name)", strings.ToUpper(ft.text))
	default:
		return nil, syntaxErr(ft.pos, "expected a field name, found %s", describe(ft))
	}
	field := ft.text
	t := p.next()
	if t.kind == tokOp {
		var mk func(string, any) *Predicate
		switch t.text {
		case "=":
			mk = Equal
		case "!=", "<>":
			mk = NotEqual
		case "<":
			mk = LessThan
		case "<=":
			mk = LessOrEqual
		case ">":
			mk = GreaterThan
		case ">=":
			mk = GreaterOrEqual
		}
		if mk != nil {
			v, err := p.literal()
			if err != nil {
				return nil, err
			}
			return mk(field, v), nil
		}
	}
	switch {
	case keyword(t, "IS"):
		not := p.acceptKeyword("NOT")
		if err := p.expectKeyword("NULL", "after IS"); err != nil {
			return nil, err
		}
		if not {
			return IsNotNull(field), nil
		}
		return IsNull(field), nil
	case keyword(t, "IN"):
		return p.inList(field, false)
	case keyword(t, "LIKE"):
		return p.like(field, false)
	case keyword(t, "NOT"):
		switch n := p.next(); {
		case keyword(n, "IN"):
			return p.inList(field, true)
		case keyword(n, "LIKE"):
			return p.like(field, true)
		default:
			return nil, syntaxErr(n.pos, "expected IN or LIKE after NOT, found %s", describe(n))
		}
	case keyword(t, "STARTS"):
		if err := p.expectKeyword("WITH", "after STARTS"); err != nil {
			return nil, err
		}
		s := p.next()
		if s.kind != tokString {
			return nil, syntaxErr(s.pos, "expected a string after STARTS WITH, found %s", describe(s))
		}
		return StartsWith(field, s.text), nil
	}
	return nil, syntaxErr(t.pos, "expected an operator after field %s, found %s", quoteIdent(field), describe(t))
}

func (p *parser) inList(field string, not bool) (*Predicate, error) {
	if err := p.expectOp("(", "to open the IN list"); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tokOp && t.text == ")" {
		// SQL has no empty IN list (Java's parsers refuse it); taking it
		// as "no value matches" would silently return no rows for what is
		// likely a mistake.
		return nil, syntaxErr(t.pos, "an IN list needs at least one value")
	}
	var vals []any
	for {
		v, err := p.literal()
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
		if p.acceptOp(")") {
			break
		}
		if err := p.expectOp(",", "or \")\" in the IN list"); err != nil {
			return nil, err
		}
	}
	if not {
		return NotIn(field, vals...), nil
	}
	return In(field, vals...), nil
}

// like turns a prefix pattern into STARTS WITH; other patterns have no
// Java leaf function to map to.
func (p *parser) like(field string, not bool) (*Predicate, error) {
	t := p.next()
	if t.kind != tokString {
		return nil, syntaxErr(t.pos, "expected a pattern string after LIKE, found %s", describe(t))
	}
	prefix, ok := strings.CutSuffix(t.text, "%")
	if !ok || strings.ContainsAny(prefix, `%_\`) {
		return nil, syntaxErr(t.pos, "LIKE supports only a prefix pattern such as 'abc%%' (one trailing %%, no other %%, _ or \\)")
	}
	sw := StartsWith(field, prefix)
	if not {
		return Not(sw), nil
	}
	return sw, nil
}

func (p *parser) literal() (any, error) {
	t := p.next()
	switch t.kind {
	case tokNumber:
		return numberLiteral(t.text), nil
	case tokString:
		return t.text, nil
	case tokHex:
		return []byte(t.text), nil
	case tokOp:
		if t.text == "+" || t.text == "-" {
			n := p.next()
			if n.kind != tokNumber {
				return nil, syntaxErr(n.pos, "expected a number after %q, found %s", t.text, describe(n))
			}
			if t.text == "-" {
				return numberLiteral("-" + n.text), nil
			}
			return numberLiteral(n.text), nil
		}
	case tokIdent:
		switch {
		case keyword(t, "TRUE"):
			return true, nil
		case keyword(t, "FALSE"):
			return false, nil
		case keyword(t, "NULL"):
			return nil, syntaxErr(t.pos, "NULL is not a comparable value; use IS NULL or IS NOT NULL")
		case keyword(t, "DATE"), keyword(t, "TIME"), keyword(t, "TIMESTAMP"):
			s := p.next()
			if s.kind != tokString {
				return nil, syntaxErr(s.pos, "expected a string after %s, found %s", strings.ToUpper(t.text), describe(s))
			}
			v, err := parseTemporal(strings.ToUpper(t.text), s.text)
			if err != nil {
				return nil, syntaxErr(s.pos, "%v", err)
			}
			return v, nil
		}
	}
	return nil, syntaxErr(t.pos, "expected a literal, found %s", describe(t))
}

// Layouts of TIMESTAMP literals; time.Parse also accepts a fraction of a
// second after the seconds of a layout that does not show one.
var timestampLayouts = []string{
	"2006-01-02 15:04:05", "2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00", "2006-01-02T15:04:05Z07:00",
	"2006-01-02 15:04:05Z07:00:00", "2006-01-02T15:04:05Z07:00:00",
	"2006-01-02 15:04", "2006-01-02T15:04",
	"2006-01-02",
}

// parseTemporal reads the string of a DATE, TIME or TIMESTAMP literal.
func parseTemporal(kind, s string) (any, error) {
	switch kind {
	case "DATE":
		t, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nil, fmt.Errorf("DATE %s: want 'yyyy-mm-dd'", quote(s))
		}
		return dateLiteral(t.Unix() / 86400), nil
	case "TIME":
		for _, layout := range []string{"15:04:05", "15:04"} {
			if t, err := time.Parse(layout, s); err == nil {
				y, m, d := t.Date()
				return t.Sub(time.Date(y, m, d, 0, 0, 0, 0, time.UTC)), nil
			}
		}
		return nil, fmt.Errorf("TIME %s: want 'hh:mm:ss[.fffffffff]'", quote(s))
	}
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			if _, off := t.Zone(); off == 0 {
				t = t.UTC()
			}
			return t, nil
		}
	}
	return nil, fmt.Errorf("TIMESTAMP %s: want 'yyyy-mm-dd hh:mm:ss[.fffffffff][±hh:mm]'", quote(s))
}

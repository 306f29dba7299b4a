package schema

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseType parses a Paimon type string, case-insensitively, as Java's
// DataTypeJsonParser.parseAtomicTypeSQLString does, with the same aliases and
// defaults:
//
//   - INT or INTEGER; DOUBLE or DOUBLE PRECISION; DECIMAL, NUMERIC or DEC
//   - STRING = VARCHAR(2147483647), BYTES = VARBINARY(2147483647)
//   - defaults: CHAR, VARCHAR, BINARY, VARBINARY → length 1; DECIMAL →
//     (10, 0) and DECIMAL(p) → (p, 0); TIME → 0; TIMESTAMP and
//     TIMESTAMP_LTZ → 6
//   - TIME(p) WITHOUT TIME ZONE, TIMESTAMP(p) WITHOUT TIME ZONE,
//     TIMESTAMP(p) WITH LOCAL TIME ZONE, TIMESTAMP_LTZ(p)
//   - VARIANT, BLOB, VECTOR<element, length>
//   - a NOT NULL or NULL suffix after any type, and the suffix forms
//     "<type> ARRAY" and "<type> MULTISET"
//
// Java accepts composite types only as JSON objects, never as strings; as an
// extension ParseType also reads the composite strings String prints —
// ARRAY<T>, MULTISET<T>, MAP<K, V> and ROW<`name` T [COMMENT '...']
// [DEFAULT value], ...> — so that ParseType(t.String()) round-trips every
// type. ROW strings carry no field ids: fields get ids 0, 1, 2, ... in the
// order they appear (nested fields included), as Java assigns missing ids when
// it parses a JSON row type without them.
//
// Errors wrap ErrInvalidType and give the byte offset of the offending token.
func ParseType(s string) (DataType, error) { return parseTypeString(s, true) }

// parseTypeString parses s; with extended false it accepts what Java's
// parseAtomicTypeSQLString accepts (used for type strings inside JSON, so
// that every schema file Go reads, Java reads too). The one known difference
// is white space: Go's unicode.IsSpace also counts U+0085 and U+00A0, which
// Java's Character.isWhitespace does not.
func parseTypeString(s string, extended bool) (DataType, error) {
	toks, err := tokenize(s)
	if err != nil {
		return DataType{}, err
	}
	p := &typeParser{input: s, toks: toks, extended: extended}
	t, err := p.parseType()
	if err != nil {
		return DataType{}, err
	}
	if p.pos < len(p.toks) {
		return DataType{}, p.errAt(p.toks[p.pos], "unexpected token %q", p.toks[p.pos].text)
	}
	if err := t.Validate(); err != nil {
		return DataType{}, fmt.Errorf("%w (type string %q)", err, s)
	}
	return t, nil
}

type tokenKind uint8

const (
	tokBeginSubtype tokenKind = iota // <
	tokEndSubtype                    // >
	tokBeginParam                    // (
	tokEndParam                      // )
	tokComma                         // ,
	tokDot                           // .
	tokString                        // 'text', quotes doubled inside
	tokInt                           // digits
	tokKeyword                       // one of keywords; text upper-cased
	tokIdent                         // anything else, or `quoted`
)

var tokenKindNames = [...]string{
	tokBeginSubtype: "'<'", tokEndSubtype: "'>'", tokBeginParam: "'('", tokEndParam: "')'",
	tokComma: "','", tokDot: "'.'", tokString: "string literal", tokInt: "integer",
	tokKeyword: "keyword", tokIdent: "identifier",
}

func (k tokenKind) String() string { return tokenKindNames[k] }

type token struct {
	kind       tokenKind
	text       string // upper-cased for keywords, unescaped for strings/quoted identifiers
	orig       string // the text as written (keywords keep their case here)
	start, end int    // byte offsets in the input
}

// keywords are the reserved words of Java's DataTypeJsonParser.Keyword enum.
// Only they are upper-cased and matched; any other word is an identifier.
var keywords = map[string]bool{
	"CHAR": true, "VARCHAR": true, "STRING": true, "BOOLEAN": true, "BINARY": true,
	"VARBINARY": true, "BYTES": true, "DECIMAL": true, "NUMERIC": true, "DEC": true,
	"TINYINT": true, "SMALLINT": true, "INT": true, "INTEGER": true, "BIGINT": true,
	"FLOAT": true, "DOUBLE": true, "PRECISION": true, "DATE": true, "TIME": true,
	"WITH": true, "WITHOUT": true, "LOCAL": true, "ZONE": true, "TIMESTAMP": true,
	"TIMESTAMP_LTZ": true, "INTERVAL": true, "YEAR": true, "MONTH": true, "DAY": true,
	"HOUR": true, "MINUTE": true, "SECOND": true, "TO": true, "ARRAY": true,
	"VECTOR": true, "MULTISET": true, "MAP": true, "ROW": true, "NULL": true,
	"RAW": true, "LEGACY": true, "VARIANT": true, "BLOB": true, "NOT": true,
}

// lengthRoots are the keywords whose types take an optional (length).
var lengthRoots = map[string]TypeRoot{"CHAR": Char, "VARCHAR": VarChar, "BINARY": Binary, "VARBINARY": VarBinary}

func isDelimiter(r rune) bool {
	switch r {
	case '<', '>', '(', ')', ',', '.', '\'', '`':
		return true
	}
	return unicode.IsSpace(r)
}

func tokenize(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		single := tokenKind(255)
		switch r {
		case '<':
			single = tokBeginSubtype
		case '>':
			single = tokEndSubtype
		case '(':
			single = tokBeginParam
		case ')':
			single = tokEndParam
		case ',':
			single = tokComma
		case '.':
			single = tokDot
		}
		switch {
		case single != 255:
			toks = append(toks, token{kind: single, text: string(r), orig: string(r), start: i, end: i + 1})
			i++
		case r == '\'' || r == '`':
			text, end, ok := scanQuoted(s, i, byte(r))
			if !ok {
				return nil, fmt.Errorf("%w: %q: unterminated %c at position %d", ErrInvalidType, s, r, i)
			}
			kind := tokString
			if r == '`' {
				kind = tokIdent
			}
			toks = append(toks, token{kind: kind, text: text, orig: s[i:end], start: i, end: end})
			i = end
		case unicode.IsSpace(r):
			i += size
		case r >= '0' && r <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			toks = append(toks, token{kind: tokInt, text: s[i:j], orig: s[i:j], start: i, end: j})
			i = j
		default:
			j := i
			for j < len(s) {
				r, size := utf8.DecodeRuneInString(s[j:])
				if isDelimiter(r) {
					break
				}
				j += size
			}
			word := s[i:j]
			if upper := strings.ToUpper(word); keywords[upper] {
				toks = append(toks, token{kind: tokKeyword, text: upper, orig: word, start: i, end: j})
			} else {
				toks = append(toks, token{kind: tokIdent, text: word, orig: word, start: i, end: j})
			}
			i = j
		}
	}
	return toks, nil
}

// scanQuoted reads a literal delimited by q starting at s[start] == q, where a
// doubled q stands for one q (Java consumeEscaped). It returns the unescaped
// text and the offset just past the closing quote.
func scanQuoted(s string, start int, q byte) (string, int, bool) {
	var b strings.Builder
	for i := start + 1; i < len(s); i++ {
		if s[i] != q {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == q {
			b.WriteByte(q)
			i++
			continue
		}
		return b.String(), i + 1, true
	}
	return "", 0, false
}

type typeParser struct {
	input  string
	toks   []token
	pos    int
	depth  int
	nextID int // next id for ROW fields, assigned in order of appearance
	// extended enables the composite string forms ARRAY<T>, MULTISET<T>,
	// MAP<K, V> and ROW<...>, which Java does not parse.
	extended bool
}

func (p *typeParser) errAt(t token, format string, args ...any) error {
	return fmt.Errorf("%w: %q: at position %d: %s", ErrInvalidType, p.input, t.start, fmt.Sprintf(format, args...))
}

func (p *typeParser) errEnd(format string, args ...any) error {
	return fmt.Errorf("%w: %q: at end: %s", ErrInvalidType, p.input, fmt.Sprintf(format, args...))
}

func (p *typeParser) peek(off int) (token, bool) {
	if p.pos+off < len(p.toks) {
		return p.toks[p.pos+off], true
	}
	return token{}, false
}

func (p *typeParser) peekKind(off int, kind tokenKind) bool {
	t, ok := p.peek(off)
	return ok && t.kind == kind
}

func (p *typeParser) peekKeyword(off int, kw string) bool {
	t, ok := p.peek(off)
	return ok && t.kind == tokKeyword && t.text == kw
}

func (p *typeParser) next(kind tokenKind) (token, error) {
	t, ok := p.peek(0)
	if !ok {
		return token{}, p.errEnd("%s expected but the input ended", kind)
	}
	if t.kind != kind {
		return token{}, p.errAt(t, "%s expected but found %q", kind, t.orig)
	}
	p.pos++
	return t, nil
}

func (p *typeParser) nextKeyword(kw string) error {
	t, err := p.next(tokKeyword)
	if err != nil {
		return err
	}
	if t.text != kw {
		return p.errAt(t, "keyword %s expected but found %q", kw, t.orig)
	}
	return nil
}

func (p *typeParser) nextInt() (int, error) {
	t, err := p.next(tokInt)
	if err != nil {
		return 0, err
	}
	// Java's Integer.parseInt: anything beyond int32 is an error.
	n, err := strconv.ParseInt(t.text, 10, 32)
	if err != nil {
		return 0, p.errAt(t, "invalid integer value %s", t.text)
	}
	return int(n), nil
}

// parseType reads a type with its nullability and an optional ARRAY or
// MULTISET suffix with its own nullability (Java parseTypeWithNullability:
// "INT NOT NULL ARRAY" is ARRAY<INT NOT NULL>; only one suffix is allowed).
func (p *typeParser) parseType() (DataType, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return DataType{}, p.errEnd("types nested deeper than %d levels", maxNesting)
	}
	t, err := p.parseBase()
	if err != nil {
		return DataType{}, err
	}
	t.Nullable = p.parseNullability()
	if p.peekKeyword(0, "ARRAY") || p.peekKeyword(0, "MULTISET") {
		kw := p.toks[p.pos].text
		p.pos++
		if kw == "ARRAY" {
			t = ArrayType(t)
		} else {
			t = MultisetType(t)
		}
		t.Nullable = p.parseNullability()
	}
	return t, nil
}

func (p *typeParser) parseNullability() bool {
	if p.peekKeyword(0, "NOT") && p.peekKeyword(1, "NULL") {
		p.pos += 2
		return false
	}
	if p.peekKeyword(0, "NULL") {
		p.pos++
	}
	return true
}

func (p *typeParser) parseBase() (DataType, error) {
	kw, err := p.next(tokKeyword)
	if err != nil {
		if t, ok := p.peek(0); ok && t.kind == tokIdent {
			return DataType{}, p.errAt(t, "unknown type %q", t.orig)
		}
		return DataType{}, err
	}
	switch kw.text {
	case "BOOLEAN":
		return BooleanType(), nil
	case "TINYINT":
		return TinyIntType(), nil
	case "SMALLINT":
		return SmallIntType(), nil
	case "INT", "INTEGER":
		return IntType(), nil
	case "BIGINT":
		return BigIntType(), nil
	case "FLOAT":
		return FloatType(), nil
	case "DOUBLE":
		if p.peekKeyword(0, "PRECISION") {
			p.pos++
		}
		return DoubleType(), nil
	case "DATE":
		return DateType(), nil
	case "VARIANT":
		return VariantType(), nil
	case "BLOB":
		return BlobType(), nil
	case "STRING":
		return StringType(), nil
	case "BYTES":
		return BytesType(), nil
	case "CHAR", "VARCHAR", "BINARY", "VARBINARY":
		n, err := p.optionalParam(1)
		if err != nil {
			return DataType{}, err
		}
		return DataType{Root: lengthRoots[kw.text], Length: n}, nil
	case "DECIMAL", "NUMERIC", "DEC":
		return p.parseDecimal()
	case "TIME":
		prec, err := p.optionalParam(0)
		if err != nil {
			return DataType{}, err
		}
		if err := p.optionalWithoutTimeZone(); err != nil {
			return DataType{}, err
		}
		return TimeType(prec), nil
	case "TIMESTAMP":
		prec, err := p.optionalParam(DefaultTimestampPrecision)
		if err != nil {
			return DataType{}, err
		}
		if p.peekKeyword(0, "WITH") {
			// Java consumes WITH and then requires LOCAL TIME ZONE only if
			// LOCAL follows; a bare WITH leaves a plain TIMESTAMP and any
			// other word is reported as an unexpected token later.
			p.pos++
			if p.peekKeyword(0, "LOCAL") {
				p.pos++
				if err := p.nextKeyword("TIME"); err != nil {
					return DataType{}, err
				}
				if err := p.nextKeyword("ZONE"); err != nil {
					return DataType{}, err
				}
				return TimestampLTZType(prec), nil
			}
			return TimestampType(prec), nil
		}
		if err := p.optionalWithoutTimeZone(); err != nil {
			return DataType{}, err
		}
		return TimestampType(prec), nil
	case "TIMESTAMP_LTZ":
		prec, err := p.optionalParam(DefaultTimestampPrecision)
		if err != nil {
			return DataType{}, err
		}
		return TimestampLTZType(prec), nil
	case "VECTOR":
		return p.parseComposite(Vector)
	case "ARRAY", "MULTISET", "MAP", "ROW":
		if !p.extended {
			return DataType{}, p.errAt(kw, "composite type %s must be a JSON object, not a string", kw.text)
		}
		switch kw.text {
		case "ARRAY":
			return p.parseComposite(Array)
		case "MULTISET":
			return p.parseComposite(Multiset)
		case "MAP":
			return p.parseComposite(Map)
		}
		return p.parseRow()
	}
	return DataType{}, p.errAt(kw, "unsupported type %s", kw.text)
}

// optionalParam reads "(n)" if present, else returns def.
func (p *typeParser) optionalParam(def int) (int, error) {
	if !p.peekKind(0, tokBeginParam) {
		return def, nil
	}
	p.pos++
	n, err := p.nextInt()
	if err != nil {
		return 0, err
	}
	if _, err := p.next(tokEndParam); err != nil {
		return 0, err
	}
	return n, nil
}

func (p *typeParser) optionalWithoutTimeZone() error {
	if !p.peekKeyword(0, "WITHOUT") {
		return nil
	}
	p.pos++
	if err := p.nextKeyword("TIME"); err != nil {
		return err
	}
	return p.nextKeyword("ZONE")
}

func (p *typeParser) parseDecimal() (DataType, error) {
	prec, scale := 10, 0 // Java DecimalType.DEFAULT_PRECISION / DEFAULT_SCALE
	if p.peekKind(0, tokBeginParam) {
		p.pos++
		var err error
		if prec, err = p.nextInt(); err != nil {
			return DataType{}, err
		}
		if p.peekKind(0, tokComma) {
			p.pos++
			if scale, err = p.nextInt(); err != nil {
				return DataType{}, err
			}
		}
		if _, err := p.next(tokEndParam); err != nil {
			return DataType{}, err
		}
	}
	return DecimalType(prec, scale), nil
}

// parseComposite reads the <...> part of VECTOR<T, n>, ARRAY<T>,
// MULTISET<T> and MAP<K, V>.
func (p *typeParser) parseComposite(root TypeRoot) (DataType, error) {
	if _, err := p.next(tokBeginSubtype); err != nil {
		return DataType{}, err
	}
	first, err := p.parseType()
	if err != nil {
		return DataType{}, err
	}
	var t DataType
	switch root {
	case Vector:
		if _, err := p.next(tokComma); err != nil {
			return DataType{}, err
		}
		n, err := p.nextInt()
		if err != nil {
			return DataType{}, err
		}
		t = VectorType(n, first)
	case Map:
		if _, err := p.next(tokComma); err != nil {
			return DataType{}, err
		}
		value, err := p.parseType()
		if err != nil {
			return DataType{}, err
		}
		t = MapType(first, value)
	case Multiset:
		t = MultisetType(first)
	default:
		t = ArrayType(first)
	}
	if _, err := p.next(tokEndSubtype); err != nil {
		return DataType{}, err
	}
	return t, nil
}

// parseRow reads ROW<field, ...> where field is
// name type [COMMENT 'text'] [DEFAULT value], the form String prints.
func (p *typeParser) parseRow() (DataType, error) {
	if _, err := p.next(tokBeginSubtype); err != nil {
		return DataType{}, err
	}
	fields := []DataField{}
	for !p.peekKind(0, tokEndSubtype) {
		if len(fields) > 0 {
			if _, err := p.next(tokComma); err != nil {
				return DataType{}, err
			}
		}
		f, err := p.parseField()
		if err != nil {
			return DataType{}, err
		}
		fields = append(fields, f)
	}
	p.pos++ // '>'
	return RowType(fields...), nil
}

func (p *typeParser) parseField() (DataField, error) {
	nameTok, ok := p.peek(0)
	if !ok {
		return DataField{}, p.errEnd("field name expected but the input ended")
	}
	var name string
	switch nameTok.kind {
	case tokIdent:
		name = nameTok.text
	case tokKeyword:
		name = nameTok.orig // a bare keyword used as a name keeps its case
	default:
		return DataField{}, p.errAt(nameTok, "field name expected but found %q", nameTok.orig)
	}
	p.pos++
	id := p.nextID
	p.nextID++
	t, err := p.parseType()
	if err != nil {
		return DataField{}, err
	}
	f := NewField(id, name, t)
	if p.peekWord("COMMENT") {
		p.pos++
		c, err := p.next(tokString)
		if err != nil {
			return DataField{}, err
		}
		f = f.WithDescription(c.text)
	}
	if p.peekWord("DEFAULT") {
		kw := p.toks[p.pos]
		p.pos++
		v, err := p.rawUntilFieldEnd()
		if err != nil {
			return DataField{}, err
		}
		if v == "" {
			return DataField{}, p.errAt(kw, "DEFAULT without a value")
		}
		f = f.WithDefaultValue(v)
	}
	return f, nil
}

// peekWord reports whether the next token is the bare (unquoted) word w,
// compared case-insensitively. COMMENT and DEFAULT are not keywords of the
// Java tokenizer, so they arrive as identifiers.
func (p *typeParser) peekWord(w string) bool {
	t, ok := p.peek(0)
	return ok && t.kind == tokIdent && !strings.HasPrefix(t.orig, "`") && strings.EqualFold(t.text, w)
}

// rawUntilFieldEnd consumes the tokens of a DEFAULT value, up to the ',' or
// '>' that ends the field at parenthesis depth zero, and returns the input
// text they span: Java prints the default value verbatim.
func (p *typeParser) rawUntilFieldEnd() (string, error) {
	start, end, parens := -1, -1, 0
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		if parens == 0 && (t.kind == tokComma || t.kind == tokEndSubtype) {
			break
		}
		switch t.kind {
		case tokBeginParam:
			parens++
		case tokEndParam:
			parens--
			if parens < 0 {
				return "", p.errAt(t, "unbalanced ')' in DEFAULT value")
			}
		}
		if start < 0 {
			start = t.start
		}
		end = t.end
		p.pos++
	}
	if start < 0 {
		return "", nil
	}
	return p.input[start:end], nil
}

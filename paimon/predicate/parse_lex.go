package predicate

import (
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies the tokens of the filter syntax.
type tokKind uint8

const (
	tokEOF    tokKind = iota
	tokIdent          // bare word: a field name or a keyword
	tokQuoted         // `back-quoted` field name, never a keyword
	tokString         // 'single-quoted' string, '' escapes a quote
	tokNumber         // unsigned decimal number, optional fraction and exponent
	tokHex            // X'0a1b' binary literal
	tokOp             // = != <> < <= > >= ( ) , + -
)

type token struct {
	kind tokKind
	text string // unescaped for strings and quoted names, decoded bytes for hex
	pos  int    // byte offset in the input
}

// maxExponent bounds a number's exponent so that converting a literal to
// a DECIMAL (exact rational arithmetic) stays cheap.
const maxExponent = 9999

// lex splits src into tokens, ending with tokEOF.
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		case c == '\'':
			s, end, err := lexQuoted(src, i, '\'')
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tokString, s, i})
			i = end
			continue
		case c == '`':
			s, end, err := lexQuoted(src, i, '`')
			if err != nil {
				return nil, err
			}
			if s == "" {
				return nil, syntaxErr(i, "empty quoted field name")
			}
			toks = append(toks, token{tokQuoted, s, i})
			i = end
			if i < len(src) && src[i] == '.' {
				return nil, nestedErr(i)
			}
			continue
		case (c == 'x' || c == 'X') && i+1 < len(src) && src[i+1] == '\'':
			s, end, err := lexQuoted(src, i+1, '\'')
			if err != nil {
				return nil, err
			}
			b, err := hex.DecodeString(s)
			if err != nil {
				return nil, syntaxErr(i, "binary literal X'...' needs an even number of hex digits")
			}
			toks = append(toks, token{tokHex, string(b), i})
			i = end
			continue
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			end, err := lexNumber(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tokNumber, src[i:end], i})
			i = end
			continue
		}
		if op := lexOp(src[i:]); op != "" {
			toks = append(toks, token{tokOp, op, i})
			i += len(op)
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if !identStart(r) {
			if r == utf8.RuneError && size <= 1 {
				return nil, syntaxErr(i, "invalid UTF-8")
			}
			return nil, syntaxErr(i, "unexpected character %q", r)
		}
		start := i
		for i < len(src) {
			r, size := utf8.DecodeRuneInString(src[i:])
			if !identPart(r) {
				break
			}
			i += size
		}
		if i < len(src) && src[i] == '.' {
			return nil, nestedErr(i)
		}
		toks = append(toks, token{tokIdent, src[start:i], start})
	}
	return append(toks, token{tokEOF, "", len(src)}), nil
}

func nestedErr(pos int) error {
	return syntaxErr(pos, "nested field references (a.b) are not supported; back-quote a field name that contains a dot")
}

// lexQuoted reads a literal delimited by q starting at src[start] == q, a
// doubled q standing for one.
func lexQuoted(src string, start int, q byte) (string, int, error) {
	var b strings.Builder
	i := start + 1
	for {
		j := strings.IndexByte(src[i:], q)
		if j < 0 {
			return "", 0, syntaxErr(start, "unterminated %c-quoted literal", q)
		}
		b.WriteString(src[i : i+j])
		i += j + 1
		if i < len(src) && src[i] == q {
			b.WriteByte(q)
			i++
			continue
		}
		return b.String(), i, nil
	}
}

// lexNumber reads digits[.digits][e[+-]digits] (or .digits...) at start.
func lexNumber(src string, start int) (int, error) {
	i := start
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' {
		if i+1 >= len(src) || !isDigit(src[i+1]) {
			return 0, syntaxErr(start, "malformed number: no digit after the decimal point")
		}
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		k := j
		exp := 0
		for k < len(src) && isDigit(src[k]) {
			if exp = exp*10 + int(src[k]-'0'); exp > maxExponent {
				return 0, syntaxErr(start, "exponent out of range")
			}
			k++
		}
		if k == j {
			return 0, syntaxErr(start, "malformed number: exponent without digits")
		}
		i = k
	}
	if i < len(src) {
		if r, _ := utf8.DecodeRuneInString(src[i:]); identPart(r) || r == '.' {
			return 0, syntaxErr(start, "malformed number")
		}
	}
	return i, nil
}

func lexOp(s string) string {
	for _, op := range [...]string{"!=", "<>", "<=", ">=", "=", "<", ">", "(", ")", ",", "+", "-"} {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func identStart(r rune) bool {
	return r == '_' || r < utf8.RuneSelf && (r|0x20 >= 'a' && r|0x20 <= 'z') ||
		r >= utf8.RuneSelf && r != utf8.RuneError && unicode.IsLetter(r)
}

func identPart(r rune) bool {
	return identStart(r) || r == '$' || r < utf8.RuneSelf && isDigit(byte(r)) ||
		r >= utf8.RuneSelf && r != utf8.RuneError && unicode.IsDigit(r)
}

// reservedWords cannot be bare field names: they start or join conditions.
var reservedWords = []string{"AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "TRUE", "FALSE"}

func isReserved(s string) bool {
	for _, w := range reservedWords {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}

// quoteIdent renders a field name so that Parse reads it back: bare when it
// lexes as one plain word, else back-quoted with ` doubled.
func quoteIdent(name string) string {
	plain := name != "" && !isReserved(name)
	for i, r := range name {
		if i == 0 && !identStart(r) || !identPart(r) {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"unicode/utf8"
)

// This file holds the two halves of the JSON dialect Java Paimon uses for its
// metadata files (JsonSerdeUtil.toJson / fromJson over a shaded Jackson 2.14
// ObjectMapper): a writer reproducing Jackson's DefaultPrettyPrinter byte for
// byte, and a reader that walks objects member by member so that keys are
// matched case-sensitively (as Jackson does, unlike encoding/json) and the
// order of map members survives decoding.

// prettyWriter writes JSON the way Jackson's writerWithDefaultPrettyPrinter()
// does: objects open with "{", each member goes on its own line indented by
// two spaces per level and is written as `"key" : value`; an empty object is
// "{ }"; arrays stay on one line as "[ a, b ]" (an empty one is "[ ]"); no
// trailing newline. The line separator is "\n" (Jackson uses the JVM's, which
// is "\n" on every platform Paimon is deployed on).
type prettyWriter struct {
	buf   []byte
	depth int
	// counts[i] is the number of members written so far in the object open at
	// depth i+1.
	counts []int
}

func (w *prettyWriter) beginObject() {
	w.buf = append(w.buf, '{')
	w.depth++
	w.counts = append(w.counts, 0)
}

func (w *prettyWriter) endObject() {
	n := w.counts[len(w.counts)-1]
	w.counts = w.counts[:len(w.counts)-1]
	w.depth--
	if n > 0 {
		w.newline()
	} else {
		w.buf = append(w.buf, ' ')
	}
	w.buf = append(w.buf, '}')
}

// key starts a member of the innermost object.
func (w *prettyWriter) key(name string) {
	i := len(w.counts) - 1
	if w.counts[i] > 0 {
		w.buf = append(w.buf, ',')
	}
	w.counts[i]++
	w.newline()
	w.buf = appendJSONString(w.buf, name)
	w.buf = append(w.buf, " : "...)
}

func (w *prettyWriter) newline() {
	w.buf = append(w.buf, '\n')
	for range w.depth {
		w.buf = append(w.buf, ' ', ' ')
	}
}

func (w *prettyWriter) int64Field(name string, v int64) {
	w.key(name)
	w.buf = strconv.AppendInt(w.buf, v, 10)
}

func (w *prettyWriter) optInt64Field(name string, v *int64) {
	if v != nil {
		w.int64Field(name, *v)
	}
}

// stringOrNullField writes a member Jackson always includes: the empty string
// stands for Java null.
func (w *prettyWriter) stringOrNullField(name, v string) {
	w.key(name)
	if v == "" {
		w.buf = append(w.buf, "null"...)
		return
	}
	w.buf = appendJSONString(w.buf, v)
}

func (w *prettyWriter) optStringField(name string, v *string) {
	if v != nil {
		w.key(name)
		w.buf = appendJSONString(w.buf, *v)
	}
}

// stringMapField writes a Map<String, String> member: keys in order.
func (w *prettyWriter) stringMapField(name string, m map[string]string, order []string) {
	w.key(name)
	w.beginObject()
	for _, k := range orderedKeys(m, order) {
		w.key(k)
		w.buf = appendJSONString(w.buf, m[k])
	}
	w.endObject()
}

// appendJSONString appends s quoted and escaped as Jackson's
// WriterBasedJsonGenerator does with default settings: '"' and '\\' get a
// backslash, \b \t \n \f \r their short escapes, other control characters
// below 0x20 become \u00XX with upper-case hex digits, and everything else
// (including '/', DEL and non-ASCII) is written as is. Invalid UTF-8 becomes
// U+FFFD, as a Java String cannot hold it.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// member is one name/value pair of a JSON object, in document order.
type member struct {
	name  string
	value json.RawMessage
}

// errNotObject is returned by readObject when the document is valid JSON but
// not an object (for example "null" or "[]").
var errNotObject = errors.New("not a JSON object")

// readObject splits a JSON object into its members in document order. It
// fails on malformed JSON, on a document that is not an object, and on
// trailing data after the object.
func readObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotObject
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected token %v", tok)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, member{name: name, value: raw})
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON object")
	}
	return out, nil
}

// trimSpace trims JSON white space around a raw value.
func trimSpace(raw json.RawMessage) []byte {
	return bytes.TrimSpace(raw)
}

// isNull reports whether a raw JSON value is the literal null.
func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// parseInt64 decodes a Java long member. Jackson accepts an integer number or,
// by scalar coercion, a string holding one (Paimon <= 0.2 wrote
// commitIdentifier as a string); null yields ok == false.
func parseInt64(raw json.RawMessage) (v int64, ok bool, err error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return 0, false, nil
	}
	text := string(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, false, err
		}
		text = s
	}
	v, err = strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("not a 64-bit integer: %s", raw)
	}
	return v, true, nil
}

// parseInt32 is parseInt64 for a Java int member.
func parseInt32(raw json.RawMessage) (v int32, ok bool, err error) {
	l, ok, err := parseInt64(raw)
	if err != nil || !ok {
		return 0, ok, err
	}
	if l != int64(int32(l)) {
		return 0, false, fmt.Errorf("not a 32-bit integer: %s", bytes.TrimSpace(raw))
	}
	return int32(l), true, nil
}

// parseString decodes a Java String member; null yields ok == false.
func parseString(raw json.RawMessage) (s string, ok bool, err error) {
	if isNull(raw) {
		return "", false, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("not a string: %s", bytes.TrimSpace(raw))
	}
	return s, true, nil
}

// optInt64 is parseInt64 returning a pointer (nil for null).
func optInt64(raw json.RawMessage) (*int64, error) {
	v, ok, err := parseInt64(raw)
	if err != nil || !ok {
		return nil, err
	}
	return &v, nil
}

// optString is parseString returning a pointer (nil for null).
func optString(raw json.RawMessage) (*string, error) {
	s, ok, err := parseString(raw)
	if err != nil || !ok {
		return nil, err
	}
	return &s, nil
}

// parseStringMap decodes a Map<String, String> member, returning the map
// (nil for null) and the keys in document order. A null value decodes as "".
func parseStringMap(raw json.RawMessage) (map[string]string, []string, error) {
	if isNull(raw) {
		return nil, nil, nil
	}
	members, err := readObject(raw)
	if err != nil {
		return nil, nil, err
	}
	m := make(map[string]string, len(members))
	order := make([]string, 0, len(members))
	for _, mb := range members {
		v, _, err := parseString(mb.value)
		if err != nil {
			return nil, nil, fmt.Errorf("map entry %q: %w", mb.name, err)
		}
		if _, dup := m[mb.name]; !dup {
			order = append(order, mb.name)
		}
		m[mb.name] = v
	}
	return m, order, nil
}

// orderedKeys returns the keys of m: first those listed in order (the document
// order of a decoded file) that are still present, then the others sorted.
// Java writes a map in its iteration order, which Go cannot reproduce for maps
// it did not read; sorted is the deterministic stand-in.
func orderedKeys[V any](m map[string]V, order []string) []string {
	keys := make([]string, 0, len(m))
	seen := make(map[string]bool, len(order))
	for _, k := range order {
		if _, ok := m[k]; ok && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	rest := make([]string, 0, len(m)-len(keys))
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(keys, rest...)
}

// decodedOrder returns the document order of a decoded map, or nil when it is
// the sorted order Encode falls back to anyway: values decoded from sorted (or
// single-entry) maps then compare equal to hand-built ones.
func decodedOrder(order []string) []string {
	if slices.IsSorted(order) {
		return nil
	}
	return order
}

package schema

import (
	"strconv"
	"unicode/utf8"
)

// jsonWriter produces JSON byte for byte as Jackson does, in its compact form
// (JsonSerdeUtil.toFlatJson) or with Jackson's DefaultPrettyPrinter
// (JsonSerdeUtil.toJson, used for schema files):
//
//   - objects: "{", then each entry on its own line indented two spaces per
//     object nesting level, written `"key" : value`, entries separated by
//     ","; "}" on its own line at the parent's indentation; empty: "{ }"
//   - arrays stay on one line: "[ a, b ]", empty "[ ]"; an object inside an
//     array therefore reads "[ {" ... "}, {" ... "} ]"
//   - arrays do not add an indentation level (their indenter is inline)
//   - no trailing newline
//
// Strings are escaped as Jackson's default does: '"' and '\\', the short
// forms \b \t \n \f \r, other control characters as \u00XX (upper-case hex),
// everything else — including non-ASCII — as raw UTF-8. Invalid UTF-8 is
// replaced by U+FFFD, as Java strings cannot hold it.
type jsonWriter struct {
	buf    []byte
	pretty bool
	// stack holds one entry per open container: the number of entries
	// written so far, encoded as -(n+1) for arrays (see isArray).
	stack   []int
	objects int // open objects, the pretty printer's indentation level
}

func (w *jsonWriter) top() *int { return &w.stack[len(w.stack)-1] }

// isArray reports whether the innermost container is an array. An array's
// count n is stored as -(n+1), so an empty array (-1) differs from an empty
// object (0).
func (w *jsonWriter) isArray() bool { return *w.top() < 0 }

// beforeValue writes the separator that precedes a value inside an array.
// Values inside objects are preceded by their name instead (see name).
func (w *jsonWriter) beforeValue() {
	if len(w.stack) == 0 || !w.isArray() {
		return
	}
	n := -*w.top() - 1
	if n > 0 {
		w.buf = append(w.buf, ',')
	}
	if w.pretty {
		w.buf = append(w.buf, ' ')
	}
	*w.top() = -(n + 2)
}

func (w *jsonWriter) beginObject() {
	w.beforeValue()
	w.buf = append(w.buf, '{')
	w.stack = append(w.stack, 0)
	w.objects++
}

func (w *jsonWriter) endObject() {
	n := *w.top()
	w.stack = w.stack[:len(w.stack)-1]
	w.objects--
	if w.pretty {
		if n > 0 {
			w.newline()
		} else {
			w.buf = append(w.buf, ' ')
		}
	}
	w.buf = append(w.buf, '}')
}

func (w *jsonWriter) beginArray() {
	w.beforeValue()
	w.buf = append(w.buf, '[')
	w.stack = append(w.stack, -1)
}

func (w *jsonWriter) endArray() {
	w.stack = w.stack[:len(w.stack)-1]
	if w.pretty {
		w.buf = append(w.buf, ' ')
	}
	w.buf = append(w.buf, ']')
}

func (w *jsonWriter) newline() {
	w.buf = append(w.buf, '\n')
	for range w.objects {
		w.buf = append(w.buf, ' ', ' ')
	}
}

// name writes the name of the next object entry.
func (w *jsonWriter) name(key string) {
	if *w.top() > 0 {
		w.buf = append(w.buf, ',')
	}
	*w.top()++
	if w.pretty {
		w.newline()
	}
	w.quote(key)
	if w.pretty {
		w.buf = append(w.buf, " : "...)
	} else {
		w.buf = append(w.buf, ':')
	}
}

func (w *jsonWriter) stringValue(s string) {
	w.beforeValue()
	w.quote(s)
}

func (w *jsonWriter) intValue(n int64) {
	w.beforeValue()
	w.buf = strconv.AppendInt(w.buf, n, 10)
}

func (w *jsonWriter) stringField(key, value string) {
	w.name(key)
	w.stringValue(value)
}

func (w *jsonWriter) intField(key string, value int64) {
	w.name(key)
	w.intValue(value)
}

func (w *jsonWriter) stringArrayField(key string, values []string) {
	w.name(key)
	w.beginArray()
	for _, v := range values {
		w.stringValue(v)
	}
	w.endArray()
}

const hexDigits = "0123456789ABCDEF"

func (w *jsonWriter) quote(s string) {
	w.buf = append(w.buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				w.buf = append(w.buf, "\uFFFD"...)
			} else {
				w.buf = append(w.buf, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			w.buf = append(w.buf, '\\', c)
		case '\b':
			w.buf = append(w.buf, '\\', 'b')
		case '\t':
			w.buf = append(w.buf, '\\', 't')
		case '\n':
			w.buf = append(w.buf, '\\', 'n')
		case '\f':
			w.buf = append(w.buf, '\\', 'f')
		case '\r':
			w.buf = append(w.buf, '\\', 'r')
		default:
			if c < 0x20 {
				w.buf = append(w.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			} else {
				w.buf = append(w.buf, c)
			}
		}
		i++
	}
	w.buf = append(w.buf, '"')
}

package jackson

import "strconv"

// Writer builds one JSON document the way Jackson's generator does, either
// compact (no white space at all, Java JsonSerdeUtil.toFlatJson) or with
// Jackson's DefaultPrettyPrinter (JsonSerdeUtil.toJson):
//
//   - objects: "{", then each member on its own line indented two spaces per
//     open object, written `"key" : value`, members separated by ","; "}" on
//     its own line at the parent's indentation; an empty object is "{ }"
//   - arrays stay on one line: "[ a, b ]", an empty one "[ ]"; an object inside
//     an array therefore reads "[ {" ... "}, {" ... "} ]"
//   - arrays add no indentation level (DefaultPrettyPrinter's array indenter
//     is inline)
//   - no trailing newline; the line separator is "\n" (Jackson uses the JVM's,
//     which is "\n" on every platform Paimon is deployed on)
//
// The caller is responsible for well-formed nesting: a value inside an object
// must be preceded by Name, and every Begin must be matched by its End.
type Writer struct {
	buf    []byte
	pretty bool
	// stack holds one entry per open container: the number of entries
	// written so far, encoded as -(n+1) for arrays (see inArray).
	stack   []int
	objects int // open objects, the pretty printer's indentation level
}

// NewWriter returns an empty Writer; pretty selects Jackson's
// DefaultPrettyPrinter layout, otherwise the output is compact.
func NewWriter(pretty bool) *Writer { return &Writer{pretty: pretty} }

// Bytes returns the document written so far. The slice aliases the Writer's
// buffer.
func (w *Writer) Bytes() []byte { return w.buf }

func (w *Writer) top() *int { return &w.stack[len(w.stack)-1] }

// inArray reports whether the innermost open container is an array. An
// array's count n is stored as -(n+1), so an empty array (-1) differs from an
// empty object (0).
func (w *Writer) inArray() bool { return len(w.stack) > 0 && *w.top() < 0 }

// beforeValue writes the separator that precedes a value inside an array.
// Values inside objects are preceded by their name instead (see Name).
func (w *Writer) beforeValue() {
	if !w.inArray() {
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

func (w *Writer) newline() {
	w.buf = append(w.buf, '\n')
	for range w.objects {
		w.buf = append(w.buf, ' ', ' ')
	}
}

// BeginObject opens an object.
func (w *Writer) BeginObject() {
	w.beforeValue()
	w.buf = append(w.buf, '{')
	w.stack = append(w.stack, 0)
	w.objects++
}

// EndObject closes the innermost object.
func (w *Writer) EndObject() {
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

// BeginArray opens an array.
func (w *Writer) BeginArray() {
	w.beforeValue()
	w.buf = append(w.buf, '[')
	w.stack = append(w.stack, -1)
}

// EndArray closes the innermost array.
func (w *Writer) EndArray() {
	w.stack = w.stack[:len(w.stack)-1]
	if w.pretty {
		w.buf = append(w.buf, ' ')
	}
	w.buf = append(w.buf, ']')
}

// Name writes the name of the next member of the innermost object; the
// member's value follows with any of the value methods.
func (w *Writer) Name(key string) {
	if *w.top() > 0 {
		w.buf = append(w.buf, ',')
	}
	*w.top()++
	if w.pretty {
		w.newline()
	}
	w.buf = AppendString(w.buf, key)
	if w.pretty {
		w.buf = append(w.buf, " : "...)
	} else {
		w.buf = append(w.buf, ':')
	}
}

// String writes a string value, escaped as AppendString does.
func (w *Writer) String(s string) {
	w.beforeValue()
	w.buf = AppendString(w.buf, s)
}

// Int writes an integer value in decimal.
func (w *Writer) Int(n int64) {
	w.beforeValue()
	w.buf = strconv.AppendInt(w.buf, n, 10)
}

// Bool writes true or false.
func (w *Writer) Bool(b bool) {
	w.beforeValue()
	w.buf = strconv.AppendBool(w.buf, b)
}

// Null writes the literal null.
func (w *Writer) Null() {
	w.beforeValue()
	w.buf = append(w.buf, "null"...)
}

// Raw writes an already encoded scalar value as is (for example a number in
// a notation Jackson produces for a Java type, such as a Duration's
// decimal seconds). It must not contain a container.
func (w *Writer) Raw(value []byte) {
	w.beforeValue()
	w.buf = append(w.buf, value...)
}

// StringField writes an object member with a string value.
func (w *Writer) StringField(key, value string) {
	w.Name(key)
	w.String(value)
}

// IntField writes an object member with an integer value.
func (w *Writer) IntField(key string, value int64) {
	w.Name(key)
	w.Int(value)
}

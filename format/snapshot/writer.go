package snapshot

import (
	"sort"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// prettyWriter is a jackson.Writer in DefaultPrettyPrinter layout (Java
// JsonSerdeUtil.toJson) with the member helpers the encoders of this package
// share: they spell out which members Java's Jackson annotations leave out
// when null (JsonInclude.NON_NULL) and which it always writes.
type prettyWriter struct {
	*jackson.Writer
}

func newPrettyWriter() prettyWriter { return prettyWriter{jackson.NewWriter(true)} }

func (w prettyWriter) int64Field(name string, v int64) {
	w.IntField(name, v)
}

func (w prettyWriter) optInt64Field(name string, v *int64) {
	if v != nil {
		w.IntField(name, *v)
	}
}

// stringOrNullField writes a member Jackson always includes: the empty string
// stands for Java null.
func (w prettyWriter) stringOrNullField(name, v string) {
	w.Name(name)
	if v == "" {
		w.Null()
		return
	}
	w.String(v)
}

func (w prettyWriter) optStringField(name string, v *string) {
	if v != nil {
		w.StringField(name, *v)
	}
}

// stringMapField writes a Map<String, String> member: keys in order.
func (w prettyWriter) stringMapField(name string, m map[string]string, order []string) {
	w.Name(name)
	w.BeginObject()
	for _, k := range orderedKeys(m, order) {
		w.StringField(k, m[k])
	}
	w.EndObject()
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

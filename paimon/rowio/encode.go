package rowio

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
)

// Style selects how EncodeJSON renders values.
type Style int

const (
	// Canon is canon-v1 (interop/README.md): exact and comparable with the
	// Java and Python dumps of the interop harness; FLOAT/DOUBLE as IEEE
	// bits ("f64:3ff8000000000000"), MAP entries sorted.
	Canon Style = iota
	// Text is plain JSON, for people and for tools such as jq: FLOAT and
	// DOUBLE as JSON numbers in their shortest exact decimal form (NaN,
	// Infinity and -Infinity as strings), TIME and TIMESTAMP with the
	// column's fraction digits (more only when a value holds more), MAP
	// entries in stored order. Everything else as Canon. It is lossless:
	// DecodeJSON reads every value back unchanged.
	Text
)

// EncodeJSON renders a value of the format/data model as a JSON-ready
// value: nil, bool, json.Number, string, []any or Object. The canon-v1
// encoding does the scalars; this adds the types canon-v1 leaves out
// (VARIANT in Text as {"value": hex, "metadata": hex}, BLOB as hex, VECTOR as an
// array), keeps ROW fields in schema order, and implements Text. A value
// whose Go type does not represent t is an error wrapping ErrValue.
func EncodeJSON(t schema.DataType, v any, st Style) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Root {
	case schema.Float, schema.Double:
		if st == Canon {
			return canonValue(t, v)
		}
		switch f := v.(type) {
		case float32:
			return floatText(float64(f), 32), nil
		case float64:
			return floatText(f, 64), nil
		}
	case schema.Time:
		if ms, ok := v.(int32); ok && st == Text && ms >= 0 {
			return timeText(ms, t.Precision), nil
		}
		return canonValue(t, v)
	case schema.Timestamp, schema.TimestampLTZ:
		if ts, ok := v.(data.Timestamp); ok && st == Text {
			s := timestampText(ts, t.Precision)
			if t.Root == schema.TimestampLTZ {
				s += "Z"
			}
			return s, nil
		}
		return canonValue(t, v)
	case schema.Array, schema.Vector:
		arr, ok := v.([]any)
		if !ok || t.Element == nil {
			break
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			x, err := EncodeJSON(*t.Element, e, st)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case schema.Map, schema.Multiset:
		return encodeMap(t, v, st)
	case schema.Row:
		vals, ok := v.([]any)
		if !ok || len(vals) != len(t.Fields) {
			break
		}
		obj := Object{Keys: make([]string, len(vals)), Values: make([]any, len(vals))}
		for i, f := range t.Fields {
			x, err := EncodeJSON(f.Type, vals[i], st)
			if err != nil {
				return nil, err
			}
			obj.Keys[i], obj.Values[i] = f.Name, x
		}
		return obj, nil
	case schema.Variant:
		if st == Canon {
			// canon-v1: its JSON text (Java GenericVariant.toJson).
			return canonValue(t, v)
		}
		// Text keeps the bytes, so that load reads back what scan
		// printed.
		if x, ok := v.(data.Variant); ok {
			return Object{Keys: []string{"value", "metadata"}, Values: []any{hex.EncodeToString(x.Value), hex.EncodeToString(x.Metadata)}}, nil
		}
	case schema.Blob:
		if b, ok := v.([]byte); ok {
			return hex.EncodeToString(b), nil
		}
	default:
		return canonValue(t, v)
	}
	return nil, fmt.Errorf("%w: %T for %v", ErrValue, v, t.Root)
}

// encodeMap renders MAP and MULTISET values as [key, value] pairs; canon-v1
// sorts them by the JSON text of the key so that equal maps print equally.
func encodeMap(t schema.DataType, v any, st Style) (any, error) {
	m, ok := v.(data.Map)
	kt, vt := t.Key, t.Value
	if t.Root == schema.Multiset {
		it := schema.IntType()
		kt, vt = t.Element, &it
	}
	if !ok || kt == nil || vt == nil || len(m.Keys) != len(m.Values) {
		return nil, fmt.Errorf("%w: %T for %v", ErrValue, v, t.Root)
	}
	type pair struct {
		sortKey string
		kv      []any
	}
	pairs := make([]pair, len(m.Keys))
	for i := range m.Keys {
		k, err := EncodeJSON(*kt, m.Keys[i], st)
		if err != nil {
			return nil, err
		}
		x, err := EncodeJSON(*vt, m.Values[i], st)
		if err != nil {
			return nil, err
		}
		pairs[i].kv = []any{k, x}
		if st == Canon {
			b, err := MarshalJSON(k)
			if err != nil {
				return nil, err
			}
			pairs[i].sortKey = string(b)
		}
	}
	if st == Canon {
		slices.SortStableFunc(pairs, func(a, b pair) int {
			switch {
			case a.sortKey < b.sortKey:
				return -1
			case a.sortKey > b.sortKey:
				return 1
			}
			return 0
		})
	}
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = p.kv
	}
	return out, nil
}

// floatText renders a float as the shortest decimal that reads back to the
// same value; non-finite values become the strings Java prints.
func floatText(f float64, bits int) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, bits))
}

// timeText renders milliseconds of the day as HH:MM:SS with the fraction
// digits of TIME(precision) (TIME stores milliseconds, so at most three),
// more when the value holds more than its precision says.
func timeText(ms int32, precision int) string {
	s := fmt.Sprintf("%02d:%02d:%02d", ms/3_600_000, ms/60_000%60, ms/1000%60)
	return s + fraction(int64(ms%1000)*1_000_000, min(precision, 3))
}

// timestampText renders a timestamp as YYYY-MM-DDTHH:MM:SS with the
// fraction digits of its column's precision (more when the value holds
// more), the wall clock of its millis read as UTC.
func timestampText(ts data.Timestamp, precision int) string {
	tm := time.UnixMilli(ts.Millis).UTC()
	if tm.Year() > 9999 || tm.Year() < 0 {
		// Outside ISO-8601's four-digit years: canon-v1's form.
		return canon.FormatTimestamp(ts)
	}
	nanos := int64(tm.Nanosecond()) + int64(ts.NanoOfMilli)
	s := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d", tm.Year(), int(tm.Month()), tm.Day(), tm.Hour(), tm.Minute(), tm.Second())
	return s + fraction(nanos, precision)
}

// fraction renders nanos (0..999999999) as "." and at least digits
// fraction digits, or "" for no digits and no fraction; digits grow in
// steps of three while the value holds more.
func fraction(nanos int64, digits int) string {
	digits = max(0, min(digits, 9))
	for digits < 9 && nanos%pow10i(9-digits) != 0 {
		digits = min(9, (digits/3+1)*3)
	}
	if digits == 0 {
		return ""
	}
	return "." + fmt.Sprintf("%09d", nanos)[:digits]
}

func pow10i(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// Object is a JSON object whose keys keep their order (encoding/json sorts
// map keys; rows should print in column order).
type Object struct {
	Keys   []string
	Values []any
}

// MarshalJSON writes the object with its keys in order and without HTML
// escaping.
func (o Object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := o.appendJSON(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (o Object) appendJSON(buf *bytes.Buffer) error {
	buf.WriteByte('{')
	for i, k := range o.Keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := MarshalJSON(k)
		if err != nil {
			return err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := MarshalJSON(o.Values[i])
		if err != nil {
			return err
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return nil
}

// MarshalJSON is json.Marshal without HTML escaping: "<" in a string value
// should print as "<".
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// CellText renders a value as one cell of text (CSV, tables): scalars as
// their Text form, nested values as compact JSON. ok is false for NULL.
func CellText(t schema.DataType, v any) (s string, ok bool, err error) {
	if v == nil {
		return "", false, nil
	}
	x, err := EncodeJSON(t, v, Text)
	if err != nil {
		return "", false, err
	}
	switch x := x.(type) {
	case string:
		return x, true, nil
	case json.Number:
		return string(x), true, nil
	case bool:
		return strconv.FormatBool(x), true, nil
	}
	b, err := MarshalJSON(x)
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}

// canonValue is canon-v1's encoding of a scalar, its errors wrapping
// ErrValue.
func canonValue(t schema.DataType, v any) (any, error) {
	x, err := canon.EncodeValue(t, v)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrValue, err)
	}
	return x, nil
}

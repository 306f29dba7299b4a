package rowio

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
)

// This file turns text and JSON into values of the format/data model: cell
// text with ParseText, JSON values with DecodeJSON. Both accept what
// EncodeJSON and CellText produce (canon-v1 for JSON, the Text form for
// cells), so a table dumped as text loads back unchanged, and the plain
// forms people write ("1.5" for a DOUBLE, "2024-05-01 12:00:00" for a
// TIMESTAMP). Nothing is rounded or truncated: a value that does not fit
// its column exactly (too many digits or characters, out of range) is an
// error.

// ErrValue reports a value that does not parse, does not fit its column or
// whose Go type does not represent its column type.
var ErrValue = errors.New("bad value")

// typeName names a type in messages, without its nullability.
func typeName(t schema.DataType) string { return t.Copy(true).String() }

func badValue(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrValue, fmt.Sprintf(format, args...))
}

// ParseText parses non-empty cell text as a value of t (a CSV field: NULL
// is the caller's empty field). Nested types and VARIANT are JSON text.
func ParseText(t schema.DataType, s string) (any, error) {
	if t.Root != schema.Char && t.Root != schema.VarChar {
		s = strings.TrimSpace(s)
	}
	switch t.Root {
	case schema.Boolean:
		switch strings.ToLower(s) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, badValue("%s is not a BOOLEAN (true or false)", quoteValue(s))
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt:
		return parseInteger(t, s)
	case schema.Float, schema.Double:
		if strings.HasPrefix(s, "f32:") || strings.HasPrefix(s, "f64:") {
			v, err := canon.DecodeValue(t, s)
			if err != nil {
				return nil, badValue("%s is not a %s in canon-v1 form", quoteValue(s), typeName(t))
			}
			return v, nil
		}
		bits := 64
		if t.Root == schema.Float {
			bits = 32
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return nil, badValue("%s is not a %s", quoteValue(s), typeName(t))
		}
		if bits == 32 {
			return float32(f), nil
		}
		return f, nil
	case schema.Decimal:
		return parseDecimal(t, s)
	case schema.Char, schema.VarChar:
		return s, checkLength(t, utf8.RuneCountInString(s), "characters")
	case schema.Binary, schema.VarBinary, schema.Blob:
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, badValue("%s is not hexadecimal bytes", quoteValue(s))
		}
		return b, checkLength(t, len(b), "bytes")
	case schema.Date:
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return nil, badValue("%s is not a DATE (2024-05-01)", quoteValue(s))
		}
		return int32(d.Unix() / 86400), nil
	case schema.Time:
		return parseTimeOfDay(t, s)
	case schema.Timestamp, schema.TimestampLTZ:
		return parseTimestamp(t, s)
	}
	// Nested types and VARIANT: JSON text, as the csv output prints them.
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var j any
	if err := dec.Decode(&j); err != nil || dec.More() {
		return nil, badValue("%s value %s is not JSON", typeName(t), quoteValue(s))
	}
	return DecodeJSON(t, j)
}

func parseInteger(t schema.DataType, s string) (any, error) {
	bits := map[schema.TypeRoot]int{schema.TinyInt: 8, schema.SmallInt: 16, schema.Int: 32, schema.BigInt: 64}[t.Root]
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return nil, badValue("%s is out of range for %s", s, typeName(t))
		}
		return nil, badValue("%s is not an integer", quoteValue(s))
	}
	return narrowInt(t.Root, n), nil
}

// narrowInt returns n as the Go type of an integer root; n fits.
func narrowInt(root schema.TypeRoot, n int64) any {
	switch root {
	case schema.TinyInt:
		return int8(n)
	case schema.SmallInt:
		return int16(n)
	case schema.Int:
		return int32(n)
	}
	return n
}

// parseDecimal parses decimal text ("-12.50", "1e3") exactly.
func parseDecimal(t schema.DataType, s string) (any, error) {
	if s == "" || strings.ContainsAny(s, "/_") {
		return nil, badValue("%s is not a DECIMAL", quoteValue(s))
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, badValue("%s is not a DECIMAL", quoteValue(s))
	}
	return decimalOf(t, r, s)
}

// decimalOf converts an exact number to DECIMAL(p, s) if it fits without
// rounding.
func decimalOf(t schema.DataType, r *big.Rat, text string) (any, error) {
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10(t.Scale)))
	if !scaled.IsInt() {
		return nil, badValue("%s has more than %d fraction digits for %s", text, t.Scale, typeName(t))
	}
	u := scaled.Num()
	if new(big.Int).Abs(u).Cmp(pow10(t.Precision)) >= 0 {
		return nil, badValue("%s has more digits than %s holds", text, typeName(t))
	}
	return data.Decimal{Unscaled: u, Precision: t.Precision, Scale: t.Scale}, nil
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// checkLength refuses a CHAR/VARCHAR/BINARY/VARBINARY value longer than its
// type allows.
func checkLength(t schema.DataType, n int, unit string) error {
	switch t.Root {
	case schema.Char, schema.VarChar, schema.Binary, schema.VarBinary:
		if n > t.Length {
			return badValue("%d %s do not fit %s", n, unit, typeName(t))
		}
	}
	return nil
}

// parseTimeOfDay parses HH:MM[:SS[.fraction]]; TIME is stored in
// milliseconds.
func parseTimeOfDay(t schema.DataType, s string) (any, error) {
	var tt time.Time
	var err error
	for _, layout := range []string{"15:04:05.999999999", "15:04"} {
		if tt, err = time.Parse(layout, s); err == nil {
			break
		}
	}
	if err != nil {
		return nil, badValue("%s is not a TIME (12:34:56.789)", quoteValue(s))
	}
	if err := checkFraction(t, int64(tt.Nanosecond()), min(t.Precision, 3), s); err != nil {
		return nil, err
	}
	ms := ((tt.Hour()*60+tt.Minute())*60+tt.Second())*1000 + tt.Nanosecond()/1e6
	return int32(ms), nil
}

// checkFraction refuses sub-second digits beyond precision p (nanos is the
// fraction in nanoseconds).
func checkFraction(t schema.DataType, nanos int64, p int, text string) error {
	unit := int64(math.Pow10(9 - p))
	if nanos%unit != 0 {
		return badValue("%s has more fraction digits than %s holds", text, typeName(t))
	}
	return nil
}

// Timestamp layouts: ISO with 'T' or a space, optional seconds and
// fraction, or a date alone (midnight).
var timestampLayouts = []string{
	"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04", "2006-01-02 15:04", time.DateOnly,
}

// parseTimestamp parses a TIMESTAMP (wall-clock, no zone) or a
// TIMESTAMP_LTZ (an instant: RFC 3339 with Z or an offset; text without a
// zone is read as UTC).
func parseTimestamp(t schema.DataType, s string) (any, error) {
	var tt time.Time
	var err error = ErrValue
	if t.Root == schema.TimestampLTZ {
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00"} {
			if tt, err = time.Parse(layout, s); err == nil {
				break
			}
		}
	}
	if err != nil {
		for _, layout := range timestampLayouts {
			if tt, err = time.Parse(layout, s); err == nil {
				break
			}
		}
	}
	if err != nil {
		if t.Root == schema.TimestampLTZ {
			return nil, badValue("%s is not a TIMESTAMP_LTZ (2024-05-01T12:00:00Z)", quoteValue(s))
		}
		return nil, badValue("%s is not a TIMESTAMP (2024-05-01 12:00:00.123)", quoteValue(s))
	}
	if err := checkFraction(t, int64(tt.Nanosecond()), t.Precision, s); err != nil {
		return nil, err
	}
	return data.Timestamp{Millis: tt.UnixMilli(), NanoOfMilli: int32(tt.Nanosecond() % 1e6)}, nil
}

// DecodeJSON turns a JSON value (decoded with UseNumber) into a value of t:
// canon-v1 as EncodeJSON writes it, plain JSON numbers for numeric
// columns, strings in the forms ParseText reads, objects for ROW (and for
// MAP with string keys).
func DecodeJSON(t schema.DataType, j any) (any, error) {
	switch j := j.(type) {
	case nil:
		return nil, nil
	case string:
		if t.IsNested() || t.Root == schema.Variant {
			return nil, badValue("string for a %s column, want a JSON %s", typeName(t), jsonShape(t))
		}
		if j == "" && t.Root != schema.Char && t.Root != schema.VarChar && t.Root != schema.Binary && t.Root != schema.VarBinary && t.Root != schema.Blob {
			return nil, badValue("empty string is not a %s", typeName(t))
		}
		return ParseText(t, j)
	case json.Number:
		switch t.Root {
		case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Float, schema.Double, schema.Decimal:
			return ParseText(t, j.String())
		}
		return nil, badValue("number %s for a %s column, want a JSON %s", j, typeName(t), jsonShape(t))
	case bool:
		if t.Root == schema.Boolean {
			return j, nil
		}
		return nil, badValue("boolean for a %s column, want a JSON %s", typeName(t), jsonShape(t))
	case []any:
		return decodeJSONArray(t, j)
	case map[string]any:
		return decodeJSONObject(t, j)
	}
	return nil, badValue("unexpected JSON value %v", j)
}

func decodeJSONArray(t schema.DataType, arr []any) (any, error) {
	switch t.Root {
	case schema.Array, schema.Vector:
		if t.Element == nil {
			break
		}
		if t.Root == schema.Vector && len(arr) != t.Length {
			return nil, badValue("%d elements for %s", len(arr), typeName(t))
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			v, err := DecodeJSON(*t.Element, e)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			if err := notNull(*t.Element, v, "element"); err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case schema.Map, schema.Multiset:
		kt, vt := mapTypes(t)
		if kt == nil || vt == nil {
			break
		}
		m := data.Map{Keys: make([]any, len(arr)), Values: make([]any, len(arr))}
		for i, e := range arr {
			pair, ok := e.([]any)
			if !ok || len(pair) != 2 {
				return nil, badValue("%s entry %d is not a [key, value] pair", t.Root, i)
			}
			k, err := DecodeJSON(*kt, pair[0])
			if err != nil {
				return nil, fmt.Errorf("key %d: %w", i, err)
			}
			if k == nil {
				return nil, badValue("%s key %d is null", t.Root, i)
			}
			v, err := DecodeJSON(*vt, pair[1])
			if err != nil {
				return nil, fmt.Errorf("value %d: %w", i, err)
			}
			if err := notNull(*vt, v, "map value"); err != nil {
				return nil, err
			}
			m.Keys[i], m.Values[i] = k, v
		}
		return m, nil
	}
	return nil, badValue("array for a %s column, want a JSON %s", typeName(t), jsonShape(t))
}

func decodeJSONObject(t schema.DataType, obj map[string]any) (any, error) {
	switch t.Root {
	case schema.Row:
		for k := range obj {
			if t.FieldIndex(k) < 0 {
				return nil, badValue("ROW has no field %q (fields: %s)", k, strings.Join(t.FieldNames(), ", "))
			}
		}
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			v, err := DecodeJSON(f.Type, obj[f.Name])
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.Name, err)
			}
			if err := notNull(f.Type, v, "field "+f.Name); err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case schema.Map, schema.Multiset:
		// {"key": value} for keys written as JSON object member names.
		kt, vt := mapTypes(t)
		if kt == nil || vt == nil {
			break
		}
		m := data.Map{}
		for k, x := range obj {
			key, err := ParseText(*kt, k)
			if err != nil {
				return nil, fmt.Errorf("key %q: %w", k, err)
			}
			v, err := DecodeJSON(*vt, x)
			if err != nil {
				return nil, fmt.Errorf("value of %q: %w", k, err)
			}
			if err := notNull(*vt, v, "map value"); err != nil {
				return nil, err
			}
			m.Keys, m.Values = append(m.Keys, key), append(m.Values, v)
		}
		return m, nil
	case schema.Variant:
		value, ok1 := obj["value"].(string)
		meta, ok2 := obj["metadata"].(string)
		if ok1 && ok2 && len(obj) == 2 {
			vb, err1 := hex.DecodeString(value)
			mb, err2 := hex.DecodeString(meta)
			if err1 == nil && err2 == nil {
				return data.Variant{Value: vb, Metadata: mb}, nil
			}
		}
		return nil, badValue(`VARIANT wants {"value": hex, "metadata": hex}`)
	}
	return nil, badValue("object for a %s column, want a JSON %s", typeName(t), jsonShape(t))
}

// mapTypes returns the key and value types of a MAP, or of a MULTISET
// (its element and the INT count).
func mapTypes(t schema.DataType) (k, v *schema.DataType) {
	if t.Root == schema.Multiset {
		it := schema.IntType().NotNull()
		return t.Element, &it
	}
	return t.Key, t.Value
}

// notNull refuses a NULL where t is NOT NULL.
func notNull(t schema.DataType, v any, what string) error {
	if v == nil && !t.Nullable {
		return badValue("%s is NOT NULL but the value is null", what)
	}
	return nil
}

// jsonShape names the JSON form a type's values take.
func jsonShape(t schema.DataType) string {
	switch t.Root {
	case schema.Boolean:
		return "boolean"
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Float, schema.Double, schema.Decimal:
		return "number"
	case schema.Array, schema.Vector:
		return "array"
	case schema.Map, schema.Multiset:
		return "array of [key, value] pairs"
	case schema.Row, schema.Variant:
		return "object"
	}
	return "string"
}

// quoteValue shows a bad input value in a one-line message.
func quoteValue(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return strconv.Quote(s)
}

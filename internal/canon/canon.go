// Package canon implements "canon-v1", the canonical JSON rendering of Paimon
// rows that the interop harness uses to compare what Java Paimon, pypaimon and
// this library read from the same table.
//
// The rules are written down in interop/README.md. In short: one JSON object
// per row keyed by column name; integers exact; FLOAT/DOUBLE as their IEEE
// bits ("f32:%08x", "f64:%016x", NaN collapsed); DECIMAL as plain text with
// exactly scale fraction digits; BINARY as lowercase hex; DATE "YYYY-MM-DD";
// TIME "HH:MM:SS.mmm"; TIMESTAMP "YYYY-MM-DDTHH:MM:SS.nnnnnnnnn" (plus "Z" for
// TIMESTAMP_LTZ); ARRAY a JSON array; MAP and MULTISET arrays of [key, value]
// pairs sorted by the canonical JSON of the key; ROW an object.
//
// Producers print lines in any key order and escaping; consumers never compare
// bytes but re-canonicalise every line (Canonicalize) and compare the sorted
// lines as multisets (Compare).
package canon

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/variant"
)

// ErrValue reports a value that does not fit its Paimon type.
var ErrValue = errors.New("canon: value does not match type")

// EncodeValue renders one Paimon value (in the format/data model) as a canon-v1
// JSON value (nil, bool, json.Number, string, []any or map[string]any).
func EncodeValue(t schema.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	bad := func() (any, error) {
		return nil, fmt.Errorf("%w: %T for %v", ErrValue, v, t.Root)
	}
	switch t.Root {
	case schema.Boolean:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		return b, nil
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt:
		n, ok := asInt64(v)
		if !ok {
			return bad()
		}
		return json.Number(fmt.Sprint(n)), nil
	case schema.Float:
		f, ok := v.(float32)
		if !ok {
			return bad()
		}
		if f != f {
			return "f32:nan", nil
		}
		return fmt.Sprintf("f32:%08x", math.Float32bits(f)), nil
	case schema.Double:
		f, ok := v.(float64)
		if !ok {
			return bad()
		}
		if f != f {
			return "f64:nan", nil
		}
		return fmt.Sprintf("f64:%016x", math.Float64bits(f)), nil
	case schema.Decimal:
		d, ok := v.(data.Decimal)
		if !ok || d.Unscaled == nil {
			return bad()
		}
		if d.Scale != t.Scale { // canonical text uses the column's scale
			r, ok := rescale(d, t.Scale)
			if !ok {
				return bad()
			}
			d = r
		}
		return d.String(), nil
	case schema.Char, schema.VarChar:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		return s, nil
	case schema.Binary, schema.VarBinary, schema.Blob:
		b, ok := v.([]byte)
		if !ok {
			return bad()
		}
		return hex.EncodeToString(b), nil
	case schema.Date:
		d, ok := v.(int32)
		if !ok {
			return bad()
		}
		return FormatDate(d), nil
	case schema.Time:
		ms, ok := v.(int32)
		if !ok {
			return bad()
		}
		return FormatTime(ms), nil
	case schema.Timestamp, schema.TimestampLTZ:
		ts, ok := v.(data.Timestamp)
		if !ok {
			return bad()
		}
		s := FormatTimestamp(ts)
		if t.Root == schema.TimestampLTZ {
			s += "Z"
		}
		return s, nil
	case schema.Array:
		arr, ok := v.([]any)
		if !ok || t.Element == nil {
			return bad()
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			x, err := EncodeValue(*t.Element, e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case schema.Map, schema.Multiset:
		m, ok := v.(data.Map)
		if !ok || len(m.Keys) != len(m.Values) {
			return bad()
		}
		kt, vt := t.Key, t.Value
		if t.Root == schema.Multiset {
			if t.Element == nil {
				return bad()
			}
			kt, vt = t.Element, &schema.DataType{Root: schema.Int}
		}
		if kt == nil || vt == nil {
			return bad()
		}
		pairs := make([][2]any, len(m.Keys))
		for i := range m.Keys {
			k, err := EncodeValue(*kt, m.Keys[i])
			if err != nil {
				return nil, err
			}
			x, err := EncodeValue(*vt, m.Values[i])
			if err != nil {
				return nil, err
			}
			pairs[i] = [2]any{k, x}
		}
		return sortedPairs(pairs)
	case schema.Variant:
		// canon-v1: the variant's JSON text (Java GenericVariant.toJson, UTC).
		x, ok := v.(data.Variant)
		if !ok {
			return bad()
		}
		s, err := variant.JSON(x.Value, x.Metadata)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrValue, err)
		}
		return s, nil
	case schema.Row:
		fields, ok := v.([]any)
		if !ok || len(fields) != len(t.Fields) {
			return bad()
		}
		obj := make(map[string]any, len(fields))
		for i, f := range t.Fields {
			x, err := EncodeValue(f.Type, fields[i])
			if err != nil {
				return nil, err
			}
			obj[f.Name] = x
		}
		return obj, nil
	}
	return nil, fmt.Errorf("%w: unsupported type %v", ErrValue, t.Root)
}

// rescale changes a decimal's scale without changing its value; it fails when
// digits would be lost.
func rescale(d data.Decimal, scale int) (data.Decimal, bool) {
	u := new(big.Int).Set(d.Unscaled)
	if scale > d.Scale {
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale-d.Scale)), nil))
	} else {
		q, r := new(big.Int).QuoRem(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale-scale)), nil), new(big.Int))
		if r.Sign() != 0 {
			return d, false
		}
		u = q
	}
	return data.Decimal{Unscaled: u, Precision: d.Precision, Scale: scale}, true
}

func sortedPairs(pairs [][2]any) (any, error) {
	keys := make([]string, len(pairs))
	for i, p := range pairs {
		b, err := marshal(p[0])
		if err != nil {
			return nil, err
		}
		keys[i] = string(b)
	}
	idx := make([]int, len(pairs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	out := make([]any, len(pairs))
	for i, j := range idx {
		out[i] = []any{pairs[j][0], pairs[j][1]}
	}
	return out, nil
}

func asInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int8:
		return int64(n), true
	case int16:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case int:
		return int64(n), true
	}
	return 0, false
}

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// FormatDate renders days since the epoch as YYYY-MM-DD.
func FormatDate(days int32) string {
	return epoch.AddDate(0, 0, int(days)).Format("2006-01-02")
}

// FormatTime renders milliseconds of the day as HH:MM:SS.mmm.
func FormatTime(ms int32) string {
	h := ms / 3_600_000
	m := ms / 60_000 % 60
	s := ms / 1000 % 60
	return fmt.Sprintf("%02d:%02d:%02d.%03d", h, m, s, ms%1000)
}

// FormatTimestamp renders a timestamp as YYYY-MM-DDTHH:MM:SS.nnnnnnnnn, the
// wall clock of its millis read as UTC.
func FormatTimestamp(ts data.Timestamp) string {
	t := time.UnixMilli(ts.Millis).UTC()
	nanos := int(t.Nanosecond()) + int(ts.NanoOfMilli)
	return fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d.%09d",
		t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), nanos)
}

// DecodeValue is the inverse of EncodeValue: it turns a canon-v1 JSON value
// (as decoded with json.Decoder.UseNumber) into the format/data model.
func DecodeValue(t schema.DataType, j any) (any, error) {
	if j == nil {
		return nil, nil
	}
	bad := func() (any, error) {
		return nil, fmt.Errorf("%w: %v for %v", ErrValue, j, t.Root)
	}
	str, isStr := j.(string)
	switch t.Root {
	case schema.Boolean:
		b, ok := j.(bool)
		if !ok {
			return bad()
		}
		return b, nil
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt:
		n, ok := j.(json.Number)
		if !ok {
			return bad()
		}
		i, err := n.Int64()
		if err != nil {
			return bad()
		}
		switch t.Root {
		case schema.TinyInt:
			if i < math.MinInt8 || i > math.MaxInt8 {
				return bad()
			}
			return int8(i), nil
		case schema.SmallInt:
			if i < math.MinInt16 || i > math.MaxInt16 {
				return bad()
			}
			return int16(i), nil
		case schema.Int:
			if i < math.MinInt32 || i > math.MaxInt32 {
				return bad()
			}
			return int32(i), nil
		}
		return i, nil
	case schema.Float:
		if !isStr {
			return bad()
		}
		if str == "f32:nan" {
			// Java's canonical NaN (Float.NaN), which is also what Java
			// writes when it normalises NaNs.
			return math.Float32frombits(0x7fc00000), nil
		}
		var bits uint32
		if _, err := fmt.Sscanf(str, "f32:%08x", &bits); err != nil || len(str) != 12 {
			return bad()
		}
		return math.Float32frombits(bits), nil
	case schema.Double:
		if !isStr {
			return bad()
		}
		if str == "f64:nan" {
			return math.Float64frombits(0x7ff8000000000000), nil // Java Double.NaN
		}
		var bits uint64
		if _, err := fmt.Sscanf(str, "f64:%016x", &bits); err != nil || len(str) != 20 {
			return bad()
		}
		return math.Float64frombits(bits), nil
	case schema.Decimal:
		if !isStr {
			return bad()
		}
		d, err := ParseDecimal(str, t.Precision, t.Scale)
		if err != nil {
			return nil, err
		}
		return d, nil
	case schema.Char, schema.VarChar:
		if !isStr {
			return bad()
		}
		return str, nil
	case schema.Binary, schema.VarBinary, schema.Blob:
		if !isStr {
			return bad()
		}
		b, err := hex.DecodeString(str)
		if err != nil {
			return bad()
		}
		return b, nil
	case schema.Date:
		if !isStr {
			return bad()
		}
		d, err := time.Parse("2006-01-02", str)
		if err != nil {
			return bad()
		}
		// Unix seconds, not time.Duration: durations saturate at ±292 years.
		return int32(d.Unix() / 86400), nil
	case schema.Time:
		if !isStr {
			return bad()
		}
		var h, m, s, ms int32
		if _, err := fmt.Sscanf(str, "%02d:%02d:%02d.%03d", &h, &m, &s, &ms); err != nil {
			return bad()
		}
		return ((h*60+m)*60+s)*1000 + ms, nil
	case schema.Timestamp, schema.TimestampLTZ:
		if !isStr {
			return bad()
		}
		if t.Root == schema.TimestampLTZ {
			if !strings.HasSuffix(str, "Z") {
				return bad()
			}
			str = strings.TrimSuffix(str, "Z")
		}
		ts, err := ParseTimestamp(str)
		if err != nil {
			return bad()
		}
		return ts, nil
	case schema.Array:
		arr, ok := j.([]any)
		if !ok || t.Element == nil {
			return bad()
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			x, err := DecodeValue(*t.Element, e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case schema.Map, schema.Multiset:
		arr, ok := j.([]any)
		if !ok {
			return bad()
		}
		kt, vt := t.Key, t.Value
		if t.Root == schema.Multiset {
			kt, vt = t.Element, &schema.DataType{Root: schema.Int}
		}
		if kt == nil || vt == nil {
			return bad()
		}
		m := data.Map{Keys: make([]any, len(arr)), Values: make([]any, len(arr))}
		for i, e := range arr {
			p, ok := e.([]any)
			if !ok || len(p) != 2 {
				return bad()
			}
			k, err := DecodeValue(*kt, p[0])
			if err != nil {
				return nil, err
			}
			x, err := DecodeValue(*vt, p[1])
			if err != nil {
				return nil, err
			}
			m.Keys[i], m.Values[i] = k, x
		}
		return m, nil
	case schema.Row:
		obj, ok := j.(map[string]any)
		if !ok {
			return bad()
		}
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			x, err := DecodeValue(f.Type, obj[f.Name])
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: unsupported type %v", ErrValue, t.Root)
}

// ParseDecimal parses plain decimal text into a Decimal with the given
// precision and scale. The text must have at most scale fraction digits.
func ParseDecimal(s string, precision, scale int) (data.Decimal, error) {
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(digits, ".")
	if len(frac) > scale || intPart == "" && frac == "" {
		return data.Decimal{}, fmt.Errorf("%w: decimal %q does not fit scale %d", ErrValue, s, scale)
	}
	frac += strings.Repeat("0", scale-len(frac))
	u, ok := new(big.Int).SetString(intPart+frac, 10)
	if !ok {
		return data.Decimal{}, fmt.Errorf("%w: bad decimal %q", ErrValue, s)
	}
	if neg {
		u.Neg(u)
	}
	return data.Decimal{Unscaled: u, Precision: precision, Scale: scale}, nil
}

// ParseTimestamp parses YYYY-MM-DDTHH:MM:SS[.fraction] (up to 9 digits) as a
// wall clock read as UTC.
func ParseTimestamp(s string) (data.Timestamp, error) {
	base, frac, _ := strings.Cut(s, ".")
	t, err := time.Parse("2006-01-02T15:04:05", base)
	if err != nil {
		return data.Timestamp{}, err
	}
	if len(frac) > 9 {
		return data.Timestamp{}, fmt.Errorf("%w: fraction too long in %q", ErrValue, s)
	}
	var nanos int64
	if frac != "" {
		frac += strings.Repeat("0", 9-len(frac))
		if _, err := fmt.Sscanf(frac, "%09d", &nanos); err != nil {
			return data.Timestamp{}, err
		}
	}
	ms := t.Unix()*1000 + nanos/1_000_000
	return data.Timestamp{Millis: ms, NanoOfMilli: int32(nanos % 1_000_000)}, nil
}

// EncodeRow renders one row as a canon-v1 JSON object line (no newline).
func EncodeRow(fields []schema.DataField, values []any) ([]byte, error) {
	if len(fields) != len(values) {
		return nil, fmt.Errorf("%w: %d values for %d fields", ErrValue, len(values), len(fields))
	}
	obj := make(map[string]any, len(fields))
	for i, f := range fields {
		x, err := EncodeValue(f.Type, values[i])
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		obj[f.Name] = x
	}
	return marshal(obj)
}

// DecodeRow parses one canon-v1 row object into values ordered like fields;
// absent keys are null.
func DecodeRow(fields []schema.DataField, line []byte) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrValue, err)
	}
	out := make([]any, len(fields))
	for i, f := range fields {
		x, err := DecodeValue(f.Type, obj[f.Name])
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		out[i] = x
	}
	return out, nil
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

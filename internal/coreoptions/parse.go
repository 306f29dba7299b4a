package coreoptions

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

var (
	// ErrInvalid is wrapped by every error about an option value that
	// does not parse as its Java type or is out of range.
	ErrInvalid = errors.New("invalid table option")
	// ErrUnsupported is wrapped by the refusal of an option value this
	// library does not implement (see Check).
	ErrUnsupported = fmt.Errorf("unsupported table option: %w", errors.ErrUnsupported)
)

// Error is a table option whose value is refused. Its message names the key
// and the value and carries no package prefix: callers add theirs.
type Error struct {
	Key, Value string
	// Reason says what is wrong ("not a boolean", "not implemented").
	Reason string
	// Err is ErrInvalid or ErrUnsupported.
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("option %s = %q: %s", e.Key, e.Value, e.Reason) }

func (e *Error) Unwrap() error { return e.Err }

func invalid(key, value, reason string) error {
	return &Error{Key: key, Value: value, Reason: reason, Err: ErrInvalid}
}

// The parsers below read option text as Java's OptionsUtils.convertValue
// does for each type. Only ParseMemorySize, ParseDuration and ParseDouble
// trim blanks (Java's parsers do); booleans, integers and enums must match
// exactly, up to case for booleans and enums.

// ParseBool parses a boolean as Java's convertToBoolean: "true" or "false"
// in any case.
func ParseBool(s string) (bool, error) {
	switch {
	case strings.EqualFold(s, "true"):
		return true, nil
	case strings.EqualFold(s, "false"):
		return false, nil
	}
	return false, errors.New("not a boolean (true or false)")
}

// ParseInt parses a Java int (Integer.parseInt: an optional sign and
// decimal digits, within 32 bits).
func ParseInt(s string) (int, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, errors.New("not a 32-bit integer")
	}
	return int(n), nil
}

// ParseLong parses a Java long (Long.parseLong).
func ParseLong(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, errors.New("not a 64-bit integer")
	}
	return n, nil
}

// ParseDouble parses a Java double as Double.parseDouble does: blanks
// trimmed, an optional f/F/d/D suffix, "NaN" and "Infinity" spelled as
// Java spells them.
func ParseDouble(s string) (float64, error) {
	t := strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if n := len(t); n > 1 && strings.ContainsRune("fFdD", rune(t[n-1])) && t[n-2] != 'x' && t[n-2] != 'X' {
		t = t[:n-1]
	}
	switch strings.TrimLeft(t, "+-") {
	case "NaN", "Infinity":
	default:
		if strings.ContainsAny(t, "iInN_") {
			return 0, errors.New("not a number")
		}
	}
	t = strings.Replace(t, "Infinity", "Inf", 1)
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errors.New("not a number")
	}
	return f, nil
}

// memoryUnits are the unit words Java's MemorySize.parse accepts, with the
// power of 1024 each stands for.
var memoryUnits = map[string]uint{
	"": 0, "b": 0, "bytes": 0,
	"k": 10, "kb": 10, "kibibytes": 10,
	"m": 20, "mb": 20, "mebibytes": 20,
	"g": 30, "gb": 30, "gibibytes": 30,
	"t": 40, "tb": 40, "tebibytes": 40,
}

// ParseMemorySize parses a memory size as Java's MemorySize.parse does: a
// whole number of bytes, optionally followed by a case-insensitive unit
// (b, k/kb, m/mb, g/gb, t/tb or their long names), all powers of 1024
// ("256 mb", "128MB", "1048576").
func ParseMemorySize(s string) (int64, error) {
	text := strings.ToLower(strings.TrimSpace(s))
	digits := strings.IndexFunc(text, func(r rune) bool { return r < '0' || r > '9' })
	if digits < 0 {
		digits = len(text)
	}
	if digits == 0 {
		return 0, fmt.Errorf("memory size %q does not start with a number", s)
	}
	shift, ok := memoryUnits[strings.TrimSpace(text[digits:])]
	if !ok {
		return 0, fmt.Errorf("memory size %q has an unknown unit", s)
	}
	n, err := strconv.ParseInt(text[:digits], 10, 64)
	if err != nil || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("memory size %q is too large", s)
	}
	return n << shift, nil
}

// durationUnits maps the unit labels Java's TimeUtils.parseDuration accepts
// to their length.
var durationUnits = map[string]time.Duration{
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"h": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"min": time.Minute, "m": time.Minute, "minute": time.Minute, "minutes": time.Minute, "mins": time.Minute,
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"ms": time.Millisecond, "milli": time.Millisecond, "millis": time.Millisecond,
	"millisecond": time.Millisecond, "milliseconds": time.Millisecond,
	"µs": time.Microsecond, "micro": time.Microsecond, "micros": time.Microsecond,
	"microsecond": time.Microsecond, "microseconds": time.Microsecond,
	"ns": time.Nanosecond, "nano": time.Nanosecond, "nanos": time.Nanosecond,
	"nanosecond": time.Nanosecond, "nanoseconds": time.Nanosecond,
}

// ParseDuration parses a duration as Java's TimeUtils.parseDuration does: a
// whole number followed by an optional unit ("10 s", "1h", "30 min";
// without a unit, milliseconds). Durations beyond time.Duration's range
// (about 292 years) are refused.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("duration %q does not start with a number", s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("duration %q: number out of range", s)
	}
	unit := strings.ToLower(strings.TrimSpace(t[i:]))
	d := time.Millisecond
	if unit != "" {
		var ok bool
		if d, ok = durationUnits[unit]; !ok {
			return 0, fmt.Errorf("duration %q: unknown unit %q", s, unit)
		}
	}
	if n > math.MaxInt64/int64(d) {
		return 0, fmt.Errorf("duration %q overflows", s)
	}
	return time.Duration(n) * d, nil
}

// parseEnum returns the constant of values that s names (Java's
// convertToEnum: equal ignoring case).
func parseEnum(s string, values []string) (string, error) {
	for _, v := range values {
		if strings.EqualFold(v, s) {
			return v, nil
		}
	}
	return "", fmt.Errorf("not one of %s", strings.Join(values, ", "))
}

// ParseMap parses a map option ("k1:v1,k2:v2") as Java's
// convertToProperties does, with StructuredOptionsSplitter's quoting: a
// token in single or double quotes keeps separators, a doubled quote
// inside stands for one.
func ParseMap(s string) (map[string]string, error) {
	out := map[string]string{}
	entries, err := splitQuoted(s, ',')
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		kv, err := splitQuoted(e, ':')
		if err != nil {
			return nil, err
		}
		if len(kv) != 2 {
			return nil, fmt.Errorf("map entry %q is not key:value", e)
		}
		out[kv[0]] = kv[1]
	}
	return out, nil
}

// splitQuoted splits s at sep outside quotes and unquotes the parts
// (StructuredOptionsSplitter.splitEscaped). Blanks around parts are
// dropped, an empty input gives no parts.
func splitQuoted(s string, sep byte) ([]string, error) {
	var parts []string
	var cur strings.Builder
	quoted := false // the current token was quoted
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			q := c
			i++
			for {
				if i >= len(s) {
					return nil, fmt.Errorf("unclosed quote in %q", s)
				}
				if s[i] == q {
					if i+1 < len(s) && s[i+1] == q {
						cur.WriteByte(q)
						i += 2
						continue
					}
					i++
					break
				}
				cur.WriteByte(s[i])
				i++
			}
			quoted = true
		case c == sep:
			parts = append(parts, token(cur.String(), quoted))
			cur.Reset()
			quoted = false
			i++
		default:
			cur.WriteByte(c)
			i++
		}
	}
	if cur.Len() > 0 || quoted || len(parts) > 0 {
		parts = append(parts, token(cur.String(), quoted))
	}
	return parts, nil
}

func token(s string, quoted bool) string {
	if quoted {
		return s
	}
	return strings.TrimSpace(s)
}

// CheckValue reports whether value parses as the type of the option key
// belongs to; it is nil for a key Lookup does not know and for string
// options. The error names the key and the value.
func CheckValue(key, value string) error {
	o, ok := Lookup(key)
	if !ok {
		return nil
	}
	_, err := parseValue(o, key, value)
	return err
}

// parseValue parses value as o's type and returns it in a comparable form:
// bool, int64 (integers, sizes in bytes, durations in nanoseconds),
// float64, the enum constant, or the text.
func parseValue(o *Option, key, value string) (any, error) {
	var v any
	var err error
	switch o.Type {
	case KindBoolean:
		v, err = ParseBool(value)
	case KindInteger:
		var n int
		n, err = ParseInt(value)
		v = int64(n)
	case KindLong:
		v, err = ParseLong(value)
	case KindFloat, KindDouble:
		v, err = ParseDouble(value)
	case KindMemorySize:
		v, err = ParseMemorySize(value)
	case KindDuration:
		var d time.Duration
		d, err = ParseDuration(value)
		v = int64(d)
	case KindEnum:
		v, err = parseEnum(value, o.Values)
	case KindMap:
		_, err = ParseMap(value)
		v = value
	default:
		v = value
	}
	if err != nil {
		return nil, invalid(key, value, err.Error())
	}
	return v, nil
}

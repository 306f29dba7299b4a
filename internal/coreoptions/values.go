package coreoptions

import (
	"fmt"
	"time"
)

// Values reads a table's option map the way Java's Options.get reads a
// ConfigOption: the key, else its fallback keys in order, else the
// option's default; a value that does not parse is an *Error naming the key
// it came from. Keys must be known to Lookup (Java's keys, their fallback
// keys, or an instance of a dynamic family such as
// FieldKey("a", FieldIgnoreRetract)); reading an unknown key is an error.
type Values map[string]string

// Get returns the raw value of key or of the first fallback key present,
// and the key it came from.
func (v Values) Get(key string) (value, from string, ok bool) {
	if s, ok := v[key]; ok {
		return s, key, true
	}
	if o, known := byKey[key]; known {
		for _, f := range o.Fallback {
			if s, ok := v[f]; ok {
				return s, f, true
			}
		}
	}
	return "", "", false
}

// Has reports whether key or one of its fallback keys is set.
func (v Values) Has(key string) bool {
	_, _, ok := v.Get(key)
	return ok
}

// read returns the parsed value of key (or its default), nil when the key
// is absent and has no default.
func (v Values) read(key string, want Kind) (any, error) {
	o, ok := Lookup(key)
	if !ok {
		return nil, fmt.Errorf("%w: unknown option %s", ErrInvalid, key)
	}
	if o.Type != want && !(want == KindDouble && o.Type == KindFloat) {
		return nil, fmt.Errorf("%w: option %s is a %s, read as a %s", ErrInvalid, key, o.Type, want)
	}
	raw, from, ok := v.Get(key)
	if !ok {
		if !o.HasDefault {
			return nil, nil
		}
		raw, from = o.Default, key
	}
	return parseValue(o, from, raw)
}

// Bool returns a boolean option (false when absent without a default).
func (v Values) Bool(key string) (bool, error) {
	x, err := v.read(key, KindBoolean)
	if x == nil || err != nil {
		return false, err
	}
	return x.(bool), nil
}

// Int returns an int option (0 when absent without a default).
func (v Values) Int(key string) (int, error) {
	x, err := v.read(key, KindInteger)
	if x == nil || err != nil {
		return 0, err
	}
	return int(x.(int64)), nil
}

// Long returns a long option (0 when absent without a default).
func (v Values) Long(key string) (int64, error) {
	x, err := v.read(key, KindLong)
	if x == nil || err != nil {
		return 0, err
	}
	return x.(int64), nil
}

// Double returns a double or float option (0 when absent without a
// default).
func (v Values) Double(key string) (float64, error) {
	x, err := v.read(key, KindDouble)
	if x == nil || err != nil {
		return 0, err
	}
	return x.(float64), nil
}

// MemorySize returns a memory size in bytes (0 when absent without a
// default).
func (v Values) MemorySize(key string) (int64, error) {
	x, err := v.read(key, KindMemorySize)
	if x == nil || err != nil {
		return 0, err
	}
	return x.(int64), nil
}

// Duration returns a duration option (0 when absent without a default).
func (v Values) Duration(key string) (time.Duration, error) {
	x, err := v.read(key, KindDuration)
	if x == nil || err != nil {
		return 0, err
	}
	return time.Duration(x.(int64)), nil
}

// Enum returns an enum option as the constant's text in Option.Values
// ("" when absent without a default).
func (v Values) Enum(key string) (string, error) {
	x, err := v.read(key, KindEnum)
	if x == nil || err != nil {
		return "", err
	}
	return x.(string), nil
}

// String returns a string option, its default when absent ("" without
// one).
func (v Values) String(key string) string {
	if s, _, ok := v.Get(key); ok {
		return s
	}
	if o, ok := Lookup(key); ok && o.HasDefault {
		return o.Default
	}
	return ""
}

package evolution

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Casts to and from character and binary strings: NumericToStringCastRule,
// BooleanToStringCastRule, StringToStringCastRule, the ARRAY/MAP/ROW to
// string rules, StringToBooleanCastRule, StringToDecimalCastRule,
// StringToNumericPrimitiveCastRule, StringToBinaryCastRule,
// BinaryToBinaryCastRule and BinaryToStringCastRule.

func stringOf(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", badValue(v)
	}
	return s, nil
}

func castErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCast, fmt.Sprintf(format, args...))
}

// utf8CharLen is BinaryString.numBytesForFirstByte: the byte length of the
// character a UTF-8 lead byte starts; invalid lead bytes count as one.
func utf8CharLen(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b>>5 == 0x6 && b&0x1e != 0:
		return 2
	case b>>4 == 0xe:
		return 3
	case b>>3 == 0x1e:
		return 4
	}
	return 1
}

// javaNumChars is BinaryString.numChars.
func javaNumChars(s string) int {
	n := 0
	for i := 0; i < len(s); i += utf8CharLen(s[i]) {
		n++
	}
	return n
}

// javaPrefix is BinaryString.substring(0, n).
func javaPrefix(s string, n int) string {
	i := 0
	for c := 0; i < len(s) && c < n; c++ {
		i += utf8CharLen(s[i])
	}
	if i > len(s) {
		i = len(s)
	}
	return s[:i]
}

// toCharacterString mirrors BinaryStringUtils.toCharacterString: cut to the
// target length in characters, and pad CHAR with spaces to its length.
func toCharacterString(s string, to schema.DataType) string {
	n := javaNumChars(s)
	switch {
	case n > to.Length:
		return javaPrefix(s, to.Length)
	case n < to.Length && to.Root == schema.Char:
		return s + strings.Repeat(" ", to.Length-n)
	}
	return s
}

// toBinaryString mirrors BinaryStringUtils.toBinaryString: BINARY(n) is cut
// or zero-padded to n bytes, VARBINARY(n) only cut.
func toBinaryString(b []byte, to schema.DataType) []byte {
	n := to.Length
	switch {
	case len(b) == n:
		return b
	case to.Root == schema.Binary:
		out := make([]byte, n)
		copy(out, b)
		return out
	case len(b) > n:
		return b[:n]
	}
	return b
}

// javaNumberString is value.toString() of a boxed numeric value.
func javaNumberString(v any) (string, error) {
	if n, ok := intOf(v); ok {
		return strconv.FormatInt(n, 10), nil
	}
	switch x := v.(type) {
	case float32:
		return javaFloatString(x), nil
	case float64:
		return javaDoubleString(x), nil
	case data.Decimal:
		if x.Unscaled == nil {
			return "", badValue(v)
		}
		return x.String(), nil // Decimal.toString is BigDecimal.toPlainString
	}
	return "", badValue(v)
}

func numericToString(_, to schema.DataType) castFunc {
	return func(v any) (any, error) {
		s, err := javaNumberString(v)
		if err != nil {
			return nil, err
		}
		return toCharacterString(s, to), nil
	}
}

func booleanToString(to schema.DataType) castFunc {
	return func(v any) (any, error) {
		b, ok := v.(bool)
		if !ok {
			return nil, badValue(v)
		}
		return toCharacterString(strconv.FormatBool(b), to), nil
	}
}

func stringToString(to schema.DataType) castFunc {
	return func(v any) (any, error) {
		s, err := stringOf(v)
		if err != nil {
			return nil, err
		}
		return toCharacterString(s, to), nil
	}
}

func binaryToString(v any) (any, error) {
	b, ok := v.([]byte)
	if !ok {
		return nil, badValue(v)
	}
	// BinaryString.fromBytes: the bytes as they are, whatever the length of
	// the target type.
	return string(b), nil
}

func binaryToBinary(to schema.DataType) castFunc {
	return func(v any) (any, error) {
		b, ok := v.([]byte)
		if !ok {
			return nil, badValue(v)
		}
		return toBinaryString(b, to), nil
	}
}

func stringToBinary(to schema.DataType) castFunc {
	return func(v any) (any, error) {
		s, err := stringOf(v)
		if err != nil {
			return nil, err
		}
		return toBinaryString([]byte(s), to), nil
	}
}

// nestedToString mirrors ArrayToStringCastRule, MapToStringCastRule and
// RowToStringCastRule: "[a, b]", "{k -> v, ...}" and "{f1, f2}", each element
// cast to STRING by its own rule and NULL printed as "null". The result is
// not fitted to the target's length. An element type without a cast to
// STRING fails only when a non-null element of it is met, as in Java.
func nestedToString(from schema.DataType, e *env) castFunc {
	elem := func(t *schema.DataType) castFunc {
		if t == nil {
			return nil
		}
		fn, _ := resolve(*t, schema.StringType(), e)
		return fn
	}
	render := func(fn castFunc, t *schema.DataType, v any, b *strings.Builder) error {
		if v == nil {
			b.WriteString("null")
			return nil
		}
		if fn == nil {
			return castErr("no cast from %s to STRING", t)
		}
		s, err := fn(v)
		if err != nil {
			return err
		}
		str, ok := s.(string)
		if !ok {
			return badValue(s)
		}
		b.WriteString(str)
		return nil
	}
	switch from.Root {
	case schema.Array:
		fn := elem(from.Element)
		return func(v any) (any, error) {
			items, ok := v.([]any)
			if !ok {
				return nil, badValue(v)
			}
			var b strings.Builder
			b.WriteByte('[')
			for i, x := range items {
				if i > 0 {
					b.WriteString(", ")
				}
				if err := render(fn, from.Element, x, &b); err != nil {
					return nil, err
				}
			}
			b.WriteByte(']')
			return b.String(), nil
		}
	case schema.Map:
		kfn, vfn := elem(from.Key), elem(from.Value)
		return func(v any) (any, error) {
			m, ok := v.(data.Map)
			if !ok || len(m.Keys) != len(m.Values) {
				return nil, badValue(v)
			}
			var b strings.Builder
			b.WriteByte('{')
			for i := range m.Keys {
				if i > 0 {
					b.WriteString(", ")
				}
				if err := render(kfn, from.Key, m.Keys[i], &b); err != nil {
					return nil, err
				}
				b.WriteString(" -> ")
				if err := render(vfn, from.Value, m.Values[i], &b); err != nil {
					return nil, err
				}
			}
			b.WriteByte('}')
			return b.String(), nil
		}
	case schema.Row:
		fns := make([]castFunc, len(from.Fields))
		for i := range from.Fields {
			fns[i] = elem(&from.Fields[i].Type)
		}
		return func(v any) (any, error) {
			vals, ok := v.([]any)
			if !ok || len(vals) != len(fns) {
				return nil, badValue(v)
			}
			var b strings.Builder
			b.WriteByte('{')
			for i, x := range vals {
				if i > 0 {
					b.WriteString(", ")
				}
				if err := render(fns[i], &from.Fields[i].Type, x, &b); err != nil {
					return nil, err
				}
			}
			b.WriteByte('}')
			return b.String(), nil
		}
	}
	return nil
}

// stringToBoolean mirrors BinaryStringUtils.toBoolean: t/true/y/yes/1 and
// f/false/n/no/0, case-insensitive, no trimming.
func stringToBoolean(v any) (any, error) {
	s, err := stringOf(v)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(s) {
	case "t", "true", "y", "yes", "1":
		return true, nil
	case "f", "false", "n", "no", "0":
		return false, nil
	}
	return nil, castErr("cannot parse '%s' as BOOLEAN", s)
}

// stringToDecimal mirrors StringToDecimalCastRule: new BigDecimal(s) (no
// whitespace allowed), HALF_UP to the scale, NULL on precision overflow.
func stringToDecimal(to schema.DataType) castFunc {
	return func(v any) (any, error) {
		s, err := stringOf(v)
		if err != nil {
			return nil, err
		}
		u, scale, err := parseBigDecimal(s)
		if err != nil {
			return nil, castErr("'%s' is not a decimal number", s)
		}
		out, ok := fromBigDecimal(u, scale, to.Precision, to.Scale)
		if !ok {
			return nil, nil
		}
		return out, nil
	}
}

// stringToNumeric mirrors StringToNumericPrimitiveCastRule: the integral
// parsers of BinaryStringUtils (no whitespace, a fractional part allowed and
// dropped, overflow rejected) and Float/Double.parseFloat/parseDouble.
func stringToNumeric(to schema.DataType) castFunc {
	root := to.Root
	return func(v any) (any, error) {
		s, err := stringOf(v)
		if err != nil {
			return nil, err
		}
		switch root {
		case schema.Float, schema.Double:
			bits := 64
			if root == schema.Float {
				bits = 32
			}
			f, err := parseJavaDouble(s, bits)
			if err != nil {
				return nil, castErr("for input string: '%s'", s)
			}
			if root == schema.Float {
				return float32(f), nil
			}
			return f, nil
		case schema.BigInt:
			n, err := javaParseLong(s)
			if err != nil {
				return nil, err
			}
			return n, nil
		}
		n, err := javaParseInt(s)
		if err != nil {
			return nil, err
		}
		switch root {
		case schema.TinyInt:
			if int32(int8(n)) != n {
				return nil, castErr("for input string: '%s'. Overflow.", s)
			}
			return int8(n), nil
		case schema.SmallInt:
			if int32(int16(n)) != n {
				return nil, castErr("for input string: '%s'. Overflow.", s)
			}
			return int16(n), nil
		}
		return n, nil
	}
}

// javaParseLong mirrors BinaryStringUtils.toLong: optional sign, ASCII
// digits, optionally '.' and more digits (ignored); no whitespace; overflow
// is an error.
func javaParseLong(s string) (int64, error) {
	v, err := parseIntegral(s, math.MinInt64)
	return v, err
}

// javaParseInt mirrors BinaryStringUtils.toInt.
func javaParseInt(s string) (int32, error) {
	v, err := parseIntegral(s, math.MinInt32)
	return int32(v), err
}

// parseIntegral accumulates negatively (so that the minimum value parses) and
// checks against min, the type's minimum value.
func parseIntegral(s string, min int64) (int64, error) {
	fail := func(reason string) (int64, error) {
		return 0, castErr("for input string: '%s'. %s", s, reason)
	}
	if len(s) == 0 {
		return fail("Input is empty.")
	}
	i := 0
	neg := s[0] == '-'
	if neg || s[0] == '+' {
		i++
		if len(s) == 1 {
			return fail("Input has only positive or negative symbol.")
		}
	}
	stop := min / 10
	var r int64
	for i < len(s) {
		c := s[i]
		i++
		if c == '.' {
			break
		}
		if !isASCIIDigit(c) {
			return fail("Invalid character found.")
		}
		if r < stop {
			return fail("Overflow.")
		}
		r = r*10 - int64(c-'0')
		// r > 0 catches the int64 wrap-around, r < min the int32 range.
		if r > 0 || r < min {
			return fail("Overflow.")
		}
	}
	for ; i < len(s); i++ {
		if !isASCIIDigit(s[i]) {
			return fail("Invalid character found.")
		}
	}
	if !neg {
		if r == min {
			return fail("Overflow.")
		}
		r = -r
	}
	return r, nil
}

package predicate

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// convert turns a Go literal into the value representation of field f's
// type (package data's table), the form Test and TestStats compare against.
// A nil literal stays nil (a SQL NULL literal, which never matches).
func convert(f schema.DataField, lit any) (any, error) {
	if lit == nil {
		return nil, nil
	}
	v, reason := convertValue(f.Type, lit)
	if reason == reasonUnsupported {
		// Not one of the column type's own Go types: an exact numeric
		// conversion or ISO-8601 text for a temporal column.
		if lv, lreason, ok := convertLoose(f.Type, lit); ok {
			v, reason = lv, lreason
		}
	}
	if reason != "" {
		return nil, fmt.Errorf("%w: field %q of type %s: literal %v (%T): %s",
			ErrTypeMismatch, f.Name, f.Type.Root, lit, lit, reason)
	}
	return v, nil
}

// reasonUnsupported is convertValue's reason for a literal whose Go type
// the column type does not take.
const reasonUnsupported = "unsupported literal type"

// convertValue returns the converted value or a non-empty reason.
func convertValue(t schema.DataType, lit any) (any, string) {
	switch x := lit.(type) {
	case numberLiteral:
		return convertNumber(t, x)
	case dateLiteral:
		return convertDate(t, x)
	}
	switch t.Root {
	case schema.Boolean:
		if b, ok := lit.(bool); ok {
			return b, ""
		}
	case schema.TinyInt:
		return intIn(lit, math.MinInt8, math.MaxInt8, func(i int64) any { return int8(i) })
	case schema.SmallInt:
		return intIn(lit, math.MinInt16, math.MaxInt16, func(i int64) any { return int16(i) })
	case schema.Int:
		return intIn(lit, math.MinInt32, math.MaxInt32, func(i int64) any { return int32(i) })
	case schema.BigInt:
		return intIn(lit, math.MinInt64, math.MaxInt64, func(i int64) any { return i })
	case schema.Float:
		switch x := lit.(type) {
		case float32:
			return x, ""
		case float64:
			if !math.IsInf(x, 0) && !math.IsNaN(x) && math.Abs(x) > math.MaxFloat32 {
				return nil, "out of FLOAT range"
			}
			return float32(x), ""
		}
	case schema.Double:
		switch x := lit.(type) {
		case float32:
			return float64(x), ""
		case float64:
			return x, ""
		}
	case schema.Decimal:
		return toDecimal(t, lit)
	case schema.Char, schema.VarChar:
		if s, ok := lit.(string); ok {
			return s, ""
		}
	case schema.Binary, schema.VarBinary:
		if b, ok := lit.([]byte); ok {
			return append([]byte{}, b...), ""
		}
	case schema.Date:
		if tm, ok := lit.(time.Time); ok {
			y, m, d := tm.Date()
			days := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
			if days < math.MinInt32 || days > math.MaxInt32 {
				return nil, "out of DATE range"
			}
			return int32(days), ""
		}
		return intIn(lit, math.MinInt32, math.MaxInt32, func(i int64) any { return int32(i) })
	case schema.Time:
		if d, ok := lit.(time.Duration); ok {
			lit = int64(d / time.Millisecond)
		}
		return intIn(lit, 0, 86_399_999, func(i int64) any { return int32(i) })
	case schema.Timestamp, schema.TimestampLTZ:
		switch x := lit.(type) {
		case data.Timestamp:
			if x.NanoOfMilli < 0 || x.NanoOfMilli > 999_999 {
				return nil, "NanoOfMilli out of range"
			}
			return x, ""
		case time.Time:
			if t.Root == schema.Timestamp {
				// TIMESTAMP WITHOUT TIME ZONE stores the wall clock read as
				// UTC, so keep the literal's wall clock, not its instant.
				y, mo, d := x.Date()
				h, mi, s := x.Clock()
				x = time.Date(y, mo, d, h, mi, s, x.Nanosecond(), time.UTC)
			}
			ms := x.UnixMilli()
			sub := x.Sub(time.UnixMilli(ms))
			return data.Timestamp{Millis: ms, NanoOfMilli: int32(sub)}, ""
		}
	}
	return nil, reasonUnsupported
}

// intIn converts any Go integer to the column's integer type after checking
// [lo, hi].
func intIn(lit any, lo, hi int64, mk func(int64) any) (any, string) {
	var v int64
	switch x := lit.(type) {
	case int:
		v = int64(x)
	case int8:
		v = int64(x)
	case int16:
		v = int64(x)
	case int32:
		v = int64(x)
	case int64:
		v = x
	case uint:
		if uint64(x) > math.MaxInt64 {
			return nil, "out of range"
		}
		v = int64(x)
	case uint8:
		v = int64(x)
	case uint16:
		v = int64(x)
	case uint32:
		v = int64(x)
	case uint64:
		if x > math.MaxInt64 {
			return nil, "out of range"
		}
		v = int64(x)
	default:
		return nil, reasonUnsupported
	}
	if v < lo || v > hi {
		return nil, fmt.Sprintf("out of range [%d, %d]", lo, hi)
	}
	return mk(v), ""
}

// toDecimal converts a string, data.Decimal, parsed number or Go integer into a Decimal of
// the column's precision and scale, refusing any rounding or overflow.
func toDecimal(t schema.DataType, lit any) (any, string) {
	var unscaled *big.Int
	var scale int
	switch x := lit.(type) {
	case data.Decimal:
		if x.Unscaled == nil {
			return nil, "nil unscaled value"
		}
		unscaled, scale = new(big.Int).Set(x.Unscaled), x.Scale
	case string:
		u, s, ok := parseDecimal(x)
		if !ok {
			return nil, "not a decimal number"
		}
		unscaled, scale = u, s
	case numberLiteral:
		// Exact rational arithmetic, so that 1.5e1 or 0.50 bind exactly.
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			return nil, "not a decimal number"
		}
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)))
		if !r.IsInt() {
			return nil, fmt.Sprintf("more than %d fraction digits", t.Scale)
		}
		unscaled, scale = new(big.Int).Set(r.Num()), t.Scale
	default:
		iv, reason := intIn(lit, math.MinInt64, math.MaxInt64, func(i int64) any { return i })
		if reason != "" {
			return nil, reason
		}
		unscaled = big.NewInt(iv.(int64))
	}
	ten := big.NewInt(10)
	for scale < t.Scale {
		unscaled.Mul(unscaled, ten)
		scale++
	}
	for scale > t.Scale {
		q, r := new(big.Int).QuoRem(unscaled, ten, new(big.Int))
		if r.Sign() != 0 {
			return nil, fmt.Sprintf("more than %d fraction digits", t.Scale)
		}
		unscaled = q
		scale--
	}
	if digits := len(new(big.Int).Abs(unscaled).String()); unscaled.Sign() != 0 && digits > t.Precision {
		return nil, fmt.Sprintf("needs more than precision %d", t.Precision)
	}
	return data.Decimal{Unscaled: unscaled, Precision: t.Precision, Scale: t.Scale}, ""
}

// parseDecimal parses [+-]digits[.digits] exactly (no exponent).
func parseDecimal(s string) (*big.Int, int, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" {
		return nil, 0, false
	}
	digits := intPart + frac
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return nil, 0, false
		}
	}
	u, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, 0, false
	}
	if neg {
		u.Neg(u)
	}
	return u, len(frac), true
}

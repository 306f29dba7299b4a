package evolution

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/data"
)

// This file holds the Java number conversions the casts depend on: the text
// of Float/Double.toString, the grammar of Double.parseDouble and of
// new BigDecimal(String), and Decimal.fromBigDecimal's HALF_UP rescaling.

var errNumberFormat = errors.New("NumberFormatException")

// javaDoubleString renders v as Java's Double.toString does (JDK 19+, the
// shortest-decimal algorithm of JDK-4511638). Older JDKs print a few values
// with more digits (e.g. 2.0E-3 as "0.0020").
func javaDoubleString(v float64) string { return javaFloatingString(v, 64) }

// javaFloatString renders v as Java's Float.toString does (JDK 19+).
func javaFloatString(v float32) string { return javaFloatingString(float64(v), 32) }

func javaFloatingString(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	neg := v < 0
	digits, exp := javaDigits(math.Abs(v), bits)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if exp >= -3 && exp < 7 {
		// Plain notation: 10^-3 <= |v| < 10^7.
		if exp >= 0 {
			intLen := exp + 1
			if len(digits) <= intLen {
				b.WriteString(digits)
				b.WriteString(strings.Repeat("0", intLen-len(digits)))
				b.WriteString(".0")
			} else {
				b.WriteString(digits[:intLen])
				b.WriteByte('.')
				b.WriteString(digits[intLen:])
			}
		} else {
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -exp-1))
			b.WriteString(digits)
		}
		return b.String()
	}
	// Computerized scientific notation: d.dddE[-]n.
	b.WriteByte(digits[0])
	b.WriteByte('.')
	if len(digits) > 1 {
		b.WriteString(digits[1:])
	} else {
		b.WriteByte('0')
	}
	b.WriteByte('E')
	b.WriteString(strconv.Itoa(exp))
	return b.String()
}

// javaDigits returns the significant digits Java selects for v > 0 and the
// decimal exponent of the first one (v ≈ d.ddd × 10^exp). Java picks the
// shortest decimal that rounds to v; when that has one digit it picks, among
// decimals of one or two digits, the one closest to v (which is why
// Double.MIN_VALUE prints as 4.9E-324).
func javaDigits(v float64, bits int) (string, int) {
	s := strconv.FormatFloat(v, 'e', -1, bits)
	mant, e, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(e)
	digits := strings.Replace(mant, ".", "", 1)
	if len(digits) != 1 || (v == math.Trunc(v) && v < 1e15) {
		// Several digits, or an integer (then the one digit is exact and no
		// two-digit decimal is closer).
		return digits, exp
	}
	exact := new(big.Rat).SetFloat64(v)
	// E is the decimal exponent of v itself: 10^E <= v < 10^(E+1).
	E := exp
	if exact.Cmp(pow10Rat(E)) < 0 {
		E--
	} else if exact.Cmp(pow10Rat(E+1)) >= 0 {
		E++
	}
	unit := pow10Rat(E - 1) // spacing of two-digit decimals at this exponent
	q := new(big.Rat).Quo(exact, unit)
	lo := new(big.Int).Quo(q.Num(), q.Denom())
	best, bestDist := "", (*big.Rat)(nil)
	bestEven := false
	for _, n := range []*big.Int{lo, new(big.Int).Add(lo, big.NewInt(1))} {
		cand := new(big.Rat).Mul(new(big.Rat).SetInt(n), unit)
		if !roundsTo(cand, v, bits) {
			continue
		}
		dist := new(big.Rat).Sub(cand, exact)
		dist.Abs(dist)
		even := n.Bit(0) == 0
		if bestDist == nil || dist.Cmp(bestDist) < 0 || (dist.Cmp(bestDist) == 0 && even && !bestEven) {
			best, bestDist, bestEven = n.String(), dist, even
		}
	}
	if best == "" {
		return digits, exp
	}
	// best has two digits (10..99) or is 100 (one digit at the next decade).
	cexp := E
	if len(best) == 3 {
		best = best[:2]
		cexp++
	}
	best = strings.TrimRight(best, "0")
	if best == "" {
		return digits, exp
	}
	return best, cexp
}

func roundsTo(r *big.Rat, v float64, bits int) bool {
	if bits == 32 {
		f, _ := r.Float32()
		return float64(f) == v
	}
	f, _ := r.Float64()
	return f == v
}

func pow10Rat(n int) *big.Rat {
	if n >= 0 {
		return new(big.Rat).SetInt(pow10Int(n))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), pow10Int(-n))
}

func pow10Int(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// javaTrim removes leading and trailing characters <= ' ', as String.trim.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// parseJavaDouble parses s with the grammar of Java's Double.parseDouble
// (bits 64) or Float.parseFloat (bits 32): surrounding whitespace trimmed,
// optional sign, "NaN", "Infinity", decimal or hexadecimal ("0x1.8p3")
// significands, an optional f/F/d/D suffix. Out-of-range values become
// infinities or zeros, as in Java.
func parseJavaDouble(s string, bits int) (float64, error) {
	t := javaTrim(s)
	if t == "" {
		return 0, errNumberFormat
	}
	sign := ""
	body := t
	if body[0] == '+' || body[0] == '-' {
		sign, body = body[:1], body[1:]
	}
	switch body {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		if sign == "-" {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	}
	if n := len(body); n > 0 {
		switch body[n-1] {
		case 'f', 'F', 'd', 'D':
			body = body[:n-1]
		}
	}
	var ok bool
	if len(body) >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X') {
		ok = validHexFloat(body[2:])
	} else {
		ok = validDecimalFloat(body)
	}
	if !ok {
		return 0, errNumberFormat
	}
	v, err := strconv.ParseFloat(sign+body, bits)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return v, nil
		}
		return 0, errNumberFormat
	}
	return v, nil
}

// validDecimalFloat checks digits [. digits] [e [sign] digits] with at least
// one significand digit.
func validDecimalFloat(s string) bool {
	i, nd := 0, 0
	for i < len(s) && isASCIIDigit(s[i]) {
		i++
		nd++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isASCIIDigit(s[i]) {
			i++
			nd++
		}
	}
	if nd == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ne := 0
		for i < len(s) && isASCIIDigit(s[i]) {
			i++
			ne++
		}
		if ne == 0 {
			return false
		}
	}
	return i == len(s)
}

// validHexFloat checks hexdigits [. hexdigits] p [sign] digits (after "0x"),
// with at least one hex digit; the binary exponent is mandatory in Java.
func validHexFloat(s string) bool {
	i, nd := 0, 0
	for i < len(s) && isHexDigit(s[i]) {
		i++
		nd++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isHexDigit(s[i]) {
			i++
			nd++
		}
	}
	if nd == 0 || i >= len(s) || (s[i] != 'p' && s[i] != 'P') {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	ne := 0
	for i < len(s) && isASCIIDigit(s[i]) {
		i++
		ne++
	}
	return ne > 0 && i == len(s)
}

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isASCIIDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// parseBigDecimal parses s as new java.math.BigDecimal(String) does: optional
// sign, digits with at most one '.', at least one digit, optional exponent
// e[sign]digits; no whitespace. It returns the unscaled value and the scale
// (value = unscaled × 10^-scale). Only ASCII digits are accepted (Java also
// takes other Unicode decimal digits).
func parseBigDecimal(s string) (*big.Int, int64, error) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var digits strings.Builder
	frac := int64(0)
	seenDot := false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIIDigit(c):
			digits.WriteByte(c)
			if seenDot {
				frac++
			}
		case c == '.' && !seenDot:
			seenDot = true
		default:
			goto exponent
		}
	}
exponent:
	if digits.Len() == 0 {
		return nil, 0, errNumberFormat
	}
	exp := int64(0)
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return nil, 0, errNumberFormat
		}
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return nil, 0, errNumberFormat
		}
		for ; i < len(s); i++ {
			if !isASCIIDigit(s[i]) {
				return nil, 0, errNumberFormat
			}
			exp = exp*10 + int64(s[i]-'0')
			if exp > math.MaxInt32+1 {
				return nil, 0, errNumberFormat
			}
		}
		if expNeg {
			exp = -exp
		}
		if exp > math.MaxInt32 || exp < math.MinInt32 {
			return nil, 0, errNumberFormat
		}
	}
	scale := frac - exp
	if scale > math.MaxInt32 || scale < math.MinInt32 {
		return nil, 0, errNumberFormat
	}
	u, ok := new(big.Int).SetString(digits.String(), 10)
	if !ok {
		return nil, 0, errNumberFormat
	}
	if neg {
		u.Neg(u)
	}
	return u, scale, nil
}

// numDigits returns the number of decimal digits of |u| (1 for zero), which
// is BigDecimal.precision() of an unscaled value.
func numDigits(u *big.Int) int {
	if u.Sign() == 0 {
		return 1
	}
	return len(new(big.Int).Abs(u).String())
}

// fromBigDecimal mirrors Java Decimal.fromBigDecimal: the exact value
// unscaled × 10^-scale is rounded HALF_UP to the target scale, and a result
// with more than precision digits is NULL (ok = false).
func fromBigDecimal(unscaled *big.Int, scale int64, precision, targetScale int) (data.Decimal, bool) {
	out := data.Decimal{Precision: precision, Scale: targetScale}
	if unscaled.Sign() == 0 {
		out.Unscaled = new(big.Int)
		return out, true
	}
	nd := int64(numDigits(unscaled))
	diff := int64(targetScale) - scale
	var r *big.Int
	switch {
	case diff >= 0:
		if nd+diff > int64(precision) {
			return data.Decimal{}, false
		}
		r = new(big.Int).Mul(unscaled, pow10Int(int(diff)))
	case -diff > nd:
		// |value| < 10^(nd - k) <= 0.1 units of the target scale: rounds to 0.
		out.Unscaled = new(big.Int)
		return out, true
	default:
		d := pow10Int(int(-diff))
		abs := new(big.Int).Abs(unscaled)
		q, rem := new(big.Int).QuoRem(abs, d, new(big.Int))
		if rem.Lsh(rem, 1).Cmp(d) >= 0 {
			q.Add(q, big.NewInt(1))
		}
		if unscaled.Sign() < 0 {
			q.Neg(q)
		}
		r = q
	}
	if numDigits(r) > precision {
		return data.Decimal{}, false
	}
	out.Unscaled = r
	return out, true
}

// decimalFromDouble mirrors DecimalUtils.castFrom(double, p, s), i.e.
// BigDecimal.valueOf(v) (the decimal Double.toString prints) rounded to the
// target. NaN and infinities throw in Java.
func decimalFromDouble(v float64, precision, scale int) (data.Decimal, bool, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return data.Decimal{}, false, errNumberFormat
	}
	u, sc, err := parseBigDecimal(javaDoubleString(v))
	if err != nil {
		return data.Decimal{}, false, err
	}
	d, ok := fromBigDecimal(u, sc, precision, scale)
	return d, ok, nil
}

// decimalToDouble mirrors DecimalUtils.doubleValue: a compact decimal
// (precision <= 18) divides its unscaled long by 10^scale in double
// arithmetic; a wider one converts exactly (BigDecimal.doubleValue).
func decimalToDouble(d data.Decimal) float64 {
	if d.Precision <= data.CompactDecimalMaxPrecision && d.Unscaled.IsInt64() && d.Scale >= 0 && d.Scale <= 18 {
		return float64(d.Unscaled.Int64()) / math.Pow10(d.Scale)
	}
	r := new(big.Rat).SetInt(d.Unscaled)
	if d.Scale > 0 {
		r.Quo(r, new(big.Rat).SetInt(pow10Int(d.Scale)))
	} else if d.Scale < 0 {
		r.Mul(r, new(big.Rat).SetInt(pow10Int(-d.Scale)))
	}
	f, _ := r.Float64()
	return f
}

// decimalToLong mirrors DecimalUtils.castToIntegral: truncate toward zero,
// then BigDecimal.longValue, which keeps the low 64 bits.
func decimalToLong(d data.Decimal) int64 {
	q := new(big.Int).Set(d.Unscaled)
	if d.Scale > 0 {
		q.Quo(q, pow10Int(d.Scale))
	} else if d.Scale < 0 {
		q.Mul(q, pow10Int(-d.Scale))
	}
	if q.IsInt64() {
		return q.Int64()
	}
	mask := new(big.Int).SetUint64(math.MaxUint64)
	return int64(new(big.Int).And(q, mask).Uint64())
}

// javaD2I is Java's double-to-int narrowing: NaN is 0, out-of-range values
// saturate, the rest truncate toward zero.
func javaD2I(v float64) int32 {
	switch {
	case math.IsNaN(v):
		return 0
	case v >= math.MaxInt32:
		return math.MaxInt32
	case v <= math.MinInt32:
		return math.MinInt32
	}
	return int32(v)
}

// javaD2L is Java's double-to-long narrowing.
func javaD2L(v float64) int64 {
	switch {
	case math.IsNaN(v):
		return 0
	case v >= 9.223372036854775807e18:
		return math.MaxInt64
	case v <= -9.223372036854775808e18:
		return math.MinInt64
	}
	return int64(v)
}

// longToFloat is Java's (float) long: one rounding to nearest-even, never a
// double rounding through float64.
func longToFloat(n int64) float32 {
	if n >= -(1<<24) && n <= 1<<24 {
		return float32(n)
	}
	f, _ := new(big.Float).SetInt64(n).Float32()
	return f
}

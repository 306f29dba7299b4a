package mergefunc

import (
	"math/big"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// sumAgg mirrors Java 1.4.2 FieldSumAgg. Integers wrap on overflow as Java's
// narrowing casts do (Java 2.0.0 throws instead); DECIMAL follows
// DecimalUtils.add/subtract: when both values are compact (precision <= 18)
// and the sum fits in a long, the unscaled sum is kept even beyond the
// declared precision; otherwise the exact sum is rounded HALF_UP to the
// scale and becomes NULL when it exceeds the precision.
type sumAgg struct {
	aggBase
	t schema.DataType
}

func newSumAgg(t schema.DataType, b aggBase, _ options) (fieldAgg, error) {
	if !t.Root.IsNumeric() {
		return nil, invalidf("data type for sum column %s must be 'NumericType' but was '%s'", b.field, t)
	}
	return &sumAgg{aggBase: b, t: t}, nil
}

func (a *sumAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	return arith(a.t, acc, in, opAdd)
}

// retract subtracts; with no accumulator the result is the negated input
// (and with no input the accumulator), as in Java.
func (a *sumAgg) retract(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return negate(a.t, in)
		}
		return acc, nil
	}
	return arith(a.t, acc, in, opSub)
}

// productAgg mirrors Java 1.4.2 FieldProductAgg: integers wrap; DECIMAL
// products are rounded HALF_UP to the accumulator's scale (NULL beyond its
// precision); retraction divides, and like Java's BigDecimal.divide it
// refuses a quotient with a non-terminating decimal expansion and a zero
// divisor.
type productAgg struct {
	aggBase
	t schema.DataType
}

func newProductAgg(t schema.DataType, b aggBase, _ options) (fieldAgg, error) {
	if !t.Root.IsNumeric() {
		return nil, invalidf("data type for product column %s must be 'NumericType' but was '%s'", b.field, t)
	}
	return &productAgg{aggBase: b, t: t}, nil
}

func (a *productAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	return arith(a.t, acc, in, opMul)
}

func (a *productAgg) retract(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return acc, nil
	}
	return arith(a.t, acc, in, opDiv)
}

type arithOp int

const (
	opAdd arithOp = iota
	opSub
	opMul
	opDiv
)

// intOp applies op with Java's wrapping integer semantics; Go's fixed-size
// integer arithmetic wraps the same way, and MinValue / -1 is MinValue in
// both. Division by zero throws in Java.
func intOp[T int8 | int16 | int32 | int64](x, y T, op arithOp) (any, error) {
	switch op {
	case opAdd:
		return x + y, nil
	case opSub:
		return x - y, nil
	case opMul:
		return x * y, nil
	}
	if y == 0 {
		return nil, mergeErrf("ArithmeticException: / by zero")
	}
	return x / y, nil
}

func arith(t schema.DataType, acc, in any, op arithOp) (any, error) {
	switch t.Root {
	case schema.TinyInt:
		x, y, err := pair[int8](t, acc, in)
		if err != nil {
			return nil, err
		}
		return intOp(x, y, op)
	case schema.SmallInt:
		x, y, err := pair[int16](t, acc, in)
		if err != nil {
			return nil, err
		}
		return intOp(x, y, op)
	case schema.Int:
		x, y, err := pair[int32](t, acc, in)
		if err != nil {
			return nil, err
		}
		return intOp(x, y, op)
	case schema.BigInt:
		x, y, err := pair[int64](t, acc, in)
		if err != nil {
			return nil, err
		}
		return intOp(x, y, op)
	case schema.Float:
		x, y, err := pair[float32](t, acc, in)
		if err != nil {
			return nil, err
		}
		// Explicit conversions keep every step rounded to float32 (no
		// fused operations).
		switch op {
		case opAdd:
			return float32(x + y), nil
		case opSub:
			return float32(x - y), nil
		case opMul:
			return float32(x * y), nil
		}
		return float32(x / y), nil
	case schema.Double:
		x, y, err := pair[float64](t, acc, in)
		if err != nil {
			return nil, err
		}
		switch op {
		case opAdd:
			return float64(x + y), nil
		case opSub:
			return float64(x - y), nil
		case opMul:
			return float64(x * y), nil
		}
		return float64(x / y), nil
	case schema.Decimal:
		x, err := decimalValue(t, acc)
		if err != nil {
			return nil, err
		}
		y, err := decimalValue(t, in)
		if err != nil {
			return nil, err
		}
		return decimalOp(x, y, op)
	}
	return nil, mergeErrf("type %s not supported in sum/product", t.Root)
}

// negate mirrors FieldSumAgg.negative.
func negate(t schema.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Root {
	case schema.TinyInt:
		if x, ok := v.(int8); ok {
			return -x, nil
		}
	case schema.SmallInt:
		if x, ok := v.(int16); ok {
			return -x, nil
		}
	case schema.Int:
		if x, ok := v.(int32); ok {
			return -x, nil
		}
	case schema.BigInt:
		if x, ok := v.(int64); ok {
			return -x, nil
		}
	case schema.Float:
		if x, ok := v.(float32); ok {
			return -x, nil
		}
	case schema.Double:
		if x, ok := v.(float64); ok {
			return -x, nil
		}
	case schema.Decimal:
		if d, ok := v.(data.Decimal); ok && d.Unscaled != nil {
			// Decimal.fromBigDecimal(negate, precision, scale): a value
			// wider than its precision becomes NULL.
			return toAny(fromBigDecimal(new(big.Int).Neg(d.Unscaled), d.Scale, d.Precision, d.Scale)), nil
		}
	default:
		return nil, mergeErrf("type %s not supported in sum", t.Root)
	}
	return nil, badValue(t, v)
}

// decimalOp applies op to two decimals with the accumulator's precision and
// scale, as Java's FieldSumAgg (DecimalUtils) and FieldProductAgg do. A nil
// result is NULL.
func decimalOp(x, y data.Decimal, op arithOp) (any, error) {
	p, s := x.Precision, x.Scale
	switch op {
	case opAdd, opSub:
		// DecimalUtils.add/subtract: the compact fast path keeps the exact
		// long result without a precision check.
		if x.IsCompact() && y.IsCompact() && x.Scale == y.Scale && p <= data.CompactDecimalMaxPrecision &&
			x.Unscaled.IsInt64() && y.Unscaled.IsInt64() {
			a, b := x.Unscaled.Int64(), y.Unscaled.Int64()
			var r int64
			var overflow bool
			if op == opAdd {
				r = a + b
				overflow = (a > 0 && b > 0 && r < 0) || (a < 0 && b < 0 && r >= 0)
			} else {
				r = a - b
				overflow = (a >= 0 && b < 0 && r < 0) || (a < 0 && b > 0 && r >= 0)
			}
			if !overflow {
				return data.NewDecimalFromInt64(r, p, s), nil
			}
		}
		xu, yu, sc := alignScales(x, y)
		if op == opAdd {
			return toAny(fromBigDecimal(new(big.Int).Add(xu, yu), sc, p, s)), nil
		}
		return toAny(fromBigDecimal(new(big.Int).Sub(xu, yu), sc, p, s)), nil
	case opMul:
		prod := new(big.Int).Mul(x.Unscaled, y.Unscaled)
		return toAny(fromBigDecimal(prod, x.Scale+y.Scale, p, s)), nil
	}
	// BigDecimal.divide(BigDecimal): exact quotient or an exception.
	if y.Unscaled.Sign() == 0 {
		if x.Unscaled.Sign() == 0 {
			return nil, mergeErrf("ArithmeticException: Division undefined")
		}
		return nil, mergeErrf("ArithmeticException: Division by zero")
	}
	// value = (xu / 10^xs) / (yu / 10^ys) = xu * 10^ys / (yu * 10^xs)
	num := new(big.Int).Mul(x.Unscaled, pow10(y.Scale))
	den := new(big.Int).Mul(y.Unscaled, pow10(x.Scale))
	q := new(big.Rat).SetFrac(num, den)
	if !terminates(q.Denom()) {
		return nil, mergeErrf("ArithmeticException: Non-terminating decimal expansion; no exact representable decimal result")
	}
	return toAny(fromRat(q, p, s)), nil
}

func toAny(d *data.Decimal) any {
	if d == nil {
		return nil
	}
	return *d
}

// alignScales returns both unscaled values at the larger scale.
func alignScales(x, y data.Decimal) (*big.Int, *big.Int, int) {
	xu, yu := new(big.Int).Set(x.Unscaled), new(big.Int).Set(y.Unscaled)
	switch {
	case x.Scale < y.Scale:
		xu.Mul(xu, pow10(y.Scale-x.Scale))
		return xu, yu, y.Scale
	case x.Scale > y.Scale:
		yu.Mul(yu, pow10(x.Scale-y.Scale))
	}
	return xu, yu, x.Scale
}

func pow10(n int) *big.Int {
	if n <= 0 {
		return big.NewInt(1)
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// terminates reports whether 1/den has a finite decimal expansion (den's
// only prime factors are 2 and 5).
func terminates(den *big.Int) bool {
	d := new(big.Int).Set(den)
	two, five := big.NewInt(2), big.NewInt(5)
	m := new(big.Int)
	for _, f := range []*big.Int{two, five} {
		for {
			q, r := new(big.Int).QuoRem(d, f, m)
			if r.Sign() != 0 {
				break
			}
			d = q
		}
	}
	return d.Cmp(big.NewInt(1)) == 0
}

// fromBigDecimal mirrors Decimal.fromBigDecimal for the value
// unscaled×10^-scale: round HALF_UP to the target scale, then NULL (nil) if
// the digits exceed the precision.
func fromBigDecimal(unscaled *big.Int, scale, precision, target int) *data.Decimal {
	return fromRat(new(big.Rat).SetFrac(unscaled, pow10(scale)), precision, target)
}

// fromRat rounds the exact value q HALF_UP (ties away from zero) to scale s
// and applies the precision check.
func fromRat(q *big.Rat, p, s int) *data.Decimal {
	// n = q * 10^s, rounded half away from zero.
	scaled := new(big.Rat).Mul(q, new(big.Rat).SetInt(pow10(s)))
	num, den := scaled.Num(), scaled.Denom()
	quo, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	if rem.Sign() != 0 {
		twice := new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2))
		if twice.Cmp(den) >= 0 {
			if num.Sign() < 0 {
				quo.Sub(quo, big.NewInt(1))
			} else {
				quo.Add(quo, big.NewInt(1))
			}
		}
	}
	if digits(quo) > p {
		return nil
	}
	return &data.Decimal{Unscaled: quo, Precision: p, Scale: s}
}

// digits is BigDecimal.precision of an unscaled value: its decimal digit
// count, 1 for zero.
func digits(x *big.Int) int {
	if x.Sign() == 0 {
		return 1
	}
	return len(new(big.Int).Abs(x).String())
}

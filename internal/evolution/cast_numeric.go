package evolution

import (
	"fmt"
	"math/big"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Numeric, decimal and boolean casts: NumericPrimitiveCastRule,
// DecimalToDecimalCastRule, NumericPrimitiveToDecimalCastRule,
// DecimalToNumericPrimitiveCastRule, BooleanToNumericCastRule and
// NumericToBooleanCastRule.

func badValue(v any) error { return fmt.Errorf("%w: unexpected Go value %T", ErrCast, v) }

// intOf returns the value of a TINYINT..BIGINT value.
func intOf(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// numericFromLong narrows a long the way Java's Number.xxxValue does on an
// integral box: two's complement truncation, or rounding to float/double.
func numericFromLong(n int64, to schema.TypeRoot) any {
	switch to {
	case schema.TinyInt:
		return int8(n)
	case schema.SmallInt:
		return int16(n)
	case schema.Int:
		return int32(n)
	case schema.BigInt:
		return n
	case schema.Float:
		return longToFloat(n)
	case schema.Double:
		return float64(n)
	}
	return nil
}

// numericFromDouble narrows a double the way Java's Number.xxxValue does on a
// Float/Double box: (byte)(int)d, (short)(int)d, saturating (int) and (long),
// round-to-nearest (float).
func numericFromDouble(d float64, to schema.TypeRoot) any {
	switch to {
	case schema.TinyInt:
		return int8(javaD2I(d))
	case schema.SmallInt:
		return int16(javaD2I(d))
	case schema.Int:
		return javaD2I(d)
	case schema.BigInt:
		return javaD2L(d)
	case schema.Float:
		return float32(d)
	case schema.Double:
		return d
	}
	return nil
}

// numericToNumeric mirrors NumericPrimitiveCastRule (Number::byteValue,
// shortValue, intValue, longValue, floatValue, doubleValue).
func numericToNumeric(to schema.DataType) castFunc {
	root := to.Root
	return func(v any) (any, error) {
		if n, ok := intOf(v); ok {
			return numericFromLong(n, root), nil
		}
		switch x := v.(type) {
		case float32:
			return numericFromDouble(float64(x), root), nil
		case float64:
			return numericFromDouble(x, root), nil
		}
		return nil, badValue(v)
	}
}

// decimalToDecimal mirrors DecimalUtils.castToDecimal: HALF_UP to the new
// scale, NULL when the new precision is too small.
func decimalToDecimal(to schema.DataType) castFunc {
	p, s := to.Precision, to.Scale
	return func(v any) (any, error) {
		d, ok := v.(data.Decimal)
		if !ok || d.Unscaled == nil {
			return nil, badValue(v)
		}
		out, ok := fromBigDecimal(d.Unscaled, int64(d.Scale), p, s)
		if !ok {
			return nil, nil
		}
		return out, nil
	}
}

// numericToDecimal mirrors NumericPrimitiveToDecimalCastRule: integers via
// BigDecimal.valueOf(long), FLOAT/DOUBLE via BigDecimal.valueOf(double) (the
// Double.toString digits of the widened value, so 0.1f becomes
// 0.10000000149011612 before rounding).
func numericToDecimal(from, to schema.DataType) castFunc {
	p, s := to.Precision, to.Scale
	if from.Root.IsIntegerNumeric() {
		return func(v any) (any, error) {
			n, ok := intOf(v)
			if !ok {
				return nil, badValue(v)
			}
			out, ok := fromBigDecimal(big.NewInt(n), 0, p, s)
			if !ok {
				return nil, nil
			}
			return out, nil
		}
	}
	return func(v any) (any, error) {
		var d float64
		switch x := v.(type) {
		case float32:
			d = float64(x)
		case float64:
			d = x
		default:
			return nil, badValue(v)
		}
		out, ok, err := decimalFromDouble(d, p, s)
		if err != nil {
			return nil, fmt.Errorf("%w: %s is not a decimal number", ErrCast, javaDoubleString(d))
		}
		if !ok {
			return nil, nil
		}
		return out, nil
	}
}

// decimalToNumeric mirrors DecimalToNumericPrimitiveCastRule: integral
// targets truncate toward zero and keep the low bits, FLOAT/DOUBLE go through
// DecimalUtils.doubleValue.
func decimalToNumeric(to schema.DataType) castFunc {
	root := to.Root
	return func(v any) (any, error) {
		d, ok := v.(data.Decimal)
		if !ok || d.Unscaled == nil {
			return nil, badValue(v)
		}
		switch root {
		case schema.Float:
			return float32(decimalToDouble(d)), nil
		case schema.Double:
			return decimalToDouble(d), nil
		}
		return numericFromLong(decimalToLong(d), root), nil
	}
}

// booleanToNumeric mirrors BooleanToNumericCastRule: true is 1, false 0.
func booleanToNumeric(to schema.DataType) castFunc {
	return func(v any) (any, error) {
		b, ok := v.(bool)
		if !ok {
			return nil, badValue(v)
		}
		n := int64(0)
		if b {
			n = 1
		}
		if to.Root == schema.Decimal {
			out, ok := fromBigDecimal(big.NewInt(n), 0, to.Precision, to.Scale)
			if !ok {
				return nil, nil
			}
			return out, nil
		}
		return numericFromLong(n, to.Root), nil
	}
}

// numericToBoolean mirrors NumericToBooleanCastRule (integral inputs only).
func numericToBoolean(v any) (any, error) {
	n, ok := intOf(v)
	if !ok {
		return nil, badValue(v)
	}
	return n != 0, nil
}

package binaryrow

import (
	"fmt"
	"math"
	"math/big"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// hiveDecimalMax is Hive's maximum decimal precision and scale (Java
// HiveHasher.HIVE_DECIMAL_MAX_PRECISION / _SCALE).
const hiveDecimalMax = 38

// HiveHash returns the Hive-compatible hash of a bucket key (Java
// HiveBucketFunction): starting from 0, h = 31*h + hiveHash(value) per field,
// where a NULL is 0 and
//
//	BOOLEAN                     1 or 0
//	TINYINT, SMALLINT, INT,
//	DATE, TIME                  the value as an int
//	BIGINT                      Java Long.hashCode: int(v ^ v>>>32)
//	FLOAT                       0 for ±0, else Float.floatToIntBits (NaN canonical)
//	DOUBLE                      0 for ±0, else Long.hashCode(Double.doubleToLongBits)
//	CHAR, VARCHAR, BINARY,
//	VARBINARY                   h = 31*h + b over the bytes, b signed
//	DECIMAL                     Java BigDecimal.hashCode of Hive's normalised
//	                            value (trailing zeros stripped, scale ≥ 0)
//
// Any other type with a non-NULL value (TIMESTAMP, BLOB, nested types, ...)
// is unsupported, as in Java, and returns an error wrapping ErrType.
func HiveHash(types []schema.DataType, values []any) (int32, error) {
	if len(types) != len(values) {
		return 0, fmt.Errorf("%w: %d values for %d types", ErrValue, len(values), len(types))
	}
	var h int32
	for i := range types {
		fh, err := hiveHashValue(&types[i], values[i])
		if err != nil {
			return 0, fmt.Errorf("field %d (%s): %w", i, rootName(types[i].Root), err)
		}
		h = 31*h + fh
	}
	return h, nil
}

func hiveHashValue(t *schema.DataType, v any) (int32, error) {
	if v == nil {
		return 0, nil
	}
	switch t.Root {
	case schema.Boolean:
		if b, ok := v.(bool); ok {
			if b {
				return 1, nil
			}
			return 0, nil
		}
	case schema.TinyInt:
		if x, ok := v.(int8); ok {
			return int32(x), nil
		}
	case schema.SmallInt:
		if x, ok := v.(int16); ok {
			return int32(x), nil
		}
	case schema.Int, schema.Date, schema.Time:
		if x, ok := v.(int32); ok {
			return x, nil
		}
	case schema.BigInt:
		if x, ok := v.(int64); ok {
			return javaLongHash(x), nil
		}
	case schema.Float:
		if x, ok := v.(float32); ok {
			switch {
			case x == 0: // Java: floatValue == -0.0f also matches +0.0f
				return 0, nil
			case x != x:
				return canonicalNaN32, nil
			}
			return int32(math.Float32bits(x)), nil
		}
	case schema.Double:
		if x, ok := v.(float64); ok {
			switch {
			case x == 0:
				return 0, nil
			case x != x:
				return javaLongHash(canonicalNaN64), nil
			}
			return javaLongHash(int64(math.Float64bits(x))), nil
		}
	case schema.Char, schema.VarChar, schema.Binary, schema.VarBinary:
		switch x := v.(type) {
		case string:
			return hiveHashBytes(x), nil
		case []byte:
			return hiveHashBytes(x), nil
		}
	case schema.Decimal:
		if d, ok := v.(data.Decimal); ok {
			// Java reads the value back from the key row, so it has the
			// column's scale and fits its precision.
			if err := checkDecimal(d, t); err != nil {
				return 0, err
			}
			return hiveDecimalHash(d.Unscaled, d.Scale)
		}
	default:
		return 0, fmt.Errorf("%w: %s is not supported by the hive bucket function", ErrType, rootName(t.Root))
	}
	return 0, mismatch(t, v)
}

// javaLongHash is Java Long.hashCode.
func javaLongHash(v int64) int32 { return int32(v ^ int64(uint64(v)>>32)) }

// hiveHashBytes is Java HiveHasher.hashBytes: Java bytes are signed.
func hiveHashBytes[T string | []byte](b T) int32 {
	var h int32
	for i := 0; i < len(b); i++ {
		h = 31*h + int32(int8(b[i]))
	}
	return h
}

var bigTen = big.NewInt(10)

// hiveDecimalHash is BigDecimal.hashCode of HiveHasher.normalizeDecimal:
// 31 * BigInteger.hashCode(unscaled) + scale after normalisation.
func hiveDecimalHash(unscaled *big.Int, scale int) (int32, error) {
	u, s := trimDecimal(new(big.Int).Set(unscaled), scale)
	intDigits := decimalDigits(u) - s
	if intDigits > hiveDecimalMax {
		// Java normalizeDecimal returns null and the hash call fails.
		return 0, fmt.Errorf("%w: decimal with %d integer digits exceeds Hive's maximum", ErrValue, intDigits)
	}
	maxScale := min(hiveDecimalMax, hiveDecimalMax-intDigits, s)
	if s > maxScale {
		u = roundHalfUp(u, s-maxScale)
		u, s = trimDecimal(u, maxScale)
	}
	return 31*javaBigIntegerHash(u) + int32(s), nil
}

// trimDecimal is HiveHasher.trimDecimal: zero becomes 0 with scale 0,
// otherwise trailing zeros are stripped and a negative scale is reset to 0.
func trimDecimal(u *big.Int, scale int) (*big.Int, int) {
	if u.Sign() == 0 {
		return u, 0
	}
	q, r := new(big.Int), new(big.Int)
	for {
		q.QuoRem(u, bigTen, r)
		if r.Sign() != 0 {
			break
		}
		u, q = q, u
		scale--
	}
	if scale < 0 {
		u.Mul(u, new(big.Int).Exp(bigTen, big.NewInt(int64(-scale)), nil))
		scale = 0
	}
	return u, scale
}

// decimalDigits is BigDecimal.precision of an unscaled value: its number of
// decimal digits, 1 for zero.
func decimalDigits(u *big.Int) int { return len(new(big.Int).Abs(u).String()) }

// roundHalfUp divides u by 10^drop rounding half away from zero (Java
// RoundingMode.HALF_UP).
func roundHalfUp(u *big.Int, drop int) *big.Int {
	div := new(big.Int).Exp(bigTen, big.NewInt(int64(drop)), nil)
	q, r := new(big.Int).QuoRem(u, div, new(big.Int))
	r.Abs(r).Lsh(r, 1)
	if r.Cmp(div) >= 0 {
		if u.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// javaBigIntegerHash is Java BigInteger.hashCode: over the magnitude's
// big-endian 32-bit words, h = 31*h + word, times the signum.
func javaBigIntegerHash(u *big.Int) int32 {
	mag := new(big.Int).Abs(u).Bytes()
	var h int32
	// The first word takes the leading len%4 bytes.
	first := len(mag) % 4
	if first == 0 {
		first = 4
	}
	for i := 0; i < len(mag); {
		end := i + 4
		if i == 0 {
			end = first
		}
		var w uint32
		for _, c := range mag[i:min(end, len(mag))] {
			w = w<<8 | uint32(c)
		}
		h = 31*h + int32(w)
		i = end
	}
	return h * int32(u.Sign())
}

package binaryrow

import (
	"fmt"
	"math/big"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// maxDecimalBytes is the space a non-compact DECIMAL reserves in the
// variable part: enough for any 38-digit unscaled value (Java
// AbstractBinaryWriter.writeDecimal).
const maxDecimalBytes = 16

// pow10Int64[i] = 10^i for the compact range.
var pow10Int64 = func() (t [data.CompactDecimalMaxPrecision + 1]int64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()

// pow10Big[i] = 10^i up to the largest DECIMAL precision.
var pow10Big = func() (t [schema.MaxDecimalPrecision + 1]*big.Int) {
	ten := big.NewInt(10)
	t[0] = big.NewInt(1)
	for i := 1; i < len(t); i++ {
		t[i] = new(big.Int).Mul(t[i-1], ten)
	}
	return t
}()

// compactFits reports whether u has at most precision digits.
func compactFits(u int64, precision int) bool {
	if precision < 0 || precision >= len(pow10Int64) {
		return precision >= len(pow10Int64)
	}
	lim := pow10Int64[precision]
	return u > -lim && u < lim
}

// bigFits reports whether u has at most precision digits. Precisions above
// the Paimon maximum are not checked (the 16-byte limit still applies).
func bigFits(u *big.Int, precision int) bool {
	if precision < 0 {
		return false
	}
	if precision >= len(pow10Big) {
		return true
	}
	return u.CmpAbs(pow10Big[precision]) < 0
}

// checkDecimal validates a value against its DECIMAL type: the scale must be
// the column's (Java asserts value.precision == precision and stores no
// scale) and the unscaled value must fit the precision.
func checkDecimal(d data.Decimal, t *schema.DataType) error {
	if d.Unscaled == nil {
		return fmt.Errorf("%w: decimal with nil unscaled value", ErrValue)
	}
	if d.Scale != t.Scale {
		return fmt.Errorf("%w: decimal scale %d for DECIMAL(%d, %d)", ErrValue, d.Scale, t.Precision, t.Scale)
	}
	if !bigFits(d.Unscaled, t.Precision) {
		return fmt.Errorf("%w: decimal %s exceeds DECIMAL(%d, %d)", ErrValue, d, t.Precision, t.Scale)
	}
	return nil
}

// putUnscaledBytes writes u as the minimal big-endian two's-complement
// bytes Java BigInteger.toByteArray produces into dst (which has room for
// maxDecimalBytes) and returns their count.
func putUnscaledBytes(dst []byte, u *big.Int) (int, error) {
	if u.Sign() >= 0 {
		n := u.BitLen()/8 + 1
		if n > len(dst) {
			return 0, fmt.Errorf("%w: decimal unscaled value needs %d bytes", ErrValue, n)
		}
		u.FillBytes(dst[:n])
		return n, nil
	}
	// For u < 0, -u-1 (= NOT u) has the same minimal width, and the
	// two's-complement bytes of u are the inverted bytes of -u-1.
	m := new(big.Int).Not(u)
	n := m.BitLen()/8 + 1
	if n > len(dst) {
		return 0, fmt.Errorf("%w: decimal unscaled value needs %d bytes", ErrValue, n)
	}
	m.FillBytes(dst[:n])
	for i := range dst[:n] {
		dst[i] = ^dst[i]
	}
	return n, nil
}

// unscaledFromBytes parses big-endian two's-complement bytes (Java new
// BigInteger(byte[])). b must not be empty.
func unscaledFromBytes(b []byte) *big.Int {
	if b[0]&0x80 == 0 {
		return new(big.Int).SetBytes(b)
	}
	inv := make([]byte, len(b))
	for i, c := range b {
		inv[i] = ^c
	}
	m := new(big.Int).SetBytes(inv)
	return m.Not(m)
}

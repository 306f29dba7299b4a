package predicate

import (
	"bytes"
	"math"

	"github.com/paimon-go/paimon-go/format/data"
)

// compare orders two values of the same column the way Java's
// CompareUtils.compareLiteral does (Comparable.compareTo, or a signed byte
// comparison for byte[]). ok is false when the dynamic types differ or are
// not comparable, which only happens with malformed input.
func compare(a, b any) (c int, ok bool) {
	switch x := a.(type) {
	case bool:
		y, ok := b.(bool)
		if !ok {
			return 0, false
		}
		switch {
		case x == y:
			return 0, true
		case !x:
			return -1, true
		}
		return 1, true
	case int8:
		y, ok := b.(int8)
		return cmpOrdered(x, y), ok
	case int16:
		y, ok := b.(int16)
		return cmpOrdered(x, y), ok
	case int32:
		y, ok := b.(int32)
		return cmpOrdered(x, y), ok
	case int64:
		y, ok := b.(int64)
		return cmpOrdered(x, y), ok
	case float32:
		y, ok := b.(float32)
		return cmpFloat(float64(x), float64(y)), ok
	case float64:
		y, ok := b.(float64)
		return cmpFloat(x, y), ok
	case string:
		// Go compares strings bytewise, unsigned: Java BinaryString order.
		y, ok := b.(string)
		return cmpOrdered(x, y), ok
	case []byte:
		y, ok := b.([]byte)
		return cmpSignedBytes(x, y), ok
	case data.Decimal:
		y, ok := b.(data.Decimal)
		if !ok || x.Unscaled == nil || y.Unscaled == nil {
			return 0, false
		}
		return x.Cmp(y), true
	case data.Timestamp:
		y, ok := b.(data.Timestamp)
		return x.Compare(y), ok
	}
	return 0, false
}

func cmpOrdered[T int8 | int16 | int32 | int64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpFloat is Java's Double.compare: numeric order, then -0.0 < 0.0, and
// NaN equal to itself and greater than everything else. Float.compare gives
// the same order on widened float32 values.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	// Equal numerically: only ±0 differ, negative zero first.
	as, bs := math.Signbit(a), math.Signbit(b)
	switch {
	case as == bs:
		return 0
	case as:
		return -1
	}
	return 1
}

// cmpSignedBytes mirrors Java CompareUtils.compare(byte[], byte[]): bytes
// compared as signed Java bytes, then the shorter array first.
func cmpSignedBytes(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if c := cmpOrdered(int8(a[i]), int8(b[i])); c != 0 {
			return c
		}
	}
	return cmpOrdered(int64(len(a)), int64(len(b)))
}

// hasPrefix is Java BinaryString.startsWith on UTF-8 bytes.
func hasPrefix(s, prefix string) bool {
	return len(s) >= len(prefix) && bytes.Equal([]byte(s[:len(prefix)]), []byte(prefix))
}

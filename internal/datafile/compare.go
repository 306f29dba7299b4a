package datafile

import (
	"cmp"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/format/data"
)

// The orders below are the ones Java applies to statistics. parquet-java's
// column statistics and the compareTo of Paimon's internal value classes
// (Boolean, Byte ... Long, Float, Double, Decimal, BinaryString, Timestamp)
// agree on every type both cover: signed integers, false < true,
// Float.compare / Double.compare for floating point (-0.0 < +0.0, NaN equal
// to itself and above +Inf), decimals by value, and strings by their UTF-8
// bytes read unsigned (which is Go's string order).

// javaFloatCompare is Java's Double.compare (and, on float32 values widened
// exactly, Float.compare).
func javaFloatCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	ab, bb := javaBits(a), javaBits(b)
	switch {
	case ab == bb:
		return 0
	case ab < bb:
		return -1
	}
	return 1
}

// javaBits is Double.doubleToLongBits: the bits with every NaN collapsed to
// the canonical one, read as a signed number.
func javaBits(f float64) int64 {
	if math.IsNaN(f) {
		return 0x7ff8000000000000
	}
	return int64(math.Float64bits(f))
}

func f32Compare(a, b float32) int        { return javaFloatCompare(float64(a), float64(b)) }
func decCompare(a, b decimal128.Num) int { return a.Cmp(b) }
func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// accumulator tracks min and max under a comparator; on ties the first value
// seen stays, as in Java's collectors.
type accumulator[T any] struct {
	has      bool
	min, max T
}

func (a *accumulator[T]) add(v T, compare func(a, b T) int) {
	if !a.has {
		a.has, a.min, a.max = true, v, v
		return
	}
	if compare(v, a.min) < 0 {
		a.min = v
	}
	if compare(v, a.max) > 0 {
		a.max = v
	}
}

// javaCompare orders two non-null format/data values as their Java
// internal classes' compareTo does. ok is false when a is not Comparable in
// Java (BINARY's byte[], nested values) or b is not of a's Go type.
func javaCompare(a, b any) (c int, ok bool) {
	switch x := a.(type) {
	case bool:
		return compareAs(x, b, boolCompare)
	case int8:
		return compareAs(x, b, cmp.Compare[int8])
	case int16:
		return compareAs(x, b, cmp.Compare[int16])
	case int32:
		return compareAs(x, b, cmp.Compare[int32])
	case int64:
		return compareAs(x, b, cmp.Compare[int64])
	case float32:
		return compareAs(x, b, f32Compare)
	case float64:
		return compareAs(x, b, javaFloatCompare)
	case string:
		return compareAs(x, b, strings.Compare)
	case data.Decimal:
		return compareAs(x, b, data.Decimal.Cmp)
	case data.Timestamp:
		return compareAs(x, b, func(x, y data.Timestamp) int {
			if c := cmp.Compare(x.Millis, y.Millis); c != 0 {
				return c
			}
			return cmp.Compare(x.NanoOfMilli, y.NanoOfMilli)
		})
	}
	return 0, false
}

func compareAs[T any](a T, b any, compare func(a, b T) int) (int, bool) {
	y, ok := b.(T)
	if !ok {
		return 0, false
	}
	return compare(a, y), true
}

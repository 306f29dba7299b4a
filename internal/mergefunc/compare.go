package mergefunc

import (
	"cmp"
	"strings"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// rowUtilsCompare mirrors Java InternalRowUtils.compare for two non-null
// values: floats use Float.compare/Double.compare (-0.0 < 0.0, NaN above
// everything), strings and byte strings compare unsigned bytes.
func rowUtilsCompare(t schema.DataType, a, b any) (int, error) {
	switch t.Root {
	case schema.Decimal:
		x, err := decimalValue(t, a)
		if err != nil {
			return 0, err
		}
		y, err := decimalValue(t, b)
		if err != nil {
			return 0, err
		}
		return x.Cmp(y), nil
	case schema.TinyInt:
		x, y, err := pair[int8](t, a, b)
		return cmp.Compare(x, y), err
	case schema.SmallInt:
		x, y, err := pair[int16](t, a, b)
		return cmp.Compare(x, y), err
	case schema.Int, schema.Date, schema.Time:
		x, y, err := pair[int32](t, a, b)
		return cmp.Compare(x, y), err
	case schema.BigInt:
		x, y, err := pair[int64](t, a, b)
		return cmp.Compare(x, y), err
	case schema.Float:
		x, y, err := pair[float32](t, a, b)
		return javaFloatCompare(float64(x), float64(y), javaFloatBits(x) == javaFloatBits(y)), err
	case schema.Double:
		x, y, err := pair[float64](t, a, b)
		return javaFloatCompare(x, y, javaDoubleBits(x) == javaDoubleBits(y)), err
	case schema.Timestamp, schema.TimestampLTZ:
		x, y, err := pair[data.Timestamp](t, a, b)
		return x.Compare(y), err
	case schema.Binary, schema.VarBinary:
		x, y, err := pair[[]byte](t, a, b)
		return unsignedBytesCompare(x, y), err
	case schema.Char, schema.VarChar:
		x, y, err := pair[string](t, a, b)
		return strings.Compare(x, y), err
	}
	return 0, mergeErrf("Incomparable type: %s", t.Root)
}

// javaFloatCompare is Float.compare / Double.compare: numeric order, then
// -0.0 below 0.0 and NaN above everything (all NaNs equal). sameBits is
// whether the canonical bits are equal.
func javaFloatCompare(x, y float64, sameBits bool) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case sameBits:
		return 0
	}
	// Equal by value but different bits (±0), or at least one NaN.
	xNaN, yNaN := x != x, y != y
	switch {
	case xNaN && !yNaN:
		return 1
	case yNaN && !xNaN:
		return -1
	case xNaN && yNaN:
		return 0
	}
	// -0.0 vs 0.0: the negative zero is smaller.
	if isNegZero(x) {
		return -1
	}
	return 1
}

func isNegZero(f float64) bool { return f == 0 && 1/f < 0 }

// genComparable reports whether a generated RecordComparator
// (GenerateUtils.generateCompare) can compare values of t with this
// package: the atomic types. Nested types are refused (ErrUnsupported).
func genComparable(t schema.DataType) bool {
	switch t.Root {
	case schema.Char, schema.VarChar, schema.Decimal, schema.Timestamp, schema.TimestampLTZ,
		schema.Boolean, schema.Binary, schema.VarBinary, schema.TinyInt, schema.SmallInt,
		schema.Int, schema.BigInt, schema.Float, schema.Double, schema.Date, schema.Time:
		return true
	}
	return false
}

// genCompare compares two non-null values as a generated RecordComparator
// does: numbers with < and > (so NaN compares equal to everything and -0.0
// equals 0.0), strings and byte strings by unsigned bytes, booleans with
// false first.
func genCompare(t schema.DataType, a, b any) (int, error) {
	switch t.Root {
	case schema.Boolean:
		x, y, err := pair[bool](t, a, b)
		switch {
		case x == y:
			return 0, err
		case x:
			return 1, err
		}
		return -1, err
	case schema.Float:
		x, y, err := pair[float32](t, a, b)
		return ltgt(x, y), err
	case schema.Double:
		x, y, err := pair[float64](t, a, b)
		return ltgt(x, y), err
	}
	return rowUtilsCompare(t, a, b)
}

func ltgt[T int8 | int16 | int32 | int64 | float32 | float64](x, y T) int {
	switch {
	case x > y:
		return 1
	case x < y:
		return -1
	}
	return 0
}

// seqComparator is a generated RecordComparator over some fields of a row
// (Java UserDefinedSeqComparator): fields in order, NULL before any value
// whatever the direction, and for a descending order the non-null
// comparisons negated.
type seqComparator struct {
	fields     []int
	types      []schema.DataType
	descending bool
}

func (c *seqComparator) compare(a, b []any) (int, error) {
	for k, i := range c.fields {
		x, y := a[i], b[i]
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			return -1, nil
		case y == nil:
			return 1, nil
		}
		r, err := genCompare(c.types[k], x, y)
		if err != nil {
			return 0, err
		}
		if r != 0 {
			if c.descending {
				return -r, nil
			}
			return r, nil
		}
	}
	return 0, nil
}

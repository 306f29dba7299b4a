package evolution

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
)

// castNode applies one of Java's cast rules to every non-null value of a
// column (Java's CastFieldGetter: NULL stays NULL without calling the cast).
type castNode struct {
	from, to schema.DataType
	target   arrow.DataType
	fn       castFunc
}

func (n *castNode) apply(src arrow.Array, mem memory.Allocator) (out arrow.Array, err error) {
	if out, ok := widenDecimalFast(src, n.from, n.to, n.target, mem); ok {
		return out, nil
	}
	b := array.NewBuilder(mem, n.target)
	defer b.Release()
	b.Reserve(src.Len())
	if !castNumericFast(src, n.from.Root, n.to.Root, b) {
		for i := 0; i < src.Len(); i++ {
			if src.IsNull(i) {
				b.AppendNull()
				continue
			}
			v, err := parquet.ArrowValueView(src, i, n.from)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrBatch, err)
			}
			r, err := n.fn(v)
			if err != nil {
				return nil, err
			}
			if r == nil {
				b.AppendNull() // e.g. a decimal that no longer fits
				continue
			}
			// n.target is schema.ToArrowType(n.to), the builder AppendValue expects.
			if err := arrowrow.AppendValue(b, n.to, r); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrCast, err)
			}
		}
	}
	return b.NewArray(), nil
}

// castNumericFast handles NumericPrimitiveCastRule (TINYINT..DOUBLE to
// TINYINT..DOUBLE) without boxing every value; it reports false for other
// pairs.
func castNumericFast(src arrow.Array, from, to schema.TypeRoot, b array.Builder) bool {
	if !isPrimitiveNumeric(from) || !isPrimitiveNumeric(to) {
		return false
	}
	var li func(int) int64
	var lf func(int) float64
	switch a := src.(type) {
	case *array.Int8:
		li = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int16:
		li = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int32:
		li = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int64:
		li = a.Value
	case *array.Float32:
		lf = func(i int) float64 { return float64(a.Value(i)) }
	case *array.Float64:
		lf = a.Value
	default:
		return false
	}
	var put func(int)
	switch bb := b.(type) {
	case *array.Int8Builder:
		if li != nil {
			put = func(i int) { bb.Append(int8(li(i))) }
		} else {
			put = func(i int) { bb.Append(int8(javaD2I(lf(i)))) }
		}
	case *array.Int16Builder:
		if li != nil {
			put = func(i int) { bb.Append(int16(li(i))) }
		} else {
			put = func(i int) { bb.Append(int16(javaD2I(lf(i)))) }
		}
	case *array.Int32Builder:
		if li != nil {
			put = func(i int) { bb.Append(int32(li(i))) }
		} else {
			put = func(i int) { bb.Append(javaD2I(lf(i))) }
		}
	case *array.Int64Builder:
		if li != nil {
			put = func(i int) { bb.Append(li(i)) }
		} else {
			put = func(i int) { bb.Append(javaD2L(lf(i))) }
		}
	case *array.Float32Builder:
		if li != nil {
			put = func(i int) { bb.Append(longToFloat(li(i))) }
		} else {
			put = func(i int) { bb.Append(float32(lf(i))) }
		}
	case *array.Float64Builder:
		if li != nil {
			put = func(i int) { bb.Append(float64(li(i))) }
		} else {
			put = func(i int) { bb.Append(lf(i)) }
		}
	default:
		return false
	}
	for i := 0; i < src.Len(); i++ {
		if src.IsNull(i) {
			b.AppendNull()
		} else {
			put(i)
		}
	}
	return true
}

func isPrimitiveNumeric(r schema.TypeRoot) bool {
	return r.IsIntegerNumeric() || r == schema.Float || r == schema.Double
}

// widenDecimalFast handles the DECIMAL changes that can neither round nor
// overflow (the scale does not shrink and the integer digits do not shrink),
// where Java's HALF_UP rescaling is an exact multiplication: the same
// unscaled values are relabelled when the scale is unchanged, multiplied by
// a power of ten otherwise.
func widenDecimalFast(src arrow.Array, from, to schema.DataType, target arrow.DataType, mem memory.Allocator) (arrow.Array, bool) {
	if from.Root != schema.Decimal || to.Root != schema.Decimal || to.Scale < from.Scale ||
		to.Precision-to.Scale < from.Precision-from.Scale {
		return nil, false
	}
	da, ok := src.(*array.Decimal128)
	if !ok {
		return nil, false
	}
	if to.Scale == from.Scale {
		sd := da.Data()
		d := array.NewData(target, sd.Len(), sd.Buffers(), nil, sd.NullN(), sd.Offset())
		defer d.Release()
		return array.MakeFromData(d), true
	}
	b := array.NewDecimal128Builder(mem, target.(*arrow.Decimal128Type))
	defer b.Release()
	b.Reserve(da.Len())
	k := int32(to.Scale - from.Scale)
	for i := 0; i < da.Len(); i++ {
		if da.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(da.Value(i).IncreaseScaleBy(k))
		}
	}
	return b.NewArray(), true
}

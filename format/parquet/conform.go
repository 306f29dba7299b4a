package parquet

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// conform returns src (a new reference) with exactly the target type. Most
// columns only need relabelling (same buffers, the target's field names,
// nullability, ids and time zone); a few need their values rewritten because
// the writer chose another physical representation than the one
// schema.ToArrowType promises (e.g. INT32 without an INT(8) annotation for
// TINYINT, microsecond timestamps for TIMESTAMP(3)).
func conform(src arrow.Array, target arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	d, err := conformData(src, target, mem)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

// relabel gives the buffers of src the type target, with the given children.
func relabel(src arrow.ArrayData, target arrow.DataType, children []arrow.ArrayData) arrow.ArrayData {
	return array.NewData(target, src.Len(), src.Buffers(), children, src.NullN(), src.Offset())
}

func conformData(src arrow.Array, target arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
	sd := src.Data()
	st := src.DataType()
	mismatch := func() (arrow.ArrayData, error) {
		return nil, fmt.Errorf("cannot read %s as %s", st, target)
	}
	switch tt := target.(type) {
	case *arrow.StructType:
		sa, ok := src.(*array.Struct)
		if !ok {
			return mismatch()
		}
		return conformStruct(sa, tt, mem)
	case *arrow.ListType:
		sa, ok := src.(*array.List)
		if !ok || st.ID() != arrow.LIST {
			return mismatch()
		}
		child, err := conformData(sa.ListValues(), tt.Elem(), mem)
		if err != nil {
			return nil, err
		}
		defer child.Release()
		return relabel(sd, target, []arrow.ArrayData{child}), nil
	case *arrow.MapType:
		sa, ok := src.(*array.Map)
		if !ok {
			return mismatch()
		}
		entries, ok := sa.ListValues().(*array.Struct)
		if !ok {
			return mismatch()
		}
		child, err := conformStruct(entries, tt.Elem().(*arrow.StructType), mem)
		if err != nil {
			return nil, err
		}
		defer child.Release()
		return relabel(sd, target, []arrow.ArrayData{child}), nil
	case *arrow.FixedSizeListType:
		return conformFixedSizeList(src, tt, mem)
	case *arrow.TimestampType:
		if isInt96Raw(st) {
			return decodeInt96(sd, tt, mem)
		}
		sts, ok := st.(*arrow.TimestampType)
		if !ok {
			return mismatch()
		}
		if sts.Unit == tt.Unit {
			return relabel(sd, target, nil), nil
		}
		return rescaleTimestamps(src.(*array.Timestamp), sts.Unit, tt, mem)
	case *arrow.Decimal128Type:
		sdt, ok := st.(*arrow.Decimal128Type)
		if !ok || sdt.Scale != tt.Scale {
			return mismatch()
		}
		return relabel(sd, target, nil), nil
	}
	switch target.ID() {
	case arrow.INT8, arrow.INT16:
		if st.ID() == target.ID() {
			return relabel(sd, target, nil), nil
		}
		if st.ID() != arrow.INT32 {
			return mismatch()
		}
		return narrowInt32(src.(*array.Int32), target, mem)
	case arrow.STRING, arrow.BINARY:
		if st.ID() != arrow.STRING && st.ID() != arrow.BINARY {
			return mismatch()
		}
		return relabel(sd, target, nil), nil
	case arrow.LARGE_BINARY:
		return widenBinary(src, mem)
	case arrow.DATE32:
		if st.ID() != arrow.DATE32 && st.ID() != arrow.INT32 {
			return mismatch()
		}
		return relabel(sd, target, nil), nil
	case arrow.TIME32:
		switch st := st.(type) {
		case *arrow.Time32Type:
			if st.Unit == arrow.Millisecond {
				return relabel(sd, target, nil), nil
			}
		case *arrow.Time64Type:
			return time64ToMillis(src.(*array.Time64), st.Unit, mem)
		}
		if st.ID() == arrow.INT32 {
			return relabel(sd, target, nil), nil
		}
		return mismatch()
	}
	if arrow.TypeEqual(st, target) {
		return relabel(sd, target, nil), nil
	}
	return mismatch()
}

// conformStruct matches the target's fields to the source's by field id,
// then by name, then by position when both sides have the same width (map
// entries and VARIANT groups, whose children Java names by convention).
func conformStruct(src *array.Struct, tt *arrow.StructType, mem memory.Allocator) (arrow.ArrayData, error) {
	sst := src.DataType().(*arrow.StructType)
	if isVariantTarget(tt) && isShreddedGroup(sst) {
		return rebuildShredded(src, tt, mem)
	}
	byID := map[int]int{}
	byName := map[string]int{}
	for i, f := range sst.Fields() {
		if id, ok := fieldIDOf(&f); ok {
			byID[id] = i
		}
		byName[f.Name] = i
	}
	children := make([]arrow.ArrayData, tt.NumFields())
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	variant := isVariantTarget(tt)
	for i, f := range tt.Fields() {
		j, ok := -1, false
		if id, has := fieldIDOf(&f); has && !variant {
			j, ok = byID[id]
		}
		if !ok {
			j, ok = byName[f.Name]
		}
		if !ok && sst.NumFields() == tt.NumFields() {
			j, ok = i, true
		}
		if !ok {
			return nil, fmt.Errorf("nested field %q not in file", f.Name)
		}
		c, err := conformData(src.Field(j), f.Type, mem)
		if err != nil {
			return nil, fmt.Errorf("nested field %q: %w", f.Name, err)
		}
		children[i] = c
	}
	return relabel(src.Data(), tt, children), nil
}

// isVariantTarget recognizes VARIANT's struct (schema.ToArrowType): value
// then metadata. Its children are matched by name only: Java's unshredded
// group numbers them value 0, metadata 1, but a shredded group (Java
// PaimonShreddingUtils.variantShreddingSchema, a row type) numbers them
// metadata 0, value 1, typed_value 2, so ids would swap value and metadata.
func isVariantTarget(tt *arrow.StructType) bool {
	return tt.NumFields() == 2 && tt.Field(0).Name == variantValue && tt.Field(1).Name == variantMetadata &&
		tt.Field(0).Type.ID() == arrow.BINARY && tt.Field(1).Type.ID() == arrow.BINARY
}

// conformFixedSizeList turns a Parquet LIST into VECTOR's fixed-size list,
// checking every non-null list has the declared length.
func conformFixedSizeList(src arrow.Array, tt *arrow.FixedSizeListType, mem memory.Allocator) (arrow.ArrayData, error) {
	sa, ok := src.(*array.List)
	if !ok {
		return nil, fmt.Errorf("cannot read %s as %s", src.DataType(), tt)
	}
	n := int(tt.Len())
	b := array.NewFixedSizeListBuilderWithField(mem, tt.Len(), tt.ElemField())
	defer b.Release()
	values := sa.ListValues()
	for i := 0; i < sa.Len(); i++ {
		if sa.IsNull(i) {
			b.AppendNull()
			continue
		}
		start, end := sa.ValueOffsets(i)
		if int(end-start) != n {
			return nil, fmt.Errorf("%w: vector of length %d, want %d", ErrCorrupt, end-start, n)
		}
		b.Append(true)
		vb := b.ValueBuilder()
		for k := start; k < end; k++ {
			if err := appendValue(vb, values, int(k)); err != nil {
				return nil, err
			}
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	elem, err := conformData(arr.(*array.FixedSizeList).ListValues(), tt.Elem(), mem)
	if err != nil {
		return nil, err
	}
	defer elem.Release()
	return relabel(arr.Data(), tt, []arrow.ArrayData{elem}), nil
}

// appendValue copies one primitive cell; VECTOR elements are primitives.
func appendValue(b array.Builder, src arrow.Array, i int) error {
	if src.IsNull(i) {
		b.AppendNull()
		return nil
	}
	switch s := src.(type) {
	case *array.Boolean:
		b.(*array.BooleanBuilder).Append(s.Value(i))
	case *array.Int8:
		b.(*array.Int8Builder).Append(s.Value(i))
	case *array.Int16:
		b.(*array.Int16Builder).Append(s.Value(i))
	case *array.Int32:
		switch vb := b.(type) {
		case *array.Int32Builder:
			vb.Append(s.Value(i))
		case *array.Int8Builder:
			vb.Append(int8(s.Value(i)))
		case *array.Int16Builder:
			vb.Append(int16(s.Value(i)))
		default:
			return fmt.Errorf("unsupported vector element %s", src.DataType())
		}
	case *array.Int64:
		b.(*array.Int64Builder).Append(s.Value(i))
	case *array.Float32:
		b.(*array.Float32Builder).Append(s.Value(i))
	case *array.Float64:
		b.(*array.Float64Builder).Append(s.Value(i))
	default:
		return fmt.Errorf("unsupported vector element %s", src.DataType())
	}
	return nil
}

func unitFactor(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1
	case arrow.Millisecond:
		return 1_000
	case arrow.Microsecond:
		return 1_000_000
	}
	return 1_000_000_000
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// rescaleTimestamps converts timestamps to the target unit: exact when
// refining (overflow is an error), flooring when coarsening (the target unit
// is chosen from the declared precision, so no digit the type keeps is lost).
func rescaleTimestamps(src *array.Timestamp, from arrow.TimeUnit, tt *arrow.TimestampType, mem memory.Allocator) (arrow.ArrayData, error) {
	ff, tf := unitFactor(from), unitFactor(tt.Unit)
	b := array.NewTimestampBuilder(mem, tt)
	defer b.Release()
	b.Reserve(src.Len())
	for i := 0; i < src.Len(); i++ {
		if src.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := int64(src.Value(i))
		if tf > ff {
			m := tf / ff
			if v > math.MaxInt64/m || v < math.MinInt64/m {
				return nil, fmt.Errorf("timestamp %d overflows %s", v, tt)
			}
			v *= m
		} else {
			v = floorDiv(v, ff/tf)
		}
		b.Append(arrow.Timestamp(v))
	}
	arr := b.NewArray()
	defer arr.Release()
	d := arr.Data()
	d.Retain()
	return d, nil
}

func time64ToMillis(src *array.Time64, unit arrow.TimeUnit, mem memory.Allocator) (arrow.ArrayData, error) {
	div := unitFactor(unit) / 1000
	b := array.NewTime32Builder(mem, &arrow.Time32Type{Unit: arrow.Millisecond})
	defer b.Release()
	for i := 0; i < src.Len(); i++ {
		if src.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(arrow.Time32(floorDiv(int64(src.Value(i)), div)))
	}
	arr := b.NewArray()
	defer arr.Release()
	d := arr.Data()
	d.Retain()
	return d, nil
}

// narrowInt32 reads TINYINT/SMALLINT stored as plain INT32 (writers that omit
// the INT(8)/INT(16) annotation); a value out of range means a corrupt file.
func narrowInt32(src *array.Int32, target arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
	lo, hi := int32(math.MinInt16), int32(math.MaxInt16)
	if target.ID() == arrow.INT8 {
		lo, hi = math.MinInt8, math.MaxInt8
	}
	b := array.NewBuilder(mem, target)
	defer b.Release()
	for i := 0; i < src.Len(); i++ {
		if src.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := src.Value(i)
		if v < lo || v > hi {
			return nil, fmt.Errorf("%w: value %d out of range for %s", ErrCorrupt, v, target)
		}
		if target.ID() == arrow.INT8 {
			b.(*array.Int8Builder).Append(int8(v))
		} else {
			b.(*array.Int16Builder).Append(int16(v))
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	d := arr.Data()
	d.Retain()
	return d, nil
}

// widenBinary reads BLOB (large_binary) from a BINARY or STRING column.
func widenBinary(src arrow.Array, mem memory.Allocator) (arrow.ArrayData, error) {
	if src.DataType().ID() == arrow.LARGE_BINARY {
		d := src.Data()
		d.Retain()
		return d, nil
	}
	var value func(i int) []byte
	switch a := src.(type) {
	case *array.Binary:
		value = a.Value
	case *array.String:
		value = func(i int) []byte { return []byte(a.Value(i)) }
	default:
		return nil, fmt.Errorf("cannot read %s as large_binary", src.DataType())
	}
	b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.LargeBinary)
	defer b.Release()
	for i := 0; i < src.Len(); i++ {
		if src.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(value(i))
	}
	arr := b.NewArray()
	defer arr.Release()
	d := arr.Data()
	d.Retain()
	return d, nil
}

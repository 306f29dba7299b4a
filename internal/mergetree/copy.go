package mergetree

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// copier appends cell i of src to dst, a builder of src's Arrow type. It is
// how winning rows move from their batch to the output without a detour
// through the value model.
type copier func(dst array.Builder, src arrow.Array, i int)

// newCopier compiles the copier of one Arrow type, recursively for nested
// types. Every type schema.ToArrowType produces is covered.
func newCopier(t arrow.DataType) (copier, error) {
	switch tt := t.(type) {
	case *arrow.BooleanType:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.BooleanBuilder), s.(*array.Boolean)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Int8Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Int8Builder), s.(*array.Int8)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Int16Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Int16Builder), s.(*array.Int16)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Int32Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Int32Builder), s.(*array.Int32)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Int64Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Int64Builder), s.(*array.Int64)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Float32Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Float32Builder), s.(*array.Float32)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Float64Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Float64Builder), s.(*array.Float64)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Decimal128Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Decimal128Builder), s.(*array.Decimal128)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.StringType:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.StringBuilder), s.(*array.String)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.BinaryType:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.BinaryBuilder), s.(*array.Binary)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.LargeBinaryType:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.BinaryBuilder), s.(*array.LargeBinary)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Date32Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Date32Builder), s.(*array.Date32)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.Time32Type:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.Time32Builder), s.(*array.Time32)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.TimestampType:
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.TimestampBuilder), s.(*array.Timestamp)
			if sa.IsNull(i) {
				db.AppendNull()
				return
			}
			db.Append(sa.Value(i))
		}, nil
	case *arrow.MapType: // before ListType: a map is a list of entries
		key, err := newCopier(tt.KeyType())
		if err != nil {
			return nil, err
		}
		item, err := newCopier(tt.ItemType())
		if err != nil {
			return nil, err
		}
		return nullable(func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.MapBuilder), s.(*array.Map)
			db.Append(true)
			start, end := sa.ValueOffsets(i)
			keys, items := sa.Keys(), sa.Items()
			kb, ib := db.KeyBuilder(), db.ItemBuilder()
			for k := int(start); k < int(end); k++ {
				key(kb, keys, k)
				item(ib, items, k)
			}
		}), nil
	case *arrow.ListType:
		elem, err := newCopier(tt.Elem())
		if err != nil {
			return nil, err
		}
		return nullable(func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.ListBuilder), s.(*array.List)
			db.Append(true)
			start, end := sa.ValueOffsets(i)
			vals, vb := sa.ListValues(), db.ValueBuilder()
			for k := int(start); k < int(end); k++ {
				elem(vb, vals, k)
			}
		}), nil
	case *arrow.FixedSizeListType:
		elem, err := newCopier(tt.Elem())
		if err != nil {
			return nil, err
		}
		return nullable(func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.FixedSizeListBuilder), s.(*array.FixedSizeList)
			db.Append(true)
			start, end := sa.ValueOffsets(i)
			vals, vb := sa.ListValues(), db.ValueBuilder()
			for k := int(start); k < int(end); k++ {
				elem(vb, vals, k)
			}
		}), nil
	case *arrow.StructType:
		fields := make([]copier, tt.NumFields())
		for k := range fields {
			c, err := newCopier(tt.Field(k).Type)
			if err != nil {
				return nil, err
			}
			fields[k] = c
		}
		return func(d array.Builder, s arrow.Array, i int) {
			db, sa := d.(*array.StructBuilder), s.(*array.Struct)
			if sa.IsNull(i) {
				// A NULL struct still needs a slot in every child.
				db.AppendNull()
				return
			}
			db.Append(true)
			for k, c := range fields {
				c(db.FieldBuilder(k), sa.Field(k), i)
			}
		}, nil
	}
	return nil, fmt.Errorf("%w: no copier for Arrow type %s", ErrUnsupported, t)
}

// nullable wraps a copier of non-NULL cells (nested types; the primitive
// copiers test for NULL themselves, saving an indirect call per cell).
func nullable(c copier) copier {
	return func(d array.Builder, s arrow.Array, i int) {
		if s.NullN() > 0 && s.IsNull(i) {
			d.AppendNull()
			return
		}
		c(d, s, i)
	}
}

package parquet

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/variant"
)

// Names of the children of a VARIANT group, as Java's Parquet writer
// (ParquetSchemaConverter, PaimonShreddingUtils) names them.
const (
	variantValue      = "value"
	variantMetadata   = "metadata"
	variantTypedValue = "typed_value"
)

// checkShredded validates every shredded VARIANT group (one holding
// metadata and typed_value, Java PaimonShreddingUtils.variantShreddingSchema)
// under the file's field sf before any row is read: a typed_value of a type
// Java's reader does not rebuild (PaimonShreddingUtils.buildVariantSchema
// refuses it; e.g. an unannotated BINARY, which Java reads as BYTES) makes
// the file ErrUnsupported, not corrupt.
func (r *Reader) checkShredded(sf *pqarrow.SchemaField, f schema.DataField) error {
	if !hasVariant(f.Type) {
		return nil
	}
	return checkShreddedType(sf.Field.Type, f.Name, r.name)
}

func checkShreddedType(t arrow.DataType, path, file string) error {
	switch t := t.(type) {
	case *arrow.StructType:
		if isShreddedGroup(t) {
			if _, err := buildShredSchema(t, true); err != nil {
				if file == "" {
					file = "file"
				}
				return fmt.Errorf("%w: %s: shredded VARIANT column %s: %v", ErrUnsupported, file, path, err)
			}
			return nil
		}
		for _, c := range t.Fields() {
			if err := checkShreddedType(c.Type, path+"."+c.Name, file); err != nil {
				return err
			}
		}
	case arrow.ListLikeType:
		return checkShreddedType(t.Elem(), path, file)
	}
	return nil
}

func hasVariant(t schema.DataType) bool {
	if t.Root == schema.Variant {
		return true
	}
	for _, c := range []*schema.DataType{t.Element, t.Key, t.Value} {
		if c != nil && hasVariant(*c) {
			return true
		}
	}
	for _, f := range t.Fields {
		if hasVariant(f.Type) {
			return true
		}
	}
	return false
}

// isShreddedGroup reports whether a VARIANT group is shredded: Java
// (VariantUtils.variantFileType) decides on a typed_value child alone.
func isShreddedGroup(t *arrow.StructType) bool {
	_, ok := t.FieldIdx(variantTypedValue)
	return ok
}

// scalarKind is the type of a scalar typed_value (Java VariantSchema's
// ScalarType subclasses that buildVariantSchema produces).
type scalarKind int

const (
	notScalar scalarKind = iota
	scalarBool
	scalarInt
	scalarFloat
	scalarDouble
	scalarString
	scalarDate
	scalarDecimal
)

// shredSchema is one level of a shredded variant, Java VariantSchema:
// the positions of value, typed_value and (at the top only) metadata in the
// group, and what typed_value holds: a scalar, an object's shredded fields,
// or an array's element schema.
type shredSchema struct {
	typed, value, metadata int
	scalar                 scalarKind
	object                 []shredField
	objectNames            map[string]bool
	elem                   *shredSchema
}

type shredField struct {
	name string
	s    *shredSchema
}

// buildShredSchema mirrors PaimonShreddingUtils.buildVariantSchema on the
// Arrow type pqarrow gives the group: children are named value,
// typed_value and (top level only) metadata, each at most once; anything
// else is refused as Java refuses it.
func buildShredSchema(t *arrow.StructType, top bool) (*shredSchema, error) {
	s := &shredSchema{typed: -1, value: -1, metadata: -1}
	if t.NumFields() == 0 {
		return nil, fmt.Errorf("empty group")
	}
	for i, f := range t.Fields() {
		switch f.Name {
		case variantTypedValue:
			if s.typed >= 0 {
				return nil, fmt.Errorf("two typed_value fields")
			}
			s.typed = i
			if err := s.setTyped(f.Type); err != nil {
				return nil, err
			}
		case variantValue:
			if s.value >= 0 || !isBinary(f.Type) {
				return nil, fmt.Errorf("value field of type %s", f.Type)
			}
			s.value = i
		case variantMetadata:
			if s.metadata >= 0 || !isBinary(f.Type) {
				return nil, fmt.Errorf("metadata field of type %s", f.Type)
			}
			s.metadata = i
		default:
			return nil, fmt.Errorf("unexpected field %q", f.Name)
		}
	}
	if top != (s.metadata >= 0) {
		return nil, fmt.Errorf("metadata field misplaced")
	}
	return s, nil
}

func isBinary(t arrow.DataType) bool {
	return t.ID() == arrow.BINARY || t.ID() == arrow.LARGE_BINARY
}

func (s *shredSchema) setTyped(t arrow.DataType) error {
	switch t := t.(type) {
	case *arrow.StructType:
		s.objectNames = map[string]bool{}
		for _, f := range t.Fields() {
			ft, ok := f.Type.(*arrow.StructType)
			if !ok || s.objectNames[f.Name] {
				return fmt.Errorf("typed_value field %q of type %s", f.Name, f.Type)
			}
			fs, err := buildShredSchema(ft, false)
			if err != nil {
				return fmt.Errorf("typed_value field %q: %w", f.Name, err)
			}
			s.objectNames[f.Name] = true
			s.object = append(s.object, shredField{name: f.Name, s: fs})
		}
		if len(s.object) == 0 {
			return fmt.Errorf("empty typed_value group")
		}
		return nil
	case *arrow.ListType:
		et, ok := t.Elem().(*arrow.StructType)
		if !ok {
			return fmt.Errorf("typed_value list of %s", t.Elem())
		}
		es, err := buildShredSchema(et, false)
		if err != nil {
			return fmt.Errorf("typed_value element: %w", err)
		}
		s.elem = es
		return nil
	}
	switch t.ID() {
	case arrow.BOOL:
		s.scalar = scalarBool
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		s.scalar = scalarInt
	case arrow.FLOAT32:
		s.scalar = scalarFloat
	case arrow.FLOAT64:
		s.scalar = scalarDouble
	case arrow.STRING, arrow.LARGE_STRING:
		s.scalar = scalarString
	case arrow.DATE32:
		s.scalar = scalarDate
	case arrow.DECIMAL128, arrow.DECIMAL256:
		s.scalar = scalarDecimal
	default:
		return fmt.Errorf("typed_value of type %s", t)
	}
	return nil
}

// rebuildShredded turns a shredded VARIANT group into VARIANT's (value,
// metadata) struct tt, row by row, as Java's reader does
// (PaimonShreddingUtils.assembleVariantBatch, ShreddingUtils.rebuild,
// following parquet-format VariantShredding.md): a null group is a null
// VARIANT; otherwise the value is rebuilt by a fresh GenericVariantBuilder,
// whose metadata lists only the keys the rebuilt value uses. Rows Java
// calls malformed (no metadata, neither value nor typed_value where one
// must be, a shredded key repeated in value) are ErrCorrupt.
func rebuildShredded(src *array.Struct, tt *arrow.StructType, mem memory.Allocator) (arrow.ArrayData, error) {
	s, err := buildShredSchema(src.DataType().(*arrow.StructType), true)
	if err != nil {
		return nil, fmt.Errorf("%w: shredded VARIANT: %v", ErrUnsupported, err)
	}
	b := array.NewStructBuilder(mem, tt)
	defer b.Release()
	vb := b.FieldBuilder(0).(*array.BinaryBuilder)
	mb := b.FieldBuilder(1).(*array.BinaryBuilder)
	meta := src.Field(s.metadata)
	for i := 0; i < src.Len(); i++ {
		if src.IsNull(i) {
			b.AppendNull()
			continue
		}
		if meta.IsNull(i) {
			return nil, fmt.Errorf("%w: shredded VARIANT row %d has no metadata", ErrCorrupt, i)
		}
		vbld := variant.NewBuilder()
		if err := rebuildRow(s, src, i, binaryAt(meta, i), vbld); err != nil {
			return nil, fmt.Errorf("%w: shredded VARIANT row %d: %w", ErrCorrupt, i, err)
		}
		value, md, err := vbld.Result()
		if err != nil {
			return nil, fmt.Errorf("%w: shredded VARIANT row %d: %w", ErrCorrupt, i, err)
		}
		b.Append(true)
		vb.Append(value)
		mb.Append(md)
	}
	arr := b.NewStructArray()
	defer arr.Release()
	d := arr.Data()
	d.Retain()
	return d, nil
}

func binaryAt(a arrow.Array, i int) []byte {
	switch a := a.(type) {
	case *array.Binary:
		return a.Value(i)
	case *array.LargeBinary:
		return a.Value(i)
	}
	return nil
}

var errMalformed = errors.New("malformed shredded variant")

// rebuildRow appends row i of the group g (laid out as s) to b: Java
// ShreddingUtils.rebuild.
func rebuildRow(s *shredSchema, g *array.Struct, i int, meta []byte, b *variant.Builder) error {
	if s.typed >= 0 && g.Field(s.typed).IsValid(i) {
		t := g.Field(s.typed)
		switch {
		case s.scalar != notScalar:
			return appendScalar(b, s.scalar, t, i)
		case s.elem != nil:
			l := t.(*array.List)
			elems := l.ListValues().(*array.Struct)
			from, to := l.ValueOffsets(i)
			start := b.WritePos()
			offsets := make([]int, 0, to-from)
			for k := from; k < to; k++ {
				offsets = append(offsets, b.WritePos()-start)
				if err := rebuildRow(s.elem, elems, int(k), meta, b); err != nil {
					return err
				}
			}
			return b.FinishArray(start, offsets)
		}
		obj := t.(*array.Struct)
		start := b.WritePos()
		var fields []variant.FieldEntry
		for fi, f := range s.object {
			fg := obj.Field(fi).(*array.Struct)
			if fg.IsNull(i) {
				return fmt.Errorf("%w: shredded field %q is null", errMalformed, f.name)
			}
			// A field with neither typed_value nor value is missing.
			if (f.s.typed >= 0 && fg.Field(f.s.typed).IsValid(i)) || (f.s.value >= 0 && fg.Field(f.s.value).IsValid(i)) {
				fields = append(fields, variant.FieldEntry{Key: f.name, ID: b.AddKey(f.name), Offset: b.WritePos() - start})
				if err := rebuildRow(f.s, fg, i, meta, b); err != nil {
					return err
				}
			}
		}
		if s.value >= 0 && g.Field(s.value).IsValid(i) {
			// The fields left in value (a partially shredded object).
			v := binaryAt(g.Field(s.value), i)
			keys, err := variant.ObjectKeys(v, meta)
			if err != nil {
				return err
			}
			for _, k := range keys {
				if s.objectNames[k] {
					return fmt.Errorf("%w: key %q both shredded and in value", errMalformed, k)
				}
			}
			if fields, err = b.AppendObjectFields(v, meta, start, fields); err != nil {
				return err
			}
		}
		return b.FinishObject(start, fields)
	}
	if s.value >= 0 && g.Field(s.value).IsValid(i) {
		return b.AppendVariant(binaryAt(g.Field(s.value), i), meta)
	}
	return fmt.Errorf("%w: neither value nor typed_value", errMalformed)
}

func appendScalar(b *variant.Builder, k scalarKind, t arrow.Array, i int) error {
	switch k {
	case scalarBool:
		b.AppendBool(t.(*array.Boolean).Value(i))
	case scalarInt:
		switch t := t.(type) {
		case *array.Int8:
			b.AppendLong(int64(t.Value(i)))
		case *array.Int16:
			b.AppendLong(int64(t.Value(i)))
		case *array.Int32:
			b.AppendLong(int64(t.Value(i)))
		case *array.Int64:
			b.AppendLong(t.Value(i))
		}
	case scalarFloat:
		b.AppendFloat(t.(*array.Float32).Value(i))
	case scalarDouble:
		b.AppendDouble(t.(*array.Float64).Value(i))
	case scalarString:
		switch t := t.(type) {
		case *array.String:
			b.AppendString(t.Value(i))
		case *array.LargeString:
			b.AppendString(t.Value(i))
		}
	case scalarDate:
		b.AppendDate(int32(t.(*array.Date32).Value(i)))
	case scalarDecimal:
		switch t := t.(type) {
		case *array.Decimal128:
			return b.AppendDecimal(t.Value(i).BigInt(), int(t.DataType().(*arrow.Decimal128Type).Scale))
		case *array.Decimal256:
			return b.AppendDecimal(t.Value(i).BigInt(), int(t.DataType().(*arrow.Decimal256Type).Scale))
		}
	}
	return nil
}

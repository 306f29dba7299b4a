package avrofile

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/format/schema"
)

// encoder appends the Avro binary encoding of value i of the Arrow array it
// was bound to. Encoders are bound per batch (bindField) and mirror Java's
// FieldWriterFactory writers; the only error a bound encoder reports is a
// null where the Paimon type is NOT NULL.
type encoder interface {
	encode(dst []byte, i int) ([]byte, error)
}

// bindField binds the encoder of a value of Paimon type t to arr, which
// must have the Arrow type schema.ToArrowType(t) (see Writer.Write for the
// leniency on strings). A nullable t is written as the union ["null", T]
// (Java NullableWriter: branch 0 for null, 1 otherwise).
func bindField(t schema.DataType, arr arrow.Array, path string) (encoder, error) {
	inner, err := bindValue(t, arr, path)
	if err != nil {
		return nil, err
	}
	nulls := nullBits{}
	if arr.NullN() > 0 {
		nulls = nullBits{bits: arr.NullBitmapBytes(), off: arr.Data().Offset()}
	}
	switch {
	case t.Nullable && nulls.bits == nil:
		return nonNullBranch{inner}, nil
	case t.Nullable:
		return &nullableEncoder{nulls: nulls, inner: inner}, nil
	case nulls.bits != nil:
		return &requiredEncoder{nulls: nulls, inner: inner, path: path}, nil
	}
	return inner, nil
}

// nullBits is an Arrow validity bitmap and the array's offset into it.
type nullBits struct {
	bits []byte
	off  int
}

func (n nullBits) isNull(i int) bool { return !bitutil.BitIsSet(n.bits, n.off+i) }

// nonNullBranch writes the non-null branch of ["null", T] for an array
// without nulls.
type nonNullBranch struct{ inner encoder }

func (e nonNullBranch) encode(dst []byte, i int) ([]byte, error) {
	return e.inner.encode(append(dst, 2), i)
}

type nullableEncoder struct {
	nulls nullBits
	inner encoder
}

func (e *nullableEncoder) encode(dst []byte, i int) ([]byte, error) {
	if e.nulls.isNull(i) {
		return append(dst, 0), nil // zig-zag 0: the "null" branch
	}
	return e.inner.encode(append(dst, 2), i) // zig-zag 1
}

// requiredEncoder guards a NOT NULL value whose array has nulls. Nulls are
// legal where an enclosing ROW is null (the row is not written then), so
// the check is made per written value, as Java's RowWriter does.
type requiredEncoder struct {
	nulls nullBits
	inner encoder
	path  string
}

func (e *requiredEncoder) encode(dst []byte, i int) ([]byte, error) {
	if e.nulls.isNull(i) {
		return dst, fmt.Errorf("%w: field %q is NOT NULL but holds a null", ErrInvalidBatch, e.path)
	}
	return e.inner.encode(dst, i)
}

func typeMismatch(path string, t schema.DataType, arr arrow.Array) error {
	return fmt.Errorf("%w: field %q of type %s cannot be written from Arrow %s", ErrInvalidBatch, path, t.Root, arr.DataType())
}

// bindValue binds the encoder of a non-null value of type t.
func bindValue(t schema.DataType, arr arrow.Array, path string) (encoder, error) {
	bad := func() (encoder, error) { return nil, typeMismatch(path, t, arr) }
	switch t.Root {
	case schema.Boolean:
		if a, ok := arr.(*array.Boolean); ok {
			return boolEncoder{a}, nil
		}
	case schema.TinyInt:
		if a, ok := arr.(*array.Int8); ok {
			return varintEncoder[int8]{a.Int8Values()}, nil
		}
	case schema.SmallInt:
		if a, ok := arr.(*array.Int16); ok {
			return varintEncoder[int16]{a.Int16Values()}, nil
		}
	case schema.Int:
		if a, ok := arr.(*array.Int32); ok {
			return varintEncoder[int32]{a.Int32Values()}, nil
		}
	case schema.BigInt:
		if a, ok := arr.(*array.Int64); ok {
			return varintEncoder[int64]{a.Int64Values()}, nil
		}
	case schema.Float:
		if a, ok := arr.(*array.Float32); ok {
			return float32Encoder{a.Float32Values()}, nil
		}
	case schema.Double:
		if a, ok := arr.(*array.Float64); ok {
			return float64Encoder{a.Float64Values()}, nil
		}
	case schema.Decimal:
		// Java writes Decimal.toUnscaledBytes; the scale is the schema's.
		if a, ok := arr.(*array.Decimal128); ok && a.DataType().(*arrow.Decimal128Type).Scale == int32(t.Scale) {
			return decimalEncoder{a.Values()}, nil
		}
	case schema.Char, schema.VarChar, schema.Binary, schema.VarBinary, schema.Blob:
		// Avro's string and bytes share one encoding. For BLOB Java
		// writes the serialized BlobDescriptor; the column holds it as is.
		if enc := bytesEncoderFor(arr); enc != nil {
			return enc, nil
		}
	case schema.Date:
		if a, ok := arr.(*array.Date32); ok {
			return varintEncoder[arrow.Date32]{a.Date32Values()}, nil
		}
	case schema.Time:
		// time-millis: Paimon keeps TIME as milliseconds of the day.
		if a, ok := arr.(*array.Time32); ok && a.DataType().(*arrow.Time32Type).Unit == arrow.Millisecond {
			return varintEncoder[arrow.Time32]{a.Time32Values()}, nil
		}
	case schema.Timestamp, schema.TimestampLTZ:
		// Java writes millis for precision <= 3 and micros up to 6, the
		// units schema.ToArrowType picks.
		want := arrow.Millisecond
		if t.Precision > 3 {
			want = arrow.Microsecond
		}
		if a, ok := arr.(*array.Timestamp); ok && a.DataType().(*arrow.TimestampType).Unit == want {
			return varintEncoder[arrow.Timestamp]{a.TimestampValues()}, nil
		}
	case schema.Array:
		if t.Element == nil {
			return bad()
		}
		var values arrow.Array
		var offs offsetter
		switch a := arr.(type) {
		case *array.List:
			values, offs = a.ListValues(), a
		case *array.LargeList:
			values, offs = a.ListValues(), a
		default:
			return bad()
		}
		elem, err := bindField(*t.Element, values, path+"[]")
		if err != nil {
			return nil, err
		}
		return &arrayEncoder{offs: offs, elem: elem}, nil
	case schema.Vector:
		a, ok := arr.(*array.FixedSizeList)
		if !ok || t.Element == nil || a.DataType().(*arrow.FixedSizeListType).Len() != int32(t.Length) {
			return bad()
		}
		elem, err := bindField(*t.Element, a.ListValues(), path+"[]")
		if err != nil {
			return nil, err
		}
		return &arrayEncoder{offs: a, elem: elem}, nil
	case schema.Map, schema.Multiset:
		a, ok := arr.(*array.Map)
		if !ok {
			return bad()
		}
		return bindMap(t, a, path)
	case schema.Row:
		a, ok := arr.(*array.Struct)
		if !ok || a.NumField() != len(t.Fields) {
			return bad()
		}
		rec := &recordEncoder{fields: make([]encoder, len(t.Fields))}
		for k, f := range t.Fields {
			enc, err := bindField(f.Type, a.Field(k), path+"."+f.Name)
			if err != nil {
				return nil, err
			}
			rec.fields[k] = enc
		}
		return rec, nil
	}
	return bad()
}

// bindMap binds MAP and MULTISET. With CHAR/VARCHAR keys it is an Avro
// map, whose keys are plain strings (Java visitMap's STRING_WRITER);
// otherwise an array of {key, value} records (visitArrayMap), where a
// nullable key type is a union like any record field. Both are written as
// one block of entries, so only the key encoding differs.
func bindMap(t schema.DataType, a *array.Map, path string) (encoder, error) {
	kt, vt, err := mapEntryTypes(t)
	if err != nil {
		return nil, fmt.Errorf("%w: field %q: %w", ErrInvalidBatch, path, err)
	}
	keys, items := a.Keys(), a.Items()
	var key encoder
	if kt.Root.IsCharacterString() {
		key, err = bindField(kt.NotNull(), keys, path+".key")
	} else {
		key, err = bindField(*kt, keys, path+".key")
	}
	if err != nil {
		return nil, err
	}
	value, err := bindField(*vt, items, path+".value")
	if err != nil {
		return nil, err
	}
	// The entries struct may itself be offset into its children.
	off := int64(a.Data().Children()[0].Offset())
	return &mapEncoder{offs: a, off: off, key: key, value: value}, nil
}

// offsetter is a list-like Arrow array: the range of child values of each
// slot.
type offsetter interface {
	ValueOffsets(i int) (start, end int64)
}

// appendCount opens an Avro array or map block as Java's BinaryEncoder
// does: the item count if there are items, else nothing (the closing zero
// count follows).
func appendCount(dst []byte, n int64) []byte {
	if n > 0 {
		dst = binary.AppendVarint(dst, n)
	}
	return dst
}

type arrayEncoder struct {
	offs offsetter
	elem encoder
}

func (e *arrayEncoder) encode(dst []byte, i int) ([]byte, error) {
	start, end := e.offs.ValueOffsets(i)
	dst = appendCount(dst, end-start)
	var err error
	for j := start; j < end; j++ {
		if dst, err = e.elem.encode(dst, int(j)); err != nil {
			return dst, err
		}
	}
	return append(dst, 0), nil
}

type mapEncoder struct {
	offs       offsetter
	off        int64
	key, value encoder
}

func (e *mapEncoder) encode(dst []byte, i int) ([]byte, error) {
	start, end := e.offs.ValueOffsets(i)
	dst = appendCount(dst, end-start)
	var err error
	for j := start + e.off; j < end+e.off; j++ {
		if dst, err = e.key.encode(dst, int(j)); err != nil {
			return dst, err
		}
		if dst, err = e.value.encode(dst, int(j)); err != nil {
			return dst, err
		}
	}
	return append(dst, 0), nil
}

// recordEncoder writes a ROW's fields in order (Java RowWriter). The
// struct's children are already sliced to its rows.
type recordEncoder struct{ fields []encoder }

func (e *recordEncoder) encode(dst []byte, i int) ([]byte, error) {
	var err error
	for _, f := range e.fields {
		if dst, err = f.encode(dst, i); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

type boolEncoder struct{ a *array.Boolean }

func (e boolEncoder) encode(dst []byte, i int) ([]byte, error) {
	if e.a.Value(i) {
		return append(dst, 1), nil
	}
	return append(dst, 0), nil
}

// varintEncoder writes Avro int and long: zig-zag varints, which is what
// encoding/binary's AppendVarint produces.
type varintEncoder[T ~int8 | ~int16 | ~int32 | ~int64] struct{ v []T }

func (e varintEncoder[T]) encode(dst []byte, i int) ([]byte, error) {
	return binary.AppendVarint(dst, int64(e.v[i])), nil
}

// float32Encoder and float64Encoder write IEEE 754 bits little-endian;
// Java's BinaryEncoder uses the raw bits too, so NaN payloads survive.
type float32Encoder struct{ v []float32 }

func (e float32Encoder) encode(dst []byte, i int) ([]byte, error) {
	return binary.LittleEndian.AppendUint32(dst, math.Float32bits(e.v[i])), nil
}

type float64Encoder struct{ v []float64 }

func (e float64Encoder) encode(dst []byte, i int) ([]byte, error) {
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(e.v[i])), nil
}

// decimalEncoder writes the unscaled value as Java's
// BigInteger.toByteArray does: big-endian two's complement in the fewest
// bytes that keep the sign (zero is one 0x00 byte).
type decimalEncoder struct{ v []decimal128.Num }

func (e decimalEncoder) encode(dst []byte, i int) ([]byte, error) {
	var b [16]byte
	n := e.v[i]
	binary.BigEndian.PutUint64(b[:8], uint64(n.HighBits()))
	binary.BigEndian.PutUint64(b[8:], n.LowBits())
	k := 0
	for k < 15 && (b[k] == 0 && b[k+1]&0x80 == 0 || b[k] == 0xff && b[k+1]&0x80 != 0) {
		k++
	}
	dst = binary.AppendVarint(dst, int64(16-k))
	return append(dst, b[k:]...), nil
}

// bytesEncoderFor returns the encoder of Avro string/bytes values held in
// a utf8, large_utf8, binary or large_binary array, or nil.
func bytesEncoderFor(arr arrow.Array) encoder {
	switch a := arr.(type) {
	case *array.String:
		return stringEncoder[*array.String]{a}
	case *array.LargeString:
		return stringEncoder[*array.LargeString]{a}
	case *array.Binary:
		return binaryEncoder[*array.Binary]{a}
	case *array.LargeBinary:
		return binaryEncoder[*array.LargeBinary]{a}
	}
	return nil
}

type stringEncoder[A interface{ Value(int) string }] struct{ a A }

func (e stringEncoder[A]) encode(dst []byte, i int) ([]byte, error) {
	s := e.a.Value(i)
	dst = binary.AppendVarint(dst, int64(len(s)))
	return append(dst, s...), nil
}

type binaryEncoder[A interface{ Value(int) []byte }] struct{ a A }

func (e binaryEncoder[A]) encode(dst []byte, i int) ([]byte, error) {
	v := e.a.Value(i)
	dst = binary.AppendVarint(dst, int64(len(v)))
	return append(dst, v...), nil
}

package mergefunc

import (
	"bytes"
	"math"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Java compares values in three ways the aggregators depend on, and they
// differ on floating point numbers and byte strings:
//
//   - javaEquals is Object.equals of the objects Paimon's getters return:
//     boxed numbers (Float.equals compares floatToIntBits, so NaN equals
//     NaN and 0.0 differs from -0.0), BinaryString bytes, Decimal by value,
//     byte[] by identity (never equal here), and for ARRAY, MAP and ROW
//     values read from a file the bytes of BinaryArray, BinaryMap or
//     NestedRow (binaryEqual).
//   - binaryEqual is the byte equality of the binary encoding: floats by
//     raw bits, everything else by value, element by element and in order.
//   - equaliserEqual is a generated RecordEqualiser (EqualiserCodeGenerator):
//     primitives with == (IEEE: NaN differs from itself, 0.0 equals -0.0),
//     nested rows field by field, arrays by BinaryArray bytes, maps through
//     java.util.Map conversion (not reproduced).

// javaEquals returns Object.equals of two non-null values of type t.
func javaEquals(t schema.DataType, a, b any) (bool, error) {
	switch t.Root {
	case schema.Boolean:
		x, y, err := pair[bool](t, a, b)
		return x == y, err
	case schema.TinyInt:
		x, y, err := pair[int8](t, a, b)
		return x == y, err
	case schema.SmallInt:
		x, y, err := pair[int16](t, a, b)
		return x == y, err
	case schema.Int, schema.Date, schema.Time:
		x, y, err := pair[int32](t, a, b)
		return x == y, err
	case schema.BigInt:
		x, y, err := pair[int64](t, a, b)
		return x == y, err
	case schema.Float:
		x, y, err := pair[float32](t, a, b)
		return javaFloatBits(x) == javaFloatBits(y), err
	case schema.Double:
		x, y, err := pair[float64](t, a, b)
		return javaDoubleBits(x) == javaDoubleBits(y), err
	case schema.Char, schema.VarChar:
		x, y, err := pair[string](t, a, b)
		return x == y, err
	case schema.Decimal:
		x, y, err := pair[data.Decimal](t, a, b)
		if err != nil || x.Unscaled == nil || y.Unscaled == nil {
			return false, badValue(t, a)
		}
		return x.Cmp(y) == 0, nil
	case schema.Timestamp, schema.TimestampLTZ:
		x, y, err := pair[data.Timestamp](t, a, b)
		return x == y, err
	case schema.Binary, schema.VarBinary:
		// byte[].equals is identity: two values from different arrays are
		// never equal.
		_, _, err := pair[[]byte](t, a, b)
		return false, err
	case schema.Array, schema.Map, schema.Multiset, schema.Row:
		return binaryEqual(t, a, b)
	}
	return false, unsupportedf("Java equals of %s values", t.Root)
}

// binaryEqual reports whether two values (either may be nil) have the same
// binary encoding.
func binaryEqual(t schema.DataType, a, b any) (bool, error) {
	if a == nil || b == nil {
		return a == nil && b == nil, nil
	}
	switch t.Root {
	case schema.Float:
		x, y, err := pair[float32](t, a, b)
		return math.Float32bits(x) == math.Float32bits(y), err
	case schema.Double:
		x, y, err := pair[float64](t, a, b)
		return math.Float64bits(x) == math.Float64bits(y), err
	case schema.Binary, schema.VarBinary:
		x, y, err := pair[[]byte](t, a, b)
		return bytes.Equal(x, y), err
	case schema.Decimal:
		x, y, err := pair[data.Decimal](t, a, b)
		if err != nil || x.Unscaled == nil || y.Unscaled == nil {
			return false, badValue(t, a)
		}
		return x.Scale == y.Scale && x.Unscaled.Cmp(y.Unscaled) == 0, nil
	case schema.Variant:
		x, y, err := pair[data.Variant](t, a, b)
		return bytes.Equal(x.Value, y.Value) && bytes.Equal(x.Metadata, y.Metadata), err
	case schema.Array:
		x, err := elements(t, a)
		if err != nil {
			return false, err
		}
		y, err := elements(t, b)
		if err != nil || len(x) != len(y) {
			return false, err
		}
		for i := range x {
			if ok, err := binaryEqual(*t.Element, x[i], y[i]); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case schema.Map, schema.Multiset:
		x, err := mapValue(t, a)
		if err != nil {
			return false, err
		}
		y, err := mapValue(t, b)
		if err != nil || x.Len() != y.Len() {
			return false, err
		}
		kt, vt := mapTypes(t)
		for i := range x.Keys {
			if ok, err := binaryEqual(kt, x.Keys[i], y.Keys[i]); err != nil || !ok {
				return false, err
			}
			if ok, err := binaryEqual(vt, x.Values[i], y.Values[i]); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case schema.Row:
		x, err := rowValue(t, a)
		if err != nil {
			return false, err
		}
		y, err := rowValue(t, b)
		if err != nil {
			return false, err
		}
		for i, f := range t.Fields {
			if ok, err := binaryEqual(f.Type, x[i], y[i]); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case schema.Blob, schema.Vector:
		return false, unsupportedf("binary equality of %s values", t.Root)
	}
	return javaEquals(t, a, b)
}

// mapTypes returns the key and value types of a MAP, or the element and
// INT NOT NULL count types of a MULTISET.
func mapTypes(t schema.DataType) (schema.DataType, schema.DataType) {
	if t.Root == schema.Multiset {
		return *t.Element, schema.IntType().NotNull()
	}
	return *t.Key, *t.Value
}

// equaliserEqual is a generated RecordEqualiser over one element: a ROW
// element is compared field by field, any other element as the single
// field of a row.
func equaliserEqual(t schema.DataType, a, b any) (bool, error) {
	if t.Root == schema.Row {
		if a == nil || b == nil {
			// The generated equaliser dereferences the row: Java throws.
			return false, mergeErrf("NullPointerException comparing a NULL %s element", t)
		}
		return rowFieldwise(t, a, b)
	}
	return fieldEq(t, a, b)
}

// rowFieldwise compares two non-null rows field by field with fieldEq.
func rowFieldwise(t schema.DataType, a, b any) (bool, error) {
	x, err := rowValue(t, a)
	if err != nil {
		return false, err
	}
	y, err := rowValue(t, b)
	if err != nil {
		return false, err
	}
	for i, f := range t.Fields {
		if ok, err := fieldEq(f.Type, x[i], y[i]); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// fieldEq is one field of a generated RecordEqualiser.
func fieldEq(t schema.DataType, a, b any) (bool, error) {
	if a == nil || b == nil {
		return a == nil && b == nil, nil
	}
	switch t.Root {
	case schema.Float:
		x, y, err := pair[float32](t, a, b)
		return x == y, err
	case schema.Double:
		x, y, err := pair[float64](t, a, b)
		return x == y, err
	case schema.Binary, schema.VarBinary:
		x, y, err := pair[[]byte](t, a, b)
		return bytes.Equal(x, y), err
	case schema.Row:
		return rowFieldwise(t, a, b)
	case schema.Array:
		// Arrays read from a file are BinaryArrays, compared by bytes.
		return binaryEqual(t, a, b)
	case schema.Map, schema.Multiset, schema.Variant, schema.Blob, schema.Vector:
		return false, unsupportedf("generated equaliser over %s values", t.Root)
	}
	return javaEquals(t, a, b)
}

// equaliserSupported reports whether fieldEq can compare values of t
// without ErrUnsupported.
func equaliserSupported(t schema.DataType) bool {
	switch t.Root {
	case schema.Map, schema.Multiset, schema.Variant, schema.Blob, schema.Vector:
		return false
	case schema.Row:
		for _, f := range t.Fields {
			if !equaliserSupported(f.Type) {
				return false
			}
		}
	case schema.Array:
		return binarySupported(*t.Element)
	}
	return true
}

// binarySupported reports whether binaryEqual handles values of t.
func binarySupported(t schema.DataType) bool {
	switch t.Root {
	case schema.Blob, schema.Vector:
		return false
	case schema.Row:
		for _, f := range t.Fields {
			if !binarySupported(f.Type) {
				return false
			}
		}
	case schema.Array, schema.Multiset:
		return binarySupported(*t.Element)
	case schema.Map:
		return binarySupported(*t.Key) && binarySupported(*t.Value)
	}
	return true
}

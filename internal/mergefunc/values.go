package mergefunc

import (
	"bytes"
	"fmt"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// badValue reports a value whose Go type does not match its field type
// (the value model of format/data); it is a caller bug or corrupt input.
func badValue(t schema.DataType, v any) error {
	return fmt.Errorf("%w: value of Go type %T for a %s field", ErrMerge, v, t.Root)
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnsupported}, args...)...)
}

func mergeErrf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMerge}, args...)...)
}

// pair asserts two values to the same Go type T.
func pair[T any](t schema.DataType, a, b any) (T, T, error) {
	x, ok1 := a.(T)
	y, ok2 := b.(T)
	if !ok1 {
		var z T
		return z, z, badValue(t, a)
	}
	if !ok2 {
		var z T
		return z, z, badValue(t, b)
	}
	return x, y, nil
}

// elements returns an ARRAY value's elements.
func elements(t schema.DataType, v any) ([]any, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, badValue(t, v)
	}
	return a, nil
}

// mapValue returns a MAP or MULTISET value.
func mapValue(t schema.DataType, v any) (data.Map, error) {
	m, ok := v.(data.Map)
	if !ok || len(m.Keys) != len(m.Values) {
		return data.Map{}, badValue(t, v)
	}
	return m, nil
}

// rowValue returns a ROW value's fields, checking the arity.
func rowValue(t schema.DataType, v any) ([]any, error) {
	r, ok := v.([]any)
	if !ok || len(r) != len(t.Fields) {
		return nil, badValue(t, v)
	}
	return r, nil
}

// decimalValue returns a DECIMAL value.
func decimalValue(t schema.DataType, v any) (data.Decimal, error) {
	d, ok := v.(data.Decimal)
	if !ok || d.Unscaled == nil {
		return data.Decimal{}, badValue(t, v)
	}
	return d, nil
}

// unsignedBytesCompare orders byte strings as Java's SortUtil.compareBinary
// and InternalRowUtils.byteArrayCompare: unsigned lexicographic, then by
// length.
func unsignedBytesCompare(a, b []byte) int { return bytes.Compare(a, b) }

package mergetree

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// KeyComparator orders primary keys (or any rows of comparable fields) as
// Java's generated RecordComparator does (paimon-codegen
// GenerateUtils.generateCompare with CodeGeneratorImpl's sort spec): field by
// field, NULL before any value, then
//
//   - BOOLEAN false < true;
//   - TINYINT … BIGINT, DATE, TIME numerically;
//   - FLOAT, DOUBLE with Java's < and > on primitives, so NaN compares equal
//     to every value and -0.0 equals 0.0 (not Float.compare);
//   - CHAR, VARCHAR by unsigned UTF-8 bytes, a prefix first
//     (BinaryString.compareTo); BINARY, VARBINARY likewise
//     (SortUtil.compareBinary);
//   - DECIMAL, TIMESTAMP, TIMESTAMP_LTZ by value;
//   - ARRAY and VECTOR element-wise with NULL elements first, a prefix first;
//     ROW field by field, ascending, NULL first.
//
// MAP, MULTISET, VARIANT and BLOB are refused: Java cannot compare the last
// two, and its MAP comparison reads the value array with the key type (a
// Java bug this package does not reproduce). A KeyComparator is immutable and
// safe for concurrent use.
type KeyComparator struct {
	types []schema.DataType
	desc  bool
}

// NewKeyComparator returns the comparator of rows whose fields have the
// given types, ascending. Errors wrap ErrUnsupported.
func NewKeyComparator(types []schema.DataType) (*KeyComparator, error) {
	for _, t := range types {
		if err := checkComparable(t, 0); err != nil {
			return nil, err
		}
	}
	return &KeyComparator{types: append([]schema.DataType(nil), types...)}, nil
}

// newSeqComparator returns the user-defined sequence comparator: the fields
// in the given direction, NULL first in both directions (Java's
// UserDefinedSeqComparator builds its sort spec with nullIsLast = false and
// negates only non-NULL comparisons).
func newSeqComparator(types []schema.DataType, descending bool) (*KeyComparator, error) {
	c, err := NewKeyComparator(types)
	if err != nil {
		return nil, err
	}
	c.desc = descending
	return c, nil
}

// Types returns the field types the comparator was built for.
func (c *KeyComparator) Types() []schema.DataType {
	return append([]schema.DataType(nil), c.types...)
}

func checkComparable(t schema.DataType, depth int) error {
	if depth > 64 {
		return fmt.Errorf("%w: type nested too deeply", ErrUnsupported)
	}
	switch t.Root {
	case schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt,
		schema.Float, schema.Double, schema.Decimal, schema.Char, schema.VarChar,
		schema.Binary, schema.VarBinary, schema.Date, schema.Time, schema.Timestamp,
		schema.TimestampLTZ:
		return nil
	case schema.Array, schema.Vector:
		if t.Element == nil {
			return fmt.Errorf("%w: %s without element type", ErrUnsupported, t.Root)
		}
		return checkComparable(*t.Element, depth+1)
	case schema.Row:
		for _, f := range t.Fields {
			if err := checkComparable(f.Type, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%w: cannot order values of type %s", ErrUnsupported, t.Root)
}

// Compare orders two rows given as format/data values, one per type the
// comparator was built with. Values must be of their field's Go type (as
// binaryrow decodes them); a value of another type compares equal.
func (c *KeyComparator) Compare(a, b []any) int {
	for i := range c.types {
		if r := c.compareField(i, a[i], b[i]); r != 0 {
			return r
		}
	}
	return 0
}

// compareField compares one field, NULL first in either direction.
func (c *KeyComparator) compareField(i int, a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	r := compareValue(&c.types[i], a, b)
	if c.desc {
		return -r
	}
	return r
}

// decodeSerialized decodes a serialized BinaryRow (a manifest's
// _MIN_KEY/_MAX_KEY) with the comparator's types.
func (c *KeyComparator) decodeSerialized(b []byte) ([]any, error) {
	row, err := binaryrow.ParseSerialized(b)
	if err != nil {
		return nil, err
	}
	if row.Arity() != len(c.types) {
		return nil, fmt.Errorf("key row has %d fields, the primary key %d", row.Arity(), len(c.types))
	}
	return row.Values(c.types)
}

// compareValue compares two non-NULL values of type t.
func compareValue(t *schema.DataType, a, b any) int {
	switch x := a.(type) {
	case bool:
		y, _ := b.(bool)
		switch {
		case x == y:
			return 0
		case x:
			return 1
		}
		return -1
	case int8:
		y, _ := b.(int8)
		return cmpNum(x, y)
	case int16:
		y, _ := b.(int16)
		return cmpNum(x, y)
	case int32:
		y, _ := b.(int32)
		return cmpNum(x, y)
	case int64:
		y, _ := b.(int64)
		return cmpNum(x, y)
	case float32:
		y, _ := b.(float32)
		return cmpNum(x, y)
	case float64:
		y, _ := b.(float64)
		return cmpNum(x, y)
	case string:
		y, _ := b.(string)
		return strings.Compare(x, y)
	case []byte:
		y, _ := b.([]byte)
		return bytes.Compare(x, y)
	case data.Decimal:
		y, ok := b.(data.Decimal)
		if !ok || x.Unscaled == nil || y.Unscaled == nil {
			return 0
		}
		return x.Cmp(y)
	case data.Timestamp:
		y, _ := b.(data.Timestamp)
		return x.Compare(y)
	case []any:
		y, _ := b.([]any)
		if t.Root == schema.Row {
			return compareRow(t.Fields, x, y)
		}
		if t.Element == nil {
			return 0
		}
		return compareArray(t.Element, x, y)
	}
	return 0
}

// cmpNum compares with Java's (a > b ? 1 : a < b ? -1 : 0) on primitives.
func cmpNum[T int8 | int16 | int32 | int64 | float32 | float64](a, b T) int {
	if a > b {
		return 1
	}
	if a < b {
		return -1
	}
	return 0
}

// compareArray compares element-wise, NULL elements first, then by length
// (GenerateUtils.generateArrayCompare with nullsIsLast = false).
func compareArray(elem *schema.DataType, a, b []any) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		switch {
		case a[i] == nil && b[i] == nil:
			continue
		case a[i] == nil:
			return -1
		case b[i] == nil:
			return 1
		}
		if r := compareValue(elem, a[i], b[i]); r != 0 {
			return r
		}
	}
	return cmpNum(int64(len(a)), int64(len(b)))
}

// compareRow compares a nested ROW field by field, ascending, NULL first.
func compareRow(fields []schema.DataField, a, b []any) int {
	if len(a) != len(fields) || len(b) != len(fields) {
		return 0
	}
	for i := range fields {
		switch {
		case a[i] == nil && b[i] == nil:
			continue
		case a[i] == nil:
			return -1
		case b[i] == nil:
			return 1
		}
		if r := compareValue(&fields[i].Type, a[i], b[i]); r != 0 {
			return r
		}
	}
	return 0
}

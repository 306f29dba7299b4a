package schema

import (
	"fmt"
	"strings"
)

// The constructors below mirror Java's org.apache.paimon.types.DataTypes
// factory: each returns the nullable variant of the type (Paimon's default);
// call NotNull on the result for the NOT NULL variant. They do not validate
// their parameters (Java's constructors throw); call Validate, or rely on
// the encoders, which refuse invalid types.

// BooleanType returns BOOLEAN.
func BooleanType() DataType { return atomic(Boolean) }

// TinyIntType returns TINYINT (1-byte signed integer).
func TinyIntType() DataType { return atomic(TinyInt) }

// SmallIntType returns SMALLINT (2-byte signed integer).
func SmallIntType() DataType { return atomic(SmallInt) }

// IntType returns INT (4-byte signed integer).
func IntType() DataType { return atomic(Int) }

// BigIntType returns BIGINT (8-byte signed integer).
func BigIntType() DataType { return atomic(BigInt) }

// FloatType returns FLOAT (4-byte IEEE 754).
func FloatType() DataType { return atomic(Float) }

// DoubleType returns DOUBLE (8-byte IEEE 754).
func DoubleType() DataType { return atomic(Double) }

// DecimalType returns DECIMAL(precision, scale); precision must be in
// [1, MaxDecimalPrecision] and scale in [0, precision].
func DecimalType(precision, scale int) DataType {
	return DataType{Root: Decimal, Nullable: true, Precision: precision, Scale: scale}
}

// CharType returns CHAR(length), a fixed-length character string.
func CharType(length int) DataType { return DataType{Root: Char, Nullable: true, Length: length} }

// VarCharType returns VARCHAR(length). VARCHAR(MaxLength) is STRING.
func VarCharType(length int) DataType {
	return DataType{Root: VarChar, Nullable: true, Length: length}
}

// StringType returns STRING, i.e. VARCHAR(MaxLength).
func StringType() DataType { return VarCharType(MaxLength) }

// BinaryType returns BINARY(length), a fixed-length byte string.
func BinaryType(length int) DataType {
	return DataType{Root: Binary, Nullable: true, Length: length}
}

// VarBinaryType returns VARBINARY(length). VARBINARY(MaxLength) is BYTES.
func VarBinaryType(length int) DataType {
	return DataType{Root: VarBinary, Nullable: true, Length: length}
}

// BytesType returns BYTES, i.e. VARBINARY(MaxLength).
func BytesType() DataType { return VarBinaryType(MaxLength) }

// DateType returns DATE (days since 1970-01-01).
func DateType() DataType { return atomic(Date) }

// TimeType returns TIME(precision), precision in [0, MaxTimePrecision]. Paimon
// stores TIME values as milliseconds of the day whatever the precision.
func TimeType(precision int) DataType {
	return DataType{Root: Time, Nullable: true, Precision: precision}
}

// TimestampType returns TIMESTAMP(precision) WITHOUT TIME ZONE, precision in
// [0, MaxTimePrecision].
func TimestampType(precision int) DataType {
	return DataType{Root: Timestamp, Nullable: true, Precision: precision}
}

// TimestampLTZType returns TIMESTAMP(precision) WITH LOCAL TIME ZONE,
// precision in [0, MaxTimePrecision].
func TimestampLTZType(precision int) DataType {
	return DataType{Root: TimestampLTZ, Nullable: true, Precision: precision}
}

// VariantType returns VARIANT (semi-structured value, Paimon 1.1+).
func VariantType() DataType { return atomic(Variant) }

// BlobType returns BLOB (large binary stored out of line, Paimon 1.3+).
func BlobType() DataType { return atomic(Blob) }

// ArrayType returns ARRAY<element>.
func ArrayType(element DataType) DataType {
	return DataType{Root: Array, Nullable: true, Element: &element}
}

// MultisetType returns MULTISET<element>, a bag of elements with counts.
func MultisetType(element DataType) DataType {
	return DataType{Root: Multiset, Nullable: true, Element: &element}
}

// MapType returns MAP<key, value>.
func MapType(key, value DataType) DataType {
	return DataType{Root: Map, Nullable: true, Key: &key, Value: &value}
}

// RowType returns ROW<fields...>. The fields keep the ids they carry; see
// SchemaBuilder for automatic id assignment.
func RowType(fields ...DataField) DataType {
	return DataType{Root: Row, Nullable: true, Fields: fields}
}

// VectorType returns VECTOR<element, length> (Paimon 1.4+), a fixed-length
// array of BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT or DOUBLE.
func VectorType(length int, element DataType) DataType {
	return DataType{Root: Vector, Nullable: true, Length: length, Element: &element}
}

func atomic(r TypeRoot) DataType { return DataType{Root: r, Nullable: true} }

// NewField returns a DataField without description or default value.
func NewField(id int, name string, t DataType) DataField {
	return DataField{ID: id, Name: name, Type: t}
}

// WithDescription returns a copy of f with the given description (Java
// DataField.newDescription).
func (f DataField) WithDescription(description string) DataField {
	f.Description = &description
	return f
}

// WithDefaultValue returns a copy of f with the given default value, a SQL
// literal kept as text (Java DataField.newDefaultValue).
func (f DataField) WithDefaultValue(value string) DataField {
	f.DefaultValue = &value
	return f
}

// NotNull returns a deep copy of t marked NOT NULL (Java DataType.notNull).
func (t DataType) NotNull() DataType { return t.Copy(false) }

// Copy returns a deep copy of t with the top-level nullability replaced (Java
// DataType.copy(boolean)). Children keep their own nullability.
func (t DataType) Copy(nullable bool) DataType {
	c := t.Clone()
	c.Nullable = nullable
	return c
}

// Clone returns a deep copy of t that shares no memory with it, so that the
// copy may be modified freely.
func (t DataType) Clone() DataType {
	c := t
	if t.Element != nil {
		e := t.Element.Clone()
		c.Element = &e
	}
	if t.Key != nil {
		k := t.Key.Clone()
		c.Key = &k
	}
	if t.Value != nil {
		v := t.Value.Clone()
		c.Value = &v
	}
	if t.Fields != nil {
		c.Fields = make([]DataField, len(t.Fields))
		for i, f := range t.Fields {
			c.Fields[i] = f.Clone()
		}
	}
	return c
}

// Clone returns a deep copy of f.
func (f DataField) Clone() DataField {
	c := f
	c.Type = f.Type.Clone()
	if f.Description != nil {
		d := *f.Description
		c.Description = &d
	}
	if f.DefaultValue != nil {
		v := *f.DefaultValue
		c.DefaultValue = &v
	}
	return c
}

// IsNested reports whether t is ARRAY, MULTISET, MAP, ROW or VECTOR.
func (t DataType) IsNested() bool { return t.Root.IsNested() }

// Equal reports whether t and o are the same type, including nullability at
// every level and, for ROW, field ids, names, descriptions and default
// values (Java DataType.equals). Parameters that do not apply to the root
// (a Length on INT, say) are ignored.
func (t DataType) Equal(o DataType) bool { return equalTypes(t, o, true, true) }

// EqualIgnoreNullable reports whether t and o are equal when the top-level
// nullability is ignored. As in Java's equalsIgnoreNullable, only the outer
// level is relaxed: ARRAY<INT> and ARRAY<INT NOT NULL> still differ.
func (t DataType) EqualIgnoreNullable(o DataType) bool { return equalTypes(t, o, false, true) }

// EqualIgnoreFieldIDs reports whether t and o are equal when the ids of ROW
// fields (at any depth) are ignored (Java equalsIgnoreFieldId).
func (t DataType) EqualIgnoreFieldIDs(o DataType) bool { return equalTypes(t, o, true, false) }

// Equal reports whether f and o have the same id, name, type, description and
// default value (Java DataField.equals).
func (f DataField) Equal(o DataField) bool { return equalFields(f, o, true) }

func equalTypes(a, b DataType, nullability, ids bool) bool {
	if a.Root != b.Root || (nullability && a.Nullable != b.Nullable) {
		return false
	}
	switch a.Root {
	case Char, VarChar, Binary, VarBinary:
		return a.Length == b.Length
	case Decimal:
		return a.Precision == b.Precision && a.Scale == b.Scale
	case Time, Timestamp, TimestampLTZ:
		return a.Precision == b.Precision
	case Array, Multiset:
		return equalChild(a.Element, b.Element, ids)
	case Vector:
		return a.Length == b.Length && equalChild(a.Element, b.Element, ids)
	case Map:
		return equalChild(a.Key, b.Key, ids) && equalChild(a.Value, b.Value, ids)
	case Row:
		if len(a.Fields) != len(b.Fields) {
			return false
		}
		for i := range a.Fields {
			if !equalFields(a.Fields[i], b.Fields[i], ids) {
				return false
			}
		}
	}
	return true
}

func equalChild(a, b *DataType, ids bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return equalTypes(*a, *b, true, ids)
}

func equalFields(a, b DataField, ids bool) bool {
	return (!ids || a.ID == b.ID) && a.Name == b.Name &&
		equalTypes(a.Type, b.Type, true, ids) &&
		equalOptString(a.Description, b.Description) &&
		equalOptString(a.DefaultValue, b.DefaultValue)
}

func equalOptString(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// Validate checks t against the parameter ranges Java's type constructors
// enforce, recursively. The error wraps ErrInvalidType and names the type.
func (t DataType) Validate() error { return validateType(t, 0) }

// maxNesting bounds the depth of nested types everywhere in the package, so
// that hostile input cannot exhaust the stack. Real schemas nest a handful of
// levels.
const maxNesting = 512

func validateType(t DataType, depth int) error {
	if depth > maxNesting {
		return fmt.Errorf("%w: types nested deeper than %d levels", ErrInvalidType, maxNesting)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrInvalidType, t.Root, fmt.Sprintf(format, args...))
	}
	switch t.Root {
	case Boolean, TinyInt, SmallInt, Int, BigInt, Float, Double, Date, Variant, Blob:
	case Char, VarChar, Binary, VarBinary:
		if t.Length < 1 || t.Length > MaxLength {
			return bad("length %d is outside [1, %d]", t.Length, MaxLength)
		}
	case Decimal:
		if t.Precision < 1 || t.Precision > MaxDecimalPrecision {
			return bad("precision %d is outside [1, %d]", t.Precision, MaxDecimalPrecision)
		}
		if t.Scale < 0 || t.Scale > t.Precision {
			return bad("scale %d is outside [0, %d]", t.Scale, t.Precision)
		}
	case Time, Timestamp, TimestampLTZ:
		if t.Precision < 0 || t.Precision > MaxTimePrecision {
			return bad("precision %d is outside [0, %d]", t.Precision, MaxTimePrecision)
		}
	case Array, Multiset:
		if t.Element == nil {
			return bad("missing element type")
		}
		return validateType(*t.Element, depth+1)
	case Vector:
		if t.Element == nil {
			return bad("missing element type")
		}
		switch t.Element.Root {
		case Boolean, TinyInt, SmallInt, Int, BigInt, Float, Double:
		default:
			return bad("invalid element type %s (want a boolean or numeric non-decimal type)", t.Element)
		}
		if t.Length < 1 || t.Length > MaxLength {
			return bad("length %d is outside [1, %d]", t.Length, MaxLength)
		}
	case Map:
		if t.Key == nil || t.Value == nil {
			return bad("missing key or value type")
		}
		if err := validateType(*t.Key, depth+1); err != nil {
			return err
		}
		return validateType(*t.Value, depth+1)
	case Row:
		return validateFields(t.Fields, depth+1)
	default:
		return fmt.Errorf("%w: unknown type root %d", ErrInvalidType, int(t.Root))
	}
	return nil
}

// validateFields applies Java RowType.validateFields (names not blank and
// unique) and validates each field's type.
func validateFields(fields []DataField, depth int) error {
	seen := make(map[string]struct{}, len(fields))
	for _, f := range fields {
		if strings.TrimSpace(f.Name) == "" {
			return fmt.Errorf("%w: ROW field names must contain at least one non-whitespace character", ErrInvalidType)
		}
		if _, dup := seen[f.Name]; dup {
			return fmt.Errorf("%w: ROW field name %q is not unique", ErrInvalidType, f.Name)
		}
		seen[f.Name] = struct{}{}
		if err := validateType(f.Type, depth); err != nil {
			return fmt.Errorf("field %q: %w", f.Name, err)
		}
	}
	return nil
}

// FieldNames returns the names of the fields of a ROW type in order (nil for
// other types).
func (t DataType) FieldNames() []string { return fieldNames(t.Fields) }

// FieldIndex returns the position of the ROW field called name, or -1 (Java
// RowType.getFieldIndex).
func (t DataType) FieldIndex(name string) int { return fieldIndex(t.Fields, name) }

// FieldIndexByID returns the position of the ROW field with the given id, or
// -1.
func (t DataType) FieldIndexByID(id int) int { return fieldIndexByID(t.Fields, id) }

// FieldByName returns the ROW field called name.
func (t DataType) FieldByName(name string) (DataField, bool) {
	return fieldAt(t.Fields, fieldIndex(t.Fields, name))
}

// FieldByID returns the ROW field with the given id (top level of this ROW
// only; nested ROWs are not searched).
func (t DataType) FieldByID(id int) (DataField, bool) {
	return fieldAt(t.Fields, fieldIndexByID(t.Fields, id))
}

func fieldNames(fields []DataField) []string {
	if fields == nil {
		return nil
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return names
}

// fieldIndex scans linearly: schemas are small and a scan avoids caching
// state in a value type. With duplicate names the first wins.
func fieldIndex(fields []DataField, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func fieldIndexByID(fields []DataField, id int) int {
	for i, f := range fields {
		if f.ID == id {
			return i
		}
	}
	return -1
}

func fieldAt(fields []DataField, i int) (DataField, bool) {
	if i < 0 {
		return DataField{}, false
	}
	return fields[i], true
}

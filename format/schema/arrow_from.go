package schema

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// FromArrowType maps an Arrow type onto a Paimon type; nullable is the
// nullability of the field that holds it. It is the reverse of ToArrowType,
// used to create tables from Arrow schemas and to check data handed to the
// writers, and accepts a few more Arrow types than ToArrowType produces:
//
//	bool, int8 … int64, float32, float64   BOOLEAN, TINYINT … BIGINT, FLOAT, DOUBLE
//	utf8, large_utf8, utf8_view            STRING
//	binary, binary_view                    BYTES
//	large_binary                           BLOB (as pypaimon)
//	fixed_size_binary(n)                   BINARY(n)
//	decimal32/64/128/256(p, s), p <= 38    DECIMAL(p, s)
//	date32                                 DATE
//	time32[s], time32[ms]                  TIME(0), TIME(3)
//	time64[us], time64[ns]                 TIME(6), TIME(9) (values are stored as milliseconds)
//	timestamp[s|ms|us|ns]                  TIMESTAMP(0|3|6|9); with a time zone TIMESTAMP_LTZ
//	list, large_list                       ARRAY
//	fixed_size_list[n]                     VECTOR<T, n>
//	map                                    MAP
//	struct<value: binary not null,
//	       metadata: binary not null>      VARIANT
//	other struct                           ROW
//	dictionary                             its value type
//
// Unsigned integers, float16, date64, intervals, durations, unions and
// extension types have no lossless Paimon counterpart and are rejected with
// ErrUnsupported. ROW field ids come from ParquetFieldIDKey metadata when
// present, else from the position in the struct (as pypaimon does);
// FromArrowSchema renumbers them to be unique.
//
// Round trips are not exact for every type: MULTISET comes back as
// MAP<T NOT NULL, INT NOT NULL>, map keys come back NOT NULL, TIMESTAMP and
// TIME precisions come back as 0, 3, 6 or 9, CHAR/VARCHAR(n) as STRING and
// BINARY/VARBINARY(n) as BYTES.
func FromArrowType(t arrow.DataType, nullable bool) (DataType, error) {
	return fromArrow(t, nullable, 0)
}

// FromArrowSchema maps an Arrow schema onto table columns. When every field,
// at every depth of struct nesting, carries a ParquetFieldIDKey id, the ids
// are kept, so FromArrowSchema inverts ToArrowSchema. Otherwise ids are
// assigned as Java's Schema.Builder and pypaimon do: each column takes the
// next id, then the ROW fields inside it, children before parents.
func FromArrowSchema(s *arrow.Schema) ([]DataField, error) {
	fields := make([]DataField, 0, s.NumFields())
	for _, af := range s.Fields() {
		t, err := FromArrowType(af.Type, af.Nullable)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", af.Name, err)
		}
		id, _ := arrowFieldID(af)
		fields = append(fields, NewField(id, af.Name, t))
	}
	if allHaveIDs(s.Fields()) {
		return fields, nil
	}
	next := -1
	for i := range fields {
		next++
		fields[i].ID = next
		fields[i].Type = ReassignFieldIDs(fields[i].Type, &next)
	}
	return fields, nil
}

// allHaveIDs reports whether every field and every struct child below it
// carries a field id. List elements and map entries are not Paimon fields
// and need none.
func allHaveIDs(fields []arrow.Field) bool {
	for _, f := range fields {
		if _, ok := arrowFieldID(f); !ok {
			return false
		}
		if !nestedHaveIDs(f.Type) {
			return false
		}
	}
	return true
}

func nestedHaveIDs(t arrow.DataType) bool {
	switch t := t.(type) {
	case *arrow.StructType:
		return allHaveIDs(t.Fields())
	case *arrow.MapType:
		return nestedHaveIDs(t.KeyType()) && nestedHaveIDs(t.ItemType())
	case arrow.ListLikeType:
		return nestedHaveIDs(t.Elem())
	case *arrow.DictionaryType:
		return nestedHaveIDs(t.ValueType)
	}
	return true
}

func arrowFieldID(f arrow.Field) (int, bool) {
	v, ok := f.Metadata.GetValue(ParquetFieldIDKey)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

func fromArrow(t arrow.DataType, nullable bool, depth int) (DataType, error) {
	if depth > maxNesting {
		return DataType{}, fmt.Errorf("%w: types nested deeper than %d levels", ErrUnsupported, maxNesting)
	}
	if t == nil {
		return DataType{}, fmt.Errorf("%w: nil Arrow type", ErrUnsupported)
	}
	dt, err := fromArrowRoot(t, depth)
	if err != nil {
		return DataType{}, err
	}
	dt.Nullable = nullable
	if err := dt.Validate(); err != nil {
		return DataType{}, fmt.Errorf("arrow type %s: %w", t, err)
	}
	return dt, nil
}

func fromArrowRoot(t arrow.DataType, depth int) (DataType, error) {
	switch t.ID() {
	case arrow.BOOL:
		return BooleanType(), nil
	case arrow.INT8:
		return TinyIntType(), nil
	case arrow.INT16:
		return SmallIntType(), nil
	case arrow.INT32:
		return IntType(), nil
	case arrow.INT64:
		return BigIntType(), nil
	case arrow.FLOAT32:
		return FloatType(), nil
	case arrow.FLOAT64:
		return DoubleType(), nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return StringType(), nil
	case arrow.BINARY, arrow.BINARY_VIEW:
		return BytesType(), nil
	case arrow.LARGE_BINARY:
		return BlobType(), nil
	case arrow.FIXED_SIZE_BINARY:
		return BinaryType(t.(*arrow.FixedSizeBinaryType).ByteWidth), nil
	case arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256:
		d := t.(arrow.DecimalType)
		return DecimalType(int(d.GetPrecision()), int(d.GetScale())), nil
	case arrow.DATE32:
		return DateType(), nil
	case arrow.TIME32, arrow.TIME64:
		return TimeType(unitPrecision(t.(arrow.TemporalWithUnit).TimeUnit())), nil
	case arrow.TIMESTAMP:
		ts := t.(*arrow.TimestampType)
		if ts.TimeZone != "" {
			return TimestampLTZType(unitPrecision(ts.Unit)), nil
		}
		return TimestampType(unitPrecision(ts.Unit)), nil
	case arrow.LIST, arrow.LARGE_LIST:
		ef := t.(arrow.ListLikeType).ElemField()
		e, err := fromArrow(ef.Type, ef.Nullable, depth+1)
		if err != nil {
			return DataType{}, err
		}
		return ArrayType(e), nil
	case arrow.FIXED_SIZE_LIST:
		fl := t.(*arrow.FixedSizeListType)
		ef := fl.ElemField()
		e, err := fromArrow(ef.Type, ef.Nullable, depth+1)
		if err != nil {
			return DataType{}, err
		}
		return VectorType(int(fl.Len()), e), nil
	case arrow.MAP:
		m := t.(*arrow.MapType)
		k, err := fromArrow(m.KeyType(), m.KeyField().Nullable, depth+1)
		if err != nil {
			return DataType{}, err
		}
		v, err := fromArrow(m.ItemType(), m.ItemField().Nullable, depth+1)
		if err != nil {
			return DataType{}, err
		}
		return MapType(k, v), nil
	case arrow.STRUCT:
		st := t.(*arrow.StructType)
		if isVariantStruct(st) {
			return VariantType(), nil
		}
		fields := make([]DataField, st.NumFields())
		for i, af := range st.Fields() {
			ft, err := fromArrow(af.Type, af.Nullable, depth+1)
			if err != nil {
				return DataType{}, fmt.Errorf("field %q: %w", af.Name, err)
			}
			id, ok := arrowFieldID(af)
			if !ok {
				id = i
			}
			fields[i] = NewField(id, af.Name, ft)
		}
		return RowType(fields...), nil
	case arrow.DICTIONARY:
		return fromArrowRoot(t.(*arrow.DictionaryType).ValueType, depth+1)
	}
	return DataType{}, fmt.Errorf("%w: no Paimon type for Arrow %s", ErrUnsupported, t)
}

func unitPrecision(u arrow.TimeUnit) int {
	switch u {
	case arrow.Second:
		return 0
	case arrow.Millisecond:
		return 3
	case arrow.Microsecond:
		return 6
	}
	return 9
}

// isVariantStruct recognizes the struct ToArrowType produces for VARIANT:
// exactly value then metadata, both non-nullable binary.
func isVariantStruct(st *arrow.StructType) bool {
	if st.NumFields() != 2 {
		return false
	}
	for i, name := range []string{variantValueName, variantMetadataName} {
		f := st.Field(i)
		if f.Name != name || f.Nullable || f.Type.ID() != arrow.BINARY {
			return false
		}
	}
	return true
}

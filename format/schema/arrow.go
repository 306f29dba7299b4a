package schema

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// ParquetFieldIDKey is the Arrow field-metadata key that carries a Parquet
// field id; arrow-go's pqarrow writes it into the Parquet schema and reads it
// back from there.
const ParquetFieldIDKey = "PARQUET:field_id"

// Element names of nested Arrow types. "element" is the name Java's
// ParquetSchemaConverter gives list elements (LIST_ELEMENT_NAME), so the
// Arrow schema matches what pqarrow reads back from a Java-written file.
const (
	arrowListElementName = "element"
	arrowMapKeyName      = "key"
	arrowMapValueName    = "value"
	variantValueName     = "value"
	variantMetadataName  = "metadata"
)

// ToArrowType maps a Paimon type onto the Arrow type the readers produce and
// the writers consume. The mapping is lossless for every value Paimon can
// store, and aligned with pypaimon 2.0 (PyarrowFieldParser.from_paimon_type)
// and paimon-rust (paimon_type_to_arrow) except where noted:
//
//	BOOLEAN                  bool
//	TINYINT … BIGINT         int8, int16, int32, int64
//	FLOAT, DOUBLE            float32, float64
//	DECIMAL(p, s)            decimal128(p, s)
//	CHAR(n), VARCHAR(n)      utf8
//	BINARY(n), VARBINARY(n)  binary
//	DATE                     date32
//	TIME(p)                  time32[ms]
//	TIMESTAMP(p)             timestamp[ms] if p <= 3, [us] if p <= 6, else [ns]; no time zone
//	TIMESTAMP_LTZ(p)         the same units, time zone "UTC"
//	ARRAY<T>                 list<element: T>
//	MAP<K, V>                map<K, V> (key non-nullable)
//	MULTISET<T>              map<T, int32 not null> (the counts; key non-nullable)
//	ROW<...>                 struct<...>
//	VARIANT                  struct<value: binary not null, metadata: binary not null>
//	BLOB                     large_binary
//	VECTOR<T, n>             fixed_size_list<element: T>[n]
//
// Why these choices:
//
//   - utf8, not large_utf8: 32-bit offsets limit one batch column to 2 GiB of
//     text, which batch sizes never approach; pqarrow, pyarrow and pypaimon
//     all use utf8, so batches interoperate without casts.
//   - binary, not fixed_size_binary, for BINARY(n): Java writes BINARY(n) as
//     a plain Parquet BINARY column (not FIXED_LEN_BYTE_ARRAY) and does not
//     pad values to n bytes, so a fixed width would reject real data;
//     pypaimon and paimon-rust agree.
//   - time32[ms] whatever the precision: Paimon stores TIME as int32
//     milliseconds of the day (Parquet TIME(MILLIS)), so a finer unit would
//     promise digits that do not exist.
//   - timestamp[ms] for p <= 3, including p = 0 (pypaimon and paimon-rust use
//     seconds for p = 0): Java writes p <= 3 as Parquet TIMESTAMP(MILLIS), so
//     this is the unit pqarrow reads, and milliseconds hold every
//     TIMESTAMP(0) value exactly.
//   - TIMESTAMP_LTZ carries time zone "UTC": its values are instants.
//   - MULTISET has no Arrow counterpart; the map of counts is how Java's
//     Parquet writer stores it.
//   - VARIANT and BLOB follow pypaimon and paimon-rust; VARIANT's two
//     children carry field ids 0 and 1 as in Java's Parquet schema.
//
// Nested fields are nullable exactly when their Paimon type is, except map
// keys, which Arrow (and Parquet) require to be non-nullable. ROW fields, and
// VARIANT's children, carry their Paimon field id under ParquetFieldIDKey.
// List elements and map keys and values do not, because their ids derive from
// the enclosing column's id; ToArrowField adds them.
func ToArrowType(t DataType) (arrow.DataType, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return toArrow(t, nil)
}

// ToArrowField maps a Paimon field onto an Arrow field: the field's name,
// ToArrowType of its type, nullable as the type, and metadata
// ParquetFieldIDKey = the field id. Every nested field carries the Parquet
// field id Java's ParquetSchemaConverter assigns it, so that pqarrow writes
// the same ids Java does: ROW fields their own id, list elements and map
// values Integer.MAX_VALUE/4 + id*1024 + depth, map keys
// Integer.MAX_VALUE/4 - id*1024 - depth (Java SpecialFields, 32-bit
// arithmetic), where id is the enclosing column's id and depth counts the
// list/map levels below it.
func ToArrowField(f DataField) (arrow.Field, error) {
	if err := f.Type.Validate(); err != nil {
		return arrow.Field{}, fmt.Errorf("field %q: %w", f.Name, err)
	}
	return toArrowField(f)
}

// ToArrowSchema maps a table's columns onto an Arrow schema with
// ToArrowField. The schema has no metadata of its own.
func ToArrowSchema(fields []DataField) (*arrow.Schema, error) {
	out := make([]arrow.Field, len(fields))
	for i, f := range fields {
		af, err := ToArrowField(f)
		if err != nil {
			return nil, err
		}
		out[i] = af
	}
	return arrow.NewSchema(out, nil), nil
}

// nestedIDs locates a list element or map entry below a column: the column's
// field id and the number of list/map levels in between.
type nestedIDs struct {
	fieldID int32
	depth   int32
}

// Field ids of list elements and map keys/values (Java SpecialFields),
// computed with int32 wrap-around as Java's int arithmetic does.
const (
	structuredFieldIDBase    int32 = 2147483647 / 4
	structuredFieldDepthBase int32 = 1 << 10
)

func arrayElementFieldID(fieldID, depth int32) int32 {
	return structuredFieldIDBase + fieldID*structuredFieldDepthBase + depth
}

func mapKeyFieldID(fieldID, depth int32) int32 {
	return structuredFieldIDBase - fieldID*structuredFieldDepthBase - depth
}

func mapValueFieldID(fieldID, depth int32) int32 {
	return structuredFieldIDBase + fieldID*structuredFieldDepthBase + depth
}

func fieldIDMetadata(id int32) arrow.Metadata {
	return arrow.NewMetadata([]string{ParquetFieldIDKey}, []string{strconv.Itoa(int(id))})
}

func toArrowField(f DataField) (arrow.Field, error) {
	at, err := toArrow(f.Type, &nestedIDs{fieldID: int32(f.ID)})
	if err != nil {
		return arrow.Field{}, fmt.Errorf("field %q: %w", f.Name, err)
	}
	return arrow.Field{Name: f.Name, Type: at, Nullable: f.Type.Nullable, Metadata: fieldIDMetadata(int32(f.ID))}, nil
}

// nestedField builds the Arrow field of a list element or map key/value; id
// computes its field id when ids is known.
func nestedField(name string, t DataType, ids *nestedIDs, id func(fieldID, depth int32) int32) (arrow.Field, error) {
	var child *nestedIDs
	var md arrow.Metadata
	if ids != nil {
		child = &nestedIDs{fieldID: ids.fieldID, depth: ids.depth + 1}
		md = fieldIDMetadata(id(child.fieldID, child.depth))
	}
	at, err := toArrow(t, child)
	if err != nil {
		return arrow.Field{}, err
	}
	return arrow.Field{Name: name, Type: at, Nullable: t.Nullable, Metadata: md}, nil
}

func toArrow(t DataType, ids *nestedIDs) (arrow.DataType, error) {
	switch t.Root {
	case Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case TinyInt:
		return arrow.PrimitiveTypes.Int8, nil
	case SmallInt:
		return arrow.PrimitiveTypes.Int16, nil
	case Int:
		return arrow.PrimitiveTypes.Int32, nil
	case BigInt:
		return arrow.PrimitiveTypes.Int64, nil
	case Float:
		return arrow.PrimitiveTypes.Float32, nil
	case Double:
		return arrow.PrimitiveTypes.Float64, nil
	case Decimal:
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}, nil
	case Char, VarChar:
		return arrow.BinaryTypes.String, nil
	case Binary, VarBinary:
		return arrow.BinaryTypes.Binary, nil
	case Blob:
		return arrow.BinaryTypes.LargeBinary, nil
	case Date:
		return arrow.FixedWidthTypes.Date32, nil
	case Time:
		return arrow.FixedWidthTypes.Time32ms, nil
	case Timestamp, TimestampLTZ:
		ts := &arrow.TimestampType{Unit: timestampUnit(t.Precision)}
		if t.Root == TimestampLTZ {
			ts.TimeZone = "UTC"
		}
		return ts, nil
	case Variant:
		return variantArrowType(), nil
	case Array:
		elem, err := nestedField(arrowListElementName, *t.Element, ids, arrayElementFieldID)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(elem), nil
	case Vector:
		elem, err := nestedField(arrowListElementName, *t.Element, ids, arrayElementFieldID)
		if err != nil {
			return nil, err
		}
		return arrow.FixedSizeListOfField(int32(t.Length), elem), nil
	case Map, Multiset:
		var key, value DataType
		if t.Root == Map {
			key, value = *t.Key, *t.Value
		} else {
			key, value = *t.Element, IntType().NotNull()
		}
		kf, err := nestedField(arrowMapKeyName, key.Copy(false), ids, mapKeyFieldID)
		if err != nil {
			return nil, err
		}
		vf, err := nestedField(arrowMapValueName, value, ids, mapValueFieldID)
		if err != nil {
			return nil, err
		}
		return arrow.MapOfFields(kf, vf), nil
	case Row:
		fields := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			af, err := toArrowField(f)
			if err != nil {
				return nil, err
			}
			fields[i] = af
		}
		return arrow.StructOf(fields...), nil
	}
	return nil, fmt.Errorf("%w: no Arrow type for %s", ErrUnsupported, t.Root)
}

func timestampUnit(precision int) arrow.TimeUnit {
	switch {
	case precision <= 3:
		return arrow.Millisecond
	case precision <= 6:
		return arrow.Microsecond
	}
	return arrow.Nanosecond
}

// variantArrowType is VARIANT's struct, laid out as Java's Parquet writer
// lays out the group: value (id 0) then metadata (id 1), both required.
func variantArrowType() arrow.DataType {
	return arrow.StructOf(
		arrow.Field{Name: variantValueName, Type: arrow.BinaryTypes.Binary, Metadata: fieldIDMetadata(0)},
		arrow.Field{Name: variantMetadataName, Type: arrow.BinaryTypes.Binary, Metadata: fieldIDMetadata(1)},
	)
}

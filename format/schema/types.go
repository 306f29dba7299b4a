package schema

// TypeRoot identifies the kind of a DataType, mirroring Java Paimon's
// org.apache.paimon.types.DataTypeRoot.
type TypeRoot int

// The type roots Paimon defines. The zero value is invalid so that an
// uninitialised DataType is never mistaken for a real type.
const (
	InvalidRoot TypeRoot = iota
	Boolean
	TinyInt
	SmallInt
	Int
	BigInt
	Float
	Double
	Decimal
	Char
	VarChar
	Binary
	VarBinary
	Date
	Time
	Timestamp    // TIMESTAMP(p) WITHOUT TIME ZONE
	TimestampLTZ // TIMESTAMP(p) WITH LOCAL TIME ZONE
	Array
	Multiset
	Map
	Row
	Variant
	Blob
	Vector
)

// Length and precision limits, as in Java Paimon's VarCharType, DecimalType,
// TimestampType and friends.
const (
	MaxLength           = 2147483647 // VARCHAR/VARBINARY(MaxLength) print as STRING/BYTES
	MaxDecimalPrecision = 38
	MaxTimePrecision    = 9
	// DefaultTimestampPrecision is the precision of TIMESTAMP without
	// parameters (Java TimestampType.DEFAULT_PRECISION).
	DefaultTimestampPrecision = 6
)

// DataType is one Paimon logical type with its parameters. It is a plain
// value: compare with Equal, copy freely. Which parameters are meaningful
// depends on Root:
//
//   - Length: CHAR, VARCHAR, BINARY, VARBINARY (and VECTOR's length)
//   - Precision, Scale: DECIMAL; Precision alone: TIME, TIMESTAMP, TIMESTAMP_LTZ
//   - Element: ARRAY, MULTISET, VECTOR
//   - Key, Value: MAP
//   - Fields: ROW
//
// Nullable is true for the nullable variant, which is the default in Paimon's
// type strings (NOT NULL is an explicit suffix).
type DataType struct {
	Root      TypeRoot
	Nullable  bool
	Length    int
	Precision int
	Scale     int
	Element   *DataType
	Key       *DataType
	Value     *DataType
	Fields    []DataField
}

// DataField is one named, numbered field of a ROW type or of a table schema
// (Java org.apache.paimon.types.DataField). Field ids are stable across schema
// evolution; readers map data files to the current schema by id.
type DataField struct {
	ID           int
	Name         string
	Type         DataType
	Description  *string
	DefaultValue *string
}

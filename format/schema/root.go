package schema

import "strconv"

// rootNames are the names String prints for each TypeRoot: the keyword of the
// type in Paimon's type strings (TIMESTAMP_LTZ for the local-zoned timestamp).
var rootNames = [...]string{
	InvalidRoot:  "INVALID",
	Boolean:      "BOOLEAN",
	TinyInt:      "TINYINT",
	SmallInt:     "SMALLINT",
	Int:          "INT",
	BigInt:       "BIGINT",
	Float:        "FLOAT",
	Double:       "DOUBLE",
	Decimal:      "DECIMAL",
	Char:         "CHAR",
	VarChar:      "VARCHAR",
	Binary:       "BINARY",
	VarBinary:    "VARBINARY",
	Date:         "DATE",
	Time:         "TIME",
	Timestamp:    "TIMESTAMP",
	TimestampLTZ: "TIMESTAMP_LTZ",
	Array:        "ARRAY",
	Multiset:     "MULTISET",
	Map:          "MAP",
	Row:          "ROW",
	Variant:      "VARIANT",
	Blob:         "BLOB",
	Vector:       "VECTOR",
}

// String returns the type keyword of the root, e.g. "INT" or "TIMESTAMP_LTZ".
func (r TypeRoot) String() string {
	if r >= 0 && int(r) < len(rootNames) {
		return rootNames[r]
	}
	return "TypeRoot(" + strconv.Itoa(int(r)) + ")"
}

// IsValid reports whether r is one of the defined roots (not InvalidRoot).
func (r TypeRoot) IsValid() bool { return r > InvalidRoot && int(r) < len(rootNames) }

// IsNested reports whether r is a constructed type (Java
// DataTypeFamily.CONSTRUCTED): ARRAY, MULTISET, MAP, ROW or VECTOR. Such types
// have child types and may not be bucket keys.
func (r TypeRoot) IsNested() bool {
	switch r {
	case Array, Multiset, Map, Row, Vector:
		return true
	}
	return false
}

// IsCharacterString reports whether r is CHAR or VARCHAR.
func (r TypeRoot) IsCharacterString() bool { return r == Char || r == VarChar }

// IsBinaryString reports whether r is BINARY or VARBINARY.
func (r TypeRoot) IsBinaryString() bool { return r == Binary || r == VarBinary }

// IsIntegerNumeric reports whether r is TINYINT, SMALLINT, INT or BIGINT.
func (r TypeRoot) IsIntegerNumeric() bool {
	return r == TinyInt || r == SmallInt || r == Int || r == BigInt
}

// IsNumeric reports whether r is an integer, FLOAT, DOUBLE or DECIMAL.
func (r TypeRoot) IsNumeric() bool {
	return r.IsIntegerNumeric() || r == Float || r == Double || r == Decimal
}

// IsTimestamp reports whether r is TIMESTAMP or TIMESTAMP_LTZ.
func (r TypeRoot) IsTimestamp() bool { return r == Timestamp || r == TimestampLTZ }

package binaryrow

import (
	"fmt"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Layout constants mirroring Java BinaryRow and BinarySection.
const (
	// headerBits is the number of bits in front of the null flags: the
	// RowKind byte (Java BinaryRow.HEADER_SIZE_IN_BITS).
	headerBits = 8
	// maxInline is the longest string/binary kept inside its slot (Java
	// BinarySection.MAX_FIX_PART_DATA_SIZE).
	maxInline = 7
	// inlineMark is the slot bit that flags inline data (Java
	// BinarySection.HIGHEST_FIRST_BIT).
	inlineMark = uint64(1) << 63
	// maxSectionSize bounds a row: offsets are Java ints.
	maxSectionSize = 1<<31 - 1
)

// nullBitsWidth returns the size in bytes of a row's header plus null flags
// (Java BinaryRow.calculateBitSetWidthInBytes).
func nullBitsWidth(arity int) int { return ((arity + 63 + headerBits) / 64) * 8 }

// FixedPartSize returns the size in bytes of the fixed part of a row with the
// given arity, which is also the size of a row without variable-length data
// (Java BinaryRow.calculateFixPartSizeInBytes).
func FixedPartSize(arity int) int { return nullBitsWidth(arity) + 8*arity }

// arrayHeaderSize returns the size of a BinaryArray's element count plus
// null flags (Java BinaryArray.calculateHeaderInBytes).
func arrayHeaderSize(n int) int { return 4 + ((n+31)/32)*4 }

// round8 rounds n up to a multiple of 8 (Java
// AbstractBinaryWriter.roundNumberOfBytesToNearestWord).
func round8(n int) int { return (n + 7) &^ 7 }

// elemSize returns the width of one element in a BinaryArray's fixed part
// (Java BinaryArray.calculateFixLengthPartSize).
func elemSize(t *schema.DataType) (int, error) {
	switch t.Root {
	case schema.Boolean, schema.TinyInt:
		return 1, nil
	case schema.SmallInt:
		return 2, nil
	case schema.Int, schema.Float, schema.Date, schema.Time:
		return 4, nil
	case schema.BigInt, schema.Double, schema.Decimal, schema.Char, schema.VarChar,
		schema.Binary, schema.VarBinary, schema.Timestamp, schema.TimestampLTZ,
		schema.Array, schema.Multiset, schema.Map, schema.Row, schema.Variant, schema.Blob:
		return 8, nil
	}
	return 0, fmt.Errorf("%w: %s as array element", ErrType, rootName(t.Root))
}

// vectorElemSize returns the width of one VECTOR element (Java
// BinaryVector.getPrimitiveElementSize).
func vectorElemSize(t *schema.DataType) (int, error) {
	switch t.Root {
	case schema.Boolean, schema.TinyInt:
		return 1, nil
	case schema.SmallInt:
		return 2, nil
	case schema.Int, schema.Float:
		return 4, nil
	case schema.BigInt, schema.Double:
		return 8, nil
	}
	return 0, fmt.Errorf("%w: %s as vector element", ErrType, rootName(t.Root))
}

// isCompactDecimal reports whether a DECIMAL of this precision lives in its
// slot as an int64 (Java Decimal.isCompact).
func isCompactDecimal(precision int) bool { return precision <= data.CompactDecimalMaxPrecision }

// isCompactTimestamp reports whether a TIMESTAMP of this precision lives in
// its slot as epoch millis (Java Timestamp.isCompact).
func isCompactTimestamp(precision int) bool {
	return precision <= data.CompactTimestampMaxPrecision
}

// reservesNull reports whether Java keeps a variable-part area for a NULL
// of this type in a row (RowHelper.writeNulls, AbstractBinaryWriter): the
// non-compact DECIMAL and TIMESTAMP types.
func reservesNull(t *schema.DataType) (size int, ok bool) {
	switch t.Root {
	case schema.Decimal:
		if !isCompactDecimal(t.Precision) {
			return 16, true
		}
	case schema.Timestamp, schema.TimestampLTZ:
		if !isCompactTimestamp(t.Precision) {
			return 8, true
		}
	}
	return 0, false
}

var rootNames = [...]string{
	schema.InvalidRoot:  "INVALID",
	schema.Boolean:      "BOOLEAN",
	schema.TinyInt:      "TINYINT",
	schema.SmallInt:     "SMALLINT",
	schema.Int:          "INT",
	schema.BigInt:       "BIGINT",
	schema.Float:        "FLOAT",
	schema.Double:       "DOUBLE",
	schema.Decimal:      "DECIMAL",
	schema.Char:         "CHAR",
	schema.VarChar:      "VARCHAR",
	schema.Binary:       "BINARY",
	schema.VarBinary:    "VARBINARY",
	schema.Date:         "DATE",
	schema.Time:         "TIME",
	schema.Timestamp:    "TIMESTAMP",
	schema.TimestampLTZ: "TIMESTAMP_LTZ",
	schema.Array:        "ARRAY",
	schema.Multiset:     "MULTISET",
	schema.Map:          "MAP",
	schema.Row:          "ROW",
	schema.Variant:      "VARIANT",
	schema.Blob:         "BLOB",
	schema.Vector:       "VECTOR",
}

// rootName names a type root for error messages without depending on the
// schema package's printer.
func rootName(r schema.TypeRoot) string {
	if r >= 0 && int(r) < len(rootNames) {
		return rootNames[r]
	}
	return fmt.Sprintf("TypeRoot(%d)", int(r))
}

// Package schema is Paimon's type system and table-schema metadata: the
// counterpart of Java Paimon's org.apache.paimon.types and
// org.apache.paimon.schema packages (paimon-api, release 1.4.2).
//
// # Types
//
// A DataType is a plain value describing one Paimon logical type. Build one
// with the constructors (IntType, DecimalType, ArrayType, RowType, ...), which
// return the nullable variant exactly like Java's DataTypes factory, and chain
// NotNull for the NOT NULL variant:
//
//	t := schema.MapType(schema.StringType().NotNull(), schema.DecimalType(10, 2))
//	t.String() // "MAP<STRING NOT NULL, DECIMAL(10, 2)>"
//
// DataType.String is Java's asSQLString, character for character. ParseType
// reads the same strings back, with every alias and default Java's
// DataTypeJsonParser accepts.
//
// # JSON
//
// DataType, DataField, Schema and TableSchema encode and decode exactly as
// Java Paimon's JsonSerdeUtil does: atomic types are JSON strings, ARRAY,
// MULTISET, MAP, ROW and VECTOR are objects. TableSchema.Encode produces the
// bytes of a schema/schema-N file the way Java writes them (Jackson's default
// pretty printer), so Go-written files diff cleanly against Java-written ones.
//
// # Arrow
//
// ToArrowType, ToArrowField and ToArrowSchema map Paimon types onto Arrow
// types for the readers and writers; FromArrowType and FromArrowSchema go the
// other way. The mapping is aligned with pypaimon and paimon-rust; the doc of
// ToArrowType lists every choice and its reason.
//
// # Errors
//
// Decoders never panic on bad input. Their errors wrap ErrCorrupt; a bad type
// string additionally wraps ErrInvalidType.
package schema

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
// # Table definitions
//
// Schema is the one table definition of this module, which paimon.CreateTable
// and every catalog's CreateTable take. Make it with NewSchemaBuilder (which
// numbers the fields as Java's Schema.Builder does), DecodeSchema (Paimon's
// schema JSON, field ids optional) or a literal (AssignFieldIDs numbers its
// fields). TableSchema is one version of a table's schema, the content of a
// schema/schema-N file; NewTableSchema makes schema 0 of a new table.
//
// Java writes a schema's options in the iteration order of a
// java.util.HashMap, which depends on the order they were given in. Schema
// and TableSchema carry that order (internal/javacompat replays the
// HashMap), so the files written here are byte for byte Java's;
// TableSchema.OptionOrder and WithOptionOrder let schema changes keep it.
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
// Decoders never panic on bad input. Their errors wrap ErrCorrupt (a bad
// type string additionally wraps ErrInvalidType), except DecodeSchema's,
// which reads a definition a user wrote and wraps ErrInvalidSchema.
package schema

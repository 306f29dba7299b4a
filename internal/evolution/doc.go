// Package evolution reads Paimon data written under an older schema as the
// current one, by field id, with Java Paimon's casting semantics.
//
// Every data file records the id of the schema it was written with. After
// ALTER TABLE the current schema may have added, dropped, renamed, reordered
// or retyped columns (also inside ROW, ARRAY and MAP types). Java's read path
// (org.apache.paimon.schema.SchemaEvolutionUtil with the
// org.apache.paimon.casting rules, applied by FormatReaderMapping in
// RawFileSplitRead and KeyValueFileReaderFactory) maps the file's fields onto
// the table's:
//
//   - fields are matched by id, never by name, so a renamed field keeps its
//     data and a dropped-then-re-added name reads as a new, empty column;
//   - a table field whose id the file lacks reads as all NULL;
//   - a file field the table no longer has is not read;
//   - a field whose type changed is converted value by value with the cast
//     Java's CastExecutors resolves for (file type, table type): the same
//     overflow, truncation, padding, rounding (HALF_UP) and parse rules;
//   - ROW types evolve recursively by field id, ARRAY elements and MAP
//     values recursively by type; MAP keys must not change.
//
// # Use
//
// New builds a Mapping from the fields the caller wants (the current schema,
// possibly projected) and the fields of the file's schema. FileFields lists
// what to ask the file reader for (file names and file types, nested ROWs
// pruned to the requested sub-fields, as Java's FormatReaderMapping does);
// Apply turns each batch the reader yields into a batch of the table's
// fields, with the Arrow schema schema.ToArrowSchema gives for them.
//
// Fields are matched by id only, so primary-key data files work the same
// way: pass the key columns (_KEY_-prefixed, ids offset by Java's
// SpecialFields.KEY_FIELD_ID_START) and the system columns (_SEQUENCE_NUMBER,
// _VALUE_KIND) in both field lists when they are wanted.
//
// CastValue evolves a single value of the format/data model; the scan
// planner uses it for min/max statistics, and it refuses (ok = false) exactly
// where Java stops filtering a field by statistics after a type change
// (SimpleStatsEvolutions.filterUnsafeFilter).
//
// # Time zones
//
// A few Java casts involving TIMESTAMP_LTZ (TIMESTAMP <-> TIMESTAMP_LTZ,
// TIMESTAMP_LTZ -> DATE/TIME/STRING, DATE/TIME/STRING/INT/BIGINT ->
// TIMESTAMP_LTZ) read the JVM's default time zone. Options.Location stands in
// for it; the default is time.Local.
package evolution

// Package jackson writes JSON byte for byte as Java's Jackson does.
//
// Java Paimon writes its schema, snapshot, tag, statistics and consumer files
// through JsonSerdeUtil.toJson, an ObjectMapper (shaded Jackson 2.14) with
// Jackson's DefaultPrettyPrinter, and type JSON through toFlatJson, the same
// mapper without a pretty printer. Reproducing that output exactly — layout,
// separators and string escaping — keeps the files we write diff-identical to
// Java's, so tables written by either side compare equal byte for byte and the
// interop golden tests can check our encoders against Java-written files.
//
// Only the writing half lives here; each format package decodes with
// encoding/json and its own member-by-member helpers.
package jackson

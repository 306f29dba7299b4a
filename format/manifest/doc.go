// Package manifest reads and writes Paimon's Avro metadata files: manifest
// lists (ManifestFileMeta records), manifests (ManifestEntry records, each
// holding a DataFileMeta and its SimpleStats) and index manifests
// (IndexManifestEntry records). It mirrors the Java classes of the same names
// in org.apache.paimon.manifest, org.apache.paimon.io and
// org.apache.paimon.index (Paimon 1.4.2).
//
// # Reading
//
// [ReadManifestList], [ReadManifest] and [ReadIndexManifest] decode a whole
// file; [NewManifestListReader], [NewManifestReader] and
// [NewIndexManifestReader] stream it. They accept files written by Java
// Paimon 1.4.2, by older Java versions (fields added later read as null, and
// the nullable records of Paimon before 0.9 are accepted) and by pypaimon
// (other record names, no _MIN_BUCKET.._MAX_LEVEL fields). A record with a
// _VERSION this package does not know is rejected with an error wrapping
// [ErrUnsupportedVersion]; bad bytes give an error wrapping [ErrCorrupt].
// Errors do not name the file: callers add the path they read from.
//
// Manifest entries, one per data file and the bulk of what planning reads,
// are decoded by code compiled once per writer schema rather than by
// reflection, and the bytes fields of the entries of one Avro block are
// views of one copy of that block. [ReadManifestN] takes
// the entry count the manifest list records, so that the result is
// allocated once. [RefMerger] merges the ADD and DELETE entries of many
// manifests by reference, without copying them.
//
// # Writing
//
// [WriteManifestList], [WriteManifest] and [WriteIndexManifest] write the
// exact Avro schemas Java Paimon 1.4.2 writes (same field order, types,
// defaults and record names), with _VERSION 2, 2 and 1.
//
// # Values
//
// BinaryRow-valued fields (partitions, min/max keys, stats min/max values)
// stay as the serialized bytes found in the file: a 4-byte big-endian arity
// followed by the row (Java SerializationUtils.serializeBinaryRow). Decoding
// them needs the table schema and is left to the BinaryRow package.
//
// Nullable Avro fields are pointers or slices, and nil means null, so null
// and empty stay distinct (_VALUE_STATS_COLS null means "all columns", []
// means "none"). NOT NULL slice fields are written as empty arrays when nil.
//
// _CREATION_TIME is kept as the stored number: milliseconds of the writer's
// local wall clock read as if it were UTC (Java writes
// Timestamp.fromLocalDateTime(LocalDateTime.now())). See
// [DataFileMeta.CreationTimeIn] and [CreationTimeMillis].
package manifest

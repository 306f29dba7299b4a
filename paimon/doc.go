// Package paimon is the table core of paimon-go: it locates and decodes a
// table's files and (as the library grows) plans scans, reads splits into
// Arrow record batches, and writes and commits data.
//
// # Table metadata
//
// TableMeta reads the metadata files of one table directory — schemas,
// snapshots and their hints, tags, manifest lists, manifests, index manifests
// and index files — through an fs.FS, with the layout Java Paimon uses
// (SnapshotManager, SchemaManager, TagManager, FileStorePathFactory). Every
// decoding failure is a *CorruptError naming the file and wrapping ErrCorrupt;
// a missing file is an *io/fs.PathError wrapping io/fs.ErrNotExist, or one of
// the Err*NotFound sentinels where the caller asked by id or name.
package paimon

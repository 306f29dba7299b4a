package manifest

import "errors"

// ErrCorrupt is wrapped by every error caused by unreadable bytes: a damaged
// Avro container, a writer schema that cannot hold these records, or field
// values outside their domain (an unknown _KIND, a missing file name).
var ErrCorrupt = errors.New("manifest: corrupt file")

// ErrUnsupportedVersion is wrapped when a record's _VERSION is not the one
// this package reads (2 for manifest entries and manifest list entries, 1 for
// index manifest entries). Version 1 manifests come from Flink Table Store,
// before Paimon 0.4; Java refuses them too and asks to recreate the table.
var ErrUnsupportedVersion = errors.New("manifest: unsupported version")

// ErrInvalid is wrapped when a value passed to a writer cannot be written:
// an unknown FileKind or FileSource, an empty file name, or a value Java
// Paimon could not read back (a BinaryRow field without its arity prefix, a
// null _NULL_COUNTS array).
var ErrInvalid = errors.New("manifest: invalid value")

// ErrDuplicateAdd is wrapped by MergeEntries when the same file is added
// twice (Java FileEntry.mergeEntries fails the same way).
var ErrDuplicateAdd = errors.New("manifest: file added twice")

package manifest

import "strconv"

// FileKind says whether a manifest entry adds or deletes a file (Java
// org.apache.paimon.manifest.FileKind). It is stored as the TINYINT _KIND.
type FileKind int8

// File kinds with their stored values.
const (
	FileKindAdd    FileKind = 0
	FileKindDelete FileKind = 1
)

// Valid reports whether k is one of the known kinds.
func (k FileKind) Valid() bool { return k == FileKindAdd || k == FileKindDelete }

// String returns "ADD" or "DELETE" like the Java enum, or the number.
func (k FileKind) String() string {
	switch k {
	case FileKindAdd:
		return "ADD"
	case FileKindDelete:
		return "DELETE"
	default:
		return "FileKind(" + strconv.Itoa(int(k)) + ")"
	}
}

// FileSource says why a data file was written (Java
// org.apache.paimon.manifest.FileSource), stored as the nullable TINYINT
// _FILE_SOURCE (null for files written before Paimon 0.9).
type FileSource int8

// File sources with their stored values.
const (
	// FileSourceAppend marks a file of newly written data.
	FileSourceAppend FileSource = 0
	// FileSourceCompact marks a file produced by compaction.
	FileSourceCompact FileSource = 1
)

// Valid reports whether s is one of the known sources.
func (s FileSource) Valid() bool { return s == FileSourceAppend || s == FileSourceCompact }

// String returns "APPEND" or "COMPACT" like the Java enum, or the number.
func (s FileSource) String() string {
	switch s {
	case FileSourceAppend:
		return "APPEND"
	case FileSourceCompact:
		return "COMPACT"
	default:
		return "FileSource(" + strconv.Itoa(int(s)) + ")"
	}
}

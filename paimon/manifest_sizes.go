package paimon

import (
	"fmt"

	"github.com/paimon-go/paimon-go/format/snapshot"
)

// Recorded sizes of manifest files.
//
// An Avro container cut right after one of its sync markers is itself a
// valid, shorter container, so a manifest list or manifest truncated there
// would decode without error and silently lose entries: lost ADD entries
// hide rows, lost DELETE entries bring deleted rows back. Paimon records the
// length of both kinds where they are referenced, and Java reads them with
// that length (ObjectsFile.read(fileName, fileSize)), so a shorter file
// fails there:
//
//   - a snapshot records its manifest lists' sizes (Java
//     Snapshot.baseManifestListSize, deltaManifestListSize and
//     changelogManifestListSize; absent in snapshots written before Paimon 1.1,
//     so then nothing is checked);
//   - a manifest list records each manifest's size
//     (ManifestFileMeta.fileSize, always present).
//
// Index manifests have no recorded size (Snapshot.indexManifest is a bare
// name in Java 1.4 and 2.0), and an empty one is legitimate (after a full
// compaction drops every deletion vector, say), so a cut at one of their
// block boundaries cannot be detected; it is a limit of the format.
//
// The check costs no I/O: the length compared is that of the bytes read,
// which fs.ReadFile sizes from the open file. It runs after decoding, so a
// file that does not decode is reported with the decoder's more specific
// error (an unsupported format version, say).

// manifestListRef is a manifest list a snapshot names and the size it
// records for it (nil when it records none).
type manifestListRef struct {
	name string
	size *int64
}

// dataManifestLists returns the base and delta manifest lists of s, in that
// order.
func dataManifestLists(s *snapshot.Snapshot) []manifestListRef {
	return []manifestListRef{
		{s.BaseManifestList, s.BaseManifestListSize},
		{s.DeltaManifestList, s.DeltaManifestListSize},
	}
}

// allManifestLists returns every manifest list s names: base, delta and,
// when set, changelog.
func allManifestLists(s *snapshot.Snapshot) []manifestListRef {
	out := dataManifestLists(s)
	if s.ChangelogManifestList != nil {
		out = append(out, manifestListRef{*s.ChangelogManifestList, s.ChangelogManifestListSize})
	}
	return out
}

// checkRecordedSize fails with ErrCorrupt naming path when the file's
// length differs from the size recorder records for it. A recorded size of
// 0 or less means unknown. A longer file is refused too: manifest files
// are never appended to, so it is not the file that was referenced.
func checkRecordedSize(path string, length int, recorded int64, recorder string) error {
	if recorded <= 0 || int64(length) == recorded {
		return nil
	}
	return corrupt(path, fmt.Errorf("the file has %d bytes, %s records %d", length, recorder, recorded))
}

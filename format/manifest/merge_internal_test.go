package manifest

import (
	"hash/maphash"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSameFileMatchesIdentifier checks the merge index's comparison against
// Identifier equality over entries that differ in one identifier field at a
// time, nil and empty values included.
func TestSameFileMatchesIdentifier(t *testing.T) {
	ext, empty := "s3://x/f", ""
	base := func() ManifestEntry {
		return ManifestEntry{Partition: []byte{0, 0, 0, 1}, Bucket: 1, File: DataFileMeta{FileName: "f", Level: 2}}
	}
	variants := []func(e *ManifestEntry){
		func(*ManifestEntry) {},
		func(e *ManifestEntry) { e.Partition = nil },
		func(e *ManifestEntry) { e.Partition = []byte{} },
		func(e *ManifestEntry) { e.Partition = []byte{0, 0, 0, 2} },
		func(e *ManifestEntry) { e.Bucket = 2 },
		func(e *ManifestEntry) { e.File.Level = 0 },
		func(e *ManifestEntry) { e.File.FileName = "g" },
		func(e *ManifestEntry) { e.File.ExtraFiles = []string{} },
		func(e *ManifestEntry) { e.File.ExtraFiles = []string{"a"} },
		func(e *ManifestEntry) { e.File.ExtraFiles = []string{"a", "b"} },
		func(e *ManifestEntry) { e.File.ExtraFiles = []string{"ab"} },
		func(e *ManifestEntry) { e.File.EmbeddedIndex = []byte{} },
		func(e *ManifestEntry) { e.File.EmbeddedIndex = []byte{1} },
		func(e *ManifestEntry) { e.File.ExternalPath = &empty },
		func(e *ManifestEntry) { e.File.ExternalPath = &ext },
		// Fields outside the identifier.
		func(e *ManifestEntry) { e.Kind = FileKindDelete; e.TotalBuckets = 9; e.File.RowCount = 3 },
	}
	seed := maphash.MakeSeed()
	for i, vi := range variants {
		for j, vj := range variants {
			a, b := base(), base()
			vi(&a)
			vj(&b)
			same := a.Identifier() == b.Identifier()
			require.Equal(t, same, sameFile(&a, &b), "variants %d and %d", i, j)
			if same {
				require.Equal(t, fileHash(seed, &a), fileHash(seed, &b), "variants %d and %d", i, j)
			}
		}
	}
}

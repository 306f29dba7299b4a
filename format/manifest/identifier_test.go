package manifest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

func TestIdentifier(t *testing.T) {
	base := fullEntry()
	id := base.Identifier()
	require.Equal(t, base.Partition, id.Partition())
	require.Equal(t, base.Bucket, id.Bucket())
	require.Equal(t, base.File.Level, id.Level())
	require.Equal(t, base.File.FileName, id.FileName())
	require.Equal(t, base.File.ExtraFiles, id.ExtraFiles())
	require.Equal(t, base.File.EmbeddedIndex, id.EmbeddedIndex())
	p, ok := id.ExternalPath()
	require.True(t, ok)
	require.Equal(t, *base.File.ExternalPath, p)

	// Fields outside the identifier do not matter.
	other := fullEntry()
	other.Kind = manifest.FileKindDelete
	other.File.RowCount = 1
	other.TotalBuckets = 99
	require.Equal(t, id, other.Identifier())

	mutations := map[string]func(e *manifest.ManifestEntry){
		"partition":             func(e *manifest.ManifestEntry) { e.Partition = row(1) },
		"bucket":                func(e *manifest.ManifestEntry) { e.Bucket++ },
		"level":                 func(e *manifest.ManifestEntry) { e.File.Level++ },
		"file name":             func(e *manifest.ManifestEntry) { e.File.FileName += "x" },
		"extra files":           func(e *manifest.ManifestEntry) { e.File.ExtraFiles = append(e.File.ExtraFiles, "") },
		"extra files split":     func(e *manifest.ManifestEntry) { e.File.ExtraFiles = []string{"data-", "x.index"} },
		"embedded index null":   func(e *manifest.ManifestEntry) { e.File.EmbeddedIndex = nil },
		"embedded index empty":  func(e *manifest.ManifestEntry) { e.File.EmbeddedIndex = []byte{} },
		"external path null":    func(e *manifest.ManifestEntry) { e.File.ExternalPath = nil },
		"external path changed": func(e *manifest.ManifestEntry) { e.File.ExternalPath = str("") },
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			e := fullEntry()
			mutate(&e)
			require.NotEqual(t, id, e.Identifier())
		})
	}

	sparse := sparseEntry()
	sid := sparse.Identifier()
	require.Nil(t, sid.EmbeddedIndex())
	_, ok = sid.ExternalPath()
	require.False(t, ok)
	require.Empty(t, sid.ExtraFiles())
	require.Contains(t, sid.String(), "fileName=data-0.orc")
	require.Contains(t, sid.String(), "externalPath=null")
}

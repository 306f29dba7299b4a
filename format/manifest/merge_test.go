package manifest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

func entry(kind manifest.FileKind, name string, level int32) manifest.ManifestEntry {
	e := sparseEntry()
	e.Kind = kind
	e.File.FileName = name
	e.File.Level = level
	return e
}

func add(name string) manifest.ManifestEntry { return entry(manifest.FileKindAdd, name, 0) }
func del(name string) manifest.ManifestEntry { return entry(manifest.FileKindDelete, name, 0) }

func names(es []manifest.ManifestEntry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Kind.String()+":"+e.File.FileName)
	}
	return out
}

func TestMergeEntries(t *testing.T) {
	upgradeDel := entry(manifest.FileKindDelete, "u", 0)
	upgradeAdd := entry(manifest.FileKindAdd, "u", 3)
	tests := []struct {
		name string
		in   []manifest.ManifestEntry
		want []string
	}{
		{"empty", nil, []string{}},
		{"adds keep order", []manifest.ManifestEntry{add("a"), add("b"), add("c")}, []string{"ADD:a", "ADD:b", "ADD:c"}},
		{"add then delete cancel", []manifest.ManifestEntry{add("a"), add("b"), del("a")}, []string{"ADD:b"}},
		{"delete of an earlier manifest's file stays", []manifest.ManifestEntry{del("x"), add("a")}, []string{"DELETE:x", "ADD:a"}},
		{"re-add after cancel goes last", []manifest.ManifestEntry{add("a"), add("b"), del("a"), add("a")}, []string{"ADD:b", "ADD:a"}},
		// Level is part of the identifier: an upgrade is DELETE + ADD of the
		// same name at another level.
		{"upgrade keeps both", []manifest.ManifestEntry{upgradeDel, upgradeAdd}, []string{"DELETE:u", "ADD:u"}},
		{"upgrade cancels the old add", []manifest.ManifestEntry{add("u"), upgradeDel, upgradeAdd}, []string{"ADD:u"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := manifest.MergeEntries(tt.in)
			require.NoError(t, err)
			require.Equal(t, tt.want, names(got))
		})
	}
}

func TestMergeEntriesDuplicateAdd(t *testing.T) {
	_, err := manifest.MergeEntries([]manifest.ManifestEntry{add("a"), add("a")})
	require.ErrorIs(t, err, manifest.ErrDuplicateAdd)
	// Java also refuses an ADD after an unmatched DELETE of the same file.
	_, err = manifest.MergeEntries([]manifest.ManifestEntry{del("a"), add("a")})
	require.ErrorIs(t, err, manifest.ErrDuplicateAdd)
}

func TestMergerIncremental(t *testing.T) {
	var m manifest.Merger
	// Many cancelled pairs exercise the internal compaction.
	for i := range 5000 {
		e := add("f")
		e.Bucket = int32(i)
		d := del("f")
		d.Bucket = int32(i)
		require.NoError(t, m.Add(e))
		if i%2 == 0 {
			require.NoError(t, m.Add(d))
		}
	}
	require.Equal(t, 2500, m.Len())
	res := m.Result()
	require.Len(t, res, 2500)
	for i, e := range res {
		require.Equal(t, int32(2*i+1), e.Bucket)
	}
	// Still consistent after compaction: deleting a survivor cancels it.
	d := del("f")
	d.Bucket = 1
	require.NoError(t, m.Add(d))
	require.Equal(t, 2499, m.Len())
	e := add("f")
	e.Bucket = 3
	require.ErrorIs(t, m.Add(e), manifest.ErrDuplicateAdd)
}

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

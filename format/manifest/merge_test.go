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

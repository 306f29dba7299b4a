package manifest_test

import (
	"fmt"
	"math/rand/v2"
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

// TestRefMergerMatchesMerger feeds the same random batches of ADD and
// DELETE entries to both mergers: they fail on the same entry or return the
// same entries in the same order. Kinds follow the files' states, so that
// most rounds run long enough to cancel thousands of pairs (compaction)
// and a few end on an error.
func TestRefMergerMatchesMerger(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	compacted, failed := 0, 0
	for round := range 20 {
		var m manifest.Merger
		var r manifest.RefMerger
		if round%2 == 0 {
			r.Grow(100)
		}
		files := 50 + rng.IntN(3000)
		state := map[string]int{} // 0 absent, 1 added, 2 deleted before its add
		removed := 0
	batches:
		for batch := range 30 {
			es := make([]manifest.ManifestEntry, rng.IntN(400))
			for i := range es {
				name, level := fmt.Sprintf("f%d", rng.IntN(files)), int32(rng.IntN(2))
				key := fmt.Sprint(name, level)
				kind := manifest.FileKindAdd
				switch st := state[key]; {
				case st == 0 && rng.IntN(10) == 0, st != 0 && rng.IntN(2000) != 0:
					kind = manifest.FileKindDelete
				}
				switch {
				case kind == manifest.FileKindDelete && state[key] == 0:
					state[key] = 2
				case kind == manifest.FileKindDelete:
					state[key] = 0
					removed++
				default:
					state[key] = 1
				}
				es[i] = entry(kind, name, level)
				es[i].Partition = []byte{byte(len(name))}
			}
			errM := m.Add(es...)
			errR := r.Add(es)
			require.Equal(t, errM == nil, errR == nil, "round %d batch %d: %v / %v", round, batch, errM, errR)
			if errM != nil {
				require.ErrorIs(t, errR, manifest.ErrDuplicateAdd)
				require.Equal(t, errM.Error(), errR.Error())
				failed++
				break batches
			}
			require.Equal(t, m.Len(), r.Len())
			if batch%5 != 4 {
				continue
			}
			want := m.Result()
			got := r.Result()
			require.Len(t, got, len(want))
			for i := range want {
				if want[i].Identifier() != got[i].Identifier() || want[i].Kind != got[i].Kind {
					t.Fatalf("round %d batch %d entry %d: %s %s, want %s %s", round, batch, i,
						got[i].Kind, got[i].Identifier(), want[i].Kind, want[i].Identifier())
				}
			}
		}
		if removed > 2048 {
			compacted++
		}
	}
	require.Positive(t, compacted, "rounds that cancelled enough pairs to compact")
	require.Positive(t, failed, "rounds that ended on a duplicate ADD")
}

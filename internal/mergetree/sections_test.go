package mergetree_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

var intKeyTypes = []schema.DataType{schema.IntType().NotNull()}

// interval is a file whose keys span [lo, hi].
func interval(t testing.TB, name string, lo, hi int32) manifest.DataFileMeta {
	return manifest.DataFileMeta{
		FileName: name,
		MinKey:   serializedKey(t, intKeyTypes, []any{lo}),
		MaxKey:   serializedKey(t, intKeyTypes, []any{hi}),
	}
}

// parseIntervals reads "[1, 2], [3, 4]" (the notation of Java's
// IntervalPartitionTest) into files named by their intervals.
func parseIntervals(t testing.TB, s string) []manifest.DataFileMeta {
	var out []manifest.DataFileMeta
	for _, part := range strings.Split(s, "],") {
		var lo, hi int32
		_, err := fmt.Sscanf(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), "]"))+"]", "[%d, %d]", &lo, &hi)
		require.NoError(t, err, part)
		out = append(out, interval(t, fmt.Sprintf("[%d, %d]", lo, hi), lo, hi))
	}
	return out
}

// render prints sections one per line, runs separated by " | ", runs
// sorted (their order carries no meaning).
func render(sections [][][]manifest.DataFileMeta) string {
	var lines []string
	for _, sec := range sections {
		var runs []string
		for _, run := range sec {
			var names []string
			for _, f := range run {
				names = append(names, f.FileName)
			}
			runs = append(runs, strings.Join(names, ", "))
		}
		slices.Sort(runs)
		lines = append(lines, strings.Join(runs, " | "))
	}
	return strings.Join(lines, "\n")
}

func TestSections(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"same min key", "[100, 200], [100, 400], [100, 300], [100, 500]",
			"[100, 200] | [100, 300] | [100, 400] | [100, 500]"},
		{"same max key", "[100, 500], [300, 500], [200, 500], [400, 500]",
			"[100, 500] | [200, 500] | [300, 500] | [400, 500]"},
		{"sections", "[0, 9], [5, 7], [9, 15], [16, 22], [16, 28], [24, 32]",
			"[0, 9] | [5, 7], [9, 15]\n[16, 22], [24, 32] | [16, 28]"},
		{"disjoint files are one run per section", "[5, 6], [1, 2], [3, 4]",
			"[1, 2]\n[3, 4]\n[5, 6]"},
		{"touching bounds overlap", "[1, 3], [3, 5]", "[1, 3] | [3, 5]"},
		{"single file", "[7, 7]", "[7, 7]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kc, err := mergetree.NewKeyComparator(intKeyTypes)
			require.NoError(t, err)
			got, err := mergetree.Sections(parseIntervals(t, tt.in), kc)
			require.NoError(t, err)
			require.Equal(t, tt.want, render(got))
		})
	}
}

// TestSectionsRandom checks the partition's guarantees on random sorted
// runs: every file once, sections in key order without overlap, runs of
// strictly increasing disjoint files, and no more runs per section than
// the runs the files came from (the bound Java's randomTest checks).
func TestSectionsRandom(t *testing.T) {
	kc, err := mergetree.NewKeyComparator(intKeyTypes)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(7, 11))
	key := func(b []byte) int32 {
		row, err := binaryrow.ParseSerialized(b)
		require.NoError(t, err)
		return row.Int(0)
	}
	for iter := range 500 {
		var files []manifest.DataFileMeta
		nRuns := 1 + r.IntN(10)
		for run := range nRuns {
			points := r.Perm(1000)[:2*(1+r.IntN(10))]
			slices.Sort(points)
			for j := 0; j < len(points); j += 2 {
				files = append(files, interval(t, fmt.Sprintf("r%d-%d", run, j), int32(points[j]), int32(points[j+1])))
			}
		}
		r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
		sections, err := mergetree.Sections(files, kc)
		require.NoError(t, err)
		seen := 0
		prevMax := int32(-1)
		for _, sec := range sections {
			require.LessOrEqual(t, len(sec), nRuns, "iteration %d", iter)
			secMin, secMax := int32(1<<30), int32(-1)
			for _, run := range sec {
				for j, f := range run {
					seen++
					lo, hi := key(f.MinKey), key(f.MaxKey)
					secMin, secMax = min(secMin, lo), max(secMax, hi)
					if j > 0 {
						require.Greater(t, lo, key(run[j-1].MaxKey), "run not sorted")
					}
				}
			}
			require.Greater(t, secMin, prevMax, "sections overlap")
			prevMax = secMax
		}
		require.Equal(t, len(files), seen)
	}
}

func TestSectionsCorruptKey(t *testing.T) {
	kc, err := mergetree.NewKeyComparator(intKeyTypes)
	require.NoError(t, err)
	good := interval(t, "good", 1, 2)
	for _, tt := range []struct {
		name string
		f    manifest.DataFileMeta
	}{
		{"truncated min", manifest.DataFileMeta{FileName: "bad", MinKey: []byte{0, 0}, MaxKey: good.MaxKey}},
		{"wrong arity", manifest.DataFileMeta{FileName: "bad", MinKey: binaryrow.EmptySerialized(), MaxKey: good.MaxKey}},
		{"bad max", manifest.DataFileMeta{FileName: "bad", MinKey: good.MinKey, MaxKey: []byte{0, 0, 0, 1, 0}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mergetree.Sections([]manifest.DataFileMeta{good, tt.f}, kc)
			require.ErrorIs(t, err, mergetree.ErrCorrupt)
			require.ErrorContains(t, err, "bad")
		})
	}
	out, err := mergetree.Sections(nil, kc)
	require.NoError(t, err)
	require.Empty(t, out)
}

// FuzzSections feeds arbitrary min/max keys to Sections: it must return
// sections or an error, never panic.
func FuzzSections(f *testing.F) {
	f.Add(serializedKey(f, intKeyTypes, []any{int32(1)}), serializedKey(f, intKeyTypes, []any{int32(5)}),
		serializedKey(f, intKeyTypes, []any{int32(3)}), serializedKey(f, intKeyTypes, []any{int32(9)}))
	f.Add([]byte{}, []byte{0, 0, 0, 1}, []byte{0xff}, binaryrow.EmptySerialized())
	types := []schema.DataType{schema.StringType().NotNull()}
	f.Fuzz(func(t *testing.T, min1, max1, min2, max2 []byte) {
		for _, kt := range [][]schema.DataType{intKeyTypes, types} {
			kc, err := mergetree.NewKeyComparator(kt)
			require.NoError(t, err)
			files := []manifest.DataFileMeta{
				{FileName: "a", MinKey: min1, MaxKey: max1},
				{FileName: "b", MinKey: min2, MaxKey: max2},
			}
			_, _ = mergetree.Sections(files, kc)
		}
	})
}

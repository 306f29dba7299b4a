package mergetree

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParallelSort checks that the sort index sorted in chunks and read
// merged (sortChunks) gives exactly what slices.SortFunc gives for a total
// order, for any chunk count, with many equal prefixes (the ties the full
// comparison then breaks).
func TestParallelSort(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 23))
	byEntry := func(x, y sortEntry) int {
		switch {
		case x.prefix != y.prefix:
			return cmp.Compare(x.prefix, y.prefix)
		case x.batch != y.batch:
			return cmp.Compare(x.batch, y.batch)
		}
		return cmp.Compare(x.row, y.row)
	}
	for _, n := range []int{1, 2, 3, 100, 1001, 65_537} {
		entries := make([]sortEntry, n)
		for i := range entries {
			entries[i] = sortEntry{prefix: uint64(rnd.IntN(50)), batch: uint32(rnd.IntN(4)), row: uint32(i)}
		}
		want := slices.Clone(entries)
		slices.SortFunc(want, byEntry)
		for workers := 1; workers <= 7; workers++ {
			in := slices.Clone(entries)
			sorted := sortChunks(in, byEntry, workers)
			var got []sortEntry
			for e, ok := sorted.next(); ok; e, ok = sorted.next() {
				got = append(got, e)
			}
			require.Equal(t, want, got, "n=%d workers=%d", n, workers)
		}
	}
}

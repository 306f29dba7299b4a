//go:build invariants

package mergetree_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// TestInvariantsRunOrder: with the invariants tag, a sorted run whose keys
// do not strictly increase (across batches too) is reported as corrupt, in
// merged and in passed-through sections.
func TestInvariantsRunOrder(t *testing.T) {
	for _, merged := range []bool{false, true} {
		for _, rows := range [][]kv{
			{row(1, data.Insert, 1, "a"), row(2, data.Insert, 3, "b"), row(3, data.Insert, 2, "c"), row(4, data.Insert, 4, "d")},
			{row(1, data.Insert, 1, "a"), row(2, data.Insert, 2, "b"), row(3, data.Insert, 2, "c"), row(4, data.Insert, 4, "d")},
		} {
			mem := checked(t)
			ts := kvTable(t)
			m := newMemTable(ts)
			files := []manifest.DataFileMeta{m.addFile(t, mem, "unsorted", rows, 2)}
			if merged {
				files = append(files, m.addFile(t, mem, "other", []kv{row(9, data.Insert, 2, "x")}, 2))
			}
			_, err := readAll(t, files, m.open, &mergetree.Options{Schema: ts, Merge: dedupFactory(), Allocator: mem})
			require.ErrorIs(t, err, mergetree.ErrCorrupt)
			require.ErrorContains(t, err, "unsorted")
			m.release()
		}
	}
}

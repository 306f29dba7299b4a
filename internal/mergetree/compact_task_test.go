package mergetree_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// kfile is a data file of keys [lo, hi] at a level, with a size and
// sequence numbers.
func kfile(t *testing.T, name string, level int32, lo, hi int32, size, seq int64, deletes int64) manifest.DataFileMeta {
	f := interval(t, name, lo, hi)
	f.Level, f.FileSize, f.MinSequenceNumber, f.MaxSequenceNumber = level, size, seq, seq
	f.DeleteRowCount = &deletes
	return f
}

func renderSteps(steps []mergetree.CompactStep) string {
	var out []string
	for _, s := range steps {
		if s.Upgrade != nil {
			out = append(out, "upgrade "+s.Upgrade.FileName)
			continue
		}
		out = append(out, "rewrite "+strings.ReplaceAll(render(s.Rewrite), "\n", " / "))
	}
	return strings.Join(out, "; ")
}

func TestPlanCompactTask(t *testing.T) {
	cmp, err := mergetree.NewKeyComparator(intKeyTypes)
	require.NoError(t, err)
	const minSize = 10
	tests := []struct {
		name  string
		unit  mergetree.CompactUnit
		force bool
		want  string
	}{
		{"overlapping runs are merged", mergetree.CompactUnit{OutputLevel: 2, Files: []manifest.DataFileMeta{
			kfile(t, "a", 0, 1, 5, 5, 9, 0), kfile(t, "b", 1, 3, 8, 20, 1, 0)}},
			false, "rewrite a | b"},
		{"large files only change level", mergetree.CompactUnit{OutputLevel: 2, Files: []manifest.DataFileMeta{
			kfile(t, "a", 0, 1, 2, 20, 9, 0), kfile(t, "b", 1, 5, 6, 20, 1, 0), kfile(t, "c", 2, 7, 8, 20, 0, 0)}},
			false, "upgrade a; upgrade b"},
		{"small neighbours are rewritten together", mergetree.CompactUnit{OutputLevel: 3, Files: []manifest.DataFileMeta{
			kfile(t, "a", 0, 1, 2, 5, 9, 0), kfile(t, "b", 1, 3, 4, 5, 1, 0), kfile(t, "c", 1, 5, 6, 50, 2, 0),
			kfile(t, "d", 0, 7, 8, 5, 8, 0)}},
			false, "rewrite a / b; upgrade c; upgrade d"},
		{"a lone small file is upgraded", mergetree.CompactUnit{OutputLevel: 2, Files: []manifest.DataFileMeta{
			kfile(t, "a", 0, 1, 2, 5, 9, 0)}},
			false, "upgrade a"},
		{"retractions are dropped at the top", mergetree.CompactUnit{OutputLevel: 5, Files: []manifest.DataFileMeta{
			kfile(t, "a", 0, 1, 2, 20, 9, 3), kfile(t, "b", 1, 5, 6, 20, 1, 0)}},
			false, "rewrite a; upgrade b"},
		{"force-rewrite-all-files", mergetree.CompactUnit{OutputLevel: 2, Files: []manifest.DataFileMeta{
			kfile(t, "a", 0, 1, 2, 20, 9, 0), kfile(t, "b", 2, 5, 6, 20, 1, 0)}},
			true, "rewrite a; rewrite b"},
		{"file rewrite", mergetree.CompactUnit{OutputLevel: 5, FileRewrite: true, Files: []manifest.DataFileMeta{
			kfile(t, "a", 5, 1, 2, 20, 9, 0), kfile(t, "b", 5, 5, 6, 20, 1, 0)}},
			false, "rewrite a; rewrite b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps, err := mergetree.PlanCompactTask(&tt.unit, cmp, minSize, 5, tt.force)
			require.NoError(t, err)
			require.Equal(t, tt.want, renderSteps(steps))
		})
	}
}

func TestLevels(t *testing.T) {
	cmp, err := mergetree.NewKeyComparator(intKeyTypes)
	require.NoError(t, err)
	files := []manifest.DataFileMeta{
		kfile(t, "old0", 0, 1, 9, 1, 3, 0), kfile(t, "new0", 0, 1, 9, 1, 7, 0),
		kfile(t, "l2b", 2, 10, 20, 1, 1, 0), kfile(t, "l2a", 2, 1, 5, 1, 1, 0),
	}
	l, err := mergetree.NewLevels(cmp, files, 4)
	require.NoError(t, err)
	var runs []string
	for _, r := range l.SortedRuns() {
		var names []string
		for _, f := range r.Files {
			names = append(names, f.FileName)
		}
		runs = append(runs, fmt.Sprintf("L%d:%s", r.Level, strings.Join(names, ",")))
	}
	require.Equal(t, []string{"L0:new0", "L0:old0", "L2:l2a,l2b"}, runs)
	require.Equal(t, 3, l.NumberOfSortedRuns())
	require.Equal(t, 2, l.NonEmptyHighestLevel())
	require.Equal(t, 3, l.MaxLevel())

	// A compaction: both level-0 files into level 3, l2a upgraded.
	out := kfile(t, "out", 3, 1, 9, 1, 7, 0)
	up := files[3]
	up.Level = 3
	require.NoError(t, l.Update([]manifest.DataFileMeta{files[0], files[1], files[3]}, []manifest.DataFileMeta{out}))
	require.Error(t, l.Update(nil, []manifest.DataFileMeta{up}), "l2a overlaps out at level 3")

	_, err = mergetree.NewLevels(cmp, []manifest.DataFileMeta{kfile(t, "x", 1, 1, 5, 1, 1, 0), kfile(t, "y", 1, 5, 9, 1, 2, 0)}, 3)
	require.ErrorIs(t, err, mergetree.ErrCorrupt)
	l, err = mergetree.NewLevels(cmp, []manifest.DataFileMeta{kfile(t, "z", 7, 1, 5, 1, 1, 0)}, 3)
	require.NoError(t, err)
	require.Equal(t, 7, l.MaxLevel(), "restored files raise the number of levels")
}

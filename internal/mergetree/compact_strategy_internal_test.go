package mergetree

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// TestCreateUnitOutputLevel is Java's UniversalCompactionTest.testOutputLevel.
func TestCreateUnitOutputLevel(t *testing.T) {
	var runs []LevelRun
	for _, l := range []int{0, 0, 1, 3, 4} {
		runs = append(runs, LevelRun{Level: l, Files: []manifest.DataFileMeta{{FileSize: 1}}})
	}
	u := &Universal{MaxSizeAmp: 25, SizeRatio: 1, RunTrigger: 3}
	for count, want := range map[int]int{1: 1, 2: 1, 3: 2, 4: 3, 5: 5} {
		require.Equal(t, want, u.createUnit(runs, 5, count).OutputLevel, "count %d", count)
	}
}

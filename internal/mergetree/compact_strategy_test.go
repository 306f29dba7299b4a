package mergetree_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// The cases of Java's UniversalCompactionTest (1.4.2), rewritten over this
// package's types.

func sized(size int64) manifest.DataFileMeta { return manifest.DataFileMeta{FileSize: size} }

func run(level int, size int64) mergetree.LevelRun {
	return mergetree.LevelRun{Level: level, Files: []manifest.DataFileMeta{sized(size)}}
}

func level0(sizes ...int64) []mergetree.LevelRun {
	var out []mergetree.LevelRun
	for _, s := range sizes {
		out = append(out, run(0, s))
	}
	return out
}

func universal(maxSizeAmp, sizeRatio, trigger int) *mergetree.Universal {
	return &mergetree.Universal{MaxSizeAmp: maxSizeAmp, SizeRatio: sizeRatio, RunTrigger: trigger}
}

func sizesOf(u *mergetree.CompactUnit) []int64 {
	if u == nil {
		return nil
	}
	var out []int64
	for _, f := range u.Files {
		out = append(out, f.FileSize)
	}
	return out
}

func TestUniversalPick(t *testing.T) {
	u := universal(25, 1, 3)
	// by size amplification
	require.Equal(t, []int64{1, 2, 3, 3}, sizesOf(u.Pick(3, level0(1, 2, 3, 3))))
	// by size ratio
	require.Equal(t, []int64{1, 1, 1}, sizesOf(u.Pick(4, []mergetree.LevelRun{run(0, 1), run(1, 1), run(2, 1), run(3, 50)})))
	// by file number: 3 joins by size ratio after the file-number pick
	require.Equal(t, []int64{1, 2, 3}, sizesOf(u.Pick(4, []mergetree.LevelRun{run(0, 1), run(1, 2), run(2, 3), run(3, 50)})))
}

func TestUniversalEarlyFullCompactionInterval(t *testing.T) {
	now := time.UnixMilli(0)
	early := &mergetree.EarlyFullCompaction{Interval: time.Second, Now: func() time.Time { return now }}
	u := &mergetree.Universal{MaxSizeAmp: 100, SizeRatio: 1, RunTrigger: 3, EarlyFull: early}
	runs := []mergetree.LevelRun{run(0, 1), run(1, 3), run(2, 5)}
	require.Equal(t, []int64{1, 3, 5}, sizesOf(u.Pick(3, runs))) // first time
	now = time.UnixMilli(1001)
	require.Equal(t, []int64{1, 3, 5}, sizesOf(u.Pick(3, runs)))
	require.Nil(t, u.Pick(3, runs))
	now = time.UnixMilli(1500)
	require.Equal(t, []int64{3, 3, 5}, sizesOf(u.Pick(3, []mergetree.LevelRun{run(0, 3), run(1, 3), run(2, 5)}))) // size amplification
	now = time.UnixMilli(2001)
	require.Nil(t, u.Pick(3, runs)) // the size-amplification pick counted as a full compaction
}

func TestUniversalTotalSizeThreshold(t *testing.T) {
	u := &mergetree.Universal{MaxSizeAmp: 100, SizeRatio: 1, RunTrigger: 3,
		EarlyFull: &mergetree.EarlyFullCompaction{TotalSizeThreshold: 10}}
	require.Equal(t, []int64{1, 3, 5}, sizesOf(u.Pick(3, []mergetree.LevelRun{run(0, 1), run(1, 3), run(2, 5)})))
	require.Nil(t, u.Pick(3, []mergetree.LevelRun{run(0, 2), run(1, 6), run(2, 10)}))
	require.Nil(t, u.Pick(3, []mergetree.LevelRun{run(3, 5)}))
}

func TestUniversalNoOutputLevel0(t *testing.T) {
	u := universal(25, 1, 3)
	unit := u.Pick(3, []mergetree.LevelRun{run(0, 1), run(0, 1), run(1, 1), run(2, 50)})
	require.Equal(t, []int64{1, 1, 1}, sizesOf(unit))
	unit = u.Pick(3, []mergetree.LevelRun{run(0, 1), run(0, 2), run(1, 3), run(2, 50)})
	require.Equal(t, []int64{1, 2, 3}, sizesOf(unit))

	u = universal(200, 1, 5)
	unit = u.Pick(6, level0(1, 1, 1, 1024, 1024*1024))
	require.Equal(t, []int64{1, 1, 1, 1024, 1024 * 1024}, sizesOf(unit))
	require.Equal(t, 5, unit.OutputLevel)
}

// appendAndPick adds a run of size 1 in front and merges what pick picks
// into one run of the summed size, as Java's test helpers do.
func appendAndPick(sizes []int64, pick func([]mergetree.LevelRun) *mergetree.CompactUnit, levels bool) []int64 {
	sizes = append([]int64{1}, sizes...)
	var runs []mergetree.LevelRun
	for i, s := range sizes {
		l := 0
		if levels {
			l = i
		}
		runs = append(runs, run(l, s))
	}
	unit := pick(runs)
	if unit == nil {
		return sizes
	}
	var sum int64
	rest := slices.Clone(sizes)
	for _, f := range unit.Files {
		sum += f.FileSize
		rest = slices.Delete(rest, slices.Index(rest, f.FileSize), slices.Index(rest, f.FileSize)+1)
	}
	return append([]int64{sum}, rest...)
}

func TestUniversalSizeAmplification(t *testing.T) {
	u := universal(25, 0, 1)
	sizes := []int64{1}
	// Java's pickForSizeAmp alone: with RunTrigger 1 and a size ratio of 0
	// the size-amplification rule decides every step.
	pick := func(runs []mergetree.LevelRun) *mergetree.CompactUnit {
		var candidate int64
		for _, r := range runs[:len(runs)-1] {
			candidate += r.TotalSize()
		}
		if candidate*100 > 25*runs[len(runs)-1].TotalSize() {
			return u.Pick(3, runs)
		}
		return nil
	}
	var got []string
	for range 17 {
		sizes = appendAndPick(sizes, pick, false)
		got = append(got, fmt.Sprint(sizes))
	}
	require.Equal(t, []string{"[2]", "[3]", "[4]", "[1 4]", "[6]", "[1 6]", "[8]", "[1 8]", "[1 1 8]", "[11]",
		"[1 11]", "[1 1 11]", "[14]", "[1 14]", "[1 1 14]", "[1 1 1 14]", "[18]"}, got)
}

func TestUniversalSizeRatio(t *testing.T) {
	u := universal(25, 1, 5)
	// Java's pickForSizeRatio alone (runs at levels 0, 1, 2, ...): the
	// size-amplification rule is kept out by a huge MaxSizeAmp.
	u.MaxSizeAmp = 1 << 30
	pick := func(runs []mergetree.LevelRun) *mergetree.CompactUnit {
		if len(runs) < 5 {
			return nil
		}
		return u.Pick(len(runs), runs)
	}
	sizes := []int64{1, 1, 1, 1}
	var got []string
	for range 23 {
		sizes = appendAndPick(sizes, pick, true)
		got = append(got, fmt.Sprint(sizes))
	}
	require.Equal(t, []string{"[5]", "[1 5]", "[1 1 5]", "[1 1 1 5]", "[4 5]", "[1 4 5]", "[1 1 4 5]", "[3 4 5]",
		"[1 3 4 5]", "[2 3 4 5]", "[1 2 3 4 5]", "[16]", "[1 16]", "[1 1 16]", "[1 1 1 16]", "[4 16]", "[1 4 16]",
		"[1 1 4 16]", "[3 4 16]", "[1 3 4 16]", "[2 3 4 16]", "[1 2 3 4 16]", "[11 16]"}, got)
}

func TestUniversalSizeRatioThreshold(t *testing.T) {
	runs := []mergetree.LevelRun{run(0, 8), run(1, 9), run(2, 10)}
	for ratio, want := range map[int][]int64{10: nil, 20: {8, 9, 10}} {
		// Java calls pickForSizeRatio alone; a trigger of 3 keeps the
		// file-number rule out.
		u := &mergetree.Universal{MaxSizeAmp: 1 << 30, SizeRatio: ratio, RunTrigger: 3}
		require.Equal(t, want, sizesOf(u.Pick(3, runs)), "ratio %d", ratio)
	}
}

func TestForceUpLevel0(t *testing.T) {
	f := &mergetree.ForceUpLevel0{Universal: universal(25, 1, 3)}
	unit := f.Pick(3, level0(1, 2, 2, 2))
	require.Equal(t, []int64{1, 2, 2, 2}, sizesOf(unit))
	require.Equal(t, 2, unit.OutputLevel)
	unit = f.Pick(3, []mergetree.LevelRun{run(0, 1), run(1, 2), run(2, 2)})
	require.Equal(t, []int64{1, 2, 2}, sizesOf(unit))
	require.Equal(t, 2, unit.OutputLevel)
	unit = f.Pick(3, []mergetree.LevelRun{run(0, 1), run(2, 2)})
	require.Equal(t, []int64{1}, sizesOf(unit))
	require.Equal(t, 1, unit.OutputLevel)

	// lookup-compact gentle: every fifth call.
	g := &mergetree.ForceUpLevel0{Universal: universal(25, 1, 5), MaxInterval: 5}
	for _, runs := range [][]mergetree.LevelRun{level0(1, 2, 2, 2), {run(0, 2), run(1, 2), run(2, 2)}, {run(0, 1), run(2, 2)}} {
		for i := 1; i <= 5; i++ {
			unit := g.Pick(3, runs)
			if i < 5 {
				require.Nil(t, unit)
			} else {
				require.NotNil(t, unit)
			}
		}
	}
}

func TestOffPeakHours(t *testing.T) {
	require.Nil(t, mergetree.NewOffPeakHours(-1, 5, 10))
	require.Nil(t, mergetree.NewOffPeakHours(3, 3, 10))
	o := mergetree.NewOffPeakHours(22, 6, 10)
	require.Equal(t, 10, o.CurrentRatio(23))
	require.Equal(t, 10, o.CurrentRatio(2))
	require.Equal(t, 0, o.CurrentRatio(6))
	o = mergetree.NewOffPeakHours(2, 6, 7)
	require.Equal(t, 7, o.CurrentRatio(2))
	require.Equal(t, 0, o.CurrentRatio(6))
	// The ratio joins the size ratio off-peak: 8, 9, 10 merge with 20%.
	u := &mergetree.Universal{MaxSizeAmp: 1 << 30, SizeRatio: 10, RunTrigger: 3, OffPeak: o,
		Now: func() time.Time { return time.Date(2024, 1, 1, 3, 0, 0, 0, time.UTC) }}
	require.Equal(t, []int64{8, 9, 10}, sizesOf(u.Pick(3, []mergetree.LevelRun{run(0, 8), run(1, 9), run(2, 10)})))
}

func TestPickFullCompaction(t *testing.T) {
	require.Nil(t, mergetree.PickFullCompaction(3, nil, nil, false))
	top := []mergetree.LevelRun{{Level: 2, Files: []manifest.DataFileMeta{{FileName: "a"}, {FileName: "b"}}}}
	require.Nil(t, mergetree.PickFullCompaction(3, top, nil, false))
	unit := mergetree.PickFullCompaction(3, top, func(f string) bool { return f == "b" }, false)
	require.True(t, unit.FileRewrite)
	require.Len(t, unit.Files, 1)
	require.Len(t, mergetree.PickFullCompaction(3, top, nil, true).Files, 2)
	unit = mergetree.PickFullCompaction(3, []mergetree.LevelRun{run(0, 1), run(2, 3)}, nil, false)
	require.False(t, unit.FileRewrite)
	require.Equal(t, 2, unit.OutputLevel)
}

func TestAcceptPickAndDropDelete(t *testing.T) {
	require.False(t, mergetree.AcceptPick(nil))
	require.False(t, mergetree.AcceptPick(&mergetree.CompactUnit{OutputLevel: 2, Files: []manifest.DataFileMeta{{Level: 2}}}))
	require.True(t, mergetree.AcceptPick(&mergetree.CompactUnit{OutputLevel: 2, Files: []manifest.DataFileMeta{{Level: 1}}}))
	u := &mergetree.CompactUnit{OutputLevel: 3}
	require.True(t, mergetree.DropDelete(u, 3, false, false))
	require.False(t, mergetree.DropDelete(u, 5, false, false))
	require.True(t, mergetree.DropDelete(u, 5, true, false))
	require.False(t, mergetree.DropDelete(&mergetree.CompactUnit{OutputLevel: 0}, 0, true, false))
	require.False(t, mergetree.DropDelete(u, 3, false, true))
}

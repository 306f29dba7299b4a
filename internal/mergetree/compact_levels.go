package mergetree

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// Levels is the LSM tree of one bucket as its compaction sees it (Java
// Levels): level 0 holds files that are each a sorted run, newest first;
// each level above holds one sorted run, its files in key order with
// non-overlapping key ranges.
type Levels struct {
	cmp    *KeyComparator
	level0 []manifest.DataFileMeta
	levels [][]manifest.DataFileMeta // levels[i] is level i+1
}

// NewLevels places a bucket's files at their levels. numLevels is the
// table's num-levels (num-sorted-run.compaction-trigger + 1 by default);
// files at a higher level raise it, as Java restores them. Files of one
// level above 0 whose key ranges overlap are corrupt metadata.
func NewLevels(cmp *KeyComparator, files []manifest.DataFileMeta, numLevels int) (*Levels, error) {
	n := numLevels
	for i := range files {
		n = max(n, int(files[i].Level)+1)
	}
	if n < 2 {
		return nil, fmt.Errorf("mergetree: number of levels must be at least 2, got %d", n)
	}
	l := &Levels{cmp: cmp, levels: make([][]manifest.DataFileMeta, n-1)}
	if err := l.Update(nil, files); err != nil {
		return nil, err
	}
	return l, nil
}

// NumLevels is the number of levels, MaxLevel the highest.
func (l *Levels) NumLevels() int { return len(l.levels) + 1 }

// MaxLevel is the highest level.
func (l *Levels) MaxLevel() int { return len(l.levels) }

// Level0 returns the level-0 files, newest first.
func (l *Levels) Level0() []manifest.DataFileMeta { return l.level0 }

// Level returns the files of a level above 0, in key order.
func (l *Levels) Level(level int) []manifest.DataFileMeta { return l.levels[level-1] }

// SortedRuns lists the runs: each level-0 file, newest first, then each
// non-empty level (Java Levels.levelSortedRuns).
func (l *Levels) SortedRuns() []LevelRun {
	var runs []LevelRun
	for i := range l.level0 {
		runs = append(runs, LevelRun{Level: 0, Files: l.level0[i : i+1 : i+1]})
	}
	for i, files := range l.levels {
		if len(files) > 0 {
			runs = append(runs, LevelRun{Level: i + 1, Files: files})
		}
	}
	return runs
}

// NumberOfSortedRuns counts SortedRuns.
func (l *Levels) NumberOfSortedRuns() int {
	n := len(l.level0)
	for _, files := range l.levels {
		if len(files) > 0 {
			n++
		}
	}
	return n
}

// NonEmptyHighestLevel is the highest level holding a file, -1 when none.
func (l *Levels) NonEmptyHighestLevel() int {
	for i := len(l.levels) - 1; i >= 0; i-- {
		if len(l.levels[i]) > 0 {
			return i + 1
		}
	}
	if len(l.level0) > 0 {
		return 0
	}
	return -1
}

// AllFiles lists every file, run by run.
func (l *Levels) AllFiles() []manifest.DataFileMeta {
	var out []manifest.DataFileMeta
	for _, r := range l.SortedRuns() {
		out = append(out, r.Files...)
	}
	return out
}

// Update replaces the before files by the after files, each at its level
// (Java Levels.update, after a compaction or for new level-0 files).
// Files are identified by name and level: an upgraded file leaves its old
// level and joins the new one. An error (a file outside the levels, key
// ranges overlapping within a level) means corrupt metadata; the Levels
// must not be used afterwards.
func (l *Levels) Update(before, after []manifest.DataFileMeta) error {
	type key struct {
		name  string
		level int32
	}
	gone := map[key]bool{}
	for i := range before {
		gone[key{before[i].FileName, before[i].Level}] = true
	}
	keep := func(files []manifest.DataFileMeta) []manifest.DataFileMeta {
		return slices.DeleteFunc(files, func(f manifest.DataFileMeta) bool { return gone[key{f.FileName, f.Level}] })
	}
	l.level0 = keep(l.level0)
	changed := map[int]bool{}
	for i := range l.levels {
		n := len(l.levels[i])
		l.levels[i] = keep(l.levels[i])
		if len(l.levels[i]) != n {
			changed[i+1] = true
		}
	}
	for _, f := range after {
		switch {
		case f.Level < 0 || int(f.Level) > l.MaxLevel():
			return fmt.Errorf("%w: data file %s at level %d, the bucket has levels 0..%d", ErrCorrupt, f.FileName, f.Level, l.MaxLevel())
		case f.Level == 0:
			l.level0 = append(l.level0, f)
		default:
			l.levels[f.Level-1] = append(l.levels[f.Level-1], f)
			changed[int(f.Level)] = true
		}
	}
	slices.SortFunc(l.level0, compareLevel0)
	for level := range changed {
		if err := l.sortRun(level); err != nil {
			return err
		}
	}
	return nil
}

// compareLevel0 orders level-0 files newest first: by maximum sequence
// number descending, then minimum sequence number, creation time and name
// (Java's level-0 TreeSet comparator, for files several writers made).
func compareLevel0(a, b manifest.DataFileMeta) int {
	if c := cmp.Compare(b.MaxSequenceNumber, a.MaxSequenceNumber); c != 0 {
		return c
	}
	if c := cmp.Compare(a.MinSequenceNumber, b.MinSequenceNumber); c != 0 {
		return c
	}
	var ta, tb int64
	if a.CreationTime != nil {
		ta = *a.CreationTime
	}
	if b.CreationTime != nil {
		tb = *b.CreationTime
	}
	if c := cmp.Compare(ta, tb); c != 0 {
		return c
	}
	return strings.Compare(a.FileName, b.FileName)
}

// sortRun orders a level's files by key and checks that their ranges do
// not overlap (Java SortedRun.fromUnsorted).
func (l *Levels) sortRun(level int) error {
	files := l.levels[level-1]
	keys := make([][2][]any, len(files))
	for i := range files {
		lo, err := l.cmp.decodeSerialized(files[i].MinKey)
		if err != nil {
			return fmt.Errorf("%w: data file %s: min key: %w", ErrCorrupt, files[i].FileName, err)
		}
		hi, err := l.cmp.decodeSerialized(files[i].MaxKey)
		if err != nil {
			return fmt.Errorf("%w: data file %s: max key: %w", ErrCorrupt, files[i].FileName, err)
		}
		keys[i] = [2][]any{lo, hi}
	}
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return l.cmp.Compare(keys[a][0], keys[b][0]) })
	sorted := make([]manifest.DataFileMeta, len(files))
	for i, j := range idx {
		sorted[i] = files[j]
		if i > 0 && l.cmp.Compare(keys[idx[i-1]][1], keys[j][0]) >= 0 {
			return fmt.Errorf("%w: data files %s and %s of level %d have overlapping key ranges",
				ErrCorrupt, files[idx[i-1]].FileName, files[j].FileName, level)
		}
	}
	l.levels[level-1] = sorted
	return nil
}

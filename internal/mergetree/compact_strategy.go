package mergetree

import (
	"time"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// This file is the choice of what to compact in one bucket of a
// primary-key table: Java's CompactStrategy implementations
// (UniversalCompaction, ForceUpLevel0Compaction, EarlyFullCompaction,
// OffPeakHours and CompactStrategy.pickFullCompaction) over the bucket's
// sorted runs (Levels.SortedRuns). They decide which runs are merged and at
// which level the result lands; CompactTaskPlan then decides, file by file,
// what is rewritten and what only changes level.

// LevelRun is one sorted run of a bucket and its level (Java
// LevelSortedRun): a single file at level 0, all files of a level above.
type LevelRun struct {
	Level int
	Files []manifest.DataFileMeta
}

// TotalSize is the size of the run's files in bytes.
func (r LevelRun) TotalSize() int64 {
	var n int64
	for i := range r.Files {
		n += r.Files[i].FileSize
	}
	return n
}

// CompactUnit is what a strategy picked (Java CompactUnit): the files to
// compact and the level of the output. FileRewrite means each file is
// rewritten on its own, without merging (a full compaction of a bucket
// that is one sorted run at the highest level already, to apply deletion
// vectors or compaction.force-rewrite-all-files).
type CompactUnit struct {
	OutputLevel int
	Files       []manifest.DataFileMeta
	FileRewrite bool
}

func unitOfRuns(outputLevel int, runs []LevelRun) *CompactUnit {
	u := &CompactUnit{OutputLevel: outputLevel}
	for _, r := range runs {
		u.Files = append(u.Files, r.Files...)
	}
	return u
}

// Strategy picks a compaction of a bucket's sorted runs (ordered as
// Levels.SortedRuns gives them: level 0 newest first, then levels 1 and
// up), or returns nil.
type Strategy interface {
	Pick(numLevels int, runs []LevelRun) *CompactUnit
}

// Universal is Java's UniversalCompaction, RocksDB's universal style:
// merge everything when the runs above the oldest one amplify its size by
// more than compaction.max-size-amplification-percent, else merge the
// newest runs while each next run is not larger than what is merged so far
// by more than compaction.size-ratio percent, else, past
// num-sorted-run.compaction-trigger runs, merge enough of the newest to
// come back to it.
type Universal struct {
	MaxSizeAmp int // compaction.max-size-amplification-percent (200)
	SizeRatio  int // compaction.size-ratio (1)
	RunTrigger int // num-sorted-run.compaction-trigger (5)
	EarlyFull  *EarlyFullCompaction
	OffPeak    *OffPeakHours
	Now        func() time.Time // the hour of the off-peak ratio; nil means time.Now
}

// Pick is UniversalCompaction.pick.
func (u *Universal) Pick(numLevels int, runs []LevelRun) *CompactUnit {
	maxLevel := numLevels - 1
	if u.EarlyFull != nil {
		if unit := u.EarlyFull.TryFullCompact(numLevels, runs); unit != nil {
			return unit
		}
	}
	if unit := u.pickForSizeAmp(maxLevel, runs); unit != nil {
		return unit
	}
	if unit := u.pickForSizeRatio(maxLevel, runs); unit != nil {
		return unit
	}
	if len(runs) > u.RunTrigger {
		return u.pickForSizeRatioFrom(maxLevel, runs, len(runs)-u.RunTrigger+1, false)
	}
	return nil
}

// ForcePickL0 merges every level-0 run, and more while the size ratio
// allows, into a level above 0 (UniversalCompaction.forcePickL0).
func (u *Universal) ForcePickL0(numLevels int, runs []LevelRun) *CompactUnit {
	n := 0
	for n < len(runs) && runs[n].Level == 0 {
		n++
	}
	if n == 0 {
		return nil
	}
	return u.pickForSizeRatioFrom(numLevels-1, runs, n, true)
}

func (u *Universal) pickForSizeAmp(maxLevel int, runs []LevelRun) *CompactUnit {
	if len(runs) < u.RunTrigger {
		return nil
	}
	var candidate int64
	for _, r := range runs[:len(runs)-1] {
		candidate += r.TotalSize()
	}
	earliest := runs[len(runs)-1].TotalSize()
	if candidate*100 > int64(u.MaxSizeAmp)*earliest {
		if u.EarlyFull != nil {
			u.EarlyFull.updateLast()
		}
		return unitOfRuns(maxLevel, runs)
	}
	return nil
}

func (u *Universal) pickForSizeRatio(maxLevel int, runs []LevelRun) *CompactUnit {
	if len(runs) < u.RunTrigger {
		return nil
	}
	return u.pickForSizeRatioFrom(maxLevel, runs, 1, false)
}

// pickForSizeRatioFrom starts with the newest count runs and adds the next
// while it is at most (100 + size ratio [+ off-peak ratio])% of the
// candidates' size.
func (u *Universal) pickForSizeRatioFrom(maxLevel int, runs []LevelRun, count int, force bool) *CompactUnit {
	var size int64
	for _, r := range runs[:count] {
		size += r.TotalSize()
	}
	ratio := float64(100+u.SizeRatio+u.ratioForOffPeak()) / 100.0
	for i := count; i < len(runs); i++ {
		next := runs[i].TotalSize()
		if float64(size)*ratio < float64(next) {
			break
		}
		size += next
		count++
	}
	if force || count > 1 {
		return u.createUnit(runs, maxLevel, count)
	}
	return nil
}

func (u *Universal) ratioForOffPeak() int {
	if u.OffPeak == nil {
		return 0
	}
	now := time.Now
	if u.Now != nil {
		now = u.Now
	}
	return u.OffPeak.CurrentRatio(now().Hour())
}

// createUnit is UniversalCompaction.createUnit: the output goes one level
// below the next run not merged, never to level 0 (the level-0 runs after
// the candidates join them until a run above level 0 gives the level), and
// to the highest level when everything is merged.
func (u *Universal) createUnit(runs []LevelRun, maxLevel, count int) *CompactUnit {
	var out int
	if count == len(runs) {
		out = maxLevel
	} else {
		out = max(0, runs[count].Level-1)
	}
	if out == 0 {
		for i := count; i < len(runs); i++ {
			count++
			if runs[i].Level != 0 {
				out = runs[i].Level
				break
			}
		}
	}
	if count == len(runs) {
		if u.EarlyFull != nil {
			u.EarlyFull.updateLast()
		}
		out = maxLevel
	}
	return unitOfRuns(out, runs[:count])
}

// ForceUpLevel0 is Java's ForceUpLevel0Compaction, the strategy of
// lookup-based tables (deletion vectors, lookup and first-row changelog
// producers, first-row merge engine) and of compaction.force-up-level-0:
// when universal compaction picks nothing, level-0 files still go up
// (lookup-compact radical: every time; gentle: every MaxInterval-th call,
// lookup-compact.max-interval).
type ForceUpLevel0 struct {
	Universal   *Universal
	MaxInterval int // 0: radical
	count       int
}

// Pick is ForceUpLevel0Compaction.pick.
func (f *ForceUpLevel0) Pick(numLevels int, runs []LevelRun) *CompactUnit {
	if unit := f.Universal.Pick(numLevels, runs); unit != nil {
		return unit
	}
	if f.MaxInterval <= 0 {
		return f.Universal.ForcePickL0(numLevels, runs)
	}
	f.count++
	if f.count == f.MaxInterval {
		f.count = 0
		return f.Universal.ForcePickL0(numLevels, runs)
	}
	return nil
}

// EarlyFullCompaction is Java's EarlyFullCompaction: a full compaction
// before universal compaction asks for one, when
// compaction.optimization-interval has passed since the last, when the
// bucket is smaller than compaction.total-size-threshold, or when the runs
// below the highest level exceed compaction.incremental-size-threshold.
// Zero values turn a rule off.
type EarlyFullCompaction struct {
	Interval             time.Duration
	TotalSizeThreshold   int64
	IncrementalThreshold int64
	Now                  func() time.Time // nil means time.Now

	last    time.Time
	hasLast bool
}

// TryFullCompact is EarlyFullCompaction.tryFullCompact.
func (e *EarlyFullCompaction) TryFullCompact(numLevels int, runs []LevelRun) *CompactUnit {
	if len(runs) == 1 {
		return nil
	}
	maxLevel := numLevels - 1
	if e.Interval > 0 {
		if !e.hasLast || e.now().Sub(e.last) > e.Interval {
			e.updateLast()
			return unitOfRuns(maxLevel, runs)
		}
	}
	if e.TotalSizeThreshold > 0 {
		var total int64
		for _, r := range runs {
			total += r.TotalSize()
		}
		if total < e.TotalSizeThreshold {
			e.updateLast()
			return unitOfRuns(maxLevel, runs)
		}
	}
	if e.IncrementalThreshold > 0 {
		var incr int64
		for _, r := range runs {
			if r.Level != maxLevel {
				incr += r.TotalSize()
			}
		}
		if incr > e.IncrementalThreshold {
			e.updateLast()
			return unitOfRuns(maxLevel, runs)
		}
	}
	return nil
}

func (e *EarlyFullCompaction) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e *EarlyFullCompaction) updateLast() { e.last, e.hasLast = e.now(), true }

// OffPeakHours is Java's OffPeakHours: between compaction.offpeak.start.hour
// and compaction.offpeak.end.hour (wrapping past midnight),
// compaction.offpeak-ratio is added to the size ratio.
type OffPeakHours struct {
	Start, End, Ratio int
}

// NewOffPeakHours returns nil when the hours do not define a window (-1,
// or start equal to end), as Java's OffPeakHours.create.
func NewOffPeakHours(start, end, ratio int) *OffPeakHours {
	if start == -1 || end == -1 || start == end {
		return nil
	}
	return &OffPeakHours{Start: start, End: end, Ratio: ratio}
}

// CurrentRatio is the ratio to add at hour.
func (o *OffPeakHours) CurrentRatio(hour int) int {
	var off bool
	if o.Start <= o.End {
		off = o.Start <= hour && hour < o.End
	} else {
		off = hour < o.End || o.Start <= hour
	}
	if off {
		return o.Ratio
	}
	return 0
}

// PickFullCompaction is CompactStrategy.pickFullCompaction: every run to
// the highest level; a bucket that is one run at the highest level already
// is rewritten file by file only where that changes something (files with
// a deletion vector, or all with force-rewrite-all-files), else nothing.
// hasDV may be nil. (Java also rewrites files holding records that
// record-level.expire-time has expired; callers refuse that option.)
func PickFullCompaction(numLevels int, runs []LevelRun, hasDV func(file string) bool, forceRewriteAll bool) *CompactUnit {
	maxLevel := numLevels - 1
	if len(runs) == 0 {
		return nil
	}
	if len(runs) == 1 && runs[0].Level == maxLevel {
		var files []manifest.DataFileMeta
		for _, f := range runs[0].Files {
			if forceRewriteAll || (hasDV != nil && hasDV(f.FileName)) {
				files = append(files, f)
			}
		}
		if len(files) == 0 {
			return nil
		}
		return &CompactUnit{OutputLevel: maxLevel, Files: files, FileRewrite: true}
	}
	return unitOfRuns(maxLevel, runs)
}

// AcceptPick filters what a strategy picked for a normal (not full)
// compaction as MergeTreeCompactManager.triggerCompaction does: a unit of
// one file already at the output level is no compaction.
func AcceptPick(u *CompactUnit) bool {
	return u != nil && len(u.Files) > 0 && (len(u.Files) > 1 || int(u.Files[0].Level) != u.OutputLevel)
}

// DropDelete reports whether the compaction of u may drop retractions
// (-U, -D): nothing older can remain below its output
// (MergeTreeCompactManager.triggerCompaction): the output is above level 0
// and at or above the highest non-empty level, or the table has deletion
// vectors. forceKeepDelete is Java's chain-table exception.
func DropDelete(u *CompactUnit, nonEmptyHighestLevel int, deletionVectors, forceKeepDelete bool) bool {
	return !forceKeepDelete && u.OutputLevel != 0 && (u.OutputLevel >= nonEmptyHighestLevel || deletionVectors)
}

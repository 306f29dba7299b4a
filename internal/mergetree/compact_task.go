package mergetree

import "github.com/paimon-go/paimon-go/format/manifest"

// CompactStep is one action of a compaction task: either a file that only
// moves to the output level (Upgrade: its name and content stay, its
// metadata gets the new level) or sections of sorted runs merged into new
// files at the output level (Rewrite).
type CompactStep struct {
	Upgrade *manifest.DataFileMeta
	Rewrite [][][]manifest.DataFileMeta
}

// PlanCompactTask decides, for a picked unit, which files are rewritten and
// which only change level, in the order Java's MergeTreeCompactTask does
// (doCompact): the unit's files are split into sections of overlapping key
// ranges (Sections); a section of several sorted runs must be merged; in a
// section of one run, a file smaller than minFileSize (compaction's 70%
// of target-file-size) joins the rewrite of its neighbours, and a large
// file ends the pending rewrite and is upgraded. Upgraded files are
// rewritten instead when they go to the highest level holding retractions
// (_DELETE_ROW_COUNT > 0, or unknown), or with force-rewrite-all-files. A
// pending rewrite of a single sorted run is upgraded file by file instead.
//
// A FileRewrite unit (PickFullCompaction of a bucket already compacted)
// rewrites each file on its own (Java FileRewriteCompactTask).
func PlanCompactTask(u *CompactUnit, cmp *KeyComparator, minFileSize int64, maxLevel int, forceRewriteAll bool) ([]CompactStep, error) {
	var steps []CompactStep
	if u.FileRewrite {
		for _, f := range u.Files {
			steps = append(steps, CompactStep{Rewrite: [][][]manifest.DataFileMeta{{{f}}}})
		}
		return steps, nil
	}
	sections, err := Sections(u.Files, cmp)
	if err != nil {
		return nil, err
	}
	var candidate [][][]manifest.DataFileMeta
	upgrade := func(f manifest.DataFileMeta) {
		if (u.OutputLevel == maxLevel && containsDeletes(&f)) || forceRewriteAll {
			steps = append(steps, CompactStep{Rewrite: [][][]manifest.DataFileMeta{{{f}}}})
			return
		}
		if int(f.Level) != u.OutputLevel {
			g := f
			steps = append(steps, CompactStep{Upgrade: &g})
		}
	}
	rewrite := func() {
		if len(candidate) == 0 {
			return
		}
		if len(candidate) == 1 && len(candidate[0]) == 1 {
			for _, f := range candidate[0][0] {
				upgrade(f)
			}
			candidate = nil
			return
		}
		if len(candidate) == 1 && len(candidate[0]) == 0 {
			return
		}
		steps = append(steps, CompactStep{Rewrite: candidate})
		candidate = nil
	}
	for _, section := range sections {
		if len(section) > 1 {
			candidate = append(candidate, section)
			continue
		}
		for _, f := range section[0] {
			if f.FileSize < minFileSize {
				candidate = append(candidate, [][]manifest.DataFileMeta{{f}})
			} else {
				rewrite()
				upgrade(f)
			}
		}
	}
	rewrite()
	return steps, nil
}

// containsDeletes reports whether a file may hold retractions (Java
// MergeTreeCompactTask.containsDeleteRecords: an unknown count counts).
func containsDeletes(f *manifest.DataFileMeta) bool {
	return f.DeleteRowCount == nil || *f.DeleteRowCount > 0
}

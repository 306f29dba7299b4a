package paimon

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// This file holds the rules that pick the files of an append table to
// compact, as pure functions over file metadata: Java's
// AppendCompactCoordinator for unaware-bucket tables (bucket = -1) and
// BucketedAppendCompactManager for fixed-bucket tables.

// Options of append compaction (Java CoreOptions).
const (
	optTargetFileSize       = coreoptions.TargetFileSize
	optCompactionMinFileNum = coreoptions.CompactionMinFileNum
	optCompactionFileLimit  = coreoptions.CompactionFileNumLimit
	optCompactionDeleteRate = coreoptions.CompactionDeleteRatioThreshold
	optForceRewriteAll      = coreoptions.CompactionForceRewriteAllFiles
	optDVIndexTargetSize    = coreoptions.DeletionVectorIndexFileTargetSize
	optDVBitmap64           = coreoptions.DeletionVectorBitmap64
	optDataFileExternal     = coreoptions.DataFileExternalPaths
	optClusteringIncr       = coreoptions.ClusteringIncremental
	optBucketAppendOrdered  = coreoptions.BucketAppendOrdered
)

// fullCompactMinFiles is BucketedAppendCompactManager.FULL_COMPACT_MIN_FILE:
// a full compaction of a bucket without deletion vectors needs at least
// this many files.
const fullCompactMinFiles = 3

// appendCompactConfig is what append compaction reads from the table
// options.
type appendCompactConfig struct {
	targetFileSize int64 // target-file-size, 256 MiB for append tables
	// compactionFileSize is the size below which a file is small enough
	// to be compacted: 70% of the target (Java
	// CoreOptions.compactionFileSize).
	compactionFileSize int64
	minFileNum         int     // compaction.min.file-num (5)
	fileNumLimit       int     // compaction.file-num-limit (100,000)
	openFileCost       int64   // source.split.open-file-cost (4 MiB)
	deleteRatio        float64 // compaction.delete-ratio-threshold (0.2)
	forceRewriteAll    bool    // compaction.force-rewrite-all-files
	deletionVectors    bool    // deletion-vectors.enabled
	dvTargetSize       int64   // deletion-vector.index-file.target-size (2 MiB)
}

func newAppendCompactConfig(o tableOptions) (*appendCompactConfig, error) {
	c := &appendCompactConfig{deletionVectors: o.deletionVectors(), forceRewriteAll: o.boolean(optForceRewriteAll, false)}
	var err error
	bad := func(err error) (*appendCompactConfig, error) { return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err) }
	if c.targetFileSize, err = o.memory(optTargetFileSize, datafile.DefaultTargetFileSize); err != nil {
		return bad(err)
	}
	if c.targetFileSize <= 0 {
		return bad(fmt.Errorf("%s must be positive", optTargetFileSize))
	}
	c.compactionFileSize = c.targetFileSize / 10 * 7
	if c.minFileNum, err = o.integer(optCompactionMinFileNum, 5); err != nil {
		return bad(err)
	}
	if c.fileNumLimit, err = o.integer(optCompactionFileLimit, 100_000); err != nil {
		return bad(err)
	}
	if c.openFileCost, err = o.memory(optSplitOpenFileCost, defaultOpenFileCost); err != nil {
		return bad(err)
	}
	if c.dvTargetSize, err = o.memory(optDVIndexTargetSize, 2<<20); err != nil {
		return bad(err)
	}
	c.deleteRatio = 0.2
	if v, ok := o[optCompactionDeleteRate]; ok {
		if c.deleteRatio, err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
			return bad(fmt.Errorf("%s: %w", optCompactionDeleteRate, err))
		}
	}
	if c.minFileNum < 1 || c.fileNumLimit < 1 {
		return bad(fmt.Errorf("%s and %s must be positive", optCompactionMinFileNum, optCompactionFileLimit))
	}
	return c, nil
}

// dvInfo tells the planner about a data file's deletion vector: the index
// file holding it ("" when it has none) and its cardinality (-1 when
// unknown).
type dvInfo func(fileName string) (indexFile string, cardinality int64)

// shouldCompactUnaware is AppendCompactCoordinator.shouldCompact: a file
// is picked up when it is small, or when its deletion vector deletes more
// than compaction.delete-ratio-threshold of its rows (or an unknown
// number).
func (c *appendCompactConfig) shouldCompactUnaware(f *manifest.DataFileMeta, dv dvInfo) bool {
	if f.FileSize < c.compactionFileSize {
		return true
	}
	if dv == nil {
		return false
	}
	idx, card := dv(f.FileName)
	if idx == "" {
		return false
	}
	return card < 0 || float64(card) > float64(f.RowCount)*c.deleteRatio
}

// fileBin is AppendCompactCoordinator's FileBin: files add their size plus
// the open-file cost; a bin is worth a task once it holds more than one
// file and twice the target size, or at the end minFileNum files.
type fileBin struct {
	files []*manifest.DataFileMeta
	total int64
}

func (b *fileBin) add(c *appendCompactConfig, f *manifest.DataFileMeta) {
	b.total += f.FileSize + c.openFileCost
	b.files = append(b.files, f)
}

func (b *fileBin) enoughContent(c *appendCompactConfig) bool {
	return len(b.files) > 1 && b.total >= c.targetFileSize*2
}

func (b *fileBin) drain() []*manifest.DataFileMeta {
	out := b.files
	b.files, b.total = nil, 0
	return out
}

// planUnawarePartition packs the candidate files of one partition of an
// unaware-bucket table into compaction tasks (AppendCompactCoordinator
// SubCoordinator.agePack in a batch run, where no file has aged): files
// sorted by size fill bins; with deletion vectors, the files sharing an
// index file stay together and are always compacted, so that the index
// file is rewritten by one task only. The candidates are in manifest
// order; ties in size keep it, which makes the plan deterministic (Java
// iterates a hash set there).
func (c *appendCompactConfig) planUnawarePartition(files []*manifest.DataFileMeta, dv dvInfo) [][]*manifest.DataFileMeta {
	if !c.deletionVectors || dv == nil {
		return c.packBySize(files)
	}
	groups := map[string][]*manifest.DataFileMeta{}
	var order []string
	var rest []*manifest.DataFileMeta
	for _, f := range files {
		idx, _ := dv(f.FileName)
		if idx == "" {
			rest = append(rest, f)
			continue
		}
		if _, ok := groups[idx]; !ok {
			order = append(order, idx)
		}
		groups[idx] = append(groups[idx], f)
	}
	size := func(g []*manifest.DataFileMeta) int64 {
		var n int64
		for _, f := range g {
			n += f.FileSize
		}
		return n
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(size(groups[a]), size(groups[b])) })
	var tasks [][]*manifest.DataFileMeta
	var bin fileBin
	for _, idx := range order {
		for _, f := range groups[idx] {
			bin.add(c, f)
		}
		if bin.enoughContent(c) {
			tasks = append(tasks, bin.drain())
		}
	}
	// Files with deletion vectors are always compacted.
	if len(bin.files) > 0 {
		tasks = append(tasks, bin.drain())
	}
	if len(rest) > 1 {
		tasks = append(tasks, c.packBySize(rest)...)
	}
	return tasks
}

// packBySize is SubCoordinator.pack.
func (c *appendCompactConfig) packBySize(files []*manifest.DataFileMeta) [][]*manifest.DataFileMeta {
	sorted := slices.Clone(files)
	slices.SortStableFunc(sorted, func(a, b *manifest.DataFileMeta) int { return cmp.Compare(a.FileSize, b.FileSize) })
	var tasks [][]*manifest.DataFileMeta
	var bin fileBin
	for _, f := range sorted {
		bin.add(c, f)
		if bin.enoughContent(c) {
			tasks = append(tasks, bin.drain())
		}
	}
	if len(bin.files) >= c.minFileNum {
		tasks = append(tasks, bin.drain())
	}
	return tasks
}

// bySequence sorts a bucket's files as BucketedAppendCompactManager's
// queue orders them: by minimum sequence number (ties by name, to be
// deterministic).
func bySequence(files []*manifest.DataFileMeta) []*manifest.DataFileMeta {
	out := slices.Clone(files)
	slices.SortStableFunc(out, func(a, b *manifest.DataFileMeta) int {
		if c := cmp.Compare(a.MinSequenceNumber, b.MinSequenceNumber); c != 0 {
			return c
		}
		return strings.Compare(a.FileName, b.FileName)
	})
	return out
}

// pickBucketed is BucketedAppendCompactManager.pickCompactBefore, the
// compaction a fixed-bucket writer triggers after each flush: a window
// slides over the bucket's files in sequence order, dropping its first
// file whenever it holds twice the target size, until it holds
// compaction.min.file-num files. files must be in sequence order; nil
// means nothing to compact.
func (c *appendCompactConfig) pickBucketed(files []*manifest.DataFileMeta) []*manifest.DataFileMeta {
	var window []*manifest.DataFileMeta
	var total int64
	for _, f := range files {
		window = append(window, f)
		total += f.FileSize
		if len(window) >= c.minFileNum {
			return window
		}
		if total >= c.targetFileSize*2 {
			total -= window[0].FileSize
			window = window[1:]
		}
	}
	return nil
}

// fullBucketed is BucketedAppendCompactManager's FullCompactTask: leading
// files (in sequence order) that are large and have no deletion vector
// stay; the rest is rewritten when small files outnumber large ones and
// there are at least three, or always when the table has deletion vectors
// or compaction.force-rewrite-all-files is set. files must be in sequence
// order; nil means nothing to compact.
func (c *appendCompactConfig) fullBucketed(files []*manifest.DataFileMeta, hasDV func(string) bool) []*manifest.DataFileMeta {
	if !c.forceRewriteAll && (len(files) == 0 || (!c.deletionVectors && len(files) < fullCompactMinFiles)) {
		return nil
	}
	q := files
	for !c.forceRewriteAll && len(q) > 0 {
		if q[0].FileSize >= c.compactionFileSize && (hasDV == nil || !hasDV(q[0].FileName)) {
			q = q[1:]
			continue
		}
		break
	}
	if len(q) == 0 {
		return nil
	}
	if c.deletionVectors || c.forceRewriteAll {
		return q
	}
	big, small := 0, 0
	for _, f := range q {
		if f.FileSize >= c.compactionFileSize {
			big++
		} else {
			small++
		}
	}
	if small > big && len(q) >= fullCompactMinFiles {
		return q
	}
	return nil
}

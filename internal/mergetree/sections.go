package mergetree

import (
	"container/heap"
	"fmt"
	"slices"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// Sections partitions the data files of one bucket as Java's
// IntervalPartition does and returns sections → sorted runs → files.
//
// Files are ordered by (min key, max key). A new section starts at a file
// whose min key is above the largest max key seen so far, so the key ranges
// of two sections never overlap and sections come in key order. Inside a
// section, each file joins the sorted run whose last file has the smallest
// max key if its min key is above that max key, else it opens a new run;
// the files of a run therefore have increasing, non-overlapping key ranges.
// The order of the runs inside a section carries no meaning.
//
// Keys are the files' _MIN_KEY/_MAX_KEY (serialized BinaryRows of the
// trimmed primary key) decoded with cmp's types. Unlike Java this returns an
// error, wrapping ErrCorrupt and naming the file, when a key cannot be
// decoded. The result holds copies of the DataFileMeta values (which share
// their byte slices with files).
func Sections(files []manifest.DataFileMeta, cmp *KeyComparator) ([][][]manifest.DataFileMeta, error) {
	if len(files) == 0 {
		return nil, nil
	}
	metas := make([]keyedFile, len(files))
	for i := range files {
		f := &files[i]
		lo, err := cmp.decodeSerialized(f.MinKey)
		if err != nil {
			return nil, fmt.Errorf("%w: data file %s: min key: %w", ErrCorrupt, f.FileName, err)
		}
		hi, err := cmp.decodeSerialized(f.MaxKey)
		if err != nil {
			return nil, fmt.Errorf("%w: data file %s: max key: %w", ErrCorrupt, f.FileName, err)
		}
		metas[i] = keyedFile{file: f, min: lo, max: hi}
	}
	// A stable sort, as Java's List.sort.
	slices.SortStableFunc(metas, func(a, b keyedFile) int {
		if r := cmp.Compare(a.min, b.min); r != 0 {
			return r
		}
		return cmp.Compare(a.max, b.max)
	})

	var out [][][]manifest.DataFileMeta
	start := 0
	var bound []any
	for i := range metas {
		if i > start && cmp.Compare(metas[i].min, bound) > 0 {
			out = append(out, sortedRuns(metas[start:i], cmp))
			start, bound = i, nil
		}
		if bound == nil || cmp.Compare(metas[i].max, bound) > 0 {
			bound = metas[i].max
		}
	}
	return append(out, sortedRuns(metas[start:], cmp)), nil
}

// keyedFile is a data file with its decoded min and max keys.
type keyedFile struct {
	file     *manifest.DataFileMeta
	min, max []any
}

// sortedRuns packs the files of one section (sorted by min key) into sorted
// runs greedily, keeping the runs in a min-heap on their last max key
// (IntervalPartition.partition(List)).
func sortedRuns(section []keyedFile, cmp *KeyComparator) [][]manifest.DataFileMeta {
	h := &runHeap{cmp: cmp}
	h.runs = append(h.runs, []keyedFile{section[0]})
	for _, f := range section[1:] {
		top := h.runs[0]
		if cmp.Compare(f.min, top[len(top)-1].max) > 0 {
			h.runs[0] = append(top, f)
			heap.Fix(h, 0)
		} else {
			heap.Push(h, []keyedFile{f})
		}
	}
	out := make([][]manifest.DataFileMeta, len(h.runs))
	for i, run := range h.runs {
		out[i] = make([]manifest.DataFileMeta, len(run))
		for j, f := range run {
			out[i][j] = *f.file
		}
	}
	return out
}

// runHeap orders sorted runs by the max key of their last file. It runs
// once per planned bucket, not per row, so container/heap serves.
type runHeap struct {
	runs [][]keyedFile
	cmp  *KeyComparator
}

func (h *runHeap) Len() int { return len(h.runs) }
func (h *runHeap) Less(i, j int) bool {
	a, b := h.runs[i], h.runs[j]
	return h.cmp.Compare(a[len(a)-1].max, b[len(b)-1].max) < 0
}
func (h *runHeap) Swap(i, j int) { h.runs[i], h.runs[j] = h.runs[j], h.runs[i] }
func (h *runHeap) Push(x any)    { h.runs = append(h.runs, x.([]keyedFile)) }
func (h *runHeap) Pop() any {
	last := h.runs[len(h.runs)-1]
	h.runs = h.runs[:len(h.runs)-1]
	return last
}

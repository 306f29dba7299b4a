package paimon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// TestOrderedBufferRoom walks an orderedBuffer through the rules of who
// may queue: a split ahead of the consumer within the byte budget, any
// split with an empty queue whatever the budget, the consumer's split up
// to splitBuffer batches; taking a batch or moving the head lets a
// waiting worker on. Every batch is released (checked allocator).
func TestOrderedBufferRoom(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	batch := func() arrow.RecordBatch {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.AppendValues(make([]int64, 1000), nil)
		col := b.NewArray()
		defer col.Release()
		return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, 1000)
	}
	probe := batch()
	size := batchBytes(probe)
	probe.Release()
	require.GreaterOrEqual(t, size, int64(8000))

	buf := newOrderedBuffer(3, size+size/2) // room for one batch ahead, not two
	// put runs in a goroutine; done reports whether it returned.
	put := func(i int) chan bool {
		done := make(chan bool, 1)
		go func() { done <- buf.put(i, readItem{rec: batch()}) }()
		return done
	}
	returned := func(done chan bool) bool {
		select {
		case ok := <-done:
			require.True(t, ok)
			return true
		case <-time.After(50 * time.Millisecond):
			return false
		}
	}
	require.True(t, returned(put(1)), "a split ahead with an empty queue always has room")
	require.True(t, returned(put(2)), "so has another, though the budget is now exceeded")
	waiting := put(1)
	require.False(t, returned(waiting), "a second batch ahead exceeds the budget")
	require.True(t, returned(put(0)), "the consumer's split has room")
	require.True(t, returned(put(0)), "for splitBuffer batches")
	third := put(0)
	require.False(t, returned(third), "but no more")

	it, ok := buf.take() // split 0's first batch: room for its third
	require.True(t, ok)
	it.rec.Release()
	require.True(t, returned(third))
	buf.end(0)
	for range 2 {
		it, ok = buf.take()
		require.True(t, ok)
		it.rec.Release()
	}
	_, ok = buf.take() // split 0 ended: split 1 becomes the head
	require.False(t, ok)
	require.True(t, returned(waiting), "the worker on the new head has room")

	blocked := put(2)
	require.False(t, returned(blocked))
	buf.stop() // the consumer stops: the waiting worker drops its batch
	require.False(t, <-blocked)
	buf.release()
}

// TestReadAheadBytesDefault checks which look-ahead budget an ordered
// parallel read gets: the smaller merge default as soon as one split of a
// primary-key table merges runs that decode ahead on their own goroutines,
// the larger one otherwise, and whatever the caller set.
func TestReadAheadBytesDefault(t *testing.T) {
	pk := &scanState{schema: &schema.TableSchema{PrimaryKeys: []string{"k"}}}
	appendOnly := &scanState{schema: &schema.TableSchema{}}
	raw := []Split{{RawConvertible: true}, {RawConvertible: true}}
	merged := []Split{{RawConvertible: true}, {RawConvertible: false}}
	for _, c := range []struct {
		name  string
		spec  ScanSpec
		st    *scanState
		split []Split
		want  int64
	}{
		{"append", ScanSpec{}, appendOnly, merged, DefaultReadAheadBytes},
		{"primary key, raw splits", ScanSpec{}, pk, raw, DefaultReadAheadBytes},
		{"primary key, a merged split", ScanSpec{}, pk, merged, DefaultMergeReadAheadBytes},
		{"runs decoded on the merging goroutine", ScanSpec{ReadAhead: -1}, pk, merged, DefaultReadAheadBytes},
		{"set by the caller", ScanSpec{ReadAheadBytes: 5}, pk, merged, 5},
		{"none", ScanSpec{ReadAheadBytes: -1}, appendOnly, raw, 0},
	} {
		s := &Scan{spec: c.spec}
		require.Equal(t, c.want, s.readAheadBytes(c.st, c.split), c.name)
	}
}

// TestBatchBytesCountsCapacity: the budget counts what a batch holds, a
// buffer's capacity, not the bytes in use.
func TestBatchBytesCountsCapacity(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	buf := memory.NewResizableBuffer(mem)
	buf.Reserve(1 << 16)
	buf.Resize(8 * 4)
	d := array.NewData(arrow.PrimitiveTypes.Int64, 4, []*memory.Buffer{nil, buf}, nil, 0, 0)
	buf.Release()
	col := array.MakeFromData(d)
	d.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, 4)
	col.Release()
	defer rec.Release()
	require.GreaterOrEqual(t, batchBytes(rec), int64(1<<16))
}

// TestFileUnits: the parallel reader reads the files of a split read
// without a merge as units of their own, in plan order, each with its
// deletion file; merged, data-evolution and other-branch splits stay whole,
// and so does a split of one file.
func TestFileUnits(t *testing.T) {
	files := func(names ...string) []manifest.DataFileMeta {
		var out []manifest.DataFileMeta
		for _, n := range names {
			out = append(out, manifest.DataFileMeta{FileName: n})
		}
		return out
	}
	dv := &DeletionFile{Path: "index/dv", Offset: 1, Length: 2}
	appendOnly := &scanState{schema: &schema.TableSchema{}}
	pk := &scanState{schema: &schema.TableSchema{PrimaryKeys: []string{"k"}}}
	evolution := &scanState{schema: &schema.TableSchema{}, dataEvolution: true}
	names := func(units []Split) []string {
		var out []string
		for _, u := range units {
			var fs []string
			for _, f := range u.Files {
				fs = append(fs, f.FileName)
			}
			s := strings.Join(fs, "+")
			if u.DeletionFiles != nil {
				s += fmt.Sprintf("/dv%d", len(u.DeletionFiles))
				if u.DeletionFiles[0] != nil {
					s += "!"
				}
			}
			out = append(out, s)
		}
		return out
	}

	splits := []Split{
		{Files: files("a", "b", "c"), RawConvertible: true},
		{Files: files("d")},
		{Files: files("e", "f"), DeletionFiles: []*DeletionFile{nil, dv}, RawConvertible: true},
		{Files: files("g", "h"), Branch: "fallback", RawConvertible: true},
	}
	require.Equal(t, []string{"a", "b", "c", "d", "e/dv1", "f/dv1!", "g+h"}, names(fileUnits(appendOnly, splits)))
	require.Len(t, splits[0].Files, 3, "the plan's splits are left as they were")

	merged := []Split{
		{Files: files("a", "b"), RawConvertible: false},
		{Files: files("c", "d"), RawConvertible: true},
	}
	require.Equal(t, []string{"a+b", "c", "d"}, names(fileUnits(pk, merged)))
	require.Equal(t, []string{"a+b", "c+d"}, names(fileUnits(evolution, merged)))
}

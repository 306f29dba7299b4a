package paimon_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// peakAllocator is a checked allocator that remembers the most it ever
// held at once.
type peakAllocator struct {
	*memcheck.Allocator
	peak atomic.Int64
}

func (a *peakAllocator) note() {
	cur := int64(a.CurrentAlloc())
	for {
		p := a.peak.Load()
		if cur <= p || a.peak.CompareAndSwap(p, cur) {
			return
		}
	}
}

func (a *peakAllocator) Allocate(n int) []byte {
	b := a.Allocator.Allocate(n)
	a.note()
	return b
}

func (a *peakAllocator) Reallocate(n int, b []byte) []byte {
	b = a.Allocator.Reallocate(n, b)
	a.note()
	return b
}

// TestWriteStreamMemoryBound streams batches into one partition through a
// writer with several workers (columns encoded at once, files finished in
// the background) and a 1 MiB memory budget. What the writer holds in
// flight, by its own accounting after each Write (open files' encoders and
// pages, and files being finished in the background), stays within three
// times the budget (the budget for open files, as much again for files
// being finished, and one file's overshoot), whatever the rows written (the
// same bound holds for twice the rows), while the data written is many
// times the bound. The Arrow buffers, from a checked allocator, stay within
// a few batches.
func TestWriteStreamMemoryBound(t *testing.T) {
	const (
		budget    = 1 << 20
		batchRows = 16_384
		bound     = 3 * budget
	)
	ctx := context.Background()
	sc, err := schema.ToArrowSchema(writeFields)
	require.NoError(t, err)
	for _, batches := range []int{16, 32} {
		t.Run(fmt.Sprint(batches, " batches"), func(t *testing.T) {
			tbl, _ := newWriteTable(t, false, map[string]string{"file.compression": "none"})
			mem := &peakAllocator{Allocator: memcheck.New()}
			w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem, MemoryBudget: budget, Workers: 4})
			require.NoError(t, err)
			var arrowBytes, held int64
			for i := range batches {
				rec := streamBatch(mem, sc, int64(i*batchRows), batchRows)
				for _, c := range rec.Columns() {
					for _, b := range c.Data().Buffers() {
						if b != nil {
							arrowBytes += int64(b.Len())
						}
					}
				}
				require.NoError(t, w.Write(ctx, rec))
				held = max(held, paimon.WriterHeld(w))
				rec.Release()
			}
			msgs, err := w.PrepareCommit(ctx)
			require.NoError(t, err)
			require.NoError(t, w.Close(ctx))
			mem.AssertSize(t, 0)
			files := 0
			for _, m := range msgs {
				files += len(m.NewFiles)
			}
			peak := mem.peak.Load()
			t.Logf("%d MiB of Arrow data in %d files; held at most %.1f MiB in files, %.1f MiB of Arrow buffers",
				arrowBytes>>20, files, float64(held)/(1<<20), float64(peak)/(1<<20))
			require.Greater(t, files, 1, "the budget finished files early")
			require.Positive(t, held)
			require.LessOrEqual(t, held, int64(bound))
			require.Less(t, peak, 4*arrowBytes/int64(batches), "a few batches of Arrow buffers at most")
			require.Greater(t, arrowBytes, int64(2*bound), "the data must dwarf the bound")
			_, err = newCommit(t, tbl, "u").Commit(ctx, paimon.BatchCommitIdentifier, msgs)
			require.NoError(t, err)
		})
	}
}

// streamBatch builds rows [from, from+n) of writeFields with hardly
// compressible names.
func streamBatch(mem memory.Allocator, sc *arrow.Schema, from, n int64) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	dt := b.Field(0).(*array.StringBuilder)
	id := b.Field(1).(*array.Int64Builder)
	name := b.Field(2).(*array.StringBuilder)
	score := b.Field(3).(*array.Float64Builder)
	x := uint64(from)*0x9e3779b97f4a7c15 + 1
	for i := from; i < from+n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		dt.Append("p")
		id.Append(i)
		name.Append(fmt.Sprintf("%016x%08x", x, i))
		score.Append(float64(x % 100_000))
	}
	return b.NewRecordBatch()
}

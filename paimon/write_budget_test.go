package paimon_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestWriteMemoryBudget writes batches touching 150 partitions with a
// budget that holds far fewer open files: files are finished early, every
// row reads back once, and Java's placement rules still hold. With the
// budget off, one file per partition stays open until PrepareCommit.
func TestWriteMemoryBudget(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		budget   int64
		minFiles int
	}{
		{"budget 1 MiB", 1 << 20, 151},
		{"no budget", -1, 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := memfs.New(nil)
			ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, PartitionKeys: []string{"dt"}, Options: map[string]string{}}
			_, err := testtable.Create(ctx, fsys, "db.db/t", ts)
			require.NoError(t, err)
			tbl, err := paimon.OpenTable(ctx, fsys, "db.db/t", nil)
			require.NoError(t, err)
			mem := memcheck.New()
			w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem, MemoryBudget: tc.budget})
			require.NoError(t, err)
			var all [][]any
			for round := range 2 {
				var rows [][]any
				for i := range 150 {
					id := round*150 + i
					rows = append(rows, []any{fmt.Sprintf("p%03d", i), int64(id), fmt.Sprintf("n%d", id), float64(id)})
				}
				all = append(all, rows...)
				rec := batch(t, mem, rows)
				require.NoError(t, w.Write(ctx, rec))
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
			require.GreaterOrEqual(t, files, tc.minFiles)
			if tc.budget < 0 {
				require.Equal(t, 150, files)
			}
			_, err = newCommit(t, tbl, "u").Commit(ctx, paimon.BatchCommitIdentifier, msgs)
			require.NoError(t, err)
			require.Equal(t, render(t, all), dump(t, tbl))
			checkPlacement(t, tbl)
			t.Logf("%d data files", files)
		})
	}
}

package paimon_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// scanLines reads a scan and renders its rows in output order.
func scanLines(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) ([]string, error) {
	t.Helper()
	var out []string
	for rec, err := range tbl.NewScan(opts...).Records(context.Background()) {
		if err != nil {
			return out, err
		}
		lines, lerr := canon.BatchLines(tbl.Schema().Fields, rec)
		rec.Release()
		require.NoError(t, lerr)
		out = append(out, lines...)
	}
	return out, nil
}

// TestScanWorkers reads tables of many splits (append, with several files a
// split, and primary-key,
// written by Go and by Java) with several workers and with the default
// (GOMAXPROCS workers without a limit): in order the rows come
// out exactly as a one-split-at-a-time read yields them, unordered the same
// rows in some order; limits hold and every batch is released.
func TestScanWorkers(t *testing.T) {
	tables := map[string]func(t *testing.T) *paimon.Table{
		"go-append-partitioned": func(t *testing.T) *paimon.Table {
			tbl, _ := newWriteTable(t, true, map[string]string{"bucket": "3", "bucket-key": "id"})
			c := newCommit(t, tbl, "u")
			write(t, tbl, c, 1, rowsOf(0, 400, 7), 37)
			write(t, tbl, c, 2, rowsOf(400, 700, 7), 50)
			return tbl
		},
		"java-pk-dedup": func(t *testing.T) *paimon.Table {
			tbl, _, _ := goldenTable(t, "java-1.4.2", "pk-dedup", "pk_dedup")
			return tbl
		},
		"java-pk-deletion-vectors": func(t *testing.T) *paimon.Table {
			tbl, _, _ := goldenTable(t, "java-1.4.2", "pk-deletion-vectors", "pk_deletion_vectors")
			return tbl
		},
	}
	for name, open := range tables {
		t.Run(name, func(t *testing.T) {
			tbl := open(t)
			plan, err := tbl.NewScan().Plan(context.Background())
			require.NoError(t, err)
			require.Greater(t, len(plan.Splits), 1, "the table needs several splits")
			if name == "go-append-partitioned" {
				// The parallel reader reads these splits' files as units of
				// their own (fileUnits): the order must still be the plan's.
				require.True(t, slices.ContainsFunc(plan.Splits, func(s paimon.Split) bool { return len(s.Files) > 1 }))
			}
			// A negative count reads on the consumer's goroutine, one
			// split after the other; 0 is the default pool.
			want, err := scanLines(t, tbl, paimon.WithWorkers(-1), paimon.WithBatchSize(3))
			require.NoError(t, err)
			require.NotEmpty(t, want)
			for _, workers := range []int{0, 1, 2, 3, 16} {
				mem := memcheck.New()
				got, err := scanLines(t, tbl, paimon.WithWorkers(workers), paimon.WithBatchSize(3), paimon.WithAllocator(mem))
				require.NoError(t, err)
				require.Equal(t, want, got, "%d workers, in order", workers)

				got, err = scanLines(t, tbl, paimon.WithWorkers(workers), paimon.WithUnordered(), paimon.WithBatchSize(3), paimon.WithAllocator(mem))
				require.NoError(t, err)
				require.ElementsMatch(t, want, got, "%d workers, unordered", workers)

				for _, limit := range []int{1, 4, len(want) - 1, len(want) + 3} {
					got, err = scanLines(t, tbl, paimon.WithWorkers(workers), paimon.WithLimit(int64(limit)), paimon.WithBatchSize(3), paimon.WithAllocator(mem))
					require.NoError(t, err)
					require.Equal(t, want[:min(limit, len(want))], got, "%d workers, limit %d", workers, limit)
					got, err = scanLines(t, tbl, paimon.WithWorkers(workers), paimon.WithUnordered(), paimon.WithLimit(int64(limit)), paimon.WithBatchSize(3), paimon.WithAllocator(mem))
					require.NoError(t, err)
					require.Len(t, got, min(limit, len(want)), "%d workers, unordered, limit %d", workers, limit)
					require.Subset(t, want, got)
				}
				mem.AssertSize(t, 0)
			}
		})
	}
}

// TestScanWorkersStopAndFail breaks out of a parallel read after one batch
// and reads a table with a damaged data file: every batch read ahead is
// released, the error comes out, and no worker goroutine is left.
func TestScanWorkersStopAndFail(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fsys, err := localfs.New(dir, nil)
	require.NoError(t, err)
	t.Cleanup(func() { fsys.Close() })
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, PartitionKeys: []string{"dt"},
		Options: map[string]string{"bucket": "2", "bucket-key": "id"}}
	_, err = testtable.Create(ctx, fsys, "db.db/t", ts)
	require.NoError(t, err)
	tbl, err := paimon.OpenTable(ctx, fsys, "db.db/t", nil)
	require.NoError(t, err)
	c := newCommit(t, tbl, "u")
	write(t, tbl, c, 1, rowsOf(0, 600, 7), 20)
	for _, unordered := range []bool{false, true} {
		opts := []paimon.ScanOption{paimon.WithWorkers(4), paimon.WithBatchSize(2)}
		if unordered {
			opts = append(opts, paimon.WithUnordered())
		}
		mem := memcheck.New()
		for rec, err := range tbl.NewScan(append(opts, paimon.WithAllocator(mem))...).Records(context.Background()) {
			require.NoError(t, err)
			rec.Release()
			break
		}
		mem.AssertSize(t, 0)
	}

	// Damage one data file: the read must fail, naming it.
	plan, err := tbl.NewScan().Plan(ctx)
	require.NoError(t, err)
	sp := plan.Splits[len(plan.Splits)/2]
	matches, err := filepath.Glob(filepath.Join(dir, "db.db", "t", "*", "bucket-*", sp.Files[0].FileName))
	require.NoError(t, err)
	require.Len(t, matches, 1)
	require.NoError(t, os.WriteFile(matches[0], []byte("not parquet"), 0o644))
	for _, unordered := range []bool{false, true} {
		opts := []paimon.ScanOption{paimon.WithWorkers(3), paimon.WithBatchSize(2)}
		if unordered {
			opts = append(opts, paimon.WithUnordered())
		}
		mem := memcheck.New()
		_, err := scanLines(t, tbl, append(opts, paimon.WithAllocator(mem))...)
		require.ErrorIs(t, err, paimon.ErrCorrupt)
		require.ErrorContains(t, err, sp.Files[0].FileName)
		mem.AssertSize(t, 0)
	}
	requireNoReadGoroutines(t)
}

// requireNoReadGoroutines checks that no worker (nor a read-ahead
// goroutine under it) outlives its read.
func requireNoReadGoroutines(t *testing.T) {
	t.Helper()
	leftover := func() string {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		for _, fn := range []string{"readSplitsParallel", "readOneSplit", "mergetree.readAhead"} {
			if strings.Contains(stacks, fn) {
				return stacks
			}
		}
		return ""
	}
	if !assert.Eventually(t, func() bool { return leftover() == "" }, 5*time.Second, 10*time.Millisecond) {
		t.Logf("goroutines left running:\n%s", leftover())
	}
}

// manySplitsTable writes a partitioned, bucketed append table of many
// small splits through a CountingFS, whose fault hook the caller may set.
func manySplitsTable(t *testing.T) (*paimon.Table, *fstest.CountingFS) {
	t.Helper()
	ctx := context.Background()
	base, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { base.Close() })
	cfs := fstest.NewCountingFS(base)
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, PartitionKeys: []string{"dt"},
		Options: map[string]string{"bucket": "2", "bucket-key": "id"}}
	_, err = testtable.Create(ctx, cfs, "db.db/t", ts)
	require.NoError(t, err)
	tbl, err := paimon.OpenTable(ctx, cfs, "db.db/t", nil)
	require.NoError(t, err)
	write(t, tbl, newCommit(t, tbl, "u"), 1, rowsOf(0, 600, 7), 40)
	return tbl, cfs
}

// TestScanReadAheadBudget reads in order with look-ahead budgets from none
// to unbounded and batches from tiny to larger than any budget (one batch
// per split): the rows are those of a sequential read, a consumer that
// stops early leaves nothing allocated, and no goroutine is left.
func TestScanReadAheadBudget(t *testing.T) {
	tbl, _ := manySplitsTable(t)
	want, err := scanLines(t, tbl, paimon.WithWorkers(-1))
	require.NoError(t, err)
	require.Len(t, want, 600)
	for _, budget := range []int64{-1, 1, 100, 0, 1 << 40} {
		for _, batch := range []int{2, 1 << 20} {
			for _, workers := range []int{0, 2, 16} {
				name := fmt.Sprintf("budget %d, batch %d, %d workers", budget, batch, workers)
				mem := memcheck.New()
				opts := []paimon.ScanOption{paimon.WithWorkers(workers), paimon.WithReadAheadBytes(budget),
					paimon.WithBatchSize(batch), paimon.WithAllocator(mem)}
				got, err := scanLines(t, tbl, opts...)
				require.NoError(t, err, name)
				require.Equal(t, want, got, name)
				for _, stopAfter := range []int{1, 5} {
					n := 0
					for rec, err := range tbl.NewScan(opts...).Records(context.Background()) {
						require.NoError(t, err, name)
						rec.Release()
						if n++; n == stopAfter {
							break
						}
					}
				}
				mem.AssertSize(t, 0)
			}
		}
	}
	requireNoReadGoroutines(t)
}

// TestScanReadAheadError holds the consumer on the first split (its file's
// open waits) until a worker, reading ahead within the default budget, has
// failed on a later split: the consumer then gets every row of the splits
// before the failed one, in order, and the error; no split after the failed
// one is started, everything read ahead is released, and no goroutine is
// left. With only two batches per split of look-ahead (before the budget)
// the worker ahead stalled on the second split and never reached the
// failing one.
func TestScanReadAheadError(t *testing.T) {
	ctx := context.Background()
	tbl, cfs := manySplitsTable(t)
	plan, err := tbl.NewScan().Plan(ctx)
	require.NoError(t, err)
	require.Greater(t, len(plan.Splits), 6)
	failAt := len(plan.Splits) - 3
	var want []string
	for i := range failAt {
		for rec, err := range tbl.NewScan(paimon.WithBatchSize(2)).ReadSplits(ctx, plan.Splits[i]) {
			require.NoError(t, err)
			lines, err := canon.BatchLines(tbl.Schema().Fields, rec)
			require.NoError(t, err)
			rec.Release()
			want = append(want, lines...)
		}
	}
	splitOf := func(name string) int {
		for i, sp := range plan.Splits {
			for _, f := range sp.Files {
				if strings.HasSuffix(name, "/"+f.FileName) {
					return i
				}
			}
		}
		return -1
	}
	// Split 0's open waits until the read has recorded the failure: a
	// worker released at the failing open itself could finish split 0
	// and start the next split before the other worker recorded it.
	failed := make(chan struct{})
	var once sync.Once
	defer paimon.SetSplitFailedHook(func(int) { once.Do(func() { close(failed) }) })()
	var mu sync.Mutex
	started := map[int]bool{}
	cfs.SetFault(func(op fstest.Op, name string) error {
		i := splitOf(name)
		if op != fstest.OpOpen || i < 0 {
			return nil
		}
		mu.Lock()
		started[i] = true
		mu.Unlock()
		switch {
		case i == 0:
			select {
			case <-failed:
				return nil
			case <-time.After(20 * time.Second):
				return errors.New("the worker ahead never reached the failing split")
			}
		case i == failAt:
			return errors.New("injected failure")
		}
		return nil
	})
	mem := memcheck.New()
	got, err := scanLines(t, tbl, paimon.WithWorkers(2), paimon.WithBatchSize(2), paimon.WithAllocator(mem))
	require.ErrorContains(t, err, "injected failure")
	require.Equal(t, want, got)
	mem.AssertSize(t, 0)
	requireNoReadGoroutines(t)
	mu.Lock()
	defer mu.Unlock()
	for i := failAt + 1; i < len(plan.Splits); i++ {
		require.False(t, started[i], "split %d after the failed split %d was read", i, failAt)
	}
}

// TestManifestCache plans a table opened with a manifest cache twice, the
// second time after another commit: the second plan reads only the new
// manifest, and both plans read what a table without the cache reads.
func TestManifestCache(t *testing.T) {
	ctx := context.Background()
	base, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { base.Close() })
	cfs := fstest.NewCountingFS(base)
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, PartitionKeys: []string{"dt"},
		Options: map[string]string{"bucket": "2", "bucket-key": "id"}}
	_, err = testtable.Create(ctx, cfs, "db.db/t", ts)
	require.NoError(t, err)
	plain, err := paimon.OpenTable(ctx, cfs, "db.db/t", nil)
	require.NoError(t, err)
	_, err = paimon.OpenTable(ctx, cfs, "db.db/t", &paimon.TableOptions{ManifestCache: -1})
	require.ErrorIs(t, err, paimon.ErrInvalidOption)
	cached, err := paimon.OpenTable(ctx, cfs, "db.db/t", &paimon.TableOptions{ManifestCache: 8})
	require.NoError(t, err)
	c := newCommit(t, plain, "u")
	write(t, plain, c, 1, rowsOf(0, 200, 5), 50)
	write(t, plain, c, 2, rowsOf(200, 300, 5), 50)

	manifestReads := func() int {
		n := 0
		for _, name := range cfs.Names(fstest.OpOpen) {
			if strings.Contains(name, "/manifest/manifest-") && !strings.Contains(name, "manifest-list") {
				n++
			}
		}
		return n
	}
	for round := range 2 {
		want, err := scanLines(t, plain)
		require.NoError(t, err)
		cfs.Reset()
		got, err := scanLines(t, cached)
		require.NoError(t, err)
		require.Equal(t, want, got)
		first := manifestReads()
		require.Positive(t, first, "round %d", round)
		cfs.Reset()
		got, err = scanLines(t, cached)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.Zero(t, manifestReads(), "round %d: a cached manifest was read again", round)
		if round == 0 {
			write(t, plain, c, 3, rowsOf(300, 350, 5), 50)
		}
	}
}

package storetest

import (
	"fmt"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon"
)

// racingCommit opens a committer that retries often enough to win against
// a handful of racing writers on a slow store.
func racingCommit(tbl *paimon.Table, user string) (*paimon.TableCommit, error) {
	return tbl.NewCommit(&paimon.CommitOptions{User: user, MaxRetries: 200,
		MinRetryWait: time.Millisecond, MaxRetryWait: 50 * time.Millisecond})
}

// testConcurrentCommits races committers with distinct commit users in
// goroutines. The store's create-if-absent decides each snapshot id: every
// commit lands exactly once, ids have no gaps, each snapshot's record count
// is the running total, and every row is read once.
func testConcurrentCommits(t *testing.T, fsys fs.FS) {
	const writers, commits, perCommit = 4, 3, 6
	// write-only: the writers' own compactions would add COMPACT snapshots
	// (and may lose to each other); this suite counts APPEND commits.
	tbl := createTable(t, fsys, parquetFixed, map[string]string{coreoptions.WriteOnly: "true"})
	type result struct {
		ids []int64
		err error
	}
	results := make(chan result, writers)
	for g := 0; g < writers; g++ {
		go func() {
			var r result
			defer func() { results <- r }()
			c, err := racingCommit(tbl, fmt.Sprintf("writer-%d", g))
			if err != nil {
				r.err = err
				return
			}
			for i := 0; i < commits; i++ {
				from := (g*commits + i) * perCommit
				msgs, err := PrepareRows(ctx, tbl, rowsOf(from, from+perCommit), perCommit)
				if err != nil {
					r.err = fmt.Errorf("writer %d commit %d: %w", g, i+1, err)
					return
				}
				res, err := c.Commit(ctx, int64(i+1), msgs)
				if err == nil && res.Snapshot == nil {
					err = fmt.Errorf("nothing published")
				}
				if err != nil {
					r.err = fmt.Errorf("writer %d commit %d: %w", g, i+1, err)
					return
				}
				r.ids = append(r.ids, res.Snapshot.ID)
			}
		}()
	}
	var won []int64
	for range writers {
		r := <-results
		require.NoError(t, r.err)
		require.True(t, sort.SliceIsSorted(r.ids, func(i, j int) bool { return r.ids[i] < r.ids[j] }), "%v", r.ids)
		won = append(won, r.ids...)
	}
	sort.Slice(won, func(i, j int) bool { return won[i] < won[j] })

	const total = writers * commits
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Len(t, ids, total)
	seen := map[string]bool{}
	for i, id := range ids {
		require.EqualValues(t, i+1, id, "snapshot ids have a gap")
		require.EqualValues(t, i+1, won[i], "the ids the committers were told differ from the table's")
		s, err := tbl.Meta().ReadSnapshot(ctx, id)
		require.NoError(t, err)
		key := fmt.Sprintf("%s/%d", s.CommitUser, s.CommitIdentifier)
		require.False(t, seen[key], "%s committed twice", key)
		seen[key] = true
		require.Equal(t, "APPEND", string(s.CommitKind))
		require.EqualValues(t, (i+1)*perCommit, s.TotalRecordCount, "snapshot %d", id)
	}
	require.Len(t, seen, total)
	tbl = reopen(t, fsys)
	requireRows(t, render(t, tbl.Schema().Fields, rowsOf(0, total*perCommit)), read(t, tbl), "latest snapshot")
}

// testConcurrentCommitsCompacting races committers whose writers compact
// their bucket after every prepare (the default when a table is not
// write-only), so compactions lose to each other's commits: every commit
// still succeeds (a lost compaction is reported in CommitResult.CompactErr,
// its output removed), every APPEND lands exactly once, and every row is
// read once.
func testConcurrentCommitsCompacting(t *testing.T, fsys fs.FS) {
	const writers, commits, perCommit = 4, 4, 6
	tbl := createTable(t, fsys, parquetFixed, map[string]string{coreoptions.CompactionMinFileNum: "2"})
	errs := make(chan error, writers)
	var lost atomic.Int64 // compactions that lost a race (reported, not failed)
	for g := 0; g < writers; g++ {
		go func() {
			errs <- func() error {
				c, err := racingCommit(tbl, fmt.Sprintf("writer-%d", g))
				if err != nil {
					return err
				}
				for i := 0; i < commits; i++ {
					from := (g*commits + i) * perCommit
					msgs, err := PrepareRows(ctx, tbl, rowsOf(from, from+perCommit), perCommit)
					if err != nil {
						return fmt.Errorf("writer %d commit %d: %w", g, i+1, err)
					}
					res, err := c.Commit(ctx, int64(i+1), msgs)
					if err != nil {
						return fmt.Errorf("writer %d commit %d: %w", g, i+1, err)
					}
					if res.Snapshot == nil {
						return fmt.Errorf("writer %d commit %d: nothing published", g, i+1)
					}
					if res.CompactErr != nil {
						lost.Add(1)
					}
				}
				return nil
			}()
		}()
	}
	for range writers {
		require.NoError(t, <-errs)
	}
	t.Logf("%d compactions lost a race and were reported in CompactErr", lost.Load())
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	appends := map[string]bool{}
	for _, id := range ids {
		s, err := tbl.Meta().ReadSnapshot(ctx, id)
		require.NoError(t, err)
		if s.CommitKind != "APPEND" {
			continue
		}
		key := fmt.Sprintf("%s/%d", s.CommitUser, s.CommitIdentifier)
		require.False(t, appends[key], "%s appended twice", key)
		appends[key] = true
	}
	require.Len(t, appends, writers*commits)
	tbl = reopen(t, fsys)
	requireRows(t, render(t, tbl.Schema().Fields, rowsOf(0, writers*commits*perCommit)), read(t, tbl), "latest snapshot")
}

// testOverwriteVsAppend races an overwrite of a partition against an
// append into it, and two overwrites of it. Java's conflict detection lets
// both land (an overwrite recomputes what it deletes on each attempt), so
// the outcome must be that of running them in snapshot order; the loser's
// failed attempts must leave no file behind.
func testOverwriteVsAppend(t *testing.T, fsys fs.FS) {
	const day = "2024-01-02"
	for _, tc := range []struct {
		name           string
		firstOverwrite bool // the first commit is an overwrite too
	}{
		{"append-and-overwrite", false},
		{"overwrite-and-overwrite", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub, err := fs.Sub(fsys, tc.name)
			require.NoError(t, err)
			tbl := createTable(t, sub, parquetFixed, nil)
			fields := tbl.Schema().Fields
			base := rowsOf(0, 60)
			write(t, tbl, newCommit(t, tbl, "base"), 1, base, 60)

			rowsA, rowsB := rowsIn(day, 500, 510), rowsIn(day, 600, 606)
			msgsA, msgsB := prepare(t, tbl, rowsA, 100), prepare(t, tbl, rowsB, 100)
			ca, err := racingCommit(tbl, "a")
			require.NoError(t, err)
			cb, err := racingCommit(tbl, "b")
			require.NoError(t, err)
			part := map[string]string{"dt": day}

			start := make(chan struct{})
			type result struct {
				res *paimon.CommitResult
				err error
			}
			resA, resB := make(chan result, 1), make(chan result, 1)
			go func() {
				<-start
				var r result
				if tc.firstOverwrite {
					r.res, r.err = ca.Overwrite(ctx, 1, part, msgsA)
				} else {
					r.res, r.err = ca.Commit(ctx, 1, msgsA)
				}
				resA <- r
			}()
			go func() {
				<-start
				var r result
				r.res, r.err = cb.Overwrite(ctx, 1, part, msgsB)
				resB <- r
			}()
			close(start)
			ra, rb := <-resA, <-resB
			require.NoError(t, ra.err)
			require.NoError(t, rb.err)
			idA, idB := ra.res.Snapshot.ID, rb.res.Snapshot.ID
			require.ElementsMatch(t, []int64{2, 3}, []int64{idA, idB})
			t.Logf("A landed as snapshot %d after %d attempts, B as %d after %d", idA, ra.res.Attempts, idB, rb.res.Attempts)

			// Replay the two commits in snapshot order.
			applyA := func(rows [][]any) [][]any {
				if tc.firstOverwrite {
					return concat(where(rows, notInDay(day)), rowsA)
				}
				return concat(rows, rowsA)
			}
			applyB := func(rows [][]any) [][]any { return concat(where(rows, notInDay(day)), rowsB) }
			var at2, at3 [][]any
			if idA == 2 {
				at2 = applyA(base)
				at3 = applyB(at2)
			} else {
				at2 = applyB(base)
				at3 = applyA(at2)
			}
			tbl = reopen(t, sub)
			requireRows(t, render(t, fields, at2), read(t, tbl, paimon.WithSnapshotID(2)), "snapshot 2")
			requireRows(t, render(t, fields, at3), read(t, tbl), "latest snapshot")

			// No attempt left a manifest or data file that nothing references.
			orphans, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{DryRun: true, OlderThan: time.Hour,
				Now: func() time.Time { return time.Now().Add(48 * time.Hour) }})
			require.NoError(t, err)
			require.Empty(t, orphans.Deleted)
		})
	}
}

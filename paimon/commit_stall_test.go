package paimon_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// Deterministic reproductions of the commit races of issue 24: a commit is
// paused by a hook between reading the latest snapshot and publishing
// (or between publishing and verifying) while another writer commits
// with expiration on.

// stallTable is an append table on memfs whose committers share a clock
// that advances two minutes per reading, so that snapshots leave the
// commit grace before other rules expire them.
type stallTable struct {
	t     *testing.T
	fsys  fs.FS
	tbl   *paimon.Table
	mu    sync.Mutex
	clock time.Time
	next  int // next row id
	rows  [][]any
}

func newStallTable(t *testing.T, opts map[string]string) *stallTable {
	ctx := context.Background()
	fsys := memfs.New(nil)
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, Options: map[string]string{}}
	for k, v := range opts {
		ts.Options[k] = v
	}
	_, err := testtable.Create(ctx, fsys, "db.db/t", ts)
	require.NoError(t, err)
	tbl, err := paimon.OpenTable(ctx, fsys, "db.db/t", nil)
	require.NoError(t, err)
	return &stallTable{t: t, fsys: fsys, tbl: tbl, clock: time.Now()}
}

func (s *stallTable) now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock = s.clock.Add(2 * time.Minute)
	return s.clock
}

func (s *stallTable) committer(user string) *paimon.TableCommit {
	c, err := s.tbl.NewCommit(&paimon.CommitOptions{User: user, Now: s.now, MinRetryWait: time.Millisecond})
	require.NoError(s.t, err)
	return c
}

// prepare writes n new rows and returns their commit messages; the rows
// count as expected once their commit succeeds (see landed).
func (s *stallTable) prepare(n int) ([]paimon.CommitMessage, [][]any) {
	rows := rowsOf(s.next, s.next+n, 3)
	s.next += n
	ctx := context.Background()
	w, err := s.tbl.NewWriter(nil)
	require.NoError(s.t, err)
	rec := batch(s.t, nil, rows)
	require.NoError(s.t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(s.t, err)
	require.NoError(s.t, w.Close(ctx))
	return msgs, rows
}

func (s *stallTable) landed(rows [][]any) { s.rows = append(s.rows, rows...) }

// commitN makes c commit n batches of 2 rows with increasing identifiers.
func (s *stallTable) commitN(c *paimon.TableCommit, first int64, n int) {
	for i := range n {
		msgs, rows := s.prepare(2)
		_, err := c.Commit(context.Background(), first+int64(i), msgs)
		require.NoError(s.t, err)
		s.landed(rows)
	}
}

func (s *stallTable) ids() []int64 {
	ids, err := s.tbl.Meta().SnapshotIDs(context.Background())
	require.NoError(s.t, err)
	return ids
}

// check verifies that the table reads every landed row exactly once and
// that the LATEST hint names the newest snapshot.
func (s *stallTable) check() {
	ctx := context.Background()
	tbl, err := paimon.OpenTable(ctx, s.fsys, "db.db/t", nil)
	require.NoError(s.t, err)
	require.Equal(s.t, render(s.t, s.rows), dump(s.t, tbl))
	ids := s.ids()
	hint, err := fs.ReadFile(ctx, s.fsys, "db.db/t/snapshot/LATEST")
	require.NoError(s.t, err)
	require.Equal(s.t, fmt.Sprint(ids[len(ids)-1]), string(hint), "LATEST names the newest snapshot")
	for i := 1; i < len(ids); i++ {
		require.Equal(s.t, ids[i-1]+1, ids[i], "snapshot ids are contiguous: %v", ids)
	}
}

// pause makes c stop the first time it reaches point for snapshot id; the
// returned channels say it stopped and let it go on.
func pause(c *paimon.TableCommit, point string, id int64) (stopped <-chan struct{}, release chan<- struct{}) {
	stop, rel := make(chan struct{}), make(chan struct{})
	var once sync.Once
	paimon.SetCommitHook(c, func(_ context.Context, p string, got int64) {
		if p == point && got == id {
			once.Do(func() {
				close(stop)
				<-rel
			})
		}
	})
	return stop, rel
}

type commitOutcome struct {
	res *paimon.CommitResult
	err error
}

func commitAsync(c *paimon.TableCommit, identifier int64, msgs []paimon.CommitMessage) <-chan commitOutcome {
	out := make(chan commitOutcome, 1)
	go func() {
		res, err := c.Commit(context.Background(), identifier, msgs)
		out <- commitOutcome{res, err}
	}()
	return out
}

// TestStalledCommitRecreatesExpiredID: issue 24, failure 1. A commit
// stalls after choosing snapshot 2; another writer commits 20 times with
// snapshot.num-retained.max 15, so snapshots 1..6 expire. The stalled
// commit's create-if-absent of snapshot 2 succeeds: it must notice that it
// recreated an expired id on top of history it never saw, remove it, and
// commit again on top of the latest snapshot.
func TestStalledCommitRecreatesExpiredID(t *testing.T) {
	s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "15", "snapshot.time-retained": "1 d"})
	b := s.committer("B")
	s.commitN(b, 1, 1)
	a := s.committer("A")
	stopped, release := pause(a, "publish", 2)
	msgs, rows := s.prepare(3)
	done := commitAsync(a, 1, msgs)
	<-stopped
	s.commitN(b, 2, 20)
	require.Equal(t, int64(7), s.ids()[0], "snapshots 1..6 expired")
	close(release)
	out := <-done
	require.NoError(t, out.err)
	require.Equal(t, int64(22), out.res.Snapshot.ID, "committed again on top of snapshot 21")
	require.Equal(t, 2, out.res.Attempts)
	s.landed(rows)
	s.check()
	require.NotContains(t, s.ids(), int64(2))
}

// TestStalledCommitRecreatesIDBelowSuccessor: like the test above, but the
// expiration stops right above the recreated id: snapshot 7 exists and was
// not built on the new snapshot 6, which it does not know.
func TestStalledCommitRecreatesIDBelowSuccessor(t *testing.T) {
	s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "15", "snapshot.time-retained": "1 d"})
	b := s.committer("B")
	s.commitN(b, 1, 5)
	a := s.committer("A")
	stopped, release := pause(a, "publish", 6)
	msgs, rows := s.prepare(3)
	done := commitAsync(a, 1, msgs)
	<-stopped
	s.commitN(b, 6, 16)
	require.Equal(t, int64(7), s.ids()[0], "snapshots 1..6 expired, 7 is the earliest")
	close(release)
	out := <-done
	require.NoError(t, out.err)
	require.Equal(t, int64(22), out.res.Snapshot.ID)
	s.landed(rows)
	s.check()
}

// TestPublishedCommitOutlivesItsBase: a commit that published snapshot 6
// on top of snapshot 5 stalls before verifying; meanwhile others build
// on it and expiration removes snapshot 5 (and in the second case
// snapshot 6 itself). The commit landed and must say so, not retry.
func TestPublishedCommitOutlivesItsBase(t *testing.T) {
	for _, tc := range []struct {
		name    string
		commits int
	}{{"base expired", 14}, {"base and own snapshot expired", 15}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "15", "snapshot.time-retained": "1 d"})
			b := s.committer("B")
			s.commitN(b, 1, 5)
			a := s.committer("A")
			stopped, release := pause(a, "verify", 6)
			msgs, rows := s.prepare(3)
			done := commitAsync(a, 1, msgs)
			<-stopped
			s.landed(rows)
			s.commitN(b, 6, tc.commits)
			require.Greater(t, s.ids()[0], int64(5))
			close(release)
			out := <-done
			require.NoError(t, out.err)
			require.Equal(t, int64(6), out.res.Snapshot.ID)
			require.Equal(t, 1, out.res.Attempts)
			s.check()
		})
	}
}

// TestStalledEmptyCommitIsUncertain: a commit that adds no file and
// recreated an expired id below a retained snapshot cannot be told from
// one that snapshot was built on: it removes its snapshot and fails with
// ErrCommitUncertain.
func TestStalledEmptyCommitIsUncertain(t *testing.T) {
	s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "15", "snapshot.time-retained": "1 d"})
	b := s.committer("B")
	s.commitN(b, 1, 5)
	a, err := s.tbl.NewCommit(&paimon.CommitOptions{User: "A", Now: s.now, CommitEmpty: true})
	require.NoError(t, err)
	stopped, release := pause(a, "publish", 6)
	done := commitAsync(a, 1, nil)
	<-stopped
	s.commitN(b, 6, 16)
	close(release)
	out := <-done
	require.ErrorIs(t, out.err, paimon.ErrCommitUncertain)
	s.check()
	require.NotContains(t, s.ids(), int64(6))
}

// TestCommitRetriesWhenBaseExpires: issue 24, failure 2. A commit reads
// snapshot 5 as the latest and stalls; others commit and expiration
// removes snapshot 5 with its manifest lists. The commit must re-read the
// latest snapshot and retry instead of failing with "no such file".
func TestCommitRetriesWhenBaseExpires(t *testing.T) {
	s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "3", "snapshot.num-retained.min": "1"})
	b := s.committer("B")
	s.commitN(b, 1, 5)
	a := s.committer("A")
	stopped, release := pause(a, "base", 6)
	msgs, rows := s.prepare(3)
	done := commitAsync(a, 1, msgs)
	<-stopped
	s.commitN(b, 6, 10)
	require.Greater(t, s.ids()[0], int64(5))
	close(release)
	out := <-done
	require.NoError(t, out.err)
	require.Equal(t, int64(16), out.res.Snapshot.ID)
	s.landed(rows)
	s.check()
}

// TestLatestHintNeverMovesBack: a commit that stalls between publishing
// snapshot 3 and writing its LATEST hint, while snapshot 4 and 5 are
// committed, leaves the hint at 5.
func TestLatestHintNeverMovesBack(t *testing.T) {
	s := newStallTable(t, nil)
	b := s.committer("B")
	s.commitN(b, 1, 2)
	a := s.committer("A")
	stopped, release := pause(a, "verify", 3)
	msgs, rows := s.prepare(1)
	done := commitAsync(a, 1, msgs)
	<-stopped
	s.landed(rows)
	s.commitN(b, 3, 2)
	close(release)
	out := <-done
	require.NoError(t, out.err)
	require.Equal(t, int64(3), out.res.Snapshot.ID)
	s.check()
	require.Equal(t, []int64{1, 2, 3, 4, 5}, s.ids())
}

// TestHintsAreChecked: a LATEST hint below the newest snapshot and an
// EARLIEST hint above the oldest (stale, or damaged) are not trusted.
func TestHintsAreChecked(t *testing.T) {
	ctx := context.Background()
	s := newStallTable(t, nil)
	s.commitN(s.committer("B"), 1, 4)
	meta := s.tbl.Meta()
	require.NoError(t, fs.WriteFile(ctx, s.fsys, "db.db/t/snapshot/EARLIEST", []byte("3"), nil))
	id, ok, err := meta.EarliestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(1), id)
	require.NoError(t, fs.WriteFile(ctx, s.fsys, "db.db/t/snapshot/LATEST", []byte("2"), nil))
	id, ok, err = meta.LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(4), id)
}

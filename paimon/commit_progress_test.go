package paimon_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/paimon"
)

// Exactly-once across expiration (issue 24, failure 3): an ingester whose
// commit landed but was not acknowledged restarts with the same commit
// user and identifier after the landed snapshot expired.

// TestExactlyOnceAcrossExpiration: the restarted commit is recognised as
// committed (its snapshot expired, but the expiration recorded it), and
// the rows are in the table once.
func TestExactlyOnceAcrossExpiration(t *testing.T) {
	ctx := context.Background()
	s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "5", "snapshot.num-retained.min": "1", "snapshot.time-retained": "1 d"})
	a := s.committer("ingest")
	s.commitN(a, 1, 3)
	msgs, rows := s.prepare(4)
	_, err := a.Commit(ctx, 4, msgs) // landed; the process dies before it records that
	require.NoError(t, err)
	s.landed(rows)
	s.commitN(s.committer("B"), 1, 20)
	ids := s.ids()
	require.Greater(t, ids[0], int64(10), "every snapshot of the ingester expired")

	// Orphan cleaning keeps the records.
	_, err = s.tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{Now: func() time.Time { return time.Now().Add(48 * time.Hour) }})
	require.NoError(t, err)

	restarted := s.committer("ingest")
	left, err := restarted.FilterCommitted(ctx, []int64{3, 4, 5})
	require.NoError(t, err)
	require.Equal(t, []int64{5}, left)
	res, err := restarted.Commit(ctx, 4, msgs)
	require.NoError(t, err)
	require.True(t, res.AlreadyCommitted)
	s.commitN(restarted, 5, 1)
	s.check()
}

// TestExactlyOnceUncertainAfterForeignExpiration: snapshots expired by a
// program that does not keep the records (Java, an older version) while
// the ingester's commit was pending: whether it landed cannot be decided,
// and the commit fails with ErrCommitUncertain instead of duplicating.
func TestExactlyOnceUncertainAfterForeignExpiration(t *testing.T) {
	ctx := context.Background()
	for _, landed := range []bool{true, false} {
		t.Run(fmt.Sprintf("landed=%v", landed), func(t *testing.T) {
			s := newStallTable(t, nil)
			a := s.committer("ingest")
			s.commitN(a, 1, 2)
			msgs, rows := s.prepare(2)
			if landed {
				_, err := a.Commit(ctx, 3, msgs)
				require.NoError(t, err)
				s.landed(rows)
			} else {
				// The commit wrote its record and failed before publishing.
				paimon.SetCommitHook(a, func(context.Context, string, int64) { panic("crash") })
				require.Panics(t, func() { _, _ = a.Commit(ctx, 3, msgs) })
			}
			s.commitN(s.committer("B"), 1, 4)
			// A foreign expiration of snapshots 1..4: files and EARLIEST only.
			for id := 1; id <= 4; id++ {
				require.NoError(t, s.fsys.Remove(ctx, fmt.Sprintf("db.db/t/snapshot/snapshot-%d", id)))
			}
			require.NoError(t, fs.WriteFile(ctx, s.fsys, "db.db/t/snapshot/EARLIEST", []byte("5"), nil))

			restarted := s.committer("ingest")
			_, err := restarted.FilterCommitted(ctx, []int64{3})
			require.ErrorIs(t, err, paimon.ErrCommitUncertain)
			_, err = restarted.Commit(ctx, 3, msgs)
			require.ErrorIs(t, err, paimon.ErrCommitUncertain)
			require.Contains(t, err.Error(), `commit user "ingest" may have committed identifier 3`)
			s.check()
		})
	}
}

// TestCommitProgressAfterRollback: a rollback drops the records, so that
// the rolled-back identifiers can be committed again (as in Java, whose
// check scans the remaining snapshots).
func TestCommitProgressAfterRollback(t *testing.T) {
	ctx := context.Background()
	s := newStallTable(t, nil)
	a := s.committer("ingest")
	msgs1, rows1 := s.prepare(2)
	_, err := a.Commit(ctx, 1, msgs1)
	require.NoError(t, err)
	s.landed(rows1)
	msgs2, _ := s.prepare(2)
	_, err = a.Commit(ctx, 2, msgs2)
	require.NoError(t, err)
	_, err = s.tbl.RollbackTo(ctx, 1)
	require.NoError(t, err)
	left, err := s.committer("ingest").FilterCommitted(ctx, []int64{1, 2})
	require.NoError(t, err)
	require.Equal(t, []int64{2}, left)
	s.commitN(s.committer("ingest"), 2, 1)
	s.check()
}

// TestCommitProgressRecordDamaged: a damaged record stops the commit
// before anything is published, and stops expiration before anything is
// deleted.
func TestCommitProgressRecordDamaged(t *testing.T) {
	ctx := context.Background()
	s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "2", "snapshot.num-retained.min": "1", "snapshot.time-retained": "1 d"})
	s.commitN(s.committer("ingest"), 1, 2)
	var rec string
	for fi, err := range s.fsys.List(ctx, "db.db/t/commit-progress") {
		require.NoError(t, err)
		require.True(t, fi.IsDir, "a record is a directory of versions")
		for v, err := range s.fsys.List(ctx, "db.db/t/commit-progress/"+fi.Name) {
			require.NoError(t, err)
			if p := "db.db/t/commit-progress/" + fi.Name + "/" + v.Name; p > rec {
				rec = p // the newest version (single digits here)
			}
		}
	}
	b, err := fs.ReadFile(ctx, s.fsys, rec)
	require.NoError(t, err)
	damaged := strings.Replace(string(b), `"through"`, `"througi"`, 1)
	require.NoError(t, fs.WriteFile(ctx, s.fsys, rec, []byte(damaged), nil))
	msgs, _ := s.prepare(1)
	_, err = s.committer("ingest").Commit(ctx, 3, msgs)
	require.ErrorIs(t, err, paimon.ErrCorrupt)
	require.Contains(t, err.Error(), rec)
	before := s.ids()
	s.commitN(s.committer("B"), 1, 1) // its expiration fails, the commit stands
	_, err = s.tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{CommitGrace: -1, Now: s.now})
	require.ErrorIs(t, err, paimon.ErrCorrupt)
	require.Equal(t, append(before, before[len(before)-1]+1), s.ids())
	s.check()
}

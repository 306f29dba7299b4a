package paimon_test

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// fakePublisher plays a catalog server: it publishes snapshot files with
// create-if-absent, as Java's RESTCatalogServer does with a
// RenamingSnapshotCommit, and can misbehave on request.
type fakePublisher struct {
	fsys fs.FS
	dir  string

	mu    sync.Mutex
	calls int
	stats [][]paimon.PartitionStatistics
	// fail decides the answer of call n (1-based) before (publish=false)
	// or after (publish=true) publishing; nil error means normal.
	fail func(n int) (publish bool, err error)
}

func (p *fakePublisher) meta(branch string) *paimon.TableMeta {
	return paimon.NewTableMeta(p.fsys, p.dir).WithBranch(branch)
}

func (p *fakePublisher) LatestSnapshot(ctx context.Context, branch string) (*snapshot.Snapshot, error) {
	m := p.meta(branch)
	id, ok, err := m.LatestSnapshotID(ctx)
	if err != nil || !ok {
		return nil, err
	}
	return m.ReadSnapshot(ctx, id)
}

func (p *fakePublisher) CommitSnapshot(ctx context.Context, branch string, s *snapshot.Snapshot, stats []paimon.PartitionStatistics) (bool, error) {
	p.mu.Lock()
	p.calls++
	n := p.calls
	p.stats = append(p.stats, stats)
	p.mu.Unlock()
	var publish bool
	var ferr error
	if p.fail != nil {
		publish, ferr = p.fail(n)
	}
	if ferr != nil && !publish {
		return false, ferr
	}
	err := fs.WriteFile(ctx, p.fsys, p.meta(branch).SnapshotPath(s.ID), s.Encode(), &fs.CreateOptions{IfNotExist: true})
	if errors.Is(err, iofs.ErrExist) {
		return false, ferr
	}
	if err != nil {
		return false, err
	}
	return true, ferr
}

func openPublished(t *testing.T, fsys fs.FS, pub paimon.SnapshotCommit) *paimon.Table {
	t.Helper()
	tbl, err := paimon.OpenTable(context.Background(), fsys, "db.db/t", &paimon.TableOptions{SnapshotCommit: pub})
	require.NoError(t, err)
	return tbl
}

func TestSnapshotCommitPublishes(t *testing.T) {
	_, fsys := newWriteTable(t, true, nil)
	pub := &fakePublisher{fsys: fsys, dir: "db.db/t"}
	tbl := openPublished(t, fsys, pub)
	rows := rowsOf(0, 40, 3)
	res := write(t, tbl, newCommit(t, tbl, "u"), 1, rows, 16)
	require.NotNil(t, res.Snapshot)
	require.Equal(t, int64(1), res.Snapshot.ID)
	require.Equal(t, render(t, rows), dump(t, reopen(t, fsys)))

	// One statistics entry per partition, counts summing to the rows.
	require.Len(t, pub.stats, 1)
	var total int64
	for _, st := range pub.stats[0] {
		require.Contains(t, st.Spec, "dt")
		require.Positive(t, st.FileCount)
		require.Positive(t, st.FileSizeInBytes)
		require.Positive(t, st.LastFileCreationTime)
		total += st.RecordCount
	}
	require.Equal(t, int64(len(rows)), total)
	require.Contains(t, fmt.Sprint(pub.stats[0]), "__DEFAULT_PARTITION__")

	// Overwrite deletes: the statistics carry negative deltas.
	c := newCommit(t, tbl, "u")
	ctx := context.Background()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	rec := batch(t, mem, rowsOf(0, 1, 1))
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))
	_, err = c.Overwrite(ctx, 2, map[string]string{"dt": "2024-01-01"}, msgs)
	require.NoError(t, err)
	require.Len(t, pub.stats, 2)
	var neg bool
	for _, st := range pub.stats[1] {
		neg = neg || st.FileCount < 0 || st.RecordCount < 0
	}
	require.True(t, neg, "%v", pub.stats[1])
}

func TestSnapshotCommitLostRaceRetries(t *testing.T) {
	_, fsys := newWriteTable(t, false, nil)
	pub := &fakePublisher{fsys: fsys, dir: "db.db/t"}
	other := openPublished(t, fsys, pub)
	// The first call loses: another writer publishes snapshot 1 just
	// before the server sees ours.
	pub.fail = func(n int) (bool, error) {
		if n == 1 {
			pub.fail = nil
			write(t, other, newCommit(t, other, "other"), 1, rowsOf(100, 110, 1), 16)
		}
		return false, nil
	}
	tbl := openPublished(t, fsys, pub)
	rows := rowsOf(0, 20, 1)
	res := write(t, tbl, newCommit(t, tbl, "u"), 1, rows, 8)
	require.Equal(t, int64(2), res.Snapshot.ID)
	require.Equal(t, 2, res.Attempts)
	require.Equal(t, render(t, append(rowsOf(0, 20, 1), rowsOf(100, 110, 1)...)), dump(t, reopen(t, fsys)))
}

func TestSnapshotCommitUnknownOutcomeNotCommittedTwice(t *testing.T) {
	_, fsys := newWriteTable(t, false, nil)
	pub := &fakePublisher{fsys: fsys, dir: "db.db/t"}
	// The server publishes, then the answer is lost (a dropped connection
	// mid-commit).
	pub.fail = func(n int) (bool, error) {
		if n == 1 {
			return true, errors.New("connection reset")
		}
		return false, nil
	}
	tbl := openPublished(t, fsys, pub)
	rows := rowsOf(0, 20, 1)
	res := write(t, tbl, newCommit(t, tbl, "u"), 7, rows, 8)
	require.Equal(t, int64(1), res.Snapshot.ID)
	require.Equal(t, 1, pub.calls, "the commit was re-read, not sent again")
	require.Equal(t, render(t, rows), dump(t, reopen(t, fsys)))
}

func TestSnapshotCommitRejectedRemovesFiles(t *testing.T) {
	_, fsys := newWriteTable(t, false, nil)
	pub := &fakePublisher{fsys: fsys, dir: "db.db/t"}
	pub.fail = func(int) (bool, error) {
		return false, fmt.Errorf("forbidden: %w", paimon.ErrNotPublished)
	}
	tbl := openPublished(t, fsys, pub)
	ctx := context.Background()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	rec := batch(t, mem, rowsOf(0, 10, 1))
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))
	_, err = newCommit(t, tbl, "u").Commit(ctx, 1, msgs)
	require.ErrorIs(t, err, paimon.ErrNotPublished)
	require.Equal(t, 1, pub.calls)
	// Nothing but the schema and the commit user's progress record (its
	// pending identifier did not land) is left.
	files := walkFiles(t, fsys, "db.db/t")
	require.Len(t, files, 2)
	require.Contains(t, files[0], "db.db/t/commit-progress/user-")
	require.Equal(t, "db.db/t/schema/schema-0", files[1])
}

// walkFiles lists the files below dir, recursively.
func walkFiles(t *testing.T, fsys fs.FS, dir string) []string {
	t.Helper()
	var out []string
	entries, err := fs.ReadDir(context.Background(), fsys, dir)
	require.NoError(t, err)
	for _, e := range entries {
		p := fs.Join(dir, e.Name)
		if e.IsDir {
			out = append(out, walkFiles(t, fsys, p)...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

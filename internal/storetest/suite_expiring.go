package storetest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon"
)

// Issue 24's race matrix: 8 writers commit with expiration after every
// commit (snapshot.num-retained.min 1, 2 and 3, max two above, time
// retention one minute on a clock that moves two minutes per reading, so
// the commit grace never saves anyone) while one of them is stalled at
// random I/O steps (between reading its base and publishing, between
// publishing and verifying, inside expiration). Every acknowledged batch
// must be read exactly once at the end, and nothing unacknowledged.
//
// Knobs: PAIMON_EXPIRING_COMMITS (commits per writer; 6 by default, the
// bounded CI size) and PAIMON_EXPIRING_SEED (the stalls; 1 by default).
// The long run of issue 24 is
//
//	PAIMON_EXPIRING_COMMITS=50 go test -run 'TestLocalFS/ExpiringCommits' -timeout 60m ./internal/storetest
//	PAIMON_STORES=1 PAIMON_EXPIRING_COMMITS=50 go test -run 'TestS3/ExpiringCommits' -timeout 60m ./internal/storetest
func testExpiringCommits(t *testing.T, fsys fs.FS) {
	commits := envInt(t, "PAIMON_EXPIRING_COMMITS", 6)
	seed := envInt(t, "PAIMON_EXPIRING_SEED", 1)
	for minRetained := 1; minRetained <= 3; minRetained++ {
		t.Run(fmt.Sprintf("min%d", minRetained), func(t *testing.T) {
			sub, err := fs.Sub(fsys, fmt.Sprintf("min%d", minRetained))
			require.NoError(t, err)
			runExpiringCommits(t, sub, minRetained, commits, uint64(seed))
		})
	}
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err, name)
	return n
}

func runExpiringCommits(t *testing.T, fsys fs.FS, minRetained, commits int, seed uint64) {
	const writers, perCommit = 8, 3
	tbl := createTable(t, fsys, avroUnaware, map[string]string{
		coreoptions.SnapshotNumRetainedMin: strconv.Itoa(minRetained),
		coreoptions.SnapshotNumRetainedMax: strconv.Itoa(minRetained + 2),
		coreoptions.SnapshotTimeRetained:   "1 min",
	})
	var clockMu sync.Mutex
	clock := time.Now()
	now := func() time.Time {
		clockMu.Lock()
		defer clockMu.Unlock()
		clock = clock.Add(2 * time.Minute)
		return clock
	}
	stalled := &stallFS{FS: fsys, rng: rand.New(rand.NewPCG(seed, uint64(minRetained))), every: 5, max: 40 * time.Millisecond}
	var (
		mu           sync.Mutex
		acknowledged [][]any
		uncertain    int
	)
	errs := make(chan error, writers)
	for g := 0; g < writers; g++ {
		go func() {
			errs <- func() error {
				wfs := fsys
				if g == 0 {
					wfs = stalled
				}
				wtbl, err := paimon.OpenTable(ctx, wfs, tablePath, nil)
				if err != nil {
					return err
				}
				user := fmt.Sprintf("writer-%d", g)
				for i := 0; i < commits; i++ {
					from := (g*commits + i) * perCommit
					rows := rowsOf(from, from+perCommit)
					msgs, err := PrepareRows(ctx, wtbl, rows, perCommit)
					if err != nil {
						return fmt.Errorf("writer %d commit %d: %w", g, i+1, err)
					}
					// An uncertain outcome is what a restarted writer
					// meets: it commits the same identifier again with a
					// new committer, and must not duplicate the batch.
					for attempt := 0; ; attempt++ {
						c, err := wtbl.NewCommit(&paimon.CommitOptions{User: user, MaxRetries: 500, Now: now,
							MinRetryWait: time.Millisecond, MaxRetryWait: 20 * time.Millisecond})
						if err != nil {
							return err
						}
						_, err = c.Commit(ctx, int64(i+1), msgs)
						if err == nil {
							break
						}
						if !errors.Is(err, paimon.ErrCommitUncertain) || attempt == 5 {
							return fmt.Errorf("writer %d commit %d (attempt %d): %w", g, i+1, attempt+1, err)
						}
						mu.Lock()
						uncertain++
						mu.Unlock()
					}
					mu.Lock()
					acknowledged = append(acknowledged, rows...)
					mu.Unlock()
				}
				return nil
			}()
		}()
	}
	for range writers {
		require.NoError(t, <-errs)
	}
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	for i := 1; i < len(ids); i++ {
		require.Equal(t, ids[i-1]+1, ids[i], "snapshot ids are contiguous: %v", ids)
	}
	require.LessOrEqual(t, len(ids), minRetained+2+writers, "expiration ran: %v", ids)
	tbl = reopen(t, fsys)
	requireRows(t, render(t, tbl.Schema().Fields, acknowledged), read(t, tbl),
		"every acknowledged batch exactly once (min retained %d)", minRetained)
	t.Logf("FIGURES: min retained %d: %d writers x %d commits acknowledged, %d stalls, %d uncertain outcomes re-committed, snapshots %d..%d retained",
		minRetained, writers, commits, stalled.stalls(), uncertain, ids[0], ids[len(ids)-1])
}

// stallFS delays one in every-th I/O call (on average, seeded) by up to
// max: a writer stalled at random points, as by a GC pause or a slow
// network.
type stallFS struct {
	fs.FS
	every int
	max   time.Duration

	mu    sync.Mutex
	rng   *rand.Rand
	count int
}

func (s *stallFS) stall() {
	s.mu.Lock()
	var d time.Duration
	if s.rng.IntN(s.every) == 0 {
		d = time.Duration(s.rng.Int64N(int64(s.max)))
		s.count++
	}
	s.mu.Unlock()
	time.Sleep(d)
}

func (s *stallFS) stalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

func (s *stallFS) Open(ctx context.Context, name string) (fs.File, error) {
	s.stall()
	return s.FS.Open(ctx, name)
}

func (s *stallFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	s.stall()
	w, err := s.FS.Create(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return &stallWriter{Writer: w, s: s}, nil
}

func (s *stallFS) Remove(ctx context.Context, name string) error {
	s.stall()
	return s.FS.Remove(ctx, name)
}

func (s *stallFS) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	s.stall()
	return s.FS.Stat(ctx, name)
}

func (s *stallFS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	s.stall()
	return s.FS.List(ctx, dir)
}

func (s *stallFS) MkdirAll(ctx context.Context, dir string) error {
	return fs.MkdirAll(ctx, s.FS, dir)
}

func (s *stallFS) RemoveAll(ctx context.Context, name string) error {
	s.stall()
	return fs.RemoveAll(ctx, s.FS, name)
}

// Close leaves the shared file system open: the suite closes it.
func (s *stallFS) Close() error { return nil }

// stallWriter stalls before publishing (Close): between choosing a
// snapshot id and creating it, for a snapshot file.
type stallWriter struct {
	fs.Writer
	s *stallFS
}

func (w *stallWriter) Close() error {
	w.s.stall()
	return w.Writer.Close()
}

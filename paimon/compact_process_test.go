package paimon_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// The writer of TestWriterAndCompactorProcesses commits wcCommits() times
// wcRows rows.
const wcRows = 20

// wcCommits is 60, or PAIMON_WC_COMMITS for longer runs (the child
// processes inherit it).
func wcCommits() int {
	if n, err := strconv.Atoi(os.Getenv("PAIMON_WC_COMMITS")); err == nil && n > 0 {
		return n
	}
	return 60
}

// TestWriterAndCompactorProcesses runs a writer process committing 60
// (PAIMON_WC_COMMITS) appends and a compactor process compacting the same table (by trigger,
// and every third run fully) until the writer is done, as a streaming
// ingester next to Java's dedicated compaction job would (the table is
// write-only, so the writer leaves compaction to the job). Every
// acknowledged row must be there exactly once, and the compactor must have
// committed compactions in between.
//
// With two compactor processes, their compactions race: a compaction that
// loses (its files were compacted by the other) fails with
// ErrCommitConflict and removes its files; nothing else changes.
func TestWriterAndCompactorProcesses(t *testing.T) {
	if os.Getenv("PAIMON_WC_ROLE") != "" {
		t.Skip("helper process")
	}
	for _, n := range []int{1, 2} {
		t.Run(fmt.Sprintf("compactors=%d", n), func(t *testing.T) { testWriterAndCompactors(t, n, false) })
	}
	// A primary-key table (id): each commit a level-0 run per bucket,
	// merged by the compactor while the writer goes on.
	t.Run("primary-key", func(t *testing.T) { testWriterAndCompactors(t, 1, true) })
	// The same with changelog-producer = full-compaction: the compactor's
	// full compactions write changelog files.
	t.Run("primary-key-full-changelog", func(t *testing.T) {
		testWriterAndCompactors(t, 1, true, "changelog-producer", "full-compaction")
	})
}

func testWriterAndCompactors(t *testing.T, compactors int, pk bool, extra ...string) {
	ctx := context.Background()
	opts := map[string]string{
		"bucket": "2", "bucket-key": "id", "write-only": "true",
		"commit.max-retries": "10000", "commit.max-retry-wait": "100 ms",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		opts[extra[i]] = extra[i+1]
	}
	var fsys fs.FS
	if pk {
		delete(opts, "bucket-key")
		var err error
		fsys, err = localfs.New(t.TempDir(), nil)
		require.NoError(t, err)
		relCreatePK(t, fsys, "db.db/t", opts)
	} else {
		_, fsys = newWriteTable(t, true, opts)
	}
	root := fsys.(*localfs.FS).Root()
	done := filepath.Join(t.TempDir(), "writer-done")
	start := func(role string) (*exec.Cmd, *strings.Builder) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterCompactorProcess$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "PAIMON_WC_ROLE="+role+","+root+","+done)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		require.NoError(t, cmd.Start())
		return cmd, out
	}
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for range compactors {
		cmd, out := start(fmt.Sprintf("compactor-%d", compactors))
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	writer, wout := start("writer")
	require.NoError(t, writer.Wait(), "writer:\n%s", wout.String())
	var cout strings.Builder
	for i, cmd := range cmds {
		require.NoError(t, cmd.Wait(), "compactor:\n%s", outs[i].String())
		cout.WriteString(outs[i].String())
	}

	tbl := reopen(t, fsys)
	requireRows(t, render(t, rowsOf(0, wcCommits()*wcRows, 3)), dump(t, tbl))
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	compacts := 0
	for _, id := range ids {
		s, err := tbl.Meta().ReadSnapshot(ctx, id)
		require.NoError(t, err)
		if s.CommitKind == snapshot.CommitCompact {
			compacts++
		}
	}
	t.Logf("%d snapshots, %d of them compactions; %d compactions lost a race", len(ids), compacts,
		strings.Count(cout.String(), "lost to the other compactor"))
	require.GreaterOrEqual(t, len(ids)-compacts, wcCommits())
	require.GreaterOrEqual(t, compacts, 3, "compactor:\n%s", cout.String())
	if opts["changelog-producer"] == "full-compaction" {
		// After one more full compaction, the changelog of every
		// snapshot, replayed, gives the table's rows: no change lost or
		// doubled by the races.
		_, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: true})
		require.NoError(t, err)
		tbl := reopen(t, fsys)
		last, _, err := tbl.Meta().LatestSnapshotID(ctx)
		require.NoError(t, err)
		state := map[string]string{}
		for id := int64(1); id <= last; id++ {
			replayChangelog(t, tbl, id, state)
		}
		var got []string
		for _, r := range state {
			got = append(got, r)
		}
		sort.Strings(got)
		requireRows(t, dump(t, tbl), got)
	}
	relCheckClean(t, fsys, "db.db/t")
}

// TestWriterCompactorProcess is the body of the writer or the compactor.
func TestWriterCompactorProcess(t *testing.T) {
	env := os.Getenv("PAIMON_WC_ROLE")
	if env == "" {
		t.Skip("run by TestWriterAndCompactorProcesses")
	}
	parts := strings.SplitN(env, ",", 3)
	role, root, done := parts[0], parts[1], parts[2]
	ctx := context.Background()
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	open := func() *paimon.Table {
		tbl, err := paimon.OpenTable(ctx, fsys, "db.db/t", nil)
		require.NoError(t, err)
		return tbl
	}
	if role == "writer" {
		tbl := open()
		c, err := tbl.NewCommit(&paimon.CommitOptions{User: "writer"})
		require.NoError(t, err)
		w, err := tbl.NewWriter(nil)
		require.NoError(t, err)
		defer w.Close(ctx)
		for i := range wcCommits() {
			rec, err := testtable.BuildRecord(memcheck.New(), writeFields, rowsOf(i*wcRows, (i+1)*wcRows, 3))
			require.NoError(t, err)
			require.NoError(t, w.Write(ctx, rec))
			rec.Release()
			msgs, err := w.PrepareCommit(ctx)
			require.NoError(t, err)
			_, err = c.Commit(ctx, int64(i+1), msgs)
			require.NoError(t, err, "commit %d", i)
			time.Sleep(5 * time.Millisecond)
		}
		require.NoError(t, os.WriteFile(done, nil, 0o644))
		return
	}
	alone := role == "compactor-1"
	for run := 0; ; run++ {
		_, statErr := os.Stat(done)
		res, err := open().Compact(ctx, &paimon.CompactOptions{Full: run%3 == 2, Workers: 1,
			Commit: &paimon.CommitOptions{MaxRetries: 10000, MaxRetryWait: 100 * time.Millisecond}})
		if errors.Is(err, paimon.ErrCommitConflict) && !alone {
			fmt.Printf("run %d: lost to the other compactor: %v\n", run, err)
			continue
		}
		// A lone compactor never conflicts: appends delete nothing.
		require.NoError(t, err, "run %d", run)
		if res.Commit != nil {
			fmt.Printf("run %d: snapshot %d, %d files into %d\n", run, res.Commit.Snapshot.ID, res.FilesRewritten, res.FilesWritten)
		}
		if statErr == nil {
			return // one last run after the writer finished
		}
		time.Sleep(10 * time.Millisecond)
	}
}

package paimon_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// Writer processes of TestMultiProcessCommits.
const (
	procWriters = 8
	procCommits = 50
	procRows    = 4
)

// TestMultiProcessCommits starts 8 writer processes (this test binary
// re-executed) that append 50 commits each to one table on local files.
// The protocol defines the outcome exactly: 400 snapshots with ids 1..400,
// every row present once.
func TestMultiProcessCommits(t *testing.T) {
	if os.Getenv("PAIMON_COMMIT_WRITER") != "" {
		t.Skip("helper process")
	}
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, map[string]string{
		"commit.max-retries": "10000", "commit.max-retry-wait": "100 ms",
	})
	root := fsys.(*localfs.FS).Root()
	cmds := make([]*exec.Cmd, procWriters)
	outs := make([]strings.Builder, procWriters)
	for g := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCommitWriterProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PAIMON_COMMIT_WRITER="+root+","+strconv.Itoa(g))
		cmd.Stdout, cmd.Stderr = &outs[g], &outs[g]
		require.NoError(t, cmd.Start())
		cmds[g] = cmd
	}
	for g, cmd := range cmds {
		require.NoError(t, cmd.Wait(), "writer %d:\n%s", g, outs[g].String())
	}
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Len(t, ids, procWriters*procCommits)
	for i, id := range ids {
		require.EqualValues(t, i+1, id, "snapshot ids must be gap-free")
	}
	latest, err := tbl.Meta().ReadSnapshot(ctx, ids[len(ids)-1])
	require.NoError(t, err)
	require.EqualValues(t, procWriters*procCommits*procRows, latest.TotalRecordCount)
	require.Equal(t, render(t, rowsOf(0, procWriters*procCommits*procRows, 5)), dump(t, reopen(t, fsys)))
}

// TestCommitWriterProcess is the body of one writer process.
func TestCommitWriterProcess(t *testing.T) {
	env := os.Getenv("PAIMON_COMMIT_WRITER")
	if env == "" {
		t.Skip("run by TestMultiProcessCommits")
	}
	root, gs, _ := strings.Cut(env, ",")
	g, err := strconv.Atoi(gs)
	require.NoError(t, err)
	ctx := context.Background()
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	tbl, err := paimon.OpenTable(ctx, fsys, "db.db/t", nil)
	require.NoError(t, err)
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: fmt.Sprintf("writer-%d", g)})
	require.NoError(t, err)
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	defer w.Close(ctx)
	for i := 0; i < procCommits; i++ {
		from := (g*procCommits + i) * procRows
		rec, err := testtable.BuildRecord(memcheck.New(), writeFields, rowsOf(from, from+procRows, 5))
		require.NoError(t, err)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		res, err := c.Commit(ctx, int64(i+1), msgs)
		require.NoError(t, err, "writer %d commit %d", g, i)
		require.NotNil(t, res.Snapshot)
	}
}

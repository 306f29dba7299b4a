package storetest_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	_ "github.com/paimon-go/paimon-go/fs/blobfs/s3fs" // s3:// for fs.OpenURI
	"github.com/paimon-go/paimon-go/internal/storetest"
	"github.com/paimon-go/paimon-go/internal/testservers"
	"github.com/paimon-go/paimon-go/paimon"
)

// Writer processes of TestS3MultiProcessCommits: fewer than the local-file
// version in paimon/commit_process_test.go, since every commit is a dozen
// HTTP requests to one server sharing the machine with the writers.
const (
	s3ProcWriters = 4
	s3ProcCommits = 15
	s3ProcRows    = 4
)

// Environment of a writer process: its number, and the s3:// URL of the
// warehouse prefix.
const (
	s3WriterEnv    = "PAIMON_S3_COMMIT_WRITER"
	s3WriterURLEnv = "PAIMON_S3_COMMIT_WRITER_URL"
)

// TestS3MultiProcessCommits starts 4 writer processes (this test binary
// re-executed) that commit 15 times each to one table on the versitygw
// server, through s3:// URIs and the default AWS client configuration.
// Snapshot numbers are claimed with If-None-Match: * PUTs; a commit either
// lands exactly once or, after its retries, fails with ErrCommitConflict
// and leaves nothing behind. The writers report every outcome; the table
// must hold gap-free snapshots, one per landed commit, each with the user
// and identifier its writer reported (no snapshot was overwritten), and
// exactly the rows of the landed commits.
func TestS3MultiProcessCommits(t *testing.T) {
	if os.Getenv(s3WriterEnv) != "" {
		t.Skip("helper process")
	}
	start := time.Now()
	srv := testservers.S3(t)
	ctx := context.Background()
	url := srv.URL("multiproc")
	fsys, dir, err := fs.OpenURI(ctx, url)
	require.NoError(t, err)
	defer fsys.Close()
	wh, err := fs.Sub(fsys, dir)
	require.NoError(t, err)
	require.NoError(t, s3CreateTable(ctx, wh, map[string]string{"commit.max-retry-wait": "100 ms"}))

	cmds := make([]*exec.Cmd, s3ProcWriters)
	outs := make([]strings.Builder, s3ProcWriters)
	for g := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestS3CommitWriterProcess$", "-test.count=1", "-test.v")
		cmd.Env = append(append(os.Environ(), srv.Env()...), s3WriterEnv+"="+strconv.Itoa(g), s3WriterURLEnv+"="+url)
		cmd.Stdout, cmd.Stderr = &outs[g], &outs[g]
		require.NoError(t, cmd.Start())
		cmds[g] = cmd
	}
	for g, cmd := range cmds {
		require.NoError(t, cmd.Wait(), "writer %d:\n%s", g, outs[g].String())
	}

	// What the writers say happened.
	type outcome struct {
		snapshot int64 // 0: conflict
		attempts int
	}
	reported := map[string]outcome{} // "writer-g/identifier"
	var landed, conflicts, retried int
	var wantRows [][]any
	for g := range cmds {
		sc := bufio.NewScanner(strings.NewReader(outs[g].String()))
		n := 0
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 5 || f[0] != "COMMIT" {
				continue
			}
			n++
			id, err1 := strconv.ParseInt(f[2], 10, 64)
			snap, err2 := strconv.ParseInt(f[3], 10, 64)
			attempts, err3 := strconv.Atoi(f[4])
			require.NoError(t, errors.Join(err1, err2, err3), "writer %d: %q", g, sc.Text())
			key := f[1] + "/" + f[2]
			_, dup := reported[key]
			require.False(t, dup, "writer %d reports %s twice", g, key)
			reported[key] = outcome{snapshot: snap, attempts: attempts}
			if snap == 0 {
				conflicts++
				continue
			}
			landed++
			retried += attempts - 1
			from := s3WriterFirstRow(g, int(id-1))
			wantRows = append(wantRows, s3RowsOf(from, from+s3ProcRows)...)
		}
		require.Equal(t, s3ProcCommits, n, "writer %d reported %d of %d commits:\n%s", g, n, s3ProcCommits, outs[g].String())
	}

	// The table agrees.
	snaps, latest, err := s3CheckSnapshots(ctx, wh)
	require.NoError(t, err)
	require.EqualValues(t, landed, latest, "one snapshot per landed commit")
	seen := map[string]bool{}
	for id := int64(1); id <= latest; id++ {
		s := snaps[id]
		key := fmt.Sprintf("%s/%d", s.user, s.identifier)
		o, ok := reported[key]
		require.True(t, ok, "snapshot %d commits %s, which no writer reported", id, key)
		require.Equal(t, id, o.snapshot, "snapshot %d commits %s, which its writer reported as snapshot %d", id, key, o.snapshot)
		require.EqualValues(t, s3ProcRows, s.delta, "snapshot %d", id)
		require.EqualValues(t, id*s3ProcRows, s.total, "snapshot %d", id)
		seen[key] = true
	}
	for key, o := range reported {
		require.Equal(t, o.snapshot != 0, seen[key], "%s reported as snapshot %d", key, o.snapshot)
	}
	want := s3Render(t, wantRows)
	rows, err := s3Read(ctx, wh)
	require.NoError(t, err)
	lost := s3RowsLost(want, rows)
	require.Equal(t, want, rows)
	stray, err := s3UnreferencedData(ctx, wh)
	require.NoError(t, err)
	require.Empty(t, stray, "data files of failed commits must be removed")
	figures(t, "writers %d, commits %d, landed %d, conflict errors %d, conflicts retried %d, snapshots %d, rows lost %d, took %v",
		s3ProcWriters, s3ProcWriters*s3ProcCommits, landed, conflicts, retried, latest, lost, time.Since(start).Round(time.Millisecond))
}

// s3WriterFirstRow is the first row id of writer g's commit i.
func s3WriterFirstRow(g, i int) int { return (g*s3ProcCommits + i) * s3ProcRows }

// TestS3CommitWriterProcess is the body of one writer process: it prints
// "COMMIT <user> <identifier> <snapshot id, 0 for a conflict> <attempts>"
// for each commit.
func TestS3CommitWriterProcess(t *testing.T) {
	gs := os.Getenv(s3WriterEnv)
	if gs == "" {
		t.Skip("run by TestS3MultiProcessCommits")
	}
	g, err := strconv.Atoi(gs)
	require.NoError(t, err)
	ctx := context.Background()
	fsys, dir, err := fs.OpenURI(ctx, os.Getenv(s3WriterURLEnv))
	require.NoError(t, err)
	defer fsys.Close()
	wh, err := fs.Sub(fsys, dir)
	require.NoError(t, err)
	tbl, err := paimon.OpenTable(ctx, wh, s3TableDir, nil)
	require.NoError(t, err)
	user := fmt.Sprintf("writer-%d", g)
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: user})
	require.NoError(t, err)
	for i := 0; i < s3ProcCommits; i++ {
		from := s3WriterFirstRow(g, i)
		msgs, err := storetest.PrepareRows(ctx, tbl, s3RowsOf(from, from+s3ProcRows), s3ProcRows)
		require.NoError(t, err)
		identifier := int64(i + 1)
		res, err := c.Commit(ctx, identifier, msgs)
		switch {
		case errors.Is(err, paimon.ErrCommitConflict):
			fmt.Printf("COMMIT %s %d 0 0\n", user, identifier)
			t.Logf("commit %d: %v", identifier, err)
		case err != nil:
			t.Fatalf("writer %d commit %d: %v", g, identifier, err)
		default:
			require.NotNil(t, res.Snapshot, "commit %d published nothing", identifier)
			require.NoError(t, res.ExpireErr)
			fmt.Printf("COMMIT %s %d %d %d\n", user, identifier, res.Snapshot.ID, res.Attempts)
		}
	}
}

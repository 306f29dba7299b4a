package paimon_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// Concurrent primary-key writer processes (issue 17): 8 processes (this
// test binary re-executed) write one aggregation table whose score column
// sums, so a change applied twice (or lost) shows in the sums, not only in
// the snapshot count. Each process changes keys of its own: inserts,
// further +I rows that add to the sum, and -D retractions that subtract
// (dt and name ignore retractions), generated from (process, round) so the
// parent computes the expected table independently.
//
//   - distinct-buckets: bucket = 8 and process g writes only keys of bucket
//     g; each process has one writer for the whole run and commits on its
//     own (its own commit user), concurrently with the others, retrying
//     lost snapshot races. At the end each re-commits its last messages
//     from a new TableCommit (an ingester replaying its last commit after a
//     restart), which must add nothing.
//   - same-bucket: bucket = 1, so every process writes the one bucket; a
//     round's writers run concurrently, each from a new writer restored
//     from the latest snapshot, and hand their commit messages
//     (MarshalBinary) through files to one committer, this test, which
//     commits the round's messages in one commit (one committer per bucket
//     is what keeps the bucket's sequence numbers ordered). The committer
//     also replays one round's commit, which must add nothing.
//
// Every acknowledged change must be in the table exactly once, and there
// must be exactly one snapshot per acknowledged commit.
//
// PAIMON_PKPROC_ROUNDS (default 10) sets the commits per process (rounds).

const (
	pkProcWriters = 8
	pkProcKeys    = 6  // keys per process
	pkProcRows    = 12 // changes per process and round
)

var pkProcFields = append(append([]schema.DataField(nil), writeFields...), schema.NewField(99, "_op", schema.StringType()))

func pkProcOptions(buckets int) map[string]string {
	return map[string]string{
		"bucket": strconv.Itoa(buckets), "merge-engine": "aggregation",
		"fields.score.aggregate-function": "sum",
		"fields.name.ignore-retract":      "true", "fields.dt.ignore-retract": "true",
		"commit.max-retries": "10000", "commit.max-retry-wait": "50 ms",
	}
}

// pkProcKeyset returns process g's keys: of bucket g when buckets > 1,
// else ids congruent to g.
func pkProcKeyset(t testing.TB, g, buckets int) []int64 {
	var keys []int64
	for id := int64(0); len(keys) < pkProcKeys; id++ {
		if buckets > 1 {
			b, err := binaryrow.BucketOf([]schema.DataType{schema.BigIntType().NotNull()}, []any{id}, buckets, binaryrow.BucketDefault)
			require.NoError(t, err)
			if b != g {
				continue
			}
		} else if int(id)%pkProcWriters != g {
			continue
		}
		keys = append(keys, id)
	}
	return keys
}

// pkProcChanges returns process g's changes of round r (1-based): rows of
// pkProcFields. live tracks which keys the process has inserted, across
// rounds (the caller replays rounds in order).
func pkProcChanges(g, r int, keys []int64, live map[int64]bool) [][]any {
	rng := rand.New(rand.NewPCG(uint64(g), uint64(r)))
	var rows [][]any
	for range pkProcRows {
		id := keys[rng.IntN(len(keys))]
		score := float64(rng.IntN(1000) + 1)
		if live[id] && rng.IntN(4) == 0 {
			rows = append(rows, []any{nil, id, nil, score, "-D"})
			continue
		}
		live[id] = true
		rows = append(rows, []any{fmt.Sprintf("w%d", g), id, fmt.Sprintf("r%d-%d", r, rng.IntN(100)), score, "+I"})
	}
	return rows
}

// pkProcExpected folds every process's changes of rounds 1..rounds.
func pkProcExpected(t *testing.T, buckets, rounds int) []string {
	type acc struct {
		dt, name string
		score    float64
	}
	state := map[int64]*acc{}
	for g := range pkProcWriters {
		keys := pkProcKeyset(t, g, buckets)
		live := map[int64]bool{}
		for r := 1; r <= rounds; r++ {
			for _, row := range pkProcChanges(g, r, keys, live) {
				id := row[1].(int64)
				a := state[id]
				if a == nil {
					a = &acc{}
					state[id] = a
				}
				if row[4] == "-D" {
					a.score -= row[3].(float64)
					continue
				}
				a.dt, a.name = row[0].(string), row[2].(string)
				a.score += row[3].(float64)
			}
		}
	}
	var rows [][]any
	for id, a := range state {
		rows = append(rows, []any{a.dt, id, a.name, a.score})
	}
	return render(t, rows)
}

func pkProcRounds(t *testing.T) int {
	if v := os.Getenv("PAIMON_PKPROC_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		return n
	}
	return 10
}

func TestPrimaryKeyWriterProcesses(t *testing.T) {
	if os.Getenv("PAIMON_PKPROC") != "" {
		t.Skip("helper process")
	}
	rounds := pkProcRounds(t)
	for _, mode := range []string{"distinct-buckets", "same-bucket"} {
		t.Run(mode, func(t *testing.T) {
			ctx := context.Background()
			buckets := pkProcWriters
			if mode == "same-bucket" {
				buckets = 1
			}
			fsys, err := localfs.New(t.TempDir(), nil)
			require.NoError(t, err)
			relCreatePK(t, fsys, "db.db/t", pkProcOptions(buckets))
			root := fsys.Root()
			msgDir := t.TempDir()
			cmds := make([]*exec.Cmd, pkProcWriters)
			outs := make([]strings.Builder, pkProcWriters)
			for g := range cmds {
				cmd := exec.Command(os.Args[0], "-test.run=^TestPrimaryKeyWriterProcess$", "-test.count=1")
				cmd.Env = append(os.Environ(), fmt.Sprintf("PAIMON_PKPROC=%s,%s,%s,%d,%d", mode, root, msgDir, g, rounds))
				cmd.Stdout, cmd.Stderr = &outs[g], &outs[g]
				require.NoError(t, cmd.Start())
				cmds[g] = cmd
			}
			defer func() {
				for _, cmd := range cmds {
					_ = cmd.Process.Kill()
					_ = cmd.Wait()
				}
			}()
			if mode == "same-bucket" {
				pkProcCommitter(t, fsys, msgDir, rounds, cmds, outs)
			}
			for g, cmd := range cmds {
				require.NoError(t, cmd.Wait(), "writer %d:\n%s", g, outs[g].String())
			}
			tbl := reopen(t, fsys)
			ids, err := tbl.Meta().SnapshotIDs(ctx)
			require.NoError(t, err)
			want := rounds * pkProcWriters
			if mode == "same-bucket" {
				want = rounds
			}
			require.Len(t, ids, want, "one snapshot per acknowledged commit")
			require.Equal(t, pkProcExpected(t, buckets, rounds), dump(t, tbl))
		})
	}
}

// pkProcCommitter commits each round's messages of the 8 writers in one
// commit, then tells them the round is committed. Round 2 is committed
// twice, the second time by a new TableCommit (a restarted committer
// replaying it): nothing may be added.
func pkProcCommitter(t *testing.T, fsys *localfs.FS, dir string, rounds int, cmds []*exec.Cmd, outs []strings.Builder) {
	ctx := context.Background()
	tbl := reopen(t, fsys)
	newCommit := func() *paimon.TableCommit {
		c, err := tbl.NewCommit(&paimon.CommitOptions{User: "pk-committer"})
		require.NoError(t, err)
		return c
	}
	c := newCommit()
	deadline := time.Now().Add(2 * time.Minute)
	for r := 1; r <= rounds; r++ {
		var msgs []paimon.CommitMessage
		for g := range pkProcWriters {
			path := filepath.Join(dir, fmt.Sprintf("msgs-%d-%d", r, g))
			for {
				b, err := os.ReadFile(path)
				if err == nil {
					msgs = append(msgs, pkProcDecode(t, b)...)
					break
				}
				require.ErrorIs(t, err, os.ErrNotExist)
				if cmds[g].ProcessState != nil || time.Now().After(deadline) {
					t.Fatalf("round %d: no messages from writer %d:\n%s", r, g, outs[g].String())
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		res, err := c.Commit(ctx, int64(r), msgs)
		require.NoError(t, err, "round %d", r)
		require.NotNil(t, res.Snapshot, "round %d", r)
		if r == 2 {
			again, err := newCommit().Commit(ctx, int64(r), msgs)
			require.NoError(t, err)
			require.True(t, again.AlreadyCommitted)
			require.Nil(t, again.Snapshot)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("committed-%d", r)), nil, 0o644))
	}
}

func pkProcDecode(t *testing.T, b []byte) []paimon.CommitMessage {
	var out []paimon.CommitMessage
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		raw, err := hex.DecodeString(line)
		require.NoError(t, err)
		var m paimon.CommitMessage
		require.NoError(t, m.UnmarshalBinary(raw))
		out = append(out, m)
	}
	return out
}

// TestPrimaryKeyWriterProcess is the body of one writer process.
func TestPrimaryKeyWriterProcess(t *testing.T) {
	env := os.Getenv("PAIMON_PKPROC")
	if env == "" {
		t.Skip("run by TestPrimaryKeyWriterProcesses")
	}
	parts := strings.Split(env, ",")
	require.Len(t, parts, 5)
	mode, root, dir := parts[0], parts[1], parts[2]
	g, err := strconv.Atoi(parts[3])
	require.NoError(t, err)
	rounds, err := strconv.Atoi(parts[4])
	require.NoError(t, err)
	ctx := context.Background()
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	buckets := pkProcWriters
	if mode == "same-bucket" {
		buckets = 1
	}
	keys := pkProcKeyset(t, g, buckets)
	live := map[int64]bool{}
	user := fmt.Sprintf("pk-writer-%d", g)
	open := func() (*paimon.Table, *paimon.TableWriter) {
		tbl, err := paimon.OpenTable(ctx, fsys, "db.db/t", nil)
		require.NoError(t, err)
		w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "_op", CommitUser: user})
		require.NoError(t, err)
		return tbl, w
	}
	write := func(w *paimon.TableWriter, r int) []paimon.CommitMessage {
		rec, err := testtable.BuildRecord(memcheck.New(), pkProcFields, pkProcChanges(g, r, keys, live))
		require.NoError(t, err)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		return msgs
	}
	if mode == "distinct-buckets" {
		tbl, w := open()
		defer w.Close(ctx)
		c, err := tbl.NewCommit(&paimon.CommitOptions{User: user})
		require.NoError(t, err)
		var last []paimon.CommitMessage
		for r := 1; r <= rounds; r++ {
			last = write(w, r)
			res, err := c.Commit(ctx, int64(r), last)
			require.NoError(t, err, "writer %d commit %d", g, r)
			require.NotNil(t, res.Snapshot)
		}
		// A restarted ingester replays its last commit: nothing is added.
		c2, err := tbl.NewCommit(&paimon.CommitOptions{User: user})
		require.NoError(t, err)
		res, err := c2.Commit(ctx, int64(rounds), last)
		require.NoError(t, err)
		require.True(t, res.AlreadyCommitted)
		return
	}
	for r := 1; r <= rounds; r++ {
		if r > 1 {
			// The next round's writer restores the bucket (its sequence
			// numbers) from the round the committer published.
			for {
				if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("committed-%d", r-1))); err == nil {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		_, w := open()
		msgs := write(w, r)
		var lines []string
		for _, m := range msgs {
			b, err := m.MarshalBinary()
			require.NoError(t, err)
			lines = append(lines, hex.EncodeToString(b))
		}
		require.NoError(t, w.Close(ctx))
		tmp := filepath.Join(dir, fmt.Sprintf(".tmp-%d-%d", r, g))
		require.NoError(t, os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
		require.NoError(t, os.Rename(tmp, filepath.Join(dir, fmt.Sprintf("msgs-%d-%d", r, g))))
	}
}

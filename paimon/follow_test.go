package paimon_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// followIDs reads one plan of a follower as "kind:id" strings in order.
func followIDs(t *testing.T, f *paimon.Follower, p *paimon.FollowPlan, mem memory.Allocator) []string {
	t.Helper()
	var out []string
	for rec, err := range f.Records(context.Background(), p) {
		require.NoError(t, err)
		out = append(out, recIDs(t, rec)...)
		rec.Release()
	}
	return out
}

// recIDs renders the rowkind and id columns of a follower's batch.
func recIDs(t *testing.T, rec arrow.RecordBatch) []string {
	t.Helper()
	require.Equal(t, "rowkind", rec.Schema().Field(0).Name)
	kinds := rec.Column(0).(*array.String)
	idx := rec.Schema().FieldIndices("id")
	require.Len(t, idx, 1)
	ids := rec.Column(idx[0]).(*array.Int64)
	out := make([]string, rec.NumRows())
	for i := range out {
		out[i] = kinds.Value(i) + ":" + strconv.FormatInt(ids.Value(i), 10)
	}
	return out
}

func followSeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PAIMON_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
		seed = v
	}
	t.Logf("seed=%d (PAIMON_SEED replays)", seed)
	return seed
}

// TestFollowWhileWriting: a follower reading while a writer commits 100
// snapshots sees every change exactly once and in commit order, on append
// tables and on primary-key tables with and without a changelog producer
// (none: the delta files; input: the changelog files); killed at random
// points (between plans and in the middle of one) and restarted with the
// same consumer id, it resumes without gaps or repeats. Rows count only
// once their plan is committed, as a sink that commits its output with the
// consumer position would.
//
// The primary-key writer inserts three new keys per commit, deletes one
// key of the previous commit and updates another, so each snapshot's
// changes hold +I, +U and -D rows of distinct keys: the delta files keep
// the written kinds (Java DeltaFollowUpScanner reads them unmerged across
// snapshots) and the input changelog holds the input as written.
func TestFollowWhileWriting(t *testing.T) {
	const commits = 100
	for _, tc := range []struct {
		name string
		pk   bool
		opts map[string]string
	}{
		{"unaware", false, nil},
		{"fixed-bucket", false, map[string]string{"bucket": "2", "bucket-key": "id"}},
		{"pk-changelog-none", true, nil},
		{"pk-changelog-input", true, map[string]string{"changelog-producer": "input"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			r := rand.New(rand.NewPCG(followSeed(t), 21))
			var tbl *paimon.Table
			var fsys fs.FS
			if tc.pk {
				tbl, fsys = newPKTable(t, false, tc.opts)
			} else {
				tbl, fsys = newWriteTable(t, true, tc.opts)
			}
			// commitRows is what commit i writes: rows and their kinds.
			commitRows := func(i int) ([][]any, []string) {
				if !tc.pk {
					rows := rowsOf(i*3, i*3+3, 2)
					return rows, []string{"+I", "+I", "+I"}
				}
				var rows [][]any
				var kinds []string
				add := func(id int, kind string) {
					rows = append(rows, []any{"2024-01-01", int64(id), fmt.Sprintf("v%d-%d", i, id), float64(i)})
					kinds = append(kinds, kind)
				}
				for j := range 3 {
					add(i*3+j, "+I")
				}
				if i > 0 {
					add((i-1)*3, "-D")
					add((i-1)*3+1, "+U")
				}
				return rows, kinds
			}
			var want []string
			for i := range commits {
				rows, kinds := commitRows(i)
				var group []string
				for j := range rows {
					group = append(group, kinds[j]+":"+strconv.FormatInt(rows[j][1].(int64), 10))
				}
				slices.Sort(group)
				want = append(want, group...)
			}
			done := make(chan struct{})
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer close(done) // also when write fails (FailNow ends this goroutine)
				c := newCommit(t, tbl, "writer")
				for i := range commits {
					rows, kinds := commitRows(i)
					if tc.pk {
						w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
						require.NoError(t, err)
						rec := pkBatch(t, tbl, rows, kinds)
						require.NoError(t, w.Write(ctx, rec))
						rec.Release()
						msgs, err := w.PrepareCommit(ctx)
						require.NoError(t, err)
						require.NoError(t, w.Close(ctx))
						_, err = c.Commit(ctx, int64(i+1), msgs)
						require.NoError(t, err)
					} else {
						write(t, tbl, c, int64(i+1), rows, 3)
					}
					if i%10 == 3 {
						time.Sleep(5 * time.Millisecond)
					}
				}
			}()
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			var got []string
			restarts := 0
			var last int64 // the last snapshot read
			poll := &paimon.FollowOptions{Start: paimon.FollowEarliest, ConsumerID: "c1", PollMin: time.Millisecond, PollMax: 20 * time.Millisecond}
			for len(got) < len(want) {
				f, err := reopen(t, fsys).Follow(ctx, poll, paimon.WithAllocator(mem))
				require.NoError(t, err)
				restarts++
				for len(got) < len(want) {
					wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
					p, err := f.Next(wctx)
					cancel()
					require.NoError(t, err)
					require.False(t, p.Full)
					if r.IntN(8) == 0 {
						// Killed in the middle of the plan: its rows are lost,
						// its position never committed.
						for rec, err := range f.Records(ctx, p) {
							require.NoError(t, err)
							rec.Release()
							break
						}
						break
					}
					// Order holds across snapshots; inside one, files of
					// different buckets come in split order.
					rows := followIDs(t, f, p, mem)
					slices.Sort(rows)
					require.NoError(t, f.Commit(ctx))
					got = append(got, rows...)
					last = p.SnapshotID
					require.Equal(t, p.SnapshotID+1, f.NextSnapshot())
					if r.IntN(8) == 0 {
						break // killed between plans
					}
				}
			}
			<-done
			wg.Wait()
			require.Equal(t, want, got)
			t.Logf("%d rows over %d snapshots, %d follower starts", len(got), commits, restarts)
			cs, err := reopen(t, fsys).Meta().Consumers(ctx)
			require.NoError(t, err)
			require.Len(t, cs, 1)
			require.Equal(t, last+1, cs[0].NextSnapshot)
			b, err := fs.ReadFile(ctx, fsys, "db.db/t/consumer/consumer-c1")
			require.NoError(t, err)
			require.Equal(t, fmt.Sprintf("{\n  \"nextSnapshot\" : %d\n}", last+1), string(b))
		})
	}
}

// TestFollowStarts checks each starting point against Java's starting
// scanners.
func TestFollowStarts(t *testing.T) {
	ctx := context.Background()
	// mk creates a table with opts and 4 snapshots of 2 rows each.
	mk := func(opts map[string]string) (*paimon.Table, fs.FS, *paimon.TableCommit) {
		tbl, fsys := newWriteTable(t, false, opts)
		c := newCommit(t, tbl, "w")
		for i := range 4 {
			write(t, tbl, c, int64(i+1), rowsOf(i*2, i*2+2, 1), 2)
			time.Sleep(3 * time.Millisecond)
		}
		return reopen(t, fsys), fsys, c
	}
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	// drain reads every plan there is now.
	drain := func(f *paimon.Follower) (ids []int64, rows []string) {
		for {
			p, err := f.TryNext(ctx)
			require.NoError(t, err)
			if p == nil {
				return ids, rows
			}
			ids = append(ids, p.SnapshotID)
			rows = append(rows, followIDs(t, f, p, mem)...)
		}
	}
	all := []string{"+I:0", "+I:1", "+I:2", "+I:3", "+I:4", "+I:5", "+I:6", "+I:7"}
	for _, tc := range []struct {
		name  string
		opts  paimon.FollowOptions
		ids   []int64
		rows  []string
		table map[string]string
	}{
		{"default-latest-full", paimon.FollowOptions{}, []int64{4}, all, nil},
		{"latest", paimon.FollowOptions{Start: paimon.FollowLatest}, nil, nil, nil},
		{"earliest", paimon.FollowOptions{Start: paimon.FollowEarliest}, []int64{1, 2, 3, 4}, all, nil},
		{"from-snapshot", paimon.FollowOptions{Start: paimon.FollowFromSnapshot, SnapshotID: 3}, []int64{3, 4}, all[4:], nil},
		{"from-snapshot-full", paimon.FollowOptions{Start: paimon.FollowFromSnapshotFull, SnapshotID: 2}, []int64{2, 3, 4}, all, nil},
		{"from-timestamp", paimon.FollowOptions{Start: paimon.FollowFromTimestamp}, []int64{3, 4}, all[4:], nil}, // snapshot 3's time
		{"scan.mode-latest", paimon.FollowOptions{}, nil, nil, map[string]string{"scan.mode": "latest"}},
		{"scan.snapshot-id", paimon.FollowOptions{}, []int64{4}, all[6:], map[string]string{"scan.snapshot-id": "4"}},
		{"scan.mode-from-snapshot-full", paimon.FollowOptions{}, []int64{3, 4}, all, map[string]string{"scan.mode": "from-snapshot-full", "scan.snapshot-id": "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tt, tfs, tc2 := mk(tc.table)
			o := tc.opts
			if o.Start == paimon.FollowFromTimestamp {
				s3, err := tt.Meta().ReadSnapshot(ctx, 3)
				require.NoError(t, err)
				o.Timestamp = time.UnixMilli(s3.TimeMillis)
			}
			o.PollMin, o.PollMax = time.Millisecond, 2*time.Millisecond
			f, err := tt.Follow(ctx, &o, paimon.WithAllocator(mem), paimon.WithColumns("id"))
			require.NoError(t, err)
			ids, rows := drain(f)
			require.Equal(t, tc.ids, ids)
			require.ElementsMatch(t, tc.rows, rows)
			// A new commit comes next for every start.
			write(t, tt, tc2, 100, rowsOf(1000, 1001, 1), 1)
			latest, _, err := reopen(t, tfs).Meta().LatestSnapshotID(ctx)
			require.NoError(t, err)
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			p, err := f.Next(wctx)
			require.NoError(t, err)
			require.Equal(t, latest, p.SnapshotID)
			require.Equal(t, []string{"+I:1000"}, followIDs(t, f, p, mem))
		})
	}
	tbl, fsys, _ := mk(nil)

	// Expired snapshots: a follower that needs one fails as Java does; a
	// consumer's position keeps expiration away from it.
	f, err := tbl.Follow(ctx, &paimon.FollowOptions{Start: paimon.FollowEarliest, ConsumerID: "keep"})
	require.NoError(t, err)
	p, err := f.TryNext(ctx)
	require.NoError(t, err)
	followIDs(t, f, p, mem)
	require.NoError(t, f.Commit(ctx)) // next = 2
	lagging, err := tbl.Follow(ctx, &paimon.FollowOptions{Start: paimon.FollowFromSnapshot, SnapshotID: 1})
	require.NoError(t, err)
	p, err = lagging.TryNext(ctx)
	require.NoError(t, err)
	followIDs(t, lagging, p, mem) // next = 2, not recorded
	res, err := reopen(t, fsys).ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMin: 1, OlderThan: -1, CommitGrace: -1})
	require.NoError(t, err)
	require.Equal(t, []int64{1}, res.Expired, "the consumer keeps snapshot 2 on")
	require.NoError(t, fsys.Remove(ctx, "db.db/t/consumer/consumer-keep"))
	res, err = reopen(t, fsys).ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMin: 1, OlderThan: -1, CommitGrace: -1})
	require.NoError(t, err)
	require.NotEmpty(t, res.Expired)
	_, err = lagging.TryNext(ctx)
	require.ErrorIs(t, err, paimon.ErrSnapshotNotFound)
	require.ErrorContains(t, err, "has expired")

	// Refusals before any row.
	for _, opts := range []map[string]string{
		{"streaming-read-overwrite": "true"},
		{"scan.mode": "compacted-full"},
		{"scan.bounded.watermark": "5"},
		{"changelog.num-retained.min": "20"},
	} {
		tt, _ := newWriteTable(t, false, opts)
		_, err = tt.Follow(ctx, nil)
		require.ErrorIs(t, err, paimon.ErrUnsupported, "%v", opts)
	}
	_, err = tbl.Follow(ctx, nil, paimon.WithSnapshotID(1))
	require.ErrorIs(t, err, paimon.ErrInvalidScan)
	_, err = tbl.Follow(ctx, &paimon.FollowOptions{ConsumerID: "../x"})
	require.ErrorIs(t, err, paimon.ErrInvalidScan)
}

// TestConsumerExpirationTime: a commit removes the consumers whose file was
// last written more than consumer.expiration-time ago before it expires
// snapshots (Java TableCommitImpl.maintain → ConsumerManager.expire), so an
// abandoned consumer stops holding snapshots while a live one still does;
// without the option, or on a write-only table, consumers stay.
func TestConsumerExpirationTime(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		opts     map[string]string
		wantKept []string
	}{
		{"expires", map[string]string{"consumer.expiration-time": "1 h"}, []string{"live"}},
		{"no option", nil, []string{"idle", "live"}},
		{"write-only", map[string]string{"consumer.expiration-time": "1 h", "write-only": "true"}, []string{"idle", "live"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{"snapshot.num-retained.min": "1", "snapshot.num-retained.max": "2"}
			for k, v := range tc.opts {
				opts[k] = v
			}
			tbl, fsys := newWriteTable(t, false, opts)
			// Snapshots 1-4 are three hours old (past snapshot.time-retained
			// and the commit grace); snapshot 5 is committed now.
			past, err := tbl.NewCommit(&paimon.CommitOptions{User: "writer", Now: func() time.Time { return time.Now().Add(-3 * time.Hour) }})
			require.NoError(t, err)
			c := newCommit(t, tbl, "writer")
			write(t, tbl, past, 1, rowsOf(0, 3, 1), 3)
			write(t, tbl, past, 2, rowsOf(3, 6, 1), 3)
			// Two consumers read snapshot 2 (their next snapshot is 3);
			// "idle" was last written two hours ago.
			for _, id := range []string{"idle", "live"} {
				f, err := reopen(t, fsys).Follow(ctx, &paimon.FollowOptions{Start: paimon.FollowFromSnapshot, SnapshotID: 2, ConsumerID: id})
				require.NoError(t, err)
				p, err := f.TryNext(ctx)
				require.NoError(t, err)
				require.NotNil(t, p)
				require.Equal(t, int64(2), p.SnapshotID)
				require.NoError(t, f.Commit(ctx))
			}
			old := time.Now().Add(-2 * time.Hour)
			require.NoError(t, os.Chtimes(filepath.Join(fsys.(*localfs.FS).Root(), "db.db/t/consumer/consumer-idle"), old, old))
			// The "live" consumer moves on to snapshot 4 (rewritten now).
			write(t, tbl, past, 3, rowsOf(6, 9, 1), 3)
			require.NoError(t, fs.WriteFile(ctx, fsys, "db.db/t/consumer/consumer-live", []byte("{\n  \"nextSnapshot\" : 4\n}"), nil))
			write(t, tbl, past, 4, rowsOf(9, 12, 1), 3)
			res := write(t, tbl, c, 5, rowsOf(12, 15, 1), 3)
			require.NoError(t, res.ExpireErr)
			cs, err := reopen(t, fsys).Meta().Consumers(ctx)
			require.NoError(t, err)
			var kept []string
			for _, c := range cs {
				kept = append(kept, c.ID)
			}
			require.Equal(t, tc.wantKept, kept)
			earliest, ok, err := reopen(t, fsys).Meta().EarliestSnapshotID(ctx)
			require.NoError(t, err)
			require.True(t, ok)
			switch {
			case tc.opts["write-only"] == "true":
				require.Equal(t, int64(1), earliest, "a write-only table expires nothing")
			case len(kept) == 2:
				require.Equal(t, int64(3), earliest, "the idle consumer holds snapshot 3")
			default:
				require.Equal(t, int64(4), earliest, "the live consumer holds snapshot 4")
			}
		})
	}
}

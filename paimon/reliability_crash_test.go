package paimon_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/faultfs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// Crash injection (issue 7): every operation that changes a table is run
// once per I/O step with a simulated process death at that step (before
// the step reaches storage, and after it did), on a fresh copy of a table
// holding committed data. A new "process" then opens the table on the
// same storage and must find it exactly as the last committed snapshot
// says: the snapshot before the operation, or, if the next snapshot
// exists, the complete result of the operation. Re-running the operation
// with the same commit user and identifier must converge to the result
// once (never twice), a later commit must succeed, and RemoveOrphanFiles
// must clear every leftover. Right after the crash, before any cleaning,
// every file a snapshot references must still exist (no live data,
// changelog, index or manifest file deleted).
//
// The full matrix takes minutes (each case reads and writes the table about
// ten times), so by default every publish (Writer.Close) step and every
// crashDefaultStride-th other step is tested; PAIMON_CRASH_STRIDE=1 tests
// every step (CI does), PAIMON_CRASH_STRIDE=n every n-th.

const relDir = "wh/db.db/t"

// crashOp is an operation under test.
type crashOp struct {
	name        string
	partitioned bool
	primaryKey  bool // id is the primary key (unpartitioned)
	opts        map[string]string
	// setup commits the data the table holds before the operation.
	setup func(t *testing.T, fsys fs.FS)
	// before and after are the rows of the latest snapshot before and
	// after the operation.
	before, after []string
	// run is the operation, as one process runs it; it is also how it is
	// re-run after a crash.
	run func(ctx context.Context, fsys fs.FS) error
	// publishes is true when the operation adds a snapshot.
	publishes bool
	// memfsOnly: the case runs on the in-memory file system only.
	memfsOnly bool
	// laterHidden: a later write is not visible to batch reads
	// (deletion-vector tables read compacted levels only).
	laterHidden bool
	// check, when set, checks the operation's snapshot (id) after the
	// re-run, beyond its rows.
	check func(ctx context.Context, fsys fs.FS, id int64) error
}

func crashOps(t *testing.T) []crashOp {
	base := func(t *testing.T, fsys fs.FS) {
		for i, rows := range [][][]any{rowsOf(0, 100, 3), rowsOf(100, 200, 3)} {
			_, err := relWrite(context.Background(), fsys, relDir, "base", int64(i+1), rows)
			require.NoError(t, err)
		}
	}
	appendRows := rowsOf(200, 300, 3)
	var day2 [][]any
	for _, r := range rowsOf(0, 200, 3) {
		if r[0] != "2024-01-02" {
			day2 = append(day2, r)
		}
	}
	var newDay2 [][]any
	for i := 500; i < 560; i++ {
		newDay2 = append(newDay2, []any{"2024-01-02", int64(i), fmt.Sprintf("o%d", i), float64(i)})
	}
	write := func(ctx context.Context, fsys fs.FS) error {
		_, err := relWrite(ctx, fsys, relDir, "crash", 7, appendRows)
		return err
	}
	overwrite := func(ctx context.Context, fsys fs.FS) error {
		_, err := relWriteWith(ctx, fsys, relDir, "crash", newDay2, func(c *paimon.TableCommit, msgs []paimon.CommitMessage) (*paimon.CommitResult, error) {
			return c.Overwrite(ctx, 7, map[string]string{"dt": "2024-01-02"}, msgs)
		})
		return err
	}
	// The expiration history: appends, an overwrite that deletes files,
	// then appends, so expiring deletes data files, manifests and lists.
	history := func(t *testing.T, fsys fs.FS) {
		base(t, fsys)
		require.NoError(t, overwrite(context.Background(), fsys))
		_, err := relWrite(context.Background(), fsys, relDir, "base", 3, appendRows)
		require.NoError(t, err)
	}
	afterHistory := relRender(t, day2, newDay2, appendRows)
	expire := func(ctx context.Context, fsys fs.FS) error {
		tbl, err := paimon.OpenTable(ctx, fsys, relDir, nil)
		if err != nil {
			return err
		}
		_, err = tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMin: 1, RetainMax: 1, OlderThan: -1})
		return err
	}
	threads := map[string]string{"file-operation.thread-num": "1"} // one step order
	// Compaction (issue 18): six small commits, compacted into one file
	// per bucket; a re-run after it landed finds nothing to compact.
	smallCommits := func(t *testing.T, fsys fs.FS) {
		for i := range 6 {
			_, err := relWrite(context.Background(), fsys, relDir, "base", int64(i+1), rowsOf(i*40, i*40+40, 3))
			require.NoError(t, err)
		}
	}
	compact := func(full bool) func(ctx context.Context, fsys fs.FS) error {
		return func(ctx context.Context, fsys fs.FS) error {
			tbl, err := paimon.OpenTable(ctx, fsys, relDir, nil)
			if err != nil {
				return err
			}
			_, err = tbl.Compact(ctx, &paimon.CompactOptions{Full: full, Workers: 1})
			return err
		}
	}
	compacted := relRender(t, rowsOf(0, 240, 3))
	// Primary-key writes (issue 17): one commit that updates keys 150-199,
	// inserts 200-249 and deletes 0-29 (key-only), on top of two commits of
	// keys 0-199.
	var pkUpserts [][]any
	for i := 150; i < 250; i++ {
		pkUpserts = append(pkUpserts, []any{"2024-02-01", int64(i), fmt.Sprintf("u%d", i), float64(i)})
	}
	var pkDeletes []int64
	for i := range 30 {
		pkDeletes = append(pkDeletes, int64(i))
	}
	pkWrite := func(dels []int64) func(ctx context.Context, fsys fs.FS) error {
		return func(ctx context.Context, fsys fs.FS) error {
			_, err := relWritePK(ctx, fsys, relDir, "crash", 7, pkUpserts, dels)
			return err
		}
	}
	// Aggregation sums score: an upsert applied twice would show in the
	// sums, not only in the snapshot count. Other fields keep the last
	// non-NULL value.
	var pkSummed [][]any
	for _, r := range rowsOf(0, 200, 3) {
		if id := r[1].(int64); id >= 150 {
			r = []any{"2024-02-01", id, fmt.Sprintf("u%d", id), r[3].(float64) + float64(id)}
		}
		pkSummed = append(pkSummed, r)
	}
	pkSummed = append(pkSummed, pkUpserts[50:]...)
	return append([]crashOp{
		{name: "write-commit", partitioned: true, setup: base, publishes: true,
			before: relRender(t, rowsOf(0, 200, 3)), after: relRender(t, rowsOf(0, 300, 3)), run: write},
		{name: "write-commit-fixed-bucket-avro", partitioned: false, setup: base, publishes: true,
			opts:   map[string]string{"bucket": "2", "bucket-key": "id", "file.format": "avro"},
			before: relRender(t, rowsOf(0, 200, 3)), after: relRender(t, rowsOf(0, 300, 3)), run: write},
		{name: "overwrite-partition", partitioned: true, setup: base, publishes: true,
			before: relRender(t, rowsOf(0, 200, 3)), after: relRender(t, day2, newDay2), run: overwrite},
		{name: "expire", partitioned: true, setup: history, opts: threads,
			before: afterHistory, after: afterHistory, run: expire},
		{name: "compact", partitioned: false, setup: smallCommits, publishes: true,
			before: compacted, after: compacted, run: compact(false)},
		{name: "compact-fixed-bucket-full", partitioned: false, setup: smallCommits, publishes: true,
			opts:   map[string]string{"bucket": "2", "bucket-key": "id", "file.format": "avro", "write-only": "true"},
			before: compacted, after: compacted, run: compact(true)},
		// Six level-0 runs merged into one at the highest level (one
		// bucket: the steps of a bucket repeat per bucket).
		// Deduplicate, one bucket, changelog files beside the data files,
		// and a write buffer small enough to flush two sorted runs.
		{name: "write-primary-key", primaryKey: true, setup: base, publishes: true,
			opts:   map[string]string{"bucket": "1", "changelog-producer": "input", "write-buffer-size": "6kb"},
			before: relRender(t, rowsOf(0, 200, 3)), after: relRender(t, rowsOf(30, 150, 3), pkUpserts), run: pkWrite(pkDeletes)},
		// Aggregation in dynamic buckets: HASH index files, a new bucket
		// for new keys.
		{name: "write-primary-key-dynamic-aggregation", primaryKey: true, setup: base, publishes: true,
			opts: map[string]string{"bucket": "-1", "dynamic-bucket.target-row-num": "120",
				"merge-engine": "aggregation", "fields.score.aggregate-function": "sum"},
			before: relRender(t, rowsOf(0, 200, 3)), after: relRender(t, pkSummed), run: pkWrite(nil)},
		{name: "compact-primary-key-full", primaryKey: true, setup: smallCommits, publishes: true,
			opts:   map[string]string{"bucket": "1"},
			before: compacted, after: compacted, run: compact(true)},
		// Deletion vectors: batch reads see only compacted levels, so the
		// rows appear with the compaction.
		{name: "compact-primary-key-dv-full", primaryKey: true, setup: smallCommits, publishes: true, laterHidden: true,
			opts:   map[string]string{"bucket": "1", "deletion-vectors.enabled": "true"},
			before: nil, after: compacted, run: compact(true)},
		// changelog-producer = full-compaction: the compaction's changelog
		// holds every key once (+I), whatever crashed before.
		{name: "compact-primary-key-full-changelog", primaryKey: true, setup: smallCommits, publishes: true,
			opts:   map[string]string{"bucket": "1", "changelog-producer": "full-compaction", "write-only": "true"},
			before: compacted, after: compacted, run: compact(true), check: relCheckInserts(compacted)},
	}, crashCompactOps(t, compact)...)
}

// crashBackend makes a fresh storage for one case.
type crashBackend struct {
	name string
	new  func(t *testing.T) fs.FS
}

var crashBackends = []crashBackend{
	{"memfs", func(*testing.T) fs.FS { return memfs.New(nil) }},
	{"localfs", func(t *testing.T) fs.FS {
		f, err := localfs.New(t.TempDir(), &localfs.Options{NoSync: true})
		require.NoError(t, err)
		return f
	}},
}

// crashDefaultStride samples the steps when PAIMON_CRASH_STRIDE is unset.
const crashDefaultStride = 13

// crashStride reads PAIMON_CRASH_STRIDE; without it local-disk cases are
// sampled three times more sparsely than in-memory ones.
func crashStride(t *testing.T, backend string) int {
	if s := os.Getenv("PAIMON_CRASH_STRIDE"); s != "" {
		var n int
		_, err := fmt.Sscan(s, &n)
		require.NoError(t, err)
		return max(n, 1)
	}
	stride := crashDefaultStride
	if relRace {
		stride *= 4
	}
	if backend == "localfs" {
		return 3 * stride
	}
	return stride
}

// crashPoints returns the steps to fault: every stride-th step and, unless
// the race detector slows things down, every publish.
func crashPoints(log []faultfs.Step, stride int) []int {
	var out []int
	for i, s := range log {
		if s.N%stride == 1%stride || (s.Op == faultfs.OpClose && !relRace) {
			out = append(out, i+1)
		}
	}
	return out
}

// crashTally sums up a test's figures.
type crashTally struct {
	runs, faults, landed, notLanded, leaky, orphans, rowsLost int
}

func TestCrashRecovery(t *testing.T) {
	testFaultRecovery(t, faultfs.Crash)
}

// TestFailRecovery injects a single I/O error at each step instead: the
// process lives on, sees the error (or absorbs it) and must leave the table
// as consistent as after a crash. Besides, a commit that reports a failure
// it knows did not publish must have removed its own files: only a failed
// removal may leave any behind.
func TestFailRecovery(t *testing.T) {
	testFaultRecovery(t, faultfs.Fail)
}

func testFaultRecovery(t *testing.T, kind faultfs.Kind) {
	for _, op := range crashOps(t) {
		for _, be := range crashBackends {
			t.Run(op.name+"/"+be.name, func(t *testing.T) {
				if op.memfsOnly && be.name != "memfs" {
					t.Skip("in-memory file system only (crashOp.memfsOnly)")
				}
				if kind == faultfs.Fail && be.name == "localfs" && os.Getenv("PAIMON_CRASH_STRIDE") == "" {
					t.Skip("the single-failure matrix runs on the local disk only with PAIMON_CRASH_STRIDE set")
				}
				t.Parallel()
				stride := crashStride(t, be.name)
				ctx := context.Background()
				template := memfs.New(nil)
				if op.primaryKey {
					relCreatePK(t, template, relDir, op.opts)
				} else {
					relCreate(t, template, relDir, op.partitioned, op.opts)
				}
				op.setup(t, template)
				rows, err := relRows(ctx, template, relDir)
				require.NoError(t, err)
				require.Equal(t, op.before, rows)
				beforeID := latestID(t, template)

				// Count the steps of an undisturbed run.
				probe := be.new(t)
				relCopy(t, template, relDir, probe)
				counter := faultfs.New(probe)
				counter.SetLogging(true)
				require.NoError(t, op.run(ctx, counter))
				steps := counter.Steps()
				points := crashPoints(counter.Log(), stride)
				require.Positive(t, steps)
				rows, err = relRows(ctx, probe, relDir)
				require.NoError(t, err)
				require.Equal(t, op.after, rows)

				tally := crashTally{}
				tally.runs++
				for _, k := range points {
					for _, after := range []bool{false, true} {
						fault := faultfs.Fault{Step: k, Kind: kind, After: after}
						inner := be.new(t)
						relCopy(t, template, relDir, inner)
						ffs := faultfs.New(inner)
						ffs.SetLogging(true)
						ffs.Plant(fault)
						opErr := op.run(ctx, ffs)
						tally.runs++
						tally.faults++
						if kind == faultfs.Fail {
							checkOwnCleanup(t, &tally, op, inner, beforeID, fault, opErr, ffs)
						}
						landed := recoverAndCheck(t, &tally, op, inner, beforeID, fault.String(), opErr, ffs)
						if landed {
							tally.landed++
						} else {
							tally.notLanded++
						}
					}
				}
				require.Positive(t, tally.landed+tally.notLanded)
				if op.publishes && kind == faultfs.Crash && !relRace {
					require.Positive(t, tally.landed, "some crash points come after the publish")
					require.Positive(t, tally.notLanded, "some crash points come before the publish")
				}
				relFigures(t, "steps %d, stride %d, fault points %d, operations run %d, %s faults injected %d, landed %d, not landed %d, failed commits that left files %d, orphan files removed %d, rows lost %d",
					steps, stride, len(points), tally.runs, kind, tally.faults, tally.landed, tally.notLanded, tally.leaky, tally.orphans, tally.rowsLost)
			})
		}
	}
}

func latestID(t *testing.T, fsys fs.FS) int64 {
	t.Helper()
	tbl, err := paimon.OpenTable(context.Background(), fsys, relDir, nil)
	require.NoError(t, err)
	id, ok, err := tbl.Meta().LatestSnapshotID(context.Background())
	require.NoError(t, err)
	require.True(t, ok)
	return id
}

// rowsLost counts the rows of want missing from got.
func rowsLost(want, got []string) int {
	have := map[string]int{}
	for _, r := range got {
		have[r]++
	}
	n := 0
	for _, r := range want {
		if have[r] > 0 {
			have[r]--
		} else {
			n++
		}
	}
	return n
}

// recoverAndCheck is the new process after a failed or crashed run of op
// on inner: it checks the state, cleans, re-runs the operation and commits
// once more. It returns whether the first run had landed.
func recoverAndCheck(t *testing.T, tally *crashTally, op crashOp, inner fs.FS, beforeID int64, label string, opErr error, ffs *faultfs.FS) bool {
	t.Helper()
	ctx := context.Background()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s (operation error: %v)\nsteps:\n%s", label, fmt.Sprintf(format, args...), opErr, tailLog(ffs, 15))
	}
	must := func(err error, what string) {
		t.Helper()
		if err != nil {
			fail("%s: %v", what, err)
		}
	}

	// Every snapshot file present is complete and readable.
	tbl, err := paimon.OpenTable(ctx, inner, relDir, nil)
	must(err, "open")
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	must(err, "list snapshots")
	for _, id := range ids {
		if _, err := tbl.Meta().ReadSnapshot(ctx, id); err != nil {
			fail("snapshot %d is not readable: %v", id, err)
		}
	}
	// No file a snapshot references was deleted: the walk fails on a
	// missing data, changelog, index or manifest file (before any cleaning,
	// so that a removal by the operation itself shows here). Not for
	// expiration, which deletes the files of the snapshots it expires
	// before their snapshot files.
	func() {
		if !op.publishes {
			return
		}
		defer func() {
			if t.Failed() {
				t.Logf("%s: a referenced file is missing (operation error: %v)\nsteps:\n%s", label, opErr, tailLog(ffs, 15))
			}
		}()
		newRefWalker(t, inner, relDir, expListFiles(t, inner, relDir)).refs()
	}()
	latest := latestID(t, inner)
	landed := latest == beforeID+1
	if latest != beforeID && !landed || (landed && !op.publishes) {
		fail("latest snapshot %d, before the operation %d", latest, beforeID)
	}
	want := op.before
	if landed {
		want = op.after
	}
	rows, err := relRows(ctx, inner, relDir)
	must(err, "read latest")
	tally.rowsLost += rowsLost(want, rows)
	if !equalRows(want, rows) {
		fail("latest snapshot %d reads %d rows, want %d", latest, len(rows), len(want))
	}
	if landed {
		// The snapshot before is untouched too.
		got, err := relRows(ctx, inner, relDir, paimon.WithSnapshotID(beforeID))
		must(err, "read the snapshot before")
		if !equalRows(op.before, got) {
			fail("snapshot %d changed", beforeID)
		}
	}

	if op.publishes {
		res, err := relClean(ctx, inner, relDir)
		must(err, "orphan clean")
		tally.orphans += len(res.Deleted)
		rows, err = relRows(ctx, inner, relDir)
		must(err, "read after cleaning")
		if !equalRows(want, rows) {
			fail("orphan cleaning changed the rows")
		}
	}

	// The same operation again, by a new process: it converges to the
	// result exactly once.
	must(op.run(ctx, inner), "re-run")
	if op.publishes {
		if got := latestID(t, inner); got != beforeID+1 {
			fail("after the re-run the latest snapshot is %d, want %d (landed first time: %v)", got, beforeID+1, landed)
		}
	}
	rows, err = relRows(ctx, inner, relDir)
	must(err, "read after re-run")
	tally.rowsLost += rowsLost(op.after, rows)
	if !equalRows(op.after, rows) {
		fail("after the re-run: %d rows, want %d", len(rows), len(op.after))
	}
	if op.check != nil {
		must(op.check(ctx, inner, beforeID+1), "check of the operation's snapshot")
	}

	// A later commit works.
	extra := [][]any{{"2030-01-01", int64(9000), "later", 1.5}}
	_, err = relWrite(ctx, inner, relDir, "later", paimon.BatchCommitIdentifier, extra)
	must(err, "later commit")
	rows, err = relRows(ctx, inner, relDir)
	must(err, "read after the later commit")
	wantLater := append(append([]string(nil), op.after...), relRender(t, extra)...)
	if op.laterHidden {
		wantLater = op.after
	}
	if !equalRows(wantLater, rows) {
		fail("after the later commit: %d rows", len(rows))
	}

	res, err := relClean(ctx, inner, relDir)
	must(err, "final orphan clean")
	tally.orphans += len(res.Deleted)
	relCheckClean(t, inner, relDir)
	return landed
}

func equalRows(want, got []string) bool {
	w := append([]string(nil), want...)
	g := append([]string(nil), got...)
	sortStrings(w)
	sortStrings(g)
	if len(w) != len(g) {
		return false
	}
	for i := range w {
		if w[i] != g[i] {
			return false
		}
	}
	return true
}

func tailLog(f *faultfs.FS, n int) string {
	if f == nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(f.LogString()), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// checkOwnCleanup looks, before any cleaning, for files a failed
// publishing operation left behind although it reported a failure that
// published nothing.
func checkOwnCleanup(t *testing.T, tally *crashTally, op crashOp, inner fs.FS, beforeID int64, fault faultfs.Fault, opErr error, ffs *faultfs.FS) {
	t.Helper()
	if !op.publishes || opErr == nil || latestID(t, inner) != beforeID {
		return
	}
	log := ffs.Log()
	faulted := log[fault.Step-1].Op
	if faulted == faultfs.OpRemove || faulted == faultfs.OpAbort || strings.Contains(opErr.Error(), "may have been published") {
		return // a failed removal, or an unknown outcome: files are kept on purpose
	}
	files := expListFiles(t, inner, relDir)
	refs := newRefWalker(t, inner, relDir, files).refs()
	var left []string
	for p := range files {
		if !refs[p] && !relIsMetadata(relDir, p) {
			left = append(left, p)
		}
	}
	if len(left) == 0 {
		return
	}
	tally.leaky++
	sortStrings(left)
	t.Errorf("%s (%s %s): the operation failed with %v and left %d files: %v\nsteps:\n%s",
		fault, faulted, log[fault.Step-1].Name, opErr, len(left), left, tailLog(ffs, 12))
}

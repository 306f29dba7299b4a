package storetest_test

import (
	"context"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs"
	"github.com/paimon-go/paimon-go/fs/blobfs/s3fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/storetest"
	"github.com/paimon-go/paimon-go/internal/testservers"
	"github.com/paimon-go/paimon-go/paimon"
)

// Network faults on S3 (issue 7): a table operation runs against the
// versitygw server through s3fs while the server is stopped at a chosen
// I/O step, and restarted either while the operation still retries (a
// blip) or only after the operation gave up (an outage). The step is
// counted by a wrapper file system, so the same operation on the same data
// is hit at the same call every time (fs/faultfs fails calls but cannot
// run a hook, hence stepFS below). PAIMON_S3_FAULT_STRIDE=1 sweeps every
// step of a small commit and of a scan (about four minutes); by default
// every write of the commit and a sample of the other steps are hit, to
// stay near a minute per test.
//
// Two places to stop the server:
//
//   - before the step: the step's first request finds no server;
//   - after the step's first request landed: the server handled it, then
//     went away before the client saw the answer (the transport reports a
//     reset connection). At the publish of a snapshot this is the lost
//     acknowledgement a committer must resolve by reading back.
//
// Whatever happens, the operation must return (no panic, no hang past its
// context deadline) with either an error or a complete result, and once
// the server is back a new process must find the table exactly as its
// latest snapshot says: every snapshot file present decodes, the latest is
// the one before the operation or the one it adds, the rows are those of
// that snapshot, the same commit user and identifier converge to one
// snapshot, a later commit succeeds, and RemoveOrphanFiles keeps every row.

// Table layout and helpers shared with s3_processes_test.go.

// s3TableDir is the table inside each test's prefix of the bucket.
const s3TableDir = "db.db/t"

// s3Days are the partitions rows spread over.
var s3Days = []string{"2024-01-01", "2024-01-02"}

// s3CreateTable creates the test table: partitioned by dt, bucket-unaware,
// Parquet, with one file-operation thread so that step numbers repeat.
func s3CreateTable(ctx context.Context, fsys fs.FS, opts map[string]string) error {
	b := schema.NewSchemaBuilder().
		Column("dt", schema.StringType()).
		Column("id", schema.BigIntType().NotNull()).
		Column("name", schema.StringType()).
		PartitionKeys("dt").
		Options(map[string]string{"file.format": "parquet", "file-operation.thread-num": "1"})
	if opts != nil {
		b = b.Options(opts)
	}
	s, err := b.Build()
	if err != nil {
		return err
	}
	_, err = paimon.CreateTable(ctx, fsys, s3TableDir, s)
	return err
}

// s3RowsOf returns rows [dt, id, name] for ids in [from, to).
func s3RowsOf(from, to int) [][]any {
	var rows [][]any
	for i := from; i < to; i++ {
		rows = append(rows, []any{s3Days[i%len(s3Days)], int64(i), fmt.Sprintf("n%d", i)})
	}
	return rows
}

// s3Commit is one process's write: it opens the table, writes rows and
// commits them as user with identifier.
func s3Commit(ctx context.Context, fsys fs.FS, user string, identifier int64, rows [][]any, opts *paimon.CommitOptions) (*paimon.CommitResult, error) {
	tbl, err := paimon.OpenTable(ctx, fsys, s3TableDir, nil)
	if err != nil {
		return nil, err
	}
	msgs, err := storetest.PrepareRows(ctx, tbl, rows, len(rows))
	if err != nil {
		return nil, err
	}
	o := paimon.CommitOptions{}
	if opts != nil {
		o = *opts
	}
	o.User = user
	c, err := tbl.NewCommit(&o)
	if err != nil {
		return nil, err
	}
	return c.Commit(ctx, identifier, msgs)
}

// s3Read scans the table (the latest snapshot unless opts say otherwise)
// and returns its rows as sorted canonical lines.
func s3Read(ctx context.Context, fsys fs.FS, opts ...paimon.ScanOption) ([]string, error) {
	tbl, err := paimon.OpenTable(ctx, fsys, s3TableDir, nil)
	if err != nil {
		return nil, err
	}
	fields := tbl.Schema().Fields
	rows := []string{}
	for rec, err := range tbl.NewScan(opts...).Records(ctx) {
		if err != nil {
			return nil, err
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			vals := make([]any, len(fields))
			for c := range fields {
				if vals[c], err = parquet.ArrowValue(rec.Column(c), r, fields[c].Type); err != nil {
					rec.Release()
					return nil, err
				}
			}
			b, err := canon.EncodeRow(fields, vals)
			if err != nil {
				rec.Release()
				return nil, err
			}
			rows = append(rows, string(b))
		}
		rec.Release()
	}
	sort.Strings(rows)
	return rows, nil
}

// s3Render renders rows like s3Read.
func s3Render(t testing.TB, sets ...[][]any) []string {
	t.Helper()
	fields := []schema.DataField{
		{ID: 0, Name: "dt", Type: schema.StringType()},
		{ID: 1, Name: "id", Type: schema.BigIntType().NotNull()},
		{ID: 2, Name: "name", Type: schema.StringType()},
	}
	out := []string{}
	for _, rows := range sets {
		for _, r := range rows {
			b, err := canon.EncodeRow(fields, r)
			require.NoError(t, err)
			out = append(out, string(b))
		}
	}
	sort.Strings(out)
	return out
}

// s3RowsLost counts the rows of want missing from got.
func s3RowsLost(want, got []string) int {
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

// s3CheckSnapshots reads every snapshot file of the table: each must
// decode, the ids must run 1..latest without a gap, and no commit user and
// identifier may appear twice. It returns the snapshots by id.
func s3CheckSnapshots(ctx context.Context, fsys fs.FS) (map[int64]*snapshotInfo, int64, error) {
	tbl, err := paimon.OpenTable(ctx, fsys, s3TableDir, nil)
	if err != nil {
		return nil, 0, err
	}
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	if err != nil {
		return nil, 0, err
	}
	out := map[int64]*snapshotInfo{}
	seen := map[string]int64{}
	for i, id := range ids {
		if id != int64(i+1) {
			return nil, 0, fmt.Errorf("snapshot ids %v are not 1..%d", ids, len(ids))
		}
		s, err := tbl.Meta().ReadSnapshot(ctx, id)
		if err != nil {
			return nil, 0, fmt.Errorf("snapshot %d does not decode: %w", id, err)
		}
		key := fmt.Sprintf("%s/%d", s.CommitUser, s.CommitIdentifier)
		if s.CommitIdentifier != paimon.BatchCommitIdentifier {
			if prev, dup := seen[key]; dup {
				return nil, 0, fmt.Errorf("snapshots %d and %d both commit %s", prev, id, key)
			}
			seen[key] = id
		}
		out[id] = &snapshotInfo{user: s.CommitUser, identifier: s.CommitIdentifier, total: s.TotalRecordCount, delta: s.DeltaRecordCount}
	}
	latest, ok, err := tbl.Meta().LatestSnapshotID(ctx)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		latest = 0
	}
	if latest != int64(len(ids)) {
		return nil, 0, fmt.Errorf("latest snapshot %d, but snapshot files 1..%d", latest, len(ids))
	}
	return out, latest, nil
}

// snapshotInfo is what the checks need of a snapshot.
type snapshotInfo struct {
	user         string
	identifier   int64
	total, delta int64
}

// s3UnreferencedData lists the data files below the table that no
// snapshot's manifests name.
func s3UnreferencedData(ctx context.Context, fsys fs.FS) ([]string, error) {
	tbl, err := paimon.OpenTable(ctx, fsys, s3TableDir, nil)
	if err != nil {
		return nil, err
	}
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	if err != nil {
		return nil, err
	}
	refs := map[string]bool{}
	for _, id := range ids {
		s, err := tbl.Meta().ReadSnapshot(ctx, id)
		if err != nil {
			return nil, err
		}
		metas, err := tbl.Meta().DataManifests(ctx, s)
		if err != nil {
			return nil, err
		}
		for i := range metas {
			entries, err := tbl.Meta().ReadListedManifest(ctx, &metas[i])
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				refs[e.File.FileName] = true
			}
		}
	}
	var stray []string
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := fs.ReadDir(ctx, fsys, dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			switch {
			case e.IsDir:
				if err := walk(dir + "/" + e.Name); err != nil {
					return err
				}
			case strings.HasPrefix(e.Name, "data-") && !refs[e.Name]:
				stray = append(stray, dir+"/"+e.Name)
			}
		}
		return nil
	}
	if err := walk(s3TableDir); err != nil {
		return nil, err
	}
	return stray, nil
}

// Fault machinery.

// serverCmd asks the test goroutine, which alone may stop and start the
// server (testservers.Process methods may end the test), to do so; done
// is closed once it has.
type serverCmd struct {
	restart bool
	done    chan struct{}
}

// serverCtl carries serverCmds from the operation's goroutines to the
// test goroutine while an operation runs (between begin and end); outside
// that window a request is dropped, so that a late one cannot block.
type serverCtl struct {
	cmds chan serverCmd

	mu   sync.Mutex
	quit chan struct{} // closed outside a run
}

func newServerCtl() *serverCtl {
	c := &serverCtl{cmds: make(chan serverCmd), quit: make(chan struct{})}
	close(c.quit)
	return c
}

func (c *serverCtl) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.quit = make(chan struct{})
}

func (c *serverCtl) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(c.quit)
}

func (c *serverCtl) send(restart bool) {
	c.mu.Lock()
	quit := c.quit
	c.mu.Unlock()
	cmd := serverCmd{restart: restart, done: make(chan struct{})}
	select {
	case c.cmds <- cmd:
		<-cmd.done
	case <-quit:
	}
}

// trapMode is what trapClient does to the next request.
type trapMode int

const (
	trapIdle           trapMode = iota
	trapRestartOnError          // the first failing request restarts the server before failing
	trapLostAck                 // the next request lands, then the server stops and the answer is lost
)

// trapClient is the AWS SDK's HTTP client for the file system under test:
// it forwards requests and plants the server-side part of a fault.
type trapClient struct {
	inner *http.Client
	ctl   *serverCtl

	mu   sync.Mutex
	mode trapMode
	blip bool // trapLostAck: restart the server before reporting the loss

	// gate is held shared by every request while it is sent and taken
	// exclusively by a lost acknowledgement to stop (and, for a blip,
	// restart) the server between requests. The writer publishes files
	// concurrently (datafile.Finisher): without the gate a request of
	// another file in flight while the server restarts would spend the
	// test's short retry budget (3 attempts within about 100 ms) on a
	// refused connection, an outage the fault did not plant.
	gate sync.RWMutex
	// back, while a blip planted before a step is armed, is closed once the
	// first failing request has restarted the server. Another request that
	// fails meanwhile (files are published concurrently) waits for it before
	// reporting its failure, so its retries find the server back, as they
	// would after a real blip shorter than their backoff.
	back chan struct{}
}

func (c *trapClient) arm(mode trapMode, blip bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mode, c.blip = mode, blip
	if c.back != nil {
		close(c.back)
	}
	c.back = nil
	if mode == trapRestartOnError {
		c.back = make(chan struct{})
	}
}

func (c *trapClient) Do(req *http.Request) (*http.Response, error) {
	c.gate.RLock()
	resp, err := c.inner.Do(req)
	c.gate.RUnlock()
	c.mu.Lock()
	mode, blip, back := c.mode, c.blip, c.back
	switch {
	case mode == trapRestartOnError && err != nil, mode == trapLostAck:
		c.mode = trapIdle // fire once
	default:
		mode = trapIdle
	}
	c.mu.Unlock()
	switch mode {
	case trapRestartOnError:
		c.ctl.send(true)
		c.mu.Lock()
		if back != nil && c.back == back {
			close(back)
			c.back = nil
		}
		c.mu.Unlock()
	case trapLostAck:
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		c.gate.Lock()
		c.ctl.send(false)
		if blip {
			c.ctl.send(true)
		}
		c.gate.Unlock()
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	}
	if err != nil && back != nil {
		<-back
	}
	return resp, err
}

// fault is one planted failure.
type fault struct {
	step  int  // the I/O step (1-based) it strikes at
	after bool // the step's first request lands before the server stops
	blip  bool // the server comes back while the operation retries
}

func (f fault) String() string {
	where, how := "before", "outage"
	if f.after {
		where = "after"
	}
	if f.blip {
		how = "blip"
	}
	return fmt.Sprintf("%s-%s step %d", how, where, f.step)
}

// stepFS numbers the calls that reach storage, as fs/faultfs does (Open,
// ReadFile, File.ReadAt, Create, Writer.Close and Abort, Remove,
// RemoveAll, Stat, List; Writer.Write only fills a buffer or pipe here),
// and calls onStep when step at is reached, before forwarding it.
type stepFS struct {
	inner fs.FS

	mu     sync.Mutex
	n      int
	at     int
	onStep func()
	log    []stepRecord
}

// stepRecord is one logged step.
type stepRecord struct {
	n        int
	op, name string
}

func (r stepRecord) String() string { return fmt.Sprintf("%d %s %s", r.n, r.op, r.name) }

var (
	_ fs.ReadFileFS  = (*stepFS)(nil)
	_ fs.RemoveAllFS = (*stepFS)(nil)
)

func (f *stepFS) step(op, name string) {
	f.mu.Lock()
	f.n++
	f.log = append(f.log, stepRecord{n: f.n, op: op, name: name})
	hit := f.n == f.at && f.onStep != nil
	f.mu.Unlock()
	if hit {
		f.onStep()
	}
}

func (f *stepFS) steps() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

func (f *stepFS) stepLog() []stepRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]stepRecord(nil), f.log...)
}

// tail renders the last n steps, one a line.
func (f *stepFS) tail(n int) string {
	var sb strings.Builder
	log := f.stepLog()
	for _, r := range log[max(0, len(log)-n):] {
		sb.WriteString(r.String())
		sb.WriteByte('\n')
	}
	return sb.String()
}

func (f *stepFS) Open(ctx context.Context, name string) (fs.File, error) {
	f.step("open", name)
	file, err := f.inner.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	return &stepFile{File: file, f: f, name: name}, nil
}

func (f *stepFS) ReadFile(ctx context.Context, name string) ([]byte, error) {
	f.step("readfile", name)
	return fs.ReadFile(ctx, f.inner, name)
}

func (f *stepFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	f.step("create", name)
	w, err := f.inner.Create(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return &stepWriter{Writer: w, f: f, name: name}, nil
}

func (f *stepFS) Remove(ctx context.Context, name string) error {
	f.step("remove", name)
	return f.inner.Remove(ctx, name)
}

func (f *stepFS) RemoveAll(ctx context.Context, name string) error {
	f.step("removeall", name)
	return fs.RemoveAll(ctx, f.inner, name)
}

func (f *stepFS) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	f.step("stat", name)
	return f.inner.Stat(ctx, name)
}

func (f *stepFS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	return func(yield func(fs.FileInfo, error) bool) {
		f.step("list", dir)
		for fi, err := range f.inner.List(ctx, dir) {
			if !yield(fi, err) {
				return
			}
		}
	}
}

func (f *stepFS) Close() error { return f.inner.Close() }

type stepFile struct {
	fs.File
	f    *stepFS
	name string
}

func (s *stepFile) ReadAt(p []byte, off int64) (int, error) {
	s.f.step("readat", s.name)
	return s.File.ReadAt(p, off)
}

type stepWriter struct {
	fs.Writer
	f    *stepFS
	name string
}

func (w *stepWriter) Close() error {
	w.f.step("close", w.name)
	return w.Writer.Close()
}

func (w *stepWriter) Abort() error {
	w.f.step("abort", w.name)
	return w.Writer.Abort()
}

// Timeouts of a faulted operation. The deadline bounds the operation; the
// grace is how much longer the test waits for it to notice before calling
// it hung. Neither is a performance check.
const (
	faultOpTimeout = 30 * time.Second
	faultHangGrace = 30 * time.Second
)

// faultEnv is one test's server and the client configuration of the file
// systems under test.
type faultEnv struct {
	t   *testing.T
	srv *testservers.S3Server
	cfg aws.Config
}

func newFaultEnv(t *testing.T) *faultEnv {
	srv := testservers.S3(t)
	// Short SDK and blobfs retries: an operation facing a dead server
	// gives up within a second instead of the SDK defaults' many, and the
	// client-side retry quota (which a sweep of faults would drain) is off.
	cfg, err := config.LoadDefaultConfig(context.Background(),
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = 3
				o.MaxBackoff = 50 * time.Millisecond
				o.RateLimiter = ratelimit.None
			})
		}))
	require.NoError(t, err)
	return &faultEnv{t: t, srv: srv, cfg: cfg}
}

// plainFS opens the table's prefix with the default client configuration,
// as a new process after the outage would.
func (e *faultEnv) plainFS(prefix string) fs.FS {
	e.t.Helper()
	fsys, err := s3fs.Open(context.Background(), e.srv.Bucket, prefix, &s3fs.Options{UsePathStyle: true})
	require.NoError(e.t, err)
	e.t.Cleanup(func() { fsys.Close() })
	return fsys
}

// faultFS is a file system under test with its step counter and trap.
type faultFS struct {
	*stepFS
	trap *trapClient
	ctl  *serverCtl
}

// newFaultFS opens prefix through a trapping client.
func (e *faultEnv) newFaultFS(prefix string) *faultFS {
	e.t.Helper()
	ctl := newServerCtl()
	trap := &trapClient{inner: &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}, ctl: ctl}
	cfg := e.cfg.Copy()
	cfg.HTTPClient = trap
	inner, err := s3fs.Open(context.Background(), e.srv.Bucket, prefix, &s3fs.Options{
		Config: &cfg, UsePathStyle: true,
		FS: &blobfs.Options{Retry: &blobfs.RetryPolicy{Attempts: 3, Backoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond}},
	})
	require.NoError(e.t, err)
	e.t.Cleanup(func() { inner.Close() })
	return &faultFS{stepFS: &stepFS{inner: inner}, trap: trap, ctl: ctl}
}

// plant arranges for f to strike during the next operation.
func (ff *faultFS) plant(f fault) {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	ff.n, ff.log, ff.at, ff.onStep = 0, nil, f.step, nil
	if f.step == 0 {
		return
	}
	ff.onStep = func() {
		if f.after {
			ff.trap.arm(trapLostAck, f.blip)
			return
		}
		// A blip's trap is armed before the server stops: a concurrent
		// request (the scan reads manifests in parallel) refused while the
		// stop is still under way must bring the server back too, or it
		// may spend all its attempts before the trap is armed.
		if f.blip {
			ff.trap.arm(trapRestartOnError, false)
		}
		ff.ctl.send(false)
	}
}

// faultOutcome is how a faulted operation ended.
type faultOutcome struct {
	err      error
	injected bool // the fault struck (the server was stopped)
}

// run runs op in a goroutine with a deadline, serving its requests to stop
// and restart the server, and restarts the server after op returned if it
// is down. A panic in op or an operation that outlives its deadline by
// faultHangGrace fails the test.
func (e *faultEnv) run(ff *faultFS, label string, op func(ctx context.Context) error) faultOutcome {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), faultOpTimeout)
	defer cancel()
	type result struct {
		err   error
		panic string
	}
	done := make(chan result, 1)
	ff.ctl.begin()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: fmt.Sprintf("%v\n%s", p, debug.Stack())}
			}
		}()
		done <- result{err: op(ctx)}
	}()
	injected := false
	guard := time.NewTimer(faultOpTimeout + faultHangGrace)
	defer guard.Stop()
	var res result
wait:
	for {
		select {
		case cmd := <-ff.ctl.cmds:
			if cmd.restart {
				e.srv.Restart()
			} else {
				e.srv.Stop()
				injected = true
			}
			close(cmd.done)
		case res = <-done:
			break wait
		case <-guard.C:
			e.t.Fatalf("%s: the operation did not return within %v of its %v deadline\nsteps:\n%s",
				label, faultHangGrace, faultOpTimeout, ff.tail(15))
		}
	}
	// Late requests (none are expected) no longer reach the test
	// goroutine, and nothing more is planted.
	ff.ctl.end()
	ff.mu.Lock()
	ff.onStep = nil
	ff.mu.Unlock()
	ff.trap.arm(trapIdle, false)
	if res.panic != "" {
		e.t.Fatalf("%s: the operation panicked: %s", label, res.panic)
	}
	if e.srv.PID() == 0 {
		e.srv.Restart()
	}
	return faultOutcome{err: res.err, injected: injected}
}

// faultTally sums up a sweep.
type faultTally struct {
	points, injected, failed, retried, survived                int
	landed, notLanded, ambiguous, orphans, snapshots, rowsLost int
}

// count records how an operation under f ended: failed, succeeded through
// its retries (a blip), or succeeded although the server stayed down (the
// steps after the fault were best-effort: the LATEST hint, the expiration
// after a commit).
func (ta *faultTally) count(f fault, out faultOutcome) {
	ta.points++
	if !out.injected {
		return
	}
	ta.injected++
	switch {
	case out.err != nil:
		ta.failed++
	case f.blip:
		ta.retried++
	default:
		ta.survived++
	}
}

// faultDefaultStride samples the steps of a sweep when
// PAIMON_S3_FAULT_STRIDE is unset: each fault point restarts the server
// and checks the table over HTTP, about two seconds on a busy machine.
const faultDefaultStride = 4

// faultStride reads PAIMON_S3_FAULT_STRIDE (1 sweeps every step in every
// way that applies).
func faultStride(t *testing.T) int {
	t.Helper()
	if v := os.Getenv("PAIMON_S3_FAULT_STRIDE"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, "PAIMON_S3_FAULT_STRIDE")
		return max(n, 1)
	}
	return faultDefaultStride
}

// writeStep reports steps that change storage: a lost acknowledgement
// matters only for them (a read whose answer is lost is a failed read).
func writeStep(op string) bool { return op == "close" || op == "remove" || op == "removeall" }

// commitFaultPlan returns the faults of the commit sweep. With stride 1:
// at every step that changes storage all four (outage or blip, before or
// after its first request), at every other step an outage and a blip
// before it. With a larger stride: all four at the snapshot's publish;
// at the other writes both outages and one blip (before and after
// alternately); at every stride-th other step one fault before it (outage
// and blip alternately).
func commitFaultPlan(log []stepRecord, stride int) []fault {
	var out []fault
	writes, other := 0, 0
	for _, r := range log {
		outage, blip := fault{step: r.n}, fault{step: r.n, blip: true}
		if writeStep(r.op) {
			lost, lostBlip := fault{step: r.n, after: true}, fault{step: r.n, after: true, blip: true}
			switch {
			case stride == 1 || strings.Contains(r.name, "/snapshot/snapshot-"):
				out = append(out, outage, blip, lost, lostBlip)
			case writes%2 == 0:
				out = append(out, outage, lost, blip)
			default:
				out = append(out, outage, lost, lostBlip)
			}
			writes++
			continue
		}
		switch {
		case stride == 1:
			out = append(out, outage, blip)
		case other%stride == 0 && (other/stride)%2 == 0:
			out = append(out, outage)
		case other%stride == 0:
			out = append(out, blip)
		}
		other++
	}
	return out
}

// scanFaultPlan returns the faults of the scan sweep: an outage and a
// blip before every step but File.ReadAt, and before every stride-th
// ReadAt.
func scanFaultPlan(log []stepRecord, stride int) []fault {
	var out []fault
	reads := 0
	for _, r := range log {
		if r.op == "readat" {
			reads++
			if reads%stride != 1%stride {
				continue
			}
		}
		out = append(out, fault{step: r.n}, fault{step: r.n, blip: true})
	}
	return out
}

// TestS3CommitFaults stops the server at every I/O step of a small
// write-and-commit (in each of the four ways: before or after the step's
// first request, outage or blip), restarts it, and checks the table.
func TestS3CommitFaults(t *testing.T) {
	e := newFaultEnv(t)
	ctx := context.Background()
	base := [][][]any{s3RowsOf(0, 20), s3RowsOf(20, 40)}
	newRows := s3RowsOf(40, 60)
	extra := [][]any{{"2030-01-01", int64(9000), "later"}}
	before := s3Render(t, base...)
	after := s3Render(t, append(base, newRows)...)
	quick := &paimon.CommitOptions{MinRetryWait: time.Millisecond, MaxRetryWait: 5 * time.Millisecond}
	const user, identifier = "faults", int64(7)

	// setup makes a table holding the base snapshots 1 and 2 below prefix.
	setup := func(prefix string) {
		plain := e.plainFS(prefix)
		require.NoError(t, s3CreateTable(ctx, plain, nil))
		for i, rows := range base {
			_, err := s3Commit(ctx, plain, "base", int64(i+1), rows, quick)
			require.NoError(t, err)
		}
	}
	commit := func(fsys fs.FS) func(ctx context.Context) (*paimon.CommitResult, error) {
		return func(ctx context.Context) (*paimon.CommitResult, error) {
			return s3Commit(ctx, fsys, user, identifier, newRows, quick)
		}
	}

	// Count the steps of an undisturbed run.
	setup("probe")
	probe := e.newFaultFS("probe")
	res, err := commit(probe)(ctx)
	require.NoError(t, err)
	require.NotNil(t, res.Snapshot)
	steps := probe.steps()
	rows, err := s3Read(ctx, e.plainFS("probe"))
	require.NoError(t, err)
	require.Equal(t, after, rows)
	t.Logf("an undisturbed commit takes %d steps:\n%s", steps, probe.tail(steps))

	var tally faultTally
	for _, f := range commitFaultPlan(probe.stepLog(), faultStride(t)) {
		label := f.String()
		prefix := fmt.Sprintf("commit-%d-%t-%t", f.step, f.after, f.blip)
		setup(prefix)
		ff := e.newFaultFS(prefix)
		ff.plant(f)
		var res *paimon.CommitResult
		out := e.run(ff, label, func(ctx context.Context) error {
			var err error
			res, err = commit(ff)(ctx)
			return err
		})
		tally.count(f, out)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%s: %s (operation error: %v)\nsteps:\n%s", label, fmt.Sprintf(format, args...), out.err, ff.tail(12))
		}
		if !out.injected {
			continue
		}
		if f.blip && out.err != nil {
			// The server came back while the request was retried: the
			// retries must have carried the operation through.
			fail("the operation failed although the server came back during its retries")
		}

		// A new process after the outage.
		plain := e.plainFS(prefix)
		snaps, latest, err := s3CheckSnapshots(ctx, plain)
		if err != nil {
			fail("snapshots: %v", err)
		}
		tally.snapshots += len(snaps)
		landed := latest == 3
		switch {
		case latest != 2 && !landed:
			fail("latest snapshot %d, want 2 (before) or 3", latest)
		case landed && (snaps[3].user != user || snaps[3].identifier != identifier):
			fail("snapshot 3 is %s/%d, not the operation's", snaps[3].user, snaps[3].identifier)
		case out.err == nil && (!landed || res.Snapshot == nil || res.Snapshot.ID != 3):
			fail("the commit succeeded but snapshot 3 is not its own")
		}
		if landed {
			tally.landed++
			if out.err != nil {
				tally.ambiguous++
			}
		} else {
			tally.notLanded++
		}
		want := before
		if landed {
			want = after
		}
		rows, err := s3Read(ctx, plain)
		if err != nil {
			fail("read latest: %v", err)
		}
		tally.rowsLost += s3RowsLost(want, rows)
		if !equalLines(want, rows) {
			fail("latest snapshot %d reads %d rows, want %d", latest, len(rows), len(want))
		}
		if int64(len(rows)) != snaps[latest].total {
			fail("latest snapshot %d says %d rows, reads %d", latest, snaps[latest].total, len(rows))
		}
		// The same user and identifier converge: FilterCommitted
		// knows whether it landed, and committing again adds it once.
		tbl, err := paimon.OpenTable(ctx, plain, s3TableDir, nil)
		if err != nil {
			fail("open: %v", err)
		}
		c, err := tbl.NewCommit(&paimon.CommitOptions{User: user})
		if err != nil {
			fail("new commit: %v", err)
		}
		pending, err := c.FilterCommitted(ctx, []int64{identifier})
		if err != nil {
			fail("filter committed: %v", err)
		}
		if landed != (len(pending) == 0) {
			fail("FilterCommitted says %v pending, but landed is %v", pending, landed)
		}
		res2, err := s3Commit(ctx, plain, user, identifier, newRows, quick)
		if err != nil {
			fail("re-run: %v", err)
		}
		if landed != res2.AlreadyCommitted || (!landed && (res2.Snapshot == nil || res2.Snapshot.ID != 3)) {
			fail("re-run: already committed %v, snapshot %v (landed %v)", res2.AlreadyCommitted, res2.Snapshot, landed)
		}
		snaps, latest, err = s3CheckSnapshots(ctx, plain)
		switch {
		case err != nil:
			fail("snapshots after the re-run: %v", err)
		case latest != 3 || snaps[3].user != user || snaps[3].identifier != identifier || snaps[3].total != int64(len(after)):
			fail("after the re-run the latest snapshot is %d (%+v), want 3 committing %s/%d with %d rows",
				latest, *snaps[latest], user, identifier, len(after))
		}
		tally.snapshots += len(snaps)

		// A later commit works, and orphan cleaning keeps every row.
		if _, err := s3Commit(ctx, plain, "later", paimon.BatchCommitIdentifier, extra, quick); err != nil {
			fail("later commit: %v", err)
		}
		tbl, err = paimon.OpenTable(ctx, plain, s3TableDir, nil)
		if err != nil {
			fail("open: %v", err)
		}
		orphans, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{OlderThan: time.Millisecond})
		if err != nil {
			fail("remove orphan files: %v", err)
		}
		tally.orphans += len(orphans.Deleted)
		snaps, latest, err = s3CheckSnapshots(ctx, plain)
		if err != nil || latest != 4 {
			fail("after the later commit and cleaning: latest %d, %v", latest, err)
		}
		tally.snapshots += len(snaps)
		final := append(append([]string(nil), after...), s3Render(t, extra)...)
		sort.Strings(final)
		rows, err = s3Read(ctx, plain)
		if err != nil {
			fail("read after cleaning: %v", err)
		}
		tally.rowsLost += s3RowsLost(final, rows)
		if !equalLines(final, rows) {
			fail("after cleaning: %d rows, want %d", len(rows), len(final))
		}
		// Snapshot 4 holds every data file; snapshot 2's manifests must
		// have survived the cleaning too.
		got, err := s3Read(ctx, plain, paimon.WithSnapshotID(2))
		if err != nil || !equalLines(before, got) {
			fail("after cleaning, snapshot 2 reads %d rows (%v), want %d", len(got), err, len(before))
		}
		stray, err := s3UnreferencedData(ctx, plain)
		if err != nil || len(stray) > 0 {
			fail("after cleaning, unreferenced data files %v (%v)", stray, err)
		}
	}
	require.Equal(t, tally.points, tally.injected, "every planned fault struck")
	require.Positive(t, tally.landed)
	require.Positive(t, tally.notLanded)
	require.Positive(t, tally.ambiguous, "a lost acknowledgement of the snapshot's publish lands but reports a failure")
	require.Zero(t, tally.rowsLost)
	figures(t, "steps %d, stride %d, faults injected %d, operations failed cleanly %d, succeeded after retry %d, "+
		"succeeded with the server down %d, landed %d (of which reported failed %d), not landed %d, snapshots verified %d, "+
		"orphan files removed %d, rows lost %d",
		steps, faultStride(t), tally.injected, tally.failed, tally.retried, tally.survived, tally.landed, tally.ambiguous,
		tally.notLanded, tally.snapshots, tally.orphans, tally.rowsLost)
}

// TestS3ScanFaults stops the server at every I/O step of a scan, before
// the step's first request, once for an outage and once for a blip. A scan
// returns either an error or every row; once the server is back the same
// file system reads the table again.
func TestS3ScanFaults(t *testing.T) {
	e := newFaultEnv(t)
	ctx := context.Background()
	const prefix = "scan"
	plain := e.plainFS(prefix)
	require.NoError(t, s3CreateTable(ctx, plain, nil))
	var sets [][][]any
	for i := range 3 {
		sets = append(sets, s3RowsOf(i*20, i*20+20))
		_, err := s3Commit(ctx, plain, "base", int64(i+1), sets[i], nil)
		require.NoError(t, err)
	}
	want := s3Render(t, sets...)

	ff := e.newFaultFS(prefix)
	rows, err := s3Read(ctx, ff)
	require.NoError(t, err)
	require.Equal(t, want, rows)
	steps := ff.steps()
	t.Logf("an undisturbed scan takes %d steps:\n%s", steps, ff.tail(steps))

	var tally faultTally
	for _, f := range scanFaultPlan(ff.stepLog(), faultStride(t)) {
		label := f.String()
		ff.plant(f)
		var rows []string
		out := e.run(ff, label, func(ctx context.Context) error {
			var err error
			rows, err = s3Read(ctx, ff)
			return err
		})
		tally.count(f, out)
		if !out.injected {
			continue
		}
		switch {
		case f.blip && out.err != nil:
			t.Fatalf("%s: the scan failed although the server came back during its retries: %v\nsteps:\n%s", label, out.err, ff.tail(12))
		case out.err == nil && !equalLines(want, rows):
			tally.rowsLost += s3RowsLost(want, rows)
			t.Fatalf("%s: the scan succeeded with %d rows, want %d", label, len(rows), len(want))
		}
		// The same client reads everything once the server is back.
		ff.plant(fault{})
		rows, err := s3Read(ctx, ff)
		if err != nil || !equalLines(want, rows) {
			t.Fatalf("%s: after the restart the scan returns %d rows (%v), want %d", label, len(rows), err, len(want))
		}
		snaps, _, err := s3CheckSnapshots(ctx, plain)
		require.NoError(t, err)
		tally.snapshots += len(snaps)
	}
	require.Equal(t, tally.points, tally.injected, "every planned fault struck")
	require.Positive(t, tally.failed)
	require.Positive(t, tally.retried)
	require.Zero(t, tally.rowsLost)
	figures(t, "steps %d, stride %d, faults injected %d, scans failed cleanly %d, succeeded after retry %d, "+
		"succeeded with the server down %d, snapshots verified %d, rows lost %d",
		steps, faultStride(t), tally.injected, tally.failed, tally.retried, tally.survived, tally.snapshots, tally.rowsLost)
}

// equalLines compares two sorted row lists.
func equalLines(want, got []string) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i] != got[i] {
			return false
		}
	}
	return true
}

// figures prints a line of figures RELIABILITY.md quotes.
func figures(t *testing.T, format string, args ...any) {
	t.Helper()
	t.Logf("FIGURES %s: %s", t.Name(), fmt.Sprintf(format, args...))
}

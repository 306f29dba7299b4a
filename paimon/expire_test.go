package paimon_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// ---- an independent view of what a table references ----

// expListFiles returns every file below dir (recursively), relative to the fs
// root.
func expListFiles(t *testing.T, fsys fs.FS, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	var walk func(d string)
	walk = func(d string) {
		entries, err := fs.ReadDir(context.Background(), fsys, d)
		require.NoError(t, err)
		for _, fi := range entries {
			p := d + "/" + fi.Name
			if fi.IsDir {
				walk(p)
			} else {
				out[p] = true
			}
		}
	}
	walk(dir)
	return out
}

// refWalker computes the files a table references by walking every snapshot
// and tag of every branch, without the code under test: data, changelog and
// index files are found by name in a listing of the table directory.
//
// Manifest files are immutable, so their decoded content is cached; that a
// referenced file still exists is checked against a listing instead.
type refWalker struct {
	t      *testing.T
	fsys   fs.FS
	dir    string
	byName map[string][]string
	cache  map[string]any
}

func newRefWalker(t *testing.T, fsys fs.FS, dir string, files map[string]bool) *refWalker {
	w := &refWalker{t: t, fsys: fsys, dir: dir, byName: map[string][]string{}, cache: map[string]any{}}
	for p := range files {
		w.byName[p[strings.LastIndex(p, "/")+1:]] = append(w.byName[p[strings.LastIndex(p, "/")+1:]], p)
	}
	return w
}

func (w *refWalker) read(p string) []byte {
	w.t.Helper()
	b, err := fs.ReadFile(context.Background(), w.fsys, p)
	require.NoError(w.t, err, "a referenced file is unreadable")
	return b
}

func (w *refWalker) refs() map[string]bool {
	w.t.Helper()
	ctx := context.Background()
	out := map[string]bool{}
	roots := []string{w.dir}
	branches, err := fs.ReadDir(ctx, w.fsys, w.dir+"/branch")
	require.NoError(w.t, err)
	for _, fi := range branches {
		if fi.IsDir && strings.HasPrefix(fi.Name, "branch-") {
			roots = append(roots, w.dir+"/branch/"+fi.Name)
		}
	}
	for _, root := range roots {
		snaps, err := fs.ReadDir(ctx, w.fsys, root+"/snapshot")
		require.NoError(w.t, err)
		for _, fi := range snaps {
			if !strings.HasPrefix(fi.Name, "snapshot-") {
				continue
			}
			p := root + "/snapshot/" + fi.Name
			out[p] = true
			s, err := snapshot.Decode(w.read(p))
			require.NoError(w.t, err)
			w.snapshotRefs(s, out)
		}
		tags, err := fs.ReadDir(ctx, w.fsys, root+"/tag")
		require.NoError(w.t, err)
		for _, fi := range tags {
			if !strings.HasPrefix(fi.Name, "tag-") {
				continue
			}
			p := root + "/tag/" + fi.Name
			out[p] = true
			tag, err := snapshot.DecodeTag(w.read(p))
			require.NoError(w.t, err)
			w.snapshotRefs(&tag.Snapshot, out)
		}
	}
	return out
}

func (w *refWalker) snapshotRefs(s *snapshot.Snapshot, out map[string]bool) {
	var entries []manifest.ManifestEntry
	for _, l := range []string{s.BaseManifestList, s.DeltaManifestList} {
		entries = append(entries, w.list(l, out)...)
	}
	live, err := manifest.MergeEntries(entries)
	require.NoError(w.t, err)
	for _, e := range live {
		if e.Kind != manifest.FileKindAdd || e.File.ExternalPath != nil {
			continue // external files are outside the table directory
		}
		w.file(e.File.FileName, out)
		for _, x := range e.File.ExtraFiles {
			w.file(x, out)
		}
	}
	if s.ChangelogManifestList != nil {
		for _, e := range w.list(*s.ChangelogManifestList, out) {
			if e.Kind == manifest.FileKindAdd && e.File.ExternalPath == nil {
				w.file(e.File.FileName, out)
			}
		}
	}
	if s.IndexManifest != nil {
		p := w.dir + "/manifest/" + *s.IndexManifest
		out[p] = true
		for _, e := range cached(w, p, manifest.ReadIndexManifest) {
			w.file(e.IndexFile.FileName, out)
		}
	}
	if s.Statistics != nil {
		out[w.dir+"/statistics/"+*s.Statistics] = true
	}
}

func (w *refWalker) list(name string, out map[string]bool) []manifest.ManifestEntry {
	p := w.dir + "/manifest/" + name
	out[p] = true
	var entries []manifest.ManifestEntry
	for _, m := range cached(w, p, manifest.ReadManifestList) {
		mp := w.dir + "/manifest/" + m.FileName
		out[mp] = true
		entries = append(entries, cached(w, mp, manifest.ReadManifest)...)
	}
	return entries
}

// cached decodes an immutable file once per walker.
func cached[T any](w *refWalker, p string, decode func(io.Reader) ([]T, error)) []T {
	if v, ok := w.cache[p]; ok {
		return v.([]T)
	}
	v, err := decode(bytes.NewReader(w.read(p)))
	require.NoError(w.t, err, p)
	w.cache[p] = v
	return v
}

func (w *refWalker) file(name string, out map[string]bool) {
	paths := w.byName[name]
	require.NotEmpty(w.t, paths, "no file named %s in the table directory", name)
	for _, p := range paths {
		out[p] = true
	}
}

// expireCheck records a table's files and references before an
// expiration and verifies afterwards that exactly the files no longer
// referenced are gone: nothing a remaining snapshot, tag or branch uses is
// missing, every file only expired snapshots used is deleted, and files
// nothing referenced (orphans) are left alone.
type expireCheck struct {
	t          *testing.T
	fsys       fs.FS
	dir        string
	before     map[string]bool
	refsBefore map[string]bool
	walker     *refWalker
}

func startExpireCheck(t *testing.T, fsys fs.FS, dir string) *expireCheck {
	t.Helper()
	c := &expireCheck{t: t, fsys: fsys, dir: dir, before: expListFiles(t, fsys, dir)}
	c.walker = newRefWalker(t, fsys, dir, c.before)
	c.refsBefore = c.walker.refs()
	return c
}

// next starts a check of another expiration of the same table, reusing
// what this one decoded.
func (c *expireCheck) next() *expireCheck {
	c.t.Helper()
	n := &expireCheck{t: c.t, fsys: c.fsys, dir: c.dir, before: expListFiles(c.t, c.fsys, c.dir), walker: c.walker}
	n.refsBefore = n.walker.refs()
	return n
}

// finish returns the deleted files, sorted.
func (c *expireCheck) finish(res *paimon.ExpireResult) []string {
	t := c.t
	t.Helper()
	after := expListFiles(t, c.fsys, c.dir)
	refsAfter := c.walker.refs()
	for p := range refsAfter {
		require.True(t, after[p], "referenced file %s was deleted", p)
	}
	var deleted, want []string
	for p := range c.before {
		if !after[p] {
			deleted = append(deleted, p)
		}
	}
	for p := range c.refsBefore {
		if !refsAfter[p] {
			want = append(want, p)
		}
	}
	slices.Sort(deleted)
	slices.Sort(want)
	require.Equal(t, want, deleted, "deleted files differ from the files no longer referenced")
	if res != nil {
		n := len(res.Expired) + res.DeletedDataFiles + res.DeletedChangelogFiles + res.DeletedManifests +
			res.DeletedManifestLists + res.DeletedIndexManifests + res.DeletedIndexFiles + res.DeletedStatistics
		require.Equal(t, len(deleted), n, "result counts do not add up to the deleted files: %+v", res)
	}
	return deleted
}

// ---- reading rows ----

// expRows reads a table (at the scan options' snapshot or tag) as sorted
// JSON lines.
func expRows(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) ([]string, error) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	var buf bytes.Buffer
	for rec, err := range tbl.NewScan(append(opts, paimon.WithAllocator(mem))...).Records(context.Background()) {
		if err != nil {
			return nil, err
		}
		err := array.RecordToJSON(rec, &buf)
		rec.Release()
		require.NoError(t, err)
	}
	var lines []string
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	slices.Sort(lines)
	return lines, nil
}

// expViews reads the latest snapshot, every snapshot in ids and every tag.
// Views the scan cannot read (an unsupported file format) are left out.
func expViews(t *testing.T, tbl *paimon.Table, ids []int64) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	add := func(name string, opts ...paimon.ScanOption) {
		rows, err := expRows(t, tbl, opts...)
		if errors.Is(err, paimon.ErrUnsupported) {
			return
		}
		require.NoError(t, err, name)
		out[name] = rows
	}
	add("latest")
	for _, id := range ids {
		add("snapshot "+expItoa(id), paimon.WithSnapshotID(id))
	}
	tags, err := tbl.Meta().TagNames(context.Background())
	require.NoError(t, err)
	for _, tag := range tags {
		add("tag "+tag, paimon.WithTag(tag))
	}
	return out
}

func expItoa(id int64) string { return strconv.FormatInt(id, 10) }

// ---- Java-written tables ----

// expGoldenTableDir finds the table directory of a golden warehouse.
func expGoldenTableDir(t *testing.T, wh string) string {
	t.Helper()
	var dirs []string
	dbs, err := os.ReadDir(wh)
	require.NoError(t, err)
	for _, db := range dbs {
		tables, err := os.ReadDir(filepath.Join(wh, db.Name()))
		require.NoError(t, err)
		for _, tb := range tables {
			if _, err := os.Stat(filepath.Join(wh, db.Name(), tb.Name(), "schema")); err == nil {
				dirs = append(dirs, db.Name()+"/"+tb.Name())
			}
		}
	}
	require.Len(t, dirs, 1, "tables in %s", wh)
	return dirs[0]
}

// TestExpireGoldenTables expires copies of every table Java and pypaimon
// wrote (overwrites and partition drops with DELETE entries, compactions,
// deletion vectors with index files, changelog producers, tags, a rolled
// back table with orphan files) and checks the deleted files against the
// references and the rows of every retained snapshot and tag.
func TestExpireGoldenTables(t *testing.T) {
	type variant struct {
		name string
		opts paimon.ExpireOptions
		// want computes the expected expired ids from the snapshot ids.
		want func(ids []int64) []int64
	}
	variants := []variant{
		{"keep-latest", paimon.ExpireOptions{RetainMin: 1, RetainMax: 1, OlderThan: -1, MaxDeletes: 1000},
			func(ids []int64) []int64 { return ids[:len(ids)-1] }},
		{"keep-two-limit-one", paimon.ExpireOptions{RetainMin: 2, RetainMax: 2, OlderThan: -1, MaxDeletes: 1},
			func(ids []int64) []int64 {
				if len(ids) > 2 {
					return ids[:1]
				}
				return nil
			}},
	}
	// Java 1.4.2's tables get every variant, the other producers' the
	// first (the test budget is a few seconds).
	type scenario struct {
		name     string
		variants []variant
	}
	var scenarios []scenario
	for i, producer := range []string{"java-1.4.2", "java-2.0.0", "pypaimon-2.1.0"} {
		entries, err := os.ReadDir(filepath.Join(goldenRoot, producer))
		require.NoError(t, err)
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(goldenRoot, producer, e.Name(), "warehouse")); err == nil {
				vs := variants
				if i > 0 {
					vs = variants[:1]
				}
				scenarios = append(scenarios, scenario{producer + "/" + e.Name(), vs})
			}
		}
	}
	require.GreaterOrEqual(t, len(scenarios), 40)
	for _, sc := range scenarios {
		for _, v := range sc.variants {
			t.Run(sc.name+"/"+v.name, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				fsys, dir := expGoldenMemFS(t, sc.name)
				tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
				require.NoError(t, err)
				ids, err := tbl.Meta().SnapshotIDs(ctx)
				require.NoError(t, err)
				require.NotEmpty(t, ids)
				wantExpired := v.want(ids)
				retained := slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return slices.Contains(wantExpired, id) })

				// The rows of the latest snapshot, the first retained one and
				// every tag must survive.
				views := []int64{retained[0]}
				viewsBefore := expViews(t, tbl, views)
				// A dry run first: it changes nothing and predicts exactly
				// what the real run then deletes.
				filesBefore := expListFiles(t, fsys, dir)
				dryOpts := v.opts
				dryOpts.DryRun = true
				dry, err := tbl.ExpireSnapshots(ctx, &dryOpts)
				require.NoError(t, err)
				require.Equal(t, filesBefore, expListFiles(t, fsys, dir), "a dry run changed files")
				check := startExpireCheck(t, fsys, dir)
				opts := v.opts
				res, err := tbl.ExpireSnapshots(ctx, &opts)
				require.NoError(t, err)
				deleted := check.finish(res)
				require.Equal(t, expNilIfEmpty(wantExpired), expNilIfEmpty(res.Expired))
				require.Equal(t, res.Expired, dry.Expired)
				require.Equal(t, len(deleted), len(dry.DryRunFiles))
				if len(deleted) > 0 {
					require.Equal(t, deleted, dry.DryRunFiles)
				}
				require.Nil(t, res.DryRunFiles)
				dry.DryRunFiles, dry.EarliestHint, dry.DeletedDirectories = nil, res.EarliestHint, res.DeletedDirectories
				require.Equal(t, res, dry, "dry run counts differ from the real run's")
				if len(wantExpired) > 0 {
					require.Equal(t, retained[0], res.EarliestHint)
					hint, err := fs.ReadFile(ctx, fsys, dir+"/snapshot/EARLIEST")
					require.NoError(t, err)
					require.Equal(t, expItoa(retained[0]), string(hint))
				}
				require.Equal(t, viewsBefore, expViews(t, tbl, views))

				// A second run with the same settings finds nothing to do.
				again := check.next()
				res, err = tbl.ExpireSnapshots(ctx, &opts)
				require.NoError(t, err)
				if v.name != "keep-two-limit-one" {
					require.Empty(t, res.Expired)
					require.Empty(t, again.finish(res))
				} else {
					again.finish(res)
				}
			})
		}
	}
}

// expGoldenMemFS copies a golden warehouse into a fresh memfs (read from disk
// once per scenario) and returns it with the table's directory.
func expGoldenMemFS(t *testing.T, scenario string) (fs.FS, string) {
	t.Helper()
	expGoldenFilesMu.Lock()
	g, ok := expGoldenFiles[scenario]
	if !ok {
		wh := filepath.Join(goldenRoot, scenario, "warehouse")
		g = &expGoldenWarehouse{dir: expGoldenTableDir(t, wh), files: map[string][]byte{}}
		require.NoError(t, filepath.WalkDir(wh, func(p string, d iofs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(wh, p)
			g.files[filepath.ToSlash(rel)] = b
			return err
		}))
		expGoldenFiles[scenario] = g
	}
	expGoldenFilesMu.Unlock()
	fsys := memfs.New(nil)
	for p, b := range g.files {
		require.NoError(t, fs.WriteFile(context.Background(), fsys, p, b, nil))
	}
	return fsys, g.dir
}

type expGoldenWarehouse struct {
	dir   string
	files map[string][]byte
}

var (
	expGoldenFilesMu sync.Mutex
	expGoldenFiles   = map[string]*expGoldenWarehouse{}
)

func expNilIfEmpty(s []int64) []int64 {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestExpireGoldenData checks the data files Java's own DELETE entries
// free: dropping a partition and overwriting one delete their files once the
// snapshots that still list them expire.
func TestExpireGoldenData(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		// gone are directories whose data files must all be deleted.
		gone []string
	}{
		{"drop-partition", []string{"region=us/", "region=eu/dt=19723/"}},
		{"overwrite-partition", nil},
		{"pk-deletion-vectors", nil},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			require.NoError(t, os.CopyFS(wh, os.DirFS(filepath.Join(goldenRoot, "java-1.4.2", tc.scenario, "warehouse"))))
			fsys, err := localfs.New(wh, nil)
			require.NoError(t, err)
			defer fsys.Close()
			dir := expGoldenTableDir(t, wh)
			tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
			require.NoError(t, err)
			check := startExpireCheck(t, fsys, dir)
			clean := true
			res, err := tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMin: 1, OlderThan: -1, CleanEmptyDirectories: &clean})
			require.NoError(t, err)
			deleted := check.finish(res)
			require.Positive(t, res.DeletedDataFiles, "the scenario has DELETE entries: %v", deleted)
			for _, g := range tc.gone {
				for p := range expListFiles(t, fsys, dir) {
					require.NotContains(t, p, "/"+g, "file left in a dropped partition")
				}
				_, err := os.Stat(filepath.Join(wh, dir, g))
				require.True(t, errors.Is(err, os.ErrNotExist), "empty partition directory %s left behind", g)
				parent := filepath.Dir(filepath.Join(wh, dir, g))
				_, err = os.Stat(parent)
				require.NoError(t, err, "the parent partition directory still has data")
			}
			if tc.scenario == "pk-deletion-vectors" {
				require.Positive(t, res.DeletedIndexFiles)
				require.Positive(t, res.DeletedIndexManifests)
			}
		})
	}
}

// TestExpireAppendTable expires a Parquet append table written by
// internal/testtable through the committer's entry point (table options
// only) and reads it back.
func TestExpireAppendTable(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	sch, err := schema.NewSchemaBuilder().
		Column("dt", schema.StringType().NotNull()).
		Column("id", schema.BigIntType()).
		Column("v", schema.StringType()).
		PartitionKeys("dt").
		Option("snapshot.num-retained.min", "2").
		Option("snapshot.time-retained", "10 min").
		Build()
	require.NoError(t, err)
	ts, err := schema.NewTableSchema(0, sch, 1)
	require.NoError(t, err)
	const dir = "wh/db.db/append"
	tt, err := testtable.Create(ctx, fsys, dir, ts)
	require.NoError(t, err)
	// Commits an hour ago, a minute apart: all older than 10 minutes.
	clock := time.Now().Add(-time.Hour)
	tt.SetClock(func() time.Time { clock = clock.Add(time.Minute); return clock })
	for i := range int64(6) {
		rec, err := testtable.BuildRecord(memcheck.New(), ts.Fields,
			[][]any{{"d" + expItoa(i%2), i, "v" + expItoa(i)}, {"d" + expItoa(i%2), i + 100, nil}})
		require.NoError(t, err)
		_, err = tt.Commit(ctx, testtable.DataFile{Partition: []any{"d" + expItoa(i%2)}, Records: []arrow.RecordBatch{rec}})
		rec.Release()
		require.NoError(t, err)
	}
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	require.NoError(t, err)
	views := expViews(t, tbl, []int64{5})
	require.Len(t, views["latest"], 12)

	check := startExpireCheck(t, fsys, dir)
	res, err := tbl.ExpireSnapshotsWithTableOptions(ctx)
	require.NoError(t, err)
	check.finish(res)
	require.Equal(t, []int64{1, 2, 3, 4}, res.Expired)
	require.Zero(t, res.DeletedDataFiles, "appends delete no data file")
	require.Equal(t, 8, res.DeletedManifestLists)
	require.Equal(t, views, expViews(t, tbl, []int64{5}))
	_, err = expRows(t, tbl, paimon.WithSnapshotID(4))
	require.ErrorIs(t, err, paimon.ErrSnapshotNotFound)
}

package paimon_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// orphanClock is a settable clock for memfs modification times.
type orphanClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *orphanClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *orphanClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// prepareOnly writes rows and prepares the commit messages without
// committing them: a writer that died before its commit, or one still
// working.
func prepareOnly(ctx context.Context, fsys fs.FS, dir string, rows [][]any) ([]paimon.CommitMessage, error) {
	var out []paimon.CommitMessage
	_, err := relWriteWith(ctx, fsys, dir, "u", rows, func(_ *paimon.TableCommit, msgs []paimon.CommitMessage) (*paimon.CommitResult, error) {
		out = msgs
		return nil, nil
	})
	return out, err
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestRemoveOrphanFiles plants every kind of orphan in a library-written
// table, at two ages, and checks that exactly the old unreferenced ones in
// the directories Java cleans go, in a dry run and for real, that files of
// a write still in flight survive the default safety age and commit
// afterwards, and that the data reads the same throughout.
func TestRemoveOrphanFiles(t *testing.T) {
	for _, tc := range []struct {
		name        string
		partitioned bool
		opts        map[string]string
	}{
		{"unaware", false, nil},
		{"partitioned", true, nil},
		{"fixed-bucket-partitioned-avro", true, map[string]string{"bucket": "2", "bucket-key": "id", "file.format": "avro"}},
		{"data-path-directory", true, map[string]string{"data-file.path-directory": "data"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			clock := &orphanClock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
			fsys := memfs.New(&memfs.Options{Clock: clock.Now})
			const dir = "wh/db.db/t"
			relCreate(t, fsys, dir, tc.partitioned, tc.opts)
			_, err := relWrite(ctx, fsys, dir, "a", 1, rowsOf(0, 100, 3))
			require.NoError(t, err)
			_, err = relWrite(ctx, fsys, dir, "a", 2, rowsOf(100, 200, 3))
			require.NoError(t, err)
			want := relRender(t, rowsOf(0, 200, 3))
			before := expListFiles(t, fsys, dir)

			// Old orphans: an abandoned write, stray metadata-directory files
			// and temporary files of crashed writers.
			_, err = prepareOnly(ctx, fsys, dir, rowsOf(200, 260, 3))
			require.NoError(t, err)
			for _, p := range []string{
				"manifest/manifest-list-0000-stray-0", "manifest/.manifest-x.0a.tmp", "index/index-stray-0",
				"statistics/stat-stray-0", "snapshot/.snapshot-3.0b.tmp", "snapshot/junk",
			} {
				require.NoError(t, fs.WriteFile(ctx, fsys, dir+"/"+p, []byte("orphan"), nil))
			}
			orphans := map[string]bool{}
			for p := range expListFiles(t, fsys, dir) {
				if !before[p] {
					orphans[p] = true
				}
			}
			// Files the cleaner must never touch, however old.
			kept := []string{"schema/.schema-1.0c.tmp", "tag/junk", "README", "unknown/x", "consumer/consumer-x", "snapshot/EARLIEST"}
			if tc.partitioned {
				kept = append(kept, "dt=2024-01-01/stray-in-partition-dir") // Java lists bucket directories only
			}
			for _, p := range kept {
				require.NoError(t, fs.WriteFile(ctx, fsys, dir+"/"+p, []byte("keep"), nil))
			}

			// Two days later a writer is busy: its files are young.
			clock.advance(48 * time.Hour)
			inflight, err := prepareOnly(ctx, fsys, dir, rowsOf(300, 340, 3))
			require.NoError(t, err)
			require.NotEmpty(t, inflight)
			all := expListFiles(t, fsys, dir)
			clock.advance(time.Hour)

			tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
			require.NoError(t, err)
			dry, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{DryRun: true, Now: clock.Now})
			require.NoError(t, err)
			require.Equal(t, sortedKeys(orphans), dry.Deleted)
			require.Equal(t, all, expListFiles(t, fsys, dir), "a dry run removes nothing")

			res, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{Now: clock.Now})
			require.NoError(t, err)
			require.Equal(t, dry.Deleted, res.Deleted)
			require.Equal(t, dry.DeletedBytes, res.DeletedBytes)
			require.Positive(t, res.DeletedBytes)
			after := expListFiles(t, fsys, dir)
			for p := range all {
				require.Equal(t, !orphans[p], after[p], p)
			}
			rows, err := relRows(ctx, fsys, dir)
			require.NoError(t, err)
			require.Equal(t, want, rows)

			// The in-flight write commits: none of its files was touched.
			c, err := tbl.NewCommit(&paimon.CommitOptions{User: "late"})
			require.NoError(t, err)
			_, err = c.Commit(ctx, 1, inflight)
			require.NoError(t, err)
			rows, err = relRows(ctx, fsys, dir)
			require.NoError(t, err)
			require.Equal(t, relRender(t, rowsOf(0, 200, 3), rowsOf(300, 340, 3)), rows)

			// Nothing is left to clean but what the cleaner keeps by design.
			res, err = tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{OlderThan: time.Millisecond, Now: func() time.Time { return clock.Now().Add(time.Hour) }})
			require.NoError(t, err)
			require.Empty(t, res.Deleted)
			for _, p := range kept {
				_, err := fsys.Stat(ctx, dir+"/"+p)
				require.NoError(t, err, p)
			}
			for _, p := range kept {
				require.NoError(t, fsys.Remove(ctx, dir+"/"+p))
			}
			relCheckClean(t, fsys, dir)
		})
	}
}

// TestRemoveOrphanFilesEmptyDirectories checks that bucket and partition
// directories emptied by the cleaner go too, on a local disk.
func TestRemoveOrphanFilesEmptyDirectories(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	const dir = "t"
	relCreate(t, fsys, dir, true, nil)
	_, err = relWrite(ctx, fsys, dir, "a", 1, rowsOf(0, 10, 1)) // 2024-01-01 and the default partition
	require.NoError(t, err)
	_, err = prepareOnly(ctx, fsys, dir, [][]any{{"2030-01-01", int64(1), "x", 1.0}})
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, dir, "dt=2030-01-01", "bucket-0"))
	require.NoError(t, err)
	res, err := relClean(ctx, fsys, dir)
	require.NoError(t, err)
	require.Len(t, res.Deleted, 1)
	require.Equal(t, 2, res.DeletedDirectories)
	_, err = os.Stat(filepath.Join(root, dir, "dt=2030-01-01"))
	require.True(t, os.IsNotExist(err), "the emptied partition directory is removed")
	_, err = os.Stat(filepath.Join(root, dir, "dt=2024-01-01", "bucket-0"))
	require.NoError(t, err)
	relCheckClean(t, fsys, dir)
}

// TestRemoveOrphanFilesRefuses covers the runs that must delete nothing: a
// negative age, a snapshot naming a missing manifest, a branch without
// schema.
func TestRemoveOrphanFilesRefuses(t *testing.T) {
	ctx := context.Background()
	setup := func(t *testing.T) (fs.FS, *paimon.Table, map[string]bool) {
		fsys := memfs.New(nil)
		relCreate(t, fsys, "t", false, nil)
		_, err := relWrite(ctx, fsys, "t", "a", 1, rowsOf(0, 10, 1))
		require.NoError(t, err)
		_, err = prepareOnly(ctx, fsys, "t", rowsOf(10, 20, 1)) // an orphan to tempt it
		require.NoError(t, err)
		tbl, err := paimon.OpenTable(ctx, fsys, "t", nil)
		require.NoError(t, err)
		return fsys, tbl, expListFiles(t, fsys, "t")
	}
	future := func() time.Time { return time.Now().Add(48 * time.Hour) }

	t.Run("negative-age", func(t *testing.T) {
		_, tbl, _ := setup(t)
		_, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{OlderThan: -time.Second})
		require.ErrorIs(t, err, paimon.ErrInvalidOption)
	})
	t.Run("missing-manifest", func(t *testing.T) {
		fsys, tbl, files := setup(t)
		var manifest string
		for p := range files {
			if strings.HasPrefix(p, "t/manifest/manifest-") && !strings.HasPrefix(p, "t/manifest/manifest-list-") {
				manifest = p
			}
		}
		require.NotEmpty(t, manifest)
		require.NoError(t, fsys.Remove(ctx, manifest))
		_, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{Now: future})
		require.ErrorIs(t, err, paimon.ErrCorrupt)
		require.ErrorContains(t, err, manifest)
		delete(files, manifest)
		require.Equal(t, files, expListFiles(t, fsys, "t"), "nothing is removed")
	})
	t.Run("branch-without-schema", func(t *testing.T) {
		fsys, tbl, files := setup(t)
		require.NoError(t, fs.WriteFile(ctx, fsys, "t/branch/branch-b1/snapshot/LATEST", []byte("1"), nil))
		_, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{Now: future})
		require.ErrorIs(t, err, paimon.ErrSchemaNotFound)
		require.ErrorContains(t, err, "b1")
		files["t/branch/branch-b1/snapshot/LATEST"] = true
		require.Equal(t, files, expListFiles(t, fsys, "t"))
	})
}

// TestRemoveOrphanFilesGoldenTables cleans copies of every table Java and
// pypaimon wrote (tags, branches-free rollbacks with real orphans,
// overwrites, deletion-vector index files, changelogs): exactly the
// unreferenced files in the cleaned directories go, and every snapshot and
// tag reads the same rows afterwards.
func TestRemoveOrphanFilesGoldenTables(t *testing.T) {
	var scenarios []string
	for _, producer := range []string{"java-1.4.2", "java-2.0.0", "pypaimon-2.1.0"} {
		entries, err := os.ReadDir(filepath.Join(goldenRoot, producer))
		require.NoError(t, err)
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(goldenRoot, producer, e.Name(), "warehouse")); err == nil {
				scenarios = append(scenarios, producer+"/"+e.Name())
			}
		}
	}
	require.GreaterOrEqual(t, len(scenarios), 40)
	var mu sync.Mutex
	var tables, removed int
	t.Cleanup(func() {
		relFigures(t, "golden tables cleaned %d, orphans removed %d, referenced files lost 0", tables, removed)
	})
	for _, sc := range scenarios {
		t.Run(sc, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			fsys, dir := expGoldenMemFS(t, sc)
			tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
			require.NoError(t, err)
			ids, err := tbl.Meta().SnapshotIDs(ctx)
			require.NoError(t, err)
			views := expViews(t, tbl, ids[len(ids)-1:]) // the latest and every tag

			files := expListFiles(t, fsys, dir)
			refs := newRefWalker(t, fsys, dir, files).refs()
			var want []string
			for p := range files {
				rel := strings.TrimPrefix(p, dir+"/")
				inCleanedDir := strings.HasPrefix(rel, "manifest/") || strings.HasPrefix(rel, "index/") ||
					strings.HasPrefix(rel, "statistics/") || strings.Contains(rel, "bucket-")
				if !refs[p] && inCleanedDir {
					want = append(want, p)
				}
			}
			slices.Sort(want)
			res, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{Now: func() time.Time { return time.Now().Add(48 * time.Hour) }})
			require.NoError(t, err)
			require.Equal(t, want, nilIfEmptyStrings(res.Deleted))
			require.Equal(t, views, expViews(t, tbl, ids[len(ids)-1:]))
			mu.Lock()
			tables++
			removed += len(res.Deleted)
			mu.Unlock()
		})
	}
}

func nilIfEmptyStrings(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

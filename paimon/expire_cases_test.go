package paimon_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// expKeepLatest expires everything but the latest snapshot, whatever its age.
var expKeepLatest = paimon.ExpireOptions{RetainMin: 1, RetainMax: 1, OlderThan: -1, MaxDeletes: 1000}

// expBaseNames returns the last path element of each path.
func expBaseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p[strings.LastIndex(p, "/")+1:]
	}
	return out
}

// TestExpireHistories expires hand-built histories and checks which
// snapshots expire, which files go and which stay; every case also passes
// the reference check of expireCheck.
func TestExpireHistories(t *testing.T) {
	t0 := int64(1_700_000_000_000)
	minute := int64(60_000)
	for _, tc := range []struct {
		name    string
		options map[string]string
		build   func(s *synthTable)
		branch  string
		opts    paimon.ExpireOptions
		want    []int64
		gone    []string // base names that must be deleted
		kept    []string // base names that must remain
		check   func(t *testing.T, s *synthTable, res *paimon.ExpireResult)
	}{
		{
			name: "compaction deletes replaced files",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}, {name: "b", bucket: 1}}})
				s.commit(synthCommit{add: []synthFile{{name: "c"}}})
				s.commit(synthCommit{del: []synthFile{{name: "a"}, {name: "b", bucket: 1}, {name: "c"}}, add: []synthFile{{name: "d", level: 5}}})
				s.commit(synthCommit{add: []synthFile{{name: "e"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2, 3},
			gone: []string{"a", "b", "c"}, kept: []string{"d", "e"},
		},
		{
			name: "files removed by the first retained snapshot go too",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}})
				s.commit(synthCommit{add: []synthFile{{name: "b"}}})
				s.commit(synthCommit{del: []synthFile{{name: "a"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, gone: []string{"a"}, kept: []string{"b"},
		},
		{
			name: "a level upgrade keeps the file",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}})
				s.commit(synthCommit{del: []synthFile{{name: "a"}}, add: []synthFile{{name: "a", level: 5}}})
				s.commit(synthCommit{add: []synthFile{{name: "b"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, kept: []string{"a", "b"},
		},
		{
			name: "a tag keeps the files it holds",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}, {name: "b"}}})
				s.tag("main", "t1", 1)
				s.commit(synthCommit{del: []synthFile{{name: "a"}}, add: []synthFile{{name: "c"}}})
				s.commit(synthCommit{del: []synthFile{{name: "b"}}, add: []synthFile{{name: "d"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, kept: []string{"a", "b", "c", "d"},
		},
		{
			name: "a tag taken after the delete does not keep the file",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}})
				s.commit(synthCommit{del: []synthFile{{name: "a"}}, add: []synthFile{{name: "b"}}})
				s.tag("main", "t2", 2)
				s.commit(synthCommit{add: []synthFile{{name: "c"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, gone: []string{"a"}, kept: []string{"b", "c"},
		},
		{
			name: "the last tag before the delete protects",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}, {name: "x"}}})
				s.tag("main", "t1", 1)
				s.commit(synthCommit{add: []synthFile{{name: "b"}}})
				s.tag("main", "t2", 2)
				s.commit(synthCommit{del: []synthFile{{name: "a"}, {name: "b"}}})
				s.commit(synthCommit{del: []synthFile{{name: "x"}}, add: []synthFile{{name: "c"}}})
				s.commit(synthCommit{add: []synthFile{{name: "d"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2, 3, 4}, kept: []string{"a", "b", "x", "c", "d"},
		},
		{
			name: "a branch keeps main's files after its tag is deleted",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}})
				s.commit(synthCommit{add: []synthFile{{name: "b"}}})
				s.tag("main", "base", 2)
				s.branch("br", "base")
				s.deleteTag("main", "base")
				s.commitTo("br", synthCommit{add: []synthFile{{name: "x"}}})
				s.commit(synthCommit{del: []synthFile{{name: "a"}, {name: "b"}}, add: []synthFile{{name: "c"}}})
				s.commit(synthCommit{add: []synthFile{{name: "d"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2, 3}, kept: []string{"a", "b", "c", "d", "x"},
		},
		{
			name: "expiring a branch keeps files main still uses",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}})
				s.commit(synthCommit{add: []synthFile{{name: "b"}}})
				s.tag("main", "base", 2)
				s.branch("br", "base")
				s.deleteTag("br", "base")
				s.commitTo("br", synthCommit{del: []synthFile{{name: "a"}}, add: []synthFile{{name: "y"}}})
				s.commitTo("br", synthCommit{del: []synthFile{{name: "y"}}, add: []synthFile{{name: "z"}}})
				s.commitTo("br", synthCommit{add: []synthFile{{name: "w"}}})
			},
			branch: "br", opts: expKeepLatest, want: []int64{2, 3, 4},
			gone: []string{"y"}, kept: []string{"a", "b", "z", "w"},
		},
		{
			name: "changelog files of expired snapshots",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}, changelog: []synthFile{{name: "cl1"}}})
				s.commit(synthCommit{add: []synthFile{{name: "b"}}, changelog: []synthFile{{name: "cl2"}}})
				s.commit(synthCommit{add: []synthFile{{name: "c"}}, changelog: []synthFile{{name: "cl3"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2},
			gone: []string{"cl1", "cl2"}, kept: []string{"a", "b", "c", "cl3"},
			check: func(t *testing.T, _ *synthTable, res *paimon.ExpireResult) {
				require.Equal(t, 2, res.DeletedChangelogFiles)
			},
		},
		{
			name: "a tag keeps its snapshot's changelog",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}, changelog: []synthFile{{name: "cl1"}}})
				s.tag("main", "t1", 1)
				s.commit(synthCommit{add: []synthFile{{name: "b"}}, changelog: []synthFile{{name: "cl2"}}})
				s.commit(synthCommit{add: []synthFile{{name: "c"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, gone: []string{"cl2"}, kept: []string{"cl1"},
		},
		{
			name: "index files no longer listed",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}, index: []string{"index-1"}})
				s.commit(synthCommit{add: []synthFile{{name: "b"}}, index: []string{"index-2"}})
				s.commit(synthCommit{add: []synthFile{{name: "c"}}, index: []string{"index-2", "index-3"}})
				s.commit(synthCommit{add: []synthFile{{name: "d"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2, 3},
			gone: []string{"index-1"}, kept: []string{"index-2", "index-3"},
			check: func(t *testing.T, _ *synthTable, res *paimon.ExpireResult) {
				require.Equal(t, 1, res.DeletedIndexFiles)
				require.Equal(t, 2, res.DeletedIndexManifests)
			},
		},
		{
			name: "statistics files no longer named",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a"}}, stats: "stat-1"})
				s.commit(synthCommit{add: []synthFile{{name: "b"}}, stats: "stat-2"})
				s.commit(synthCommit{add: []synthFile{{name: "c"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, gone: []string{"stat-1"}, kept: []string{"stat-2"},
		},
		{
			name: "extra files go with their data file",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a", extra: []string{"a.index"}}}})
				s.commit(synthCommit{del: []synthFile{{name: "a", extra: []string{"a.index"}}}, add: []synthFile{{name: "b"}}})
				s.commit(synthCommit{add: []synthFile{{name: "c"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, gone: []string{"a", "a.index"}, kept: []string{"b", "c"},
		},
		{
			name: "files under an external path are left alone",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a", external: "s3://bucket/x/a"}, {name: "b"}}})
				s.commit(synthCommit{del: []synthFile{{name: "a", external: "s3://bucket/x/a"}, {name: "b"}}})
				s.commit(synthCommit{add: []synthFile{{name: "c"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, gone: []string{"b"}, kept: []string{"c"},
			check: func(t *testing.T, _ *synthTable, res *paimon.ExpireResult) {
				require.Equal(t, 1, res.SkippedExternalFiles)
			},
		},
		{
			name: "a consumer holds its next snapshot",
			build: func(s *synthTable) {
				s.appends(5)
				s.consumer("job", 3)
				s.consumer("other", 4)
			},
			opts: expKeepLatest, want: []int64{1, 2},
		},
		{
			name:    "consumer.changelog-only consumers do not hold snapshots",
			options: map[string]string{"consumer.changelog-only": "true"},
			build: func(s *synthTable) {
				s.appends(5)
				s.consumer("job", 3)
			},
			opts: expKeepLatest, want: []int64{1, 2, 3, 4},
		},
		{
			name: "snapshot.time-retained keeps young snapshots",
			build: func(s *synthTable) {
				for i := range int64(5) {
					s.commit(synthCommit{add: []synthFile{{name: "f" + expItoa(i)}}, at: t0 + i*minute})
				}
			},
			opts: paimon.ExpireOptions{RetainMin: 1, OlderThan: 2 * time.Minute,
				Now: func() time.Time { return time.UnixMilli(t0 + 4*minute + 30_000) }},
			// now-2m is t0+2m30s: snapshots 4 (t0+3m) and 5 are young.
			want: []int64{1, 2, 3},
		},
		{
			name: "snapshot.num-retained.max overrides the age",
			build: func(s *synthTable) {
				for i := range int64(5) {
					s.commit(synthCommit{add: []synthFile{{name: "f" + expItoa(i)}}, at: t0 + i*minute})
				}
			},
			opts: paimon.ExpireOptions{RetainMin: 1, RetainMax: 2, OlderThan: time.Hour,
				Now: func() time.Time { return time.UnixMilli(t0 + 5*minute) }},
			want: []int64{1, 2, 3},
		},
		{
			name:  "snapshot.expire.limit",
			build: func(s *synthTable) { s.appends(6) },
			opts:  paimon.ExpireOptions{RetainMin: 1, OlderThan: -1, MaxDeletes: 2},
			want:  []int64{1, 2},
		},
		{
			name:  "default snapshot.num-retained.min of 10",
			build: func(s *synthTable) { s.appends(12) },
			opts:  paimon.ExpireOptions{OlderThan: -1},
			want:  []int64{1, 2},
		},
		{
			name: "table options",
			options: map[string]string{"snapshot.num-retained.min": "2", "snapshot.num-retained.max": "3",
				"snapshot.time-retained": "1 h", "snapshot.expire.limit": "10"},
			build: func(s *synthTable) {
				for i := range int64(6) {
					s.commit(synthCommit{add: []synthFile{{name: "f" + expItoa(i)}}, at: t0 + i*minute})
				}
			},
			// All are younger than an hour, so only num-retained.max (3) expires.
			opts: paimon.ExpireOptions{Now: func() time.Time { return time.UnixMilli(t0 + 6*minute) }},
			want: []int64{1, 2, 3},
		},
		{
			name: "nothing to expire writes the missing EARLIEST hint",
			build: func(s *synthTable) {
				s.appends(2)
			},
			opts: paimon.ExpireOptions{OlderThan: -1},
			check: func(t *testing.T, s *synthTable, res *paimon.ExpireResult) {
				require.Equal(t, int64(1), res.EarliestHint)
				b, err := fs.ReadFile(context.Background(), s.fsys, synthDir+"/snapshot/EARLIEST")
				require.NoError(t, err)
				require.Equal(t, "1", string(b))
			},
		},
		{
			name: "a missing snapshot in the range",
			build: func(s *synthTable) {
				s.appends(2)
				s.commit(synthCommit{del: []synthFile{{name: "data-1", part: "p"}}})
				s.appends(2)
				require.NoError(t, s.fsys.Remove(context.Background(), s.meta.SnapshotPath(2)))
			},
			opts: expKeepLatest, want: []int64{1, 3, 4}, gone: []string{"data-1"},
		},
		{
			// Java leaves the deletions of the first snapshot of the range to
			// the run that expired the snapshot before it.
			name: "the earliest snapshot's own deletions are not revisited",
			build: func(s *synthTable) {
				s.appends(1)
				s.commit(synthCommit{del: []synthFile{{name: "data-1"}}})
				s.appends(2)
				require.NoError(t, s.fsys.Remove(context.Background(), s.meta.SnapshotPath(1)))
			},
			opts: expKeepLatest, want: []int64{2, 3}, kept: []string{"data-1"},
		},
		{
			name:    "snapshot.clean-empty-directories",
			options: map[string]string{"snapshot.clean-empty-directories": "true"},
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a", part: "x"}, {name: "b", part: "y"}}})
				s.commit(synthCommit{del: []synthFile{{name: "a", part: "x"}}})
				s.commit(synthCommit{add: []synthFile{{name: "c", part: "y"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, gone: []string{"a"},
			check: func(t *testing.T, s *synthTable, res *paimon.ExpireResult) {
				ctx := context.Background()
				for dir, want := range map[string]bool{"dt=x/bucket-0": false, "dt=x": false, "dt=y/bucket-0": true} {
					ok, err := fs.Exists(ctx, s.fsys, synthDir+"/"+dir)
					require.NoError(t, err)
					require.Equal(t, want, ok, dir)
				}
				require.Equal(t, 2, res.DeletedDirectories)
			},
		},
		{
			name: "empty directories stay by default",
			build: func(s *synthTable) {
				s.commit(synthCommit{add: []synthFile{{name: "a", part: "x"}, {name: "b", part: "y"}}})
				s.commit(synthCommit{del: []synthFile{{name: "a", part: "x"}}})
				s.commit(synthCommit{add: []synthFile{{name: "c", part: "y"}}})
			},
			opts: expKeepLatest, want: []int64{1, 2}, gone: []string{"a"},
			check: func(t *testing.T, s *synthTable, res *paimon.ExpireResult) {
				ok, err := fs.Exists(context.Background(), s.fsys, synthDir+"/dt=x/bucket-0")
				require.NoError(t, err)
				require.True(t, ok)
				require.Zero(t, res.DeletedDirectories)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := newSynthTable(t, memfs.New(nil), tc.options)
			tc.build(s)
			tbl := s.open(tc.branch)
			check := startExpireCheck(t, s.fsys, synthDir)
			opts := tc.opts
			res, err := tbl.ExpireSnapshots(ctx, &opts)
			require.NoError(t, err)
			deleted := check.finish(res)
			require.Equal(t, tc.want, expNilIfEmpty(res.Expired))
			names := expBaseNames(deleted)
			for _, g := range tc.gone {
				require.Contains(t, names, g)
			}
			for _, k := range tc.kept {
				require.NotContains(t, names, k)
			}
			if tc.check != nil {
				tc.check(t, s, res)
			}
		})
	}
}

// TestExpireRefuses covers settings that must delete nothing.
func TestExpireRefuses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		options map[string]string
		opts    *paimon.ExpireOptions
		corrupt string // a file to overwrite with garbage first
		want    error
	}{
		{name: "retain min below 1", opts: &paimon.ExpireOptions{RetainMin: -1}, want: paimon.ErrInvalidExpireOptions},
		{name: "retain max below min", opts: &paimon.ExpireOptions{RetainMin: 3, RetainMax: 2}, want: paimon.ErrInvalidExpireOptions},
		{name: "table option retain min 0", options: map[string]string{"snapshot.num-retained.min": "0"},
			want: paimon.ErrInvalidExpireOptions},
		{name: "bad duration", options: map[string]string{"snapshot.time-retained": "soon"},
			want: paimon.ErrInvalidExpireOptions},
		{name: "bad boolean", options: map[string]string{"snapshot.clean-empty-directories": "yes"},
			want: paimon.ErrInvalidExpireOptions},
		{name: "changelog decoupled", options: map[string]string{"changelog.num-retained.max": "100"},
			opts: &expKeepLatest, want: paimon.ErrUnsupported},
		{name: "changelog time decoupled", options: map[string]string{"changelog.time-retained": "2 h"},
			want: paimon.ErrUnsupported},
		{name: "corrupt tag", opts: &expKeepLatest, corrupt: synthDir + "/tag/tag-t", want: paimon.ErrCorrupt},
		{name: "corrupt consumer", opts: &expKeepLatest, corrupt: synthDir + "/consumer/consumer-c", want: paimon.ErrCorrupt},
		{name: "unreadable tag manifest", opts: &expKeepLatest, corrupt: synthDir + "/manifest/manifest-list-4",
			want: paimon.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := newSynthTable(t, memfs.New(nil), tc.options)
			s.appends(3)
			s.tag("main", "t", 1)
			s.consumer("c", 1000)
			s.appends(3)
			if tc.corrupt != "" {
				s.put(tc.corrupt, []byte("garbage"))
			}
			before := expListFiles(t, s.fsys, synthDir)
			_, err := s.open("").ExpireSnapshots(ctx, tc.opts)
			require.ErrorIs(t, err, tc.want)
			require.Equal(t, before, expListFiles(t, s.fsys, synthDir), "files changed")
		})
	}
}

// TestExpireWithTableOptions is the committer's call: table options only,
// nothing at all for write-only tables.
func TestExpireWithTableOptions(t *testing.T) {
	for _, tc := range []struct {
		options map[string]string
		want    []int64
	}{
		{map[string]string{"snapshot.num-retained.min": "2", "snapshot.time-retained": "1 min"}, []int64{1, 2, 3}},
		{map[string]string{"snapshot.num-retained.min": "2", "write-only": "true"}, nil},
		{map[string]string{"snapshot.num-retained.min": "2", "write.compaction-skip": "true"}, nil},
		// Snapshots younger than the default hour stay.
		{map[string]string{"snapshot.num-retained.min": "2"}, nil},
	} {
		s := newSynthTable(t, memfs.New(nil), tc.options)
		now := time.Now().UnixMilli()
		for i := range int64(5) {
			s.commit(synthCommit{add: []synthFile{{name: "f" + expItoa(i)}}, at: now - 30*60_000 + i})
		}
		res, err := s.open("").ExpireSnapshotsWithTableOptions(context.Background())
		require.NoError(t, err)
		require.Equal(t, tc.want, expNilIfEmpty(res.Expired), "%v", tc.options)
	}
}

// TestExpireOrder checks Java's deletion order, which keeps the table
// readable if expiration stops anywhere: data and changelog files, then
// manifests, index and statistics files, then snapshot files, then the
// EARLIEST hint.
func TestExpireOrder(t *testing.T) {
	cfs := fstest.NewCountingFS(memfs.New(nil))
	s := newSynthTable(t, cfs, nil)
	synthMixed(s)
	var mu sync.Mutex
	var phases []int
	cfs.SetFault(func(op fstest.Op, name string) error {
		phase := -1
		switch {
		case op == fstest.OpRemove && strings.Contains(name, "/bucket-"):
			phase = 0
		case op == fstest.OpRemove && (strings.Contains(name, "/manifest/") || strings.Contains(name, "/index/") ||
			strings.Contains(name, "/statistics/")):
			phase = 1
		case op == fstest.OpRemove && strings.Contains(name, "/snapshot/snapshot-"):
			phase = 2
		case op == fstest.OpCreate && strings.HasSuffix(name, "/snapshot/EARLIEST"):
			phase = 3
		}
		if phase >= 0 {
			mu.Lock()
			phases = append(phases, phase)
			mu.Unlock()
		}
		return nil
	})
	res, err := s.open("").ExpireSnapshots(context.Background(), &expKeepLatest)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 3, 4}, res.Expired)
	require.True(t, slices.IsSorted(phases), "deletion order %v", phases)
	require.Positive(t, res.DeletedDataFiles)
	for p := range 4 {
		require.Contains(t, phases, p)
	}
}

// synthMixed writes a history with every kind of file, and a tag at
// snapshot 2 that protects some of them.
func synthMixed(s *synthTable) {
	s.commit(synthCommit{add: []synthFile{{name: "a"}, {name: "b", part: "q"}}, changelog: []synthFile{{name: "cl1"}},
		index: []string{"index-1"}, stats: "stat-1"})
	s.commit(synthCommit{add: []synthFile{{name: "c"}}, changelog: []synthFile{{name: "cl2"}}, index: []string{"index-2"},
		stats: "stat-2"})
	s.tag("main", "t2", 2)
	s.commit(synthCommit{del: []synthFile{{name: "a"}, {name: "b", part: "q"}}, add: []synthFile{{name: "d", level: 5}, {name: "g"}},
		stats: "stat-3"})
	s.commit(synthCommit{del: []synthFile{{name: "c"}, {name: "g"}}, add: []synthFile{{name: "e"}}, index: []string{"index-3"}})
	s.commit(synthCommit{add: []synthFile{{name: "f"}}, changelog: []synthFile{{name: "cl5"}}})
}

// TestExpireInterrupted fails expiration at each kind of deletion and
// checks that the table stays readable at the latest snapshot and the tag,
// and that a second run ends exactly where an uninterrupted one does.
func TestExpireInterrupted(t *testing.T) {
	s := newSynthTable(t, memfs.New(nil), nil)
	synthMixed(s)
	check := startExpireCheck(t, s.fsys, synthDir)
	res, err := s.open("").ExpireSnapshots(context.Background(), &expKeepLatest)
	require.NoError(t, err)
	deleted := check.finish(res)
	require.Subset(t, expBaseNames(deleted), []string{"g", "cl1", "index-1", "stat-1", "snapshot-3"})
	require.NotContains(t, expBaseNames(deleted), "a", "the tag holds a")
	clean := slices.Sorted(maps.Keys(expListFiles(t, s.fsys, synthDir)))

	injected := errors.New("injected")
	for _, tc := range []struct {
		name string
		fail func(op fstest.Op, name string) bool
	}{
		{"data file", func(op fstest.Op, n string) bool { return op == fstest.OpRemove && strings.HasSuffix(n, "/g") }},
		{"changelog file", func(op fstest.Op, n string) bool { return op == fstest.OpRemove && strings.HasSuffix(n, "/cl1") }},
		{"manifest", func(op fstest.Op, n string) bool {
			return op == fstest.OpRemove && strings.Contains(n, "/manifest/manifest-") && !strings.Contains(n, "manifest-list-")
		}},
		{"manifest list", func(op fstest.Op, n string) bool {
			return op == fstest.OpRemove && strings.Contains(n, "/manifest/manifest-list-")
		}},
		{"index file", func(op fstest.Op, n string) bool {
			return op == fstest.OpRemove && strings.HasSuffix(n, "/index/index-1")
		}},
		{"index manifest", func(op fstest.Op, n string) bool {
			return op == fstest.OpRemove && strings.Contains(n, "/manifest/index-manifest-")
		}},
		{"statistics", func(op fstest.Op, n string) bool { return op == fstest.OpRemove && strings.Contains(n, "/statistics/") }},
		{"snapshot", func(op fstest.Op, n string) bool { return op == fstest.OpRemove && strings.HasSuffix(n, "/snapshot-3") }},
		{"hint", func(op fstest.Op, n string) bool { return op == fstest.OpCommit && strings.HasSuffix(n, "/EARLIEST") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			cfs := fstest.NewCountingFS(memfs.New(nil))
			s := newSynthTable(t, cfs, nil)
			synthMixed(s)
			cfs.SetFault(func(op fstest.Op, name string) error {
				if tc.fail(op, name) {
					return injected
				}
				return nil
			})
			_, err := s.open("").ExpireSnapshots(ctx, &expKeepLatest)
			require.ErrorIs(t, err, injected)
			cfs.SetFault(nil)

			// The latest snapshot and the tag are intact.
			after := expListFiles(t, cfs, synthDir)
			w := newRefWalker(t, cfs, synthDir, after)
			refs := map[string]bool{}
			latest, err := s.meta.ReadSnapshot(ctx, 5)
			require.NoError(t, err)
			w.snapshotRefs(latest, refs)
			tag, err := s.meta.ReadTag(ctx, "t2")
			require.NoError(t, err)
			w.snapshotRefs(&tag.Snapshot, refs)
			for p := range refs {
				require.True(t, after[p], "%s is gone", p)
			}

			_, err = s.open("").ExpireSnapshots(ctx, &expKeepLatest)
			require.NoError(t, err)
			require.Equal(t, clean, slices.Sorted(maps.Keys(expListFiles(t, cfs, synthDir))))
		})
	}
}

// TestExpireCancelled stops at once on a cancelled context.
func TestExpireCancelled(t *testing.T) {
	s := newSynthTable(t, memfs.New(nil), nil)
	synthMixed(s)
	before := expListFiles(t, s.fsys, synthDir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.open("").ExpireSnapshots(ctx, &expKeepLatest)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, before, expListFiles(t, s.fsys, synthDir))
}

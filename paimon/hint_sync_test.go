package paimon_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// syncRecordingFS records, for every file created, whether it was asked
// to skip the fsyncs (fs.CreateOptions.NoSync).
type syncRecordingFS struct {
	fs.FS
	mu     sync.Mutex
	noSync map[string][]bool // file name (last element) -> NoSync of each Create
}

func (f *syncRecordingFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	f.mu.Lock()
	base := name[strings.LastIndex(name, "/")+1:]
	if strings.HasPrefix(base, "data-") {
		base = "data"
	} else if i := strings.Index(base, "-"); i > 0 && strings.HasPrefix(base, "manifest") {
		base = "manifest"
	}
	f.noSync[base] = append(f.noSync[base], opts != nil && opts.NoSync)
	f.mu.Unlock()
	return f.FS.Create(ctx, name, opts)
}

func (f *syncRecordingFS) MkdirAll(ctx context.Context, dir string) error {
	return fs.MkdirAll(ctx, f.FS, dir)
}

func (f *syncRecordingFS) take() map[string][]bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.noSync
	f.noSync = map[string][]bool{}
	return out
}

// TestHintsWithoutSync: a commit writes the LATEST hint and an expiration
// the EARLIEST hint without fsyncs, while data files, manifests and
// snapshots stay durable; a rollback's hints stay synced (Java's reader
// trusts a LATEST whose next snapshot is absent, and a rollback deletes
// the snapshots above its hint). Readers find the latest and earliest
// snapshots as before.
func TestHintsWithoutSync(t *testing.T) {
	ctx := context.Background()
	base, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	defer base.Close()
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, Options: map[string]string{}}
	_, err = testtable.Create(ctx, base, "db.db/t", ts)
	require.NoError(t, err)
	rec := &syncRecordingFS{FS: base, noSync: map[string][]bool{}}
	tbl, err := paimon.OpenTable(ctx, rec, "db.db/t", nil)
	require.NoError(t, err)

	writeCommits(t, tbl, rowsOf(0, 30, 3), 3)
	got := rec.take()
	require.Equal(t, []bool{true, true, true}, got["LATEST"], "commit's LATEST hints")
	for _, v := range got["EARLIEST"] { // a commit's own expiration may record it
		require.True(t, v, "EARLIEST hint")
	}
	for name, v := range got {
		if name == "LATEST" || name == "EARLIEST" {
			continue
		}
		require.NotContains(t, v, true, "%s must be synced", name)
	}
	require.Len(t, got["snapshot-3"], 1)
	require.NotEmpty(t, got["data"])
	require.NotEmpty(t, got["manifest"])

	_, err = tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMin: 2, RetainMax: 2, CommitGrace: -1})
	require.NoError(t, err)
	got = rec.take()
	require.Equal(t, []bool{true}, got["EARLIEST"], "expiration's EARLIEST hint")

	_, err = tbl.RollbackTo(ctx, 2)
	require.NoError(t, err)
	got = rec.take()
	require.NotEmpty(t, got["LATEST"])
	require.NotContains(t, got["LATEST"], true, "a rollback's LATEST hint is synced")
	require.NotContains(t, got["EARLIEST"], true, "a rollback's EARLIEST hint is synced")

	meta := tbl.Meta()
	latest, ok, err := meta.LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(2), latest)
	earliest, ok, err := meta.EarliestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(2), earliest)
}

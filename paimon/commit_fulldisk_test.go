package paimon_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// fullDiskFS fails the publication of snapshot files the way fs/localfs
// does when the disk fills while the temporary file is written: before
// anything is visible, with fs.ErrNotPublished.
type fullDiskFS struct{ fs.FS }

func (f fullDiskFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	w, err := f.FS.Create(ctx, name, opts)
	if err != nil || !strings.Contains(name, "/snapshot/snapshot-") {
		return w, err
	}
	return fullDiskWriter{w, name}, nil
}

func (f fullDiskFS) MkdirAll(ctx context.Context, dir string) error {
	return fs.MkdirAll(ctx, f.FS, dir)
}

type fullDiskWriter struct {
	fs.Writer
	name string
}

func (w fullDiskWriter) Close() error {
	_ = w.Writer.Abort()
	return fs.PathErr("write", w.name, fs.ErrNotPublished)
}

// TestCommitOnFullDisk (issue 24, failure 6): a snapshot that could not be
// written for lack of space is a definite failure: the error does not say
// an earlier attempt may have been published, and the commit's data files
// and manifests are removed.
func TestCommitOnFullDisk(t *testing.T) {
	ctx := context.Background()
	base, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	defer base.Close()
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, Options: map[string]string{}}
	_, err = testtable.Create(ctx, base, "db.db/t", ts)
	require.NoError(t, err)
	before := listAll(t, base)
	tbl, err := paimon.OpenTable(ctx, fullDiskFS{base}, "db.db/t", nil)
	require.NoError(t, err)
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	rec := batch(t, nil, rowsOf(0, 30, 3))
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
	require.NoError(t, err)
	_, err = c.Commit(ctx, 1, msgs)
	require.ErrorIs(t, err, fs.ErrNotPublished)
	require.NotContains(t, err.Error(), "may have been published")
	// The commit-progress record of the pending identifier stays (it
	// says the commit may land after snapshot 0; it did not).
	after := slices.DeleteFunc(listAll(t, base), func(p string) bool { return strings.Contains(p, "/commit-progress/") })
	require.Equal(t, before, after, "the data files and manifests of the failed commit are removed")
}

package paimon

import (
	"context"
	"errors"
	iofs "io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
)

// TestFileScanReadEach checks how the manifest reader reports failures: a
// tolerated one (a missing manifest) leaves the other manifests read and
// names itself at its index; any other stops the scan.
func TestFileScanReadEach(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	fields := []schema.DataField{{ID: 0, Name: "id", Type: schema.BigIntType()}}
	_, err := testtable.Create(ctx, fsys, "t", &schema.TableSchema{Version: 3, Fields: fields, Options: map[string]string{}})
	require.NoError(t, err)
	tbl, err := OpenTable(ctx, fsys, "t", nil)
	require.NoError(t, err)
	c, err := tbl.NewCommit(nil)
	require.NoError(t, err)
	for i := range 3 {
		w, err := tbl.NewWriter(nil)
		require.NoError(t, err)
		rec, err := testtable.BuildRecord(memcheck.New(), fields, [][]any{{int64(i)}})
		require.NoError(t, err)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		_, err = c.Commit(ctx, int64(i+1), msgs)
		require.NoError(t, err)
		require.NoError(t, w.Close(ctx))
	}
	s, err := latestSnapshotOf(ctx, tbl.meta)
	require.NoError(t, err)
	metas, err := tbl.meta.DataManifests(ctx, s)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(metas), 3)
	require.NoError(t, fsys.Remove(ctx, tbl.meta.ManifestPath(metas[1].FileName)))

	scan := newFileScan(tbl.meta, nil)
	missing := func(err error) bool { return errors.Is(err, iofs.ErrNotExist) }
	lists, errs, err := scan.readEach(ctx, metas, missing)
	require.NoError(t, err)
	for i := range metas {
		if i == 1 {
			require.ErrorIs(t, errs[i], iofs.ErrNotExist)
			require.Nil(t, lists[i])
			continue
		}
		require.NoError(t, errs[i])
		require.NotEmpty(t, lists[i])
	}
	_, err = scan.readManifests(ctx, metas)
	require.ErrorIs(t, err, iofs.ErrNotExist)
	_, err = scan.scan(ctx, s)
	require.ErrorIs(t, err, iofs.ErrNotExist)
}

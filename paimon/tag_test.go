package paimon_test

import (
	"context"
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/paimon"
)

// tagGolden copies the table of a Java 1.4.2 golden scenario into a memfs
// and opens it.
func tagGolden(t *testing.T, scenario, table string) (*paimon.Table, fs.FS, string) {
	t.Helper()
	ctx := context.Background()
	wh := filepath.Join(goldenRoot, "java-1.4.2", scenario, "warehouse")
	fsys := memfs.New(nil)
	require.NoError(t, filepath.WalkDir(wh, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(wh, p)
		return fs.WriteFile(ctx, fsys, filepath.ToSlash(rel), b, nil)
	}))
	dir := "interop.db/" + table
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	require.NoError(t, err)
	return tbl, fsys, dir
}

func tagReadFile(t *testing.T, fsys fs.FS, p string) []byte {
	t.Helper()
	b, err := fs.ReadFile(context.Background(), fsys, p)
	require.NoError(t, err)
	return b
}

func tagFileExists(t *testing.T, fsys fs.FS, p string) bool {
	t.Helper()
	ok, err := fs.Exists(context.Background(), fsys, p)
	require.NoError(t, err)
	return ok
}

// TestCreateTag checks the tag file against what Java writes: the
// snapshot's JSON byte for byte without a retention, with tagCreateTime
// and tagTimeRetained after it with one.
func TestCreateTag(t *testing.T) {
	ctx := context.Background()
	tbl, fsys, dir := tagGolden(t, "append-unpartitioned", "append_unpartitioned")

	tag, err := tbl.CreateTag(ctx, "latest", nil)
	require.NoError(t, err)
	require.Equal(t, int64(5), tag.ID)
	require.Nil(t, tag.CreateTime)
	require.Equal(t, tagReadFile(t, fsys, dir+"/snapshot/snapshot-5"), tagReadFile(t, fsys, dir+"/tag/tag-latest"),
		"a tag without retention is the snapshot file")

	now := time.Date(2030, 1, 2, 3, 4, 5, 600, time.UTC)
	tag, err = tbl.CreateTag(ctx, "old", &paimon.CreateTagOptions{SnapshotID: 2, TimeRetained: 90 * time.Minute, Now: func() time.Time { return now }})
	require.NoError(t, err)
	require.Equal(t, int64(2), tag.ID)
	b := string(tagReadFile(t, fsys, dir+"/tag/tag-old"))
	snap := strings.TrimSuffix(string(tagReadFile(t, fsys, dir+"/snapshot/snapshot-2")), "\n}")
	require.True(t, strings.HasPrefix(b, snap), b)
	require.Contains(t, b, `"tagCreateTime" : [ 2030, 1, 2, 3, 4, 5, 600 ],`)
	require.Contains(t, b, `"tagTimeRetained" : 5400.000000000`)
	got, err := tbl.Meta().ReadTag(ctx, "old")
	require.NoError(t, err)
	require.Equal(t, 90*time.Minute, *got.TimeRetained)
	require.True(t, now.Equal(*got.CreateTime))

	// The tags read like their snapshots.
	require.Equal(t, tagRows(t, tbl, paimon.WithSnapshotID(5)), tagRows(t, tbl, paimon.WithTag("latest")))
	require.Equal(t, tagRows(t, tbl, paimon.WithSnapshotID(2)), tagRows(t, tbl, paimon.WithTag("old")))
	require.NotEqual(t, tagRows(t, tbl, paimon.WithTag("old")), tagRows(t, tbl, paimon.WithTag("latest")))

	for _, tt := range []struct {
		name string
		opts *paimon.CreateTagOptions
		want error
	}{
		{"latest", nil, paimon.ErrTagExists},
		{"x", &paimon.CreateTagOptions{SnapshotID: 99}, paimon.ErrSnapshotNotFound},
		{" ", nil, paimon.ErrInvalidTagName},
		{"a/b", nil, paimon.ErrInvalidTagName},
		{"..", nil, paimon.ErrInvalidTagName},
	} {
		_, err := tbl.CreateTag(ctx, tt.name, tt.opts)
		require.ErrorIs(t, err, tt.want, tt.name)
	}
	names, err := tbl.Meta().TagNames(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"latest", "old"}, names)
}

// TestCreateTagDefaultRetention checks tag.default-time-retained and a
// tag of an expired snapshot that another tag still holds.
func TestCreateTagDefaultRetention(t *testing.T) {
	ctx := context.Background()
	_, fsys, dir := tagGolden(t, "tag-expire", "tag_expire")
	_, err := alterTable(ctx, fsys, dir, paimon.SetOption{Key: "tag.default-time-retained", Value: "2 h"})
	require.NoError(t, err)
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	require.NoError(t, err)

	// Snapshot 1 expired; tag t1 holds it.
	require.False(t, tagFileExists(t, fsys, dir+"/snapshot/snapshot-1"))
	tag, err := tbl.CreateTag(ctx, "again", &paimon.CreateTagOptions{SnapshotID: 1})
	require.NoError(t, err)
	require.Equal(t, int64(1), tag.ID)
	require.NotNil(t, tag.TimeRetained)
	require.Equal(t, 2*time.Hour, *tag.TimeRetained)
	t1, err := tbl.Meta().ReadTag(ctx, "t1")
	require.NoError(t, err)
	again, err := tbl.Meta().ReadTag(ctx, "again")
	require.NoError(t, err)
	require.Equal(t, t1.Snapshot.Encode(), again.Snapshot.Encode())
}

func TestDeleteTag(t *testing.T) {
	ctx := context.Background()

	// The tagged snapshot exists: only the tag file goes.
	tbl, fsys, dir := tagGolden(t, "rollback", "rollback")
	before := tagCountFiles(t, fsys, dir)
	require.NoError(t, tbl.DeleteTag(ctx, "keep"))
	require.False(t, tagFileExists(t, fsys, dir+"/tag/tag-keep"))
	require.Equal(t, before-1, tagCountFiles(t, fsys, dir))
	require.ErrorIs(t, tbl.DeleteTag(ctx, "keep"), paimon.ErrTagNotFound)
	require.ErrorIs(t, tbl.DeleteTag(ctx, ""), paimon.ErrInvalidTagName)

	// The tagged snapshot expired: refused while the tag alone holds it,
	// allowed once another tag shares it.
	tbl, fsys, dir = tagGolden(t, "tag-expire", "tag_expire")
	err := tbl.DeleteTag(ctx, "t1")
	require.ErrorIs(t, err, paimon.ErrUnsupported)
	require.Contains(t, err.Error(), "snapshot 1 has expired")
	require.True(t, tagFileExists(t, fsys, dir+"/tag/tag-t1"))
	_, err = tbl.CreateTag(ctx, "t1b", &paimon.CreateTagOptions{SnapshotID: 1})
	require.NoError(t, err)
	require.NoError(t, tbl.DeleteTag(ctx, "t1"))
	require.False(t, tagFileExists(t, fsys, dir+"/tag/tag-t1"))
	require.True(t, errors.Is(tbl.DeleteTag(ctx, "t1b"), paimon.ErrUnsupported))
	// Reading through the remaining tag still works.
	for _, err := range tbl.NewScan(paimon.WithTag("t1b")).Records(ctx) {
		require.NoError(t, err)
	}
}

// countFiles counts the files below dir.
func tagCountFiles(t *testing.T, fsys fs.FS, dir string) int {
	t.Helper()
	n := 0
	entries, err := fs.ReadDir(context.Background(), fsys, dir)
	require.NoError(t, err)
	for _, fi := range entries {
		if fi.IsDir {
			n += tagCountFiles(t, fsys, dir+"/"+fi.Name)
		} else {
			n++
		}
	}
	return n
}

// tagRows scans the table and returns its rows as sorted canon-v1 lines.
func tagRows(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) []string {
	t.Helper()
	fields := tbl.Schema().Fields
	out := []string{}
	for rec, err := range tbl.NewScan(opts...).Records(context.Background()) {
		require.NoError(t, err)
		for r := 0; r < int(rec.NumRows()); r++ {
			vals := make([]any, len(fields))
			for c := range fields {
				v, err := parquet.ArrowValue(rec.Column(c), r, fields[c].Type)
				require.NoError(t, err)
				vals[c] = v
			}
			b, err := canon.EncodeRow(fields, vals)
			require.NoError(t, err)
			out = append(out, string(b))
		}
		rec.Release()
	}
	sort.Strings(out)
	return out
}

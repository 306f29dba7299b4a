package paimon_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestReplacedDataFile: a data file replaced by another data file of the
// same table with the same row count (the rows differ) must not read
// silently: its size differs from the one its manifest entry records, and
// the read fails with ErrCorrupt naming the file (issue 24 item 8).
func TestReplacedDataFile(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	relCreate(t, fsys, relDir, false, nil)
	_, err := relWrite(ctx, fsys, relDir, "u", 1, rowsOf(0, 100, 1))
	require.NoError(t, err)
	_, err = relWrite(ctx, fsys, relDir, "u", 2, rowsOf(1000, 1100, 1))
	require.NoError(t, err)
	want, err := relRows(ctx, fsys, relDir)
	require.NoError(t, err)
	require.Len(t, want, 200)

	bucket := relDir + "/bucket-0"
	infos, err := fs.ReadDir(ctx, fsys, bucket)
	require.NoError(t, err)
	require.Len(t, infos, 2)
	require.NotEqual(t, infos[0].Size, infos[1].Size, "the two files must differ in size for this test")
	other, err := fs.ReadFile(ctx, fsys, bucket+"/"+infos[1].Name)
	require.NoError(t, err)
	victim := bucket + "/" + infos[0].Name
	require.NoError(t, fsys.Remove(ctx, victim))
	require.NoError(t, fs.WriteFile(ctx, fsys, victim, other, nil))

	_, err = relRows(ctx, fsys, relDir)
	require.ErrorIs(t, err, paimon.ErrCorrupt)
	var ce *paimon.CorruptError
	require.ErrorAs(t, err, &ce)
	require.True(t, strings.HasSuffix(ce.Path, infos[0].Name), "names the replaced file: %v", err)
	require.Contains(t, err.Error(), "manifest says")
}

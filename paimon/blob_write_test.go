package paimon_test

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

var blobFields = []schema.DataField{
	{ID: 0, Name: "id", Type: schema.IntType()},
	{ID: 1, Name: "pic", Type: schema.BlobType()},
	{ID: 2, Name: "name", Type: schema.StringType()},
}

func blobRow(i int) []any {
	var pic any = bytes.Repeat([]byte{byte(i)}, 40+i%7)
	if i%5 == 3 {
		pic = nil
	}
	return []any{int32(i), pic, fmt.Sprintf("n%d", i)}
}

// readBlobRows reads id, pic and name of every row, ordered by id.
func readBlobRows(t *testing.T, tbl *paimon.Table) [][]any {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	var out [][]any
	for rec, err := range tbl.NewScan(paimon.WithAllocator(mem)).Records(context.Background()) {
		require.NoError(t, err)
		ids := rec.Column(0).(*array.Int32)
		pics := rec.Column(1).(*array.LargeBinary)
		names := rec.Column(2).(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			var pic any
			if pics.IsValid(i) {
				pic = bytes.Clone(pics.Value(i))
			}
			var name any
			if names.IsValid(i) {
				name = strings.Clone(names.Value(i))
			}
			out = append(out, []any{ids.Value(i), pic, name})
		}
		rec.Release()
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0].(int32) < out[j][0].(int32) })
	return out
}

// TestBlobWrite: BLOB columns of a data-evolution table go to .blob files
// beside the data file of the other columns, rolled at
// blob.target-file-size, and get the data file's row ids at commit.
func TestBlobWrite(t *testing.T) {
	ctx := context.Background()
	fsys, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	defer fsys.Close()
	ts := &schema.TableSchema{Version: 3, Fields: blobFields, HighestFieldID: 2, Options: map[string]string{
		"row-tracking.enabled": "true", "data-evolution.enabled": "true", "blob.target-file-size": "200 b"}}
	_, err = testtable.Create(ctx, fsys, "db.db/t", ts)
	require.NoError(t, err)
	var want [][]any
	for commit, n := range []int{20, 7} {
		tbl := reopen(t, fsys)
		mem := memcheck.New()
		w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
		require.NoError(t, err)
		var rows [][]any
		for i := len(want); i < len(want)+n; i++ {
			rows = append(rows, blobRow(i))
		}
		rec, err := testtable.BuildRecord(mem, blobFields, rows)
		require.NoError(t, err)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		require.NoError(t, w.Close(ctx))
		mem.AssertSize(t, 0)
		require.Len(t, msgs, 1)
		files := msgs[0].NewFiles
		require.False(t, strings.HasSuffix(files[0].FileName, ".blob"))
		require.Equal(t, []string{"id", "name"}, files[0].WriteCols)
		var blobRows int64
		for _, f := range files[1:] {
			require.True(t, strings.HasSuffix(f.FileName, ".blob"), f.FileName)
			require.Equal(t, []string{"pic"}, f.WriteCols)
			require.Equal(t, []string{}, f.ValueStatsCols)
			blobRows += f.RowCount
		}
		require.Equal(t, files[0].RowCount, blobRows)
		if commit == 0 {
			require.Greater(t, len(files), 3, "the .blob files should roll")
		}
		_, err = newCommit(t, tbl, "").Commit(ctx, paimon.BatchCommitIdentifier, msgs)
		require.NoError(t, err)
		want = append(want, rows...)
	}
	tbl := reopen(t, fsys)
	require.Equal(t, want, readBlobRows(t, tbl))
	// Row ids: every .blob file continues its data file's range.
	var blobs, data []manifest.DataFileMeta
	for _, fl := range liveFiles(t, tbl) {
		for _, f := range fl {
			require.NotNil(t, f.FirstRowID)
			if strings.HasSuffix(f.FileName, ".blob") {
				blobs = append(blobs, f)
			} else {
				data = append(data, f)
			}
		}
	}
	require.Len(t, data, 2)
	sort.Slice(blobs, func(i, j int) bool { return *blobs[i].FirstRowID < *blobs[j].FirstRowID })
	next := int64(0)
	for _, f := range blobs {
		require.Equal(t, next, *f.FirstRowID)
		next += f.RowCount
	}
	require.EqualValues(t, 27, next)

	// A column update beside the BLOB column keeps the blobs.
	msgs, err := prepareUpdate(t, tbl, []string{"name"}, [][]any{{int64(4), "x4"}, {int64(22), nil}})
	require.NoError(t, err)
	_, err = newCommit(t, tbl, "").Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	require.NoError(t, err)
	want[4][2], want[22][2] = "x4", nil
	require.Equal(t, want, readBlobRows(t, reopen(t, fsys)))

	// Updating the BLOB column itself is refused.
	_, err = reopen(t, fsys).NewColumnUpdate(ctx, []string{"pic"}, nil)
	require.ErrorIs(t, err, paimon.ErrUnsupported)
}

// TestBlobWriteRefused: BLOB columns without data evolution are refused
// before any file is written.
func TestBlobWriteRefused(t *testing.T) {
	ctx := context.Background()
	fsys, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	defer fsys.Close()
	ts := &schema.TableSchema{Version: 3, Fields: blobFields, HighestFieldID: 2, Options: map[string]string{}}
	_, err = testtable.Create(ctx, fsys, "db.db/t", ts)
	require.NoError(t, err)
	_, err = reopen(t, fsys).NewWriter(nil)
	require.ErrorIs(t, err, paimon.ErrUnsupported)
}

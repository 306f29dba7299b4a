package paimon_test

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/faultfs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestWritePrimaryKeyFlushWriteFails: a flushed write buffer is merged on
// the writing goroutine while another goroutine writes the merged batches
// into data files (rolling at a small target-file-size here: a Parquet
// file's size is seen once a page is full, so the rows are enough for
// several 1 MiB pages). A data-file
// write that fails in the middle of such a flush fails the writer with
// that error, and closing the writer leaves no data file behind and no
// snapshot.
func TestWritePrimaryKeyFlushWriteFails(t *testing.T) {
	ctx := context.Background()
	opts := map[string]string{"bucket": "1", "target-file-size": "32kb"}
	rows := make([][]any, 400_000)
	for i := range rows {
		rows[i] = []any{"d1", int64(i * 7 % len(rows)), fmt.Sprintf("name-%d", i), float64(i) / 3}
	}
	// write runs the upserts and the PrepareCommit on ffs, returning the
	// first error.
	write := func(tbl *paimon.Table) error {
		w, err := tbl.NewWriter(nil)
		require.NoError(t, err)
		defer w.Close(ctx)
		rec := pkBatch(t, tbl, rows, nil)
		defer rec.Release()
		if err := w.Upsert(ctx, rec); err != nil {
			return err
		}
		_, err = w.PrepareCommit(ctx)
		return err
	}
	open := func() (*paimon.Table, *faultfs.FS, fs.FS) {
		_, fsys := newPKTable(t, false, opts)
		ffs := faultfs.New(fsys)
		tbl, err := paimon.OpenTable(ctx, ffs, "db.db/t", nil)
		require.NoError(t, err)
		return tbl, ffs, fsys
	}

	// A clean run lists the data-file writes.
	tbl, probe, _ := open()
	probe.SetLogging(true)
	require.NoError(t, write(tbl))
	// Rolling to the next file creates it on the goroutine that writes the
	// merged batches (finishing a file may happen elsewhere): fail those
	// creates, and a write.
	var creates, writes []int
	for _, st := range probe.Log() {
		switch {
		case !strings.Contains(st.Name, "/data-"):
		case st.Op == faultfs.OpCreate:
			creates = append(creates, st.N)
		case st.Op == faultfs.OpWrite:
			writes = append(writes, st.N)
		}
	}
	require.Greater(t, len(creates), 3, "the flush writes several data files")

	for _, step := range []int{creates[1], creates[len(creates)/2], writes[len(writes)/2]} {
		tbl, ffs, fsys := open()
		ffs.FailAt(step, nil)
		err := write(tbl)
		require.ErrorIs(t, err, faultfs.ErrInjected, "step %d", step)
		requireNothingWritten(t, tbl, fsys, "db.db/t/bucket-0")
	}
}

// requireNothingWritten checks that the bucket directories hold no data
// file and that the table has no snapshot.
func requireNothingWritten(t *testing.T, tbl *paimon.Table, fsys fs.FS, buckets ...string) {
	t.Helper()
	ctx := context.Background()
	for _, dir := range buckets {
		for fi, err := range fsys.List(ctx, dir) {
			if errors.Is(err, iofs.ErrNotExist) {
				break
			}
			require.NoError(t, err)
			require.False(t, strings.HasPrefix(fi.Name, "data-"), "%s: %s left behind", dir, fi.Name)
		}
	}
	_, ok, err := tbl.Meta().LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.False(t, ok)
}

// TestWritePrimaryKeyPrepareCommitFlushFails: PrepareCommit flushes the
// buffers of several buckets at once. When the data file of one bucket
// cannot be created, PrepareCommit fails with that error, the flushes of
// the other buckets still finish, and closing the writer leaves no data
// file in any bucket and no snapshot.
func TestWritePrimaryKeyPrepareCommitFlushFails(t *testing.T) {
	ctx := context.Background()
	_, fsys := newPKTable(t, false, map[string]string{"bucket": "4"})
	cfs := fstest.NewCountingFS(fsys)
	tbl, err := paimon.OpenTable(ctx, cfs, "db.db/t", nil)
	require.NoError(t, err)
	rows := make([][]any, 20_000)
	for i := range rows {
		rows[i] = []any{"d1", int64(i), fmt.Sprintf("name-%d", i), float64(i)}
	}
	injected := errors.New("bucket-2 unwritable")
	cfs.SetFault(func(op fstest.Op, name string) error {
		if op == fstest.OpCreate && strings.Contains(name, "/bucket-2/data-") {
			return injected
		}
		return nil
	})
	w, err := tbl.NewWriter(&paimon.WriterOptions{Workers: 2})
	require.NoError(t, err)
	rec := pkBatch(t, tbl, rows, nil)
	require.NoError(t, w.Upsert(ctx, rec))
	rec.Release()
	_, err = w.PrepareCommit(ctx)
	require.ErrorIs(t, err, injected)
	require.NoError(t, w.Close(ctx))
	created := 0
	for _, name := range cfs.Names(fstest.OpCreate) {
		if strings.Contains(name, "/data-") && !strings.Contains(name, "/bucket-2/") {
			created++
		}
	}
	require.Positive(t, created, "the other buckets flushed")
	requireNothingWritten(t, tbl, fsys, "db.db/t/bucket-0", "db.db/t/bucket-1", "db.db/t/bucket-2", "db.db/t/bucket-3")
}

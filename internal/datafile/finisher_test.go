package datafile_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// publishFailFS fails the publish (Close) of its failAt-th file, counted
// across goroutines.
type publishFailFS struct {
	fs.FS
	n      atomic.Int64
	failAt int64
}

func (f *publishFailFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	w, err := f.FS.Create(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return &publishFailWriter{Writer: w, fail: f.n.Add(1) == f.failAt}, nil
}

type publishFailWriter struct {
	fs.Writer
	fail bool
}

func (w *publishFailWriter) Close() error {
	if w.fail {
		_ = w.Writer.Abort()
		return errDisk
	}
	return w.Writer.Close()
}

// settledGoroutines waits (a bounded number of scheduler rounds, not a
// clock) until at most base goroutines run and returns the count.
func settledGoroutines(base int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 1000 && n > base; i++ {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// TestFinisher: files finished in the background are the bytes and
// metadata of files finished by the Writer itself, in order; a file that
// fails to finish in the background fails the Writer and every file it
// wrote is removed; a cancelled write stops; no goroutine outlives Close
// or Abort.
func TestFinisher(t *testing.T) {
	ctx := context.Background()
	ts := tableSchema(t, map[string]string{"target-file-size": "1b"}, wideFields...)
	base := runtime.NumGoroutine()
	write := func(fsys fs.FS, fin *datafile.Finisher) ([]manifest.DataFileMeta, error) {
		w, err := datafile.NewWriter(datafile.Options{
			FS: fsys, Dir: bucketDir, Schema: ts, Finisher: fin, Workers: 2,
			Now: func() time.Time { return clock },
		})
		require.NoError(t, err)
		for from := 0; from < 6000; from += 1500 {
			if err := w.Write(ctx, record(t, nil, wideFields, wideRows(from, 1500))); err != nil {
				return nil, err
			}
		}
		return w.Close(ctx)
	}
	syncFS, bgFS := memfs.New(nil), memfs.New(nil)
	want, err := write(syncFS, nil)
	require.NoError(t, err)
	fin := datafile.NewFinisher(3, 0)
	got, err := write(bgFS, fin)
	require.NoError(t, err)
	require.Len(t, want, 6) // a roll at every check point
	require.Len(t, got, len(want))
	for i := range want {
		a, err := fs.ReadFile(ctx, syncFS, bucketDir+"/"+want[i].FileName)
		require.NoError(t, err)
		b, err := fs.ReadFile(ctx, bgFS, bucketDir+"/"+got[i].FileName)
		require.NoError(t, err)
		require.True(t, bytes.Equal(a, b), "file %d", i)
		g := got[i]
		g.FileName = want[i].FileName
		require.Equal(t, want[i], g)
	}
	require.Zero(t, fin.Held())
	require.LessOrEqual(t, settledGoroutines(base), base, "goroutines left after Close")

	// The third file's publish fails on the finisher's goroutine: a later
	// Write or Close reports it, and nothing stays on disk.
	inner := memfs.New(nil)
	_, err = write(&publishFailFS{FS: inner, failAt: 3}, datafile.NewFinisher(3, 0))
	require.ErrorIs(t, err, errDisk)
	require.Empty(t, listDir(t, inner, bucketDir))
	require.LessOrEqual(t, settledGoroutines(base), base, "goroutines left after a failure")

	// Cancelled while files are being finished: the Write fails with the
	// context's error, Abort removes everything and waits for the finishes.
	inner = memfs.New(nil)
	cctx, cancel := context.WithCancel(ctx)
	w, err := datafile.NewWriter(datafile.Options{FS: inner, Dir: bucketDir, Schema: ts, Finisher: datafile.NewFinisher(2, 0)})
	require.NoError(t, err)
	require.NoError(t, w.Write(cctx, record(t, nil, wideFields, wideRows(0, 3000))))
	cancel()
	err = w.Write(cctx, record(t, nil, wideFields, wideRows(3000, 10)))
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	require.NoError(t, w.Abort(ctx))
	require.Empty(t, listDir(t, inner, bucketDir))
	require.LessOrEqual(t, settledGoroutines(base), base, "goroutines left after Abort")
}

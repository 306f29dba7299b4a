package fstest

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
)

func testOverwrite(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "LATEST", []byte("old content"))

	w, err := fsys.Create(ctx, "LATEST", nil)
	require.NoError(t, err)
	_, err = w.Write([]byte("new"))
	require.NoError(t, err)
	// Until Close, readers still see the previous file.
	require.Equal(t, "old content", string(readFile(t, fsys, "LATEST")))
	require.NoError(t, w.Close())

	require.Equal(t, "new", string(readFile(t, fsys, "LATEST")))
	fi, err := fsys.Stat(ctx, "LATEST")
	require.NoError(t, err)
	require.EqualValues(t, 3, fi.Size)
	require.Equal(t, []string{"LATEST"}, listNames(t, fsys, "."), "no temporary files left")
}

func testInvisibleUntilClose(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	variants := []struct {
		name string
		opts *fs.CreateOptions
	}{
		{"plain", nil},
		{"IfNotExist", &fs.CreateOptions{IfNotExist: true}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			if v.opts != nil && o.IfNotExistUnsupported {
				t.Skip("IfNotExist unsupported")
			}
			name := "dir/pending-" + v.name
			w, err := fsys.Create(ctx, name, v.opts)
			require.NoError(t, err)
			_, err = w.Write(pattern(100_000, 4))
			require.NoError(t, err)

			_, err = fsys.Stat(ctx, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			_, err = fsys.Open(ctx, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			require.NotContains(t, listNames(t, fsys, "dir"), "pending-"+v.name)

			require.NoError(t, w.Close())
			fi, err := fsys.Stat(ctx, name)
			require.NoError(t, err)
			require.EqualValues(t, 100_000, fi.Size)
		})
	}
}

func testAbort(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	writeFile(t, fsys, "d/keep", []byte("keep"))
	variants := []struct {
		name string
		opts *fs.CreateOptions
	}{
		{"plain", nil},
		{"IfNotExist", &fs.CreateOptions{IfNotExist: true}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			if v.opts != nil && o.IfNotExistUnsupported {
				t.Skip("IfNotExist unsupported")
			}
			// A new file: nothing remains.
			w, err := fsys.Create(ctx, "d/new", v.opts)
			require.NoError(t, err)
			_, err = w.Write(pattern(70_000, 5))
			require.NoError(t, err)
			require.NoError(t, w.Abort())
			_, err = fsys.Stat(ctx, "d/new")
			requirePathErr(t, err, "d/new", iofs.ErrNotExist)
			require.Equal(t, []string{"keep"}, listNames(t, fsys, "d"), "Abort must leave no trace")

			// Aborting a replacement keeps the old file.
			if v.opts == nil {
				w, err := fsys.Create(ctx, "d/keep", nil)
				require.NoError(t, err)
				_, err = w.Write([]byte("replacement"))
				require.NoError(t, err)
				require.NoError(t, w.Abort())
				require.Equal(t, "keep", string(readFile(t, fsys, "d/keep")))
				require.Equal(t, []string{"keep"}, listNames(t, fsys, "d"))
			}
		})
	}
}

func testWriterStates(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	t.Run("after Close", func(t *testing.T) {
		w, err := fsys.Create(ctx, "closed", nil)
		require.NoError(t, err)
		_, err = w.Write([]byte("x"))
		require.NoError(t, err)
		require.NoError(t, w.Close())
		_, err = w.Write([]byte("y"))
		require.ErrorIs(t, err, iofs.ErrClosed)
		require.ErrorIs(t, w.Close(), iofs.ErrClosed)
		require.NoError(t, w.Abort(), "Abort after Close is a no-op")
		require.Equal(t, "x", string(readFile(t, fsys, "closed")))
	})
	t.Run("after Abort", func(t *testing.T) {
		w, err := fsys.Create(ctx, "aborted", nil)
		require.NoError(t, err)
		require.NoError(t, w.Abort())
		_, err = w.Write([]byte("y"))
		require.ErrorIs(t, err, iofs.ErrClosed)
		require.ErrorIs(t, w.Close(), iofs.ErrClosed)
		require.NoError(t, w.Abort())
		ok, err := fs.Exists(ctx, fsys, "aborted")
		require.NoError(t, err)
		require.False(t, ok)
	})
}

func testIfNotExist(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	opts := &fs.CreateOptions{IfNotExist: true}
	if o.IfNotExistUnsupported {
		w, err := fsys.Create(ctx, "snapshot/snapshot-1", opts)
		if err == nil {
			err = w.Close()
		}
		require.ErrorIs(t, err, fs.ErrUnsupported)
		require.ErrorIs(t, err, errors.ErrUnsupported)
		ok, xerr := fs.Exists(ctx, fsys, "snapshot/snapshot-1")
		require.NoError(t, xerr)
		require.False(t, ok, "a refused create must not write")
		return
	}
	require.NoError(t, fs.WriteFile(ctx, fsys, "snapshot/snapshot-1", []byte("first"), opts))

	// The loser learns from Create or Close; the winner's file is intact.
	err := fs.WriteFile(ctx, fsys, "snapshot/snapshot-1", []byte("second"), opts)
	requirePathErr(t, err, "snapshot/snapshot-1", iofs.ErrExist)
	require.Equal(t, "first", string(readFile(t, fsys, "snapshot/snapshot-1")))
	require.Equal(t, []string{"snapshot-1"}, listNames(t, fsys, "snapshot"), "no temporary files left")

	// A different name still succeeds.
	require.NoError(t, fs.WriteFile(ctx, fsys, "snapshot/snapshot-2", []byte("x"), opts))
}

// testNoSync: CreateOptions.NoSync only allows skipping durability work;
// the file is still published atomically on Close, replaces an existing
// one, and combines with IfNotExist.
func testNoSync(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	hint := &fs.CreateOptions{NoSync: true}
	require.NoError(t, fs.WriteFile(ctx, fsys, "s/LATEST", []byte("1"), hint))
	w, err := fsys.Create(ctx, "s/LATEST", hint)
	require.NoError(t, err)
	_, err = w.Write([]byte("22"))
	require.NoError(t, err)
	require.Equal(t, "1", string(readFile(t, fsys, "s/LATEST")), "visible before Close")
	require.NoError(t, w.Close())
	require.Equal(t, "22", string(readFile(t, fsys, "s/LATEST")))
	if o.IfNotExistUnsupported {
		return
	}
	err = fs.WriteFile(ctx, fsys, "s/LATEST", []byte("3"), &fs.CreateOptions{NoSync: true, IfNotExist: true})
	requirePathErr(t, err, "s/LATEST", iofs.ErrExist)
	require.Equal(t, "22", string(readFile(t, fsys, "s/LATEST")))
	require.Equal(t, []string{"LATEST"}, listNames(t, fsys, "s"), "no temporary files left")
}

func testIfNotExistRace(t *testing.T, fsys fs.FS, o Options) {
	if o.IfNotExistUnsupported {
		t.Skip("IfNotExist unsupported")
	}
	ctx := context.Background()
	type result struct {
		writer, name int
		won          bool
		err          error
	}
	results := make(chan result, o.RaceGoroutines*o.RaceNames)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range o.RaceGoroutines {
		wg.Go(func() {
			<-start
			for n := range o.RaceNames {
				name := fmt.Sprintf("snapshot/snapshot-%d", n)
				err := fs.WriteFile(ctx, fsys, name, fmt.Appendf(nil, "writer-%d", g), &fs.CreateOptions{IfNotExist: true})
				switch {
				case err == nil:
					results <- result{g, n, true, nil}
				case errors.Is(err, iofs.ErrExist):
					results <- result{g, n, false, nil}
				default:
					results <- result{g, n, false, err}
				}
			}
		})
	}
	close(start)
	wg.Wait()
	close(results)

	winners := make([][]int, o.RaceNames)
	for r := range results {
		require.NoError(t, r.err, "writer %d, name %d", r.writer, r.name)
		if r.won {
			winners[r.name] = append(winners[r.name], r.writer)
		}
	}
	for n, ws := range winners {
		name := fmt.Sprintf("snapshot/snapshot-%d", n)
		require.Len(t, ws, 1, "%s must have exactly one winner, got %v", name, ws)
		require.Equal(t, fmt.Sprintf("writer-%d", ws[0]), string(readFile(t, fsys, name)),
			"%s must hold the winner's content", name)
	}
	require.Len(t, listNames(t, fsys, "snapshot"), o.RaceNames, "no temporary files left")
}

func testContext(t *testing.T, fsys fs.FS, o Options) {
	writeFile(t, fsys, "f", []byte("data"))
	canceled, cancel := context.WithCancel(context.Background())
	cancel()

	t.Run("operations", func(t *testing.T) {
		_, err := fsys.Open(canceled, "f")
		require.ErrorIs(t, err, context.Canceled, "Open")
		_, err = fsys.Create(canceled, "g", nil)
		require.ErrorIs(t, err, context.Canceled, "Create")
		_, err = fsys.Stat(canceled, "f")
		require.ErrorIs(t, err, context.Canceled, "Stat")
		require.ErrorIs(t, fsys.Remove(canceled, "f"), context.Canceled, "Remove")
		var listErr error
		for _, err := range fsys.List(canceled, ".") {
			listErr = err
			break
		}
		require.ErrorIs(t, listErr, context.Canceled, "List")
		require.Equal(t, "data", string(readFile(t, fsys, "f")), "nothing was removed")
	})

	t.Run("File bound to Open's context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		f, err := fsys.Open(ctx, "f")
		require.NoError(t, err)
		defer f.Close()
		_, err = f.ReadAt(make([]byte, 2), 0)
		require.NoError(t, err)
		cancel()
		_, err = f.ReadAt(make([]byte, 2), 0)
		require.ErrorIs(t, err, context.Canceled)
	})

	for _, ifNotExist := range []bool{false, true} {
		t.Run(fmt.Sprintf("Writer bound to Create's context/IfNotExist=%v", ifNotExist), func(t *testing.T) {
			if ifNotExist && o.IfNotExistUnsupported {
				t.Skip("IfNotExist unsupported")
			}
			ctx, cancel := context.WithCancel(context.Background())
			w, err := fsys.Create(ctx, "w", &fs.CreateOptions{IfNotExist: ifNotExist})
			require.NoError(t, err)
			_, _ = w.Write([]byte("partial")) // may or may not fail yet
			cancel()
			require.ErrorIs(t, w.Close(), context.Canceled)
			require.NoError(t, w.Abort())
			ok, err := fs.Exists(context.Background(), fsys, "w")
			require.NoError(t, err)
			require.False(t, ok, "a canceled write publishes nothing")
		})
	}
}

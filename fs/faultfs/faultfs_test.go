package faultfs_test

import (
	"context"
	"errors"
	iofs "io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/faultfs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
)

// Without faults the wrapper is a conforming file system.
func TestConformance(t *testing.T) {
	fstest.Run(t, func(t *testing.T) fs.FS { return faultfs.New(memfs.New(nil)) }, nil)
}

// script is a fixed sequence of calls touching every kind of step.
func script(ctx context.Context, fsys fs.FS) error {
	if err := fs.WriteFile(ctx, fsys, "d/a", []byte("hello"), nil); err != nil { // create, write, close
		return err
	}
	if _, err := fs.ReadFile(ctx, fsys, "d/a"); err != nil { // open, readat
		return err
	}
	if _, err := fsys.Stat(ctx, "d/a"); err != nil { // stat
		return err
	}
	if _, err := fs.ReadDir(ctx, fsys, "d"); err != nil { // list
		return err
	}
	if err := fs.WriteFile(ctx, fsys, "d/b", []byte("x"), &fs.CreateOptions{IfNotExist: true}); err != nil {
		return err
	}
	w, err := fsys.Create(ctx, "d/c", nil) // create
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte("y")); err != nil { // write
		return err
	}
	if err := w.Abort(); err != nil { // abort
		return err
	}
	return fsys.Remove(ctx, "d/a") // remove
}

var scriptOps = []faultfs.Op{
	faultfs.OpCreate, faultfs.OpWrite, faultfs.OpClose,
	faultfs.OpOpen, faultfs.OpReadAt,
	faultfs.OpStat, faultfs.OpList,
	faultfs.OpCreate, faultfs.OpWrite, faultfs.OpClose,
	faultfs.OpCreate, faultfs.OpWrite, faultfs.OpAbort,
	faultfs.OpRemove,
}

func TestStepsAreCountedAndLogged(t *testing.T) {
	ctx := context.Background()
	for range 2 { // the numbering is the same every run
		f := faultfs.New(memfs.New(nil))
		f.SetLogging(true)
		require.NoError(t, script(ctx, f))
		require.Equal(t, len(scriptOps), f.Steps())
		log := f.Log()
		require.Len(t, log, len(scriptOps))
		for i, s := range log {
			require.Equal(t, i+1, s.N)
			require.Equal(t, scriptOps[i], s.Op, "step %d", i+1)
			require.Empty(t, s.Fault)
		}
		require.Equal(t, 3, f.Count(faultfs.OpCreate))
		require.Contains(t, f.LogString(), "3 close d/a\n")
	}
}

// files lists what the inner file system holds, with contents.
func files(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	entries, err := fs.ReadDir(ctx, fsys, "d")
	require.NoError(t, err)
	for _, e := range entries {
		b, err := fs.ReadFile(ctx, fsys, "d/"+e.Name)
		require.NoError(t, err)
		out[e.Name] = string(b)
	}
	return out
}

// TestEveryStep plants each kind of fault at every step of the script and
// checks what the caller sees and what the wrapped file system holds.
func TestEveryStep(t *testing.T) {
	ctx := context.Background()
	complete := map[string]string{"b": "x"}
	for k := 1; k <= len(scriptOps); k++ {
		for _, fault := range []faultfs.Fault{
			{Step: k, Kind: faultfs.Fail}, {Step: k, Kind: faultfs.Fail, After: true},
			{Step: k, Kind: faultfs.Crash}, {Step: k, Kind: faultfs.Crash, After: true},
		} {
			t.Run(fault.String(), func(t *testing.T) {
				inner := memfs.New(nil)
				f := faultfs.New(inner)
				f.SetLogging(true)
				f.Plant(fault)
				err := script(ctx, f)
				require.Error(t, err)
				want := faultfs.ErrInjected
				if fault.Kind == faultfs.Crash {
					want = faultfs.ErrCrashed
					require.True(t, f.Crashed())
				}
				require.ErrorIs(t, err, want)
				var pe *iofs.PathError
				require.ErrorAs(t, err, &pe)
				steps := k
				if k == 2 || k == 9 {
					steps++ // fs.WriteFile aborts the writer after a failed write
				}
				require.Equal(t, steps, f.Steps(), "the script stops at its first error")
				last := f.Log()[k-1]
				require.Equal(t, scriptOps[k-1], last.Op)
				require.Contains(t, last.Fault, fault.Kind.String())

				got := files(t, inner)
				switch op := scriptOps[k-1]; {
				case k <= 3 && !(op == faultfs.OpClose && fault.After):
					require.Empty(t, got, "d/a was never published")
				case k <= 13:
					require.Equal(t, "hello", got["a"])
					if k > 10 || (k == 10 && fault.After) {
						require.Equal(t, "x", got["b"])
					} else {
						require.NotContains(t, got, "b")
					}
					require.NotContains(t, got, "c", "d/c is never published")
				default: // the remove
					if fault.After {
						require.Equal(t, complete, got)
					} else {
						require.Contains(t, got, "a")
					}
				}
				if fault.Kind == faultfs.Crash {
					// Everything afterwards fails and reaches nothing.
					err := fs.WriteFile(ctx, f, "d/z", []byte("z"), nil)
					require.ErrorIs(t, err, faultfs.ErrCrashed)
					_, err = f.Stat(ctx, "d")
					require.ErrorIs(t, err, faultfs.ErrCrashed)
					for _, err := range f.List(ctx, "d") {
						require.ErrorIs(t, err, faultfs.ErrCrashed)
					}
					require.NotContains(t, files(t, inner), "z")
					require.Equal(t, "dead", f.Log()[len(f.Log())-1].Fault)
				}
			})
		}
	}
}

// A failure is one step: the same call succeeds when retried.
func TestFailIsOneStep(t *testing.T) {
	ctx := context.Background()
	f := faultfs.New(memfs.New(nil))
	custom := errors.New("disk full")
	f.FailAt(2, custom)
	err := fs.WriteFile(ctx, f, "a", []byte("1"), nil) // create, write (fails), abort
	require.ErrorIs(t, err, custom)
	require.Equal(t, 3, f.Steps())
	require.NoError(t, fs.WriteFile(ctx, f, "a", []byte("1"), nil))
	f.Reset()
	f.FailAt(1, custom)
	_, err = f.Stat(ctx, "a")
	require.ErrorIs(t, err, custom)
	require.ErrorIs(t, err, faultfs.ErrInjected)
	_, err = f.Stat(ctx, "a")
	require.NoError(t, err)
	require.False(t, f.Crashed())
}

// A crash in the middle of writing a file on a local disk leaves the
// temporary file behind, as a dead process would, but never the file.
func TestCrashLeavesTemporaryFiles(t *testing.T) {
	ctx := context.Background()
	inner, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	f := faultfs.New(inner)
	f.CrashAt(3) // the Close of d/a
	err = fs.WriteFile(ctx, f, "d/a", []byte("hello"), nil)
	require.ErrorIs(t, err, faultfs.ErrCrashed)
	entries, err := fs.ReadDir(ctx, inner, "d")
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.NotEqual(t, "a", entries[0].Name)
	require.Contains(t, entries[0].Name, ".tmp")
}

// A lost acknowledgement: the publish lands but the caller sees an error.
func TestFailAfterClose(t *testing.T) {
	ctx := context.Background()
	inner := memfs.New(nil)
	f := faultfs.New(inner)
	f.Plant(faultfs.Fault{Step: 3, Kind: faultfs.Fail, After: true})
	err := fs.WriteFile(ctx, f, "snap", []byte("1"), &fs.CreateOptions{IfNotExist: true})
	require.ErrorIs(t, err, faultfs.ErrInjected)
	b, err := fs.ReadFile(ctx, inner, "snap")
	require.NoError(t, err)
	require.Equal(t, "1", string(b))
	// Retrying the publish now reports the file exists.
	err = fs.WriteFile(ctx, f, "snap", []byte("1"), &fs.CreateOptions{IfNotExist: true})
	require.ErrorIs(t, err, iofs.ErrExist)
}

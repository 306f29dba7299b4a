package fstest_test

import (
	"context"
	"errors"
	iofs "io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/memfs"
)

func TestCountingFS(t *testing.T) {
	ctx := context.Background()
	c := fstest.NewCountingFS(memfs.New(nil))
	require.NoError(t, fs.WriteFile(ctx, c, "a", []byte("abc"), nil))
	require.NoError(t, fs.WriteFile(ctx, c, "b", []byte("abc"), nil))
	for range 3 {
		_, err := fs.ReadFile(ctx, c, "a")
		require.NoError(t, err)
	}
	_, err := fs.ReadFile(ctx, c, "missing")
	require.ErrorIs(t, err, iofs.ErrNotExist)

	require.Equal(t, 3, c.Count(fstest.OpOpen, "a"))
	require.Equal(t, 0, c.Count(fstest.OpOpen, "b"))
	require.Equal(t, 4, c.Total(fstest.OpOpen), "failed opens count too")
	require.Equal(t, []string{"a", "missing"}, c.Names(fstest.OpOpen))
	require.Equal(t, 3, c.Count(fstest.OpReadAt, "a"))
	require.Equal(t, 2, c.Total(fstest.OpCreate))
	require.Equal(t, 2, c.Total(fstest.OpCommit))

	c.Reset()
	require.Zero(t, c.Total(fstest.OpOpen))
}

func TestCountingFSFault(t *testing.T) {
	ctx := context.Background()
	inner := memfs.New(nil)
	c := fstest.NewCountingFS(inner)
	boom := errors.New("injected")
	c.SetFault(func(op fstest.Op, name string) error {
		if op == fstest.OpCommit && name == "snapshot/snapshot-1" {
			return boom
		}
		return nil
	})
	err := fs.WriteFile(ctx, c, "snapshot/snapshot-1", []byte("{}"), &fs.CreateOptions{IfNotExist: true})
	require.ErrorIs(t, err, boom)
	var pe *iofs.PathError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "snapshot/snapshot-1", pe.Path)
	ok, err := fs.Exists(ctx, inner, "snapshot/snapshot-1")
	require.NoError(t, err)
	require.False(t, ok, "a failed commit publishes nothing")

	c.SetFault(nil)
	require.NoError(t, fs.WriteFile(ctx, c, "snapshot/snapshot-1", []byte("{}"), &fs.CreateOptions{IfNotExist: true}))
}

package blobcheck

import (
	"context"
	iofs "io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs"
)

// Verification checks blobfs's read-back after a conflict against the
// real store: repeating a create-if-absent with the content already
// stored — what an SDK retry of a landed request amounts to — succeeds;
// other content loses with io/fs.ErrExist. fsys must be empty.
func Verification(t *testing.T, fsys fs.FS) {
	ctx := context.Background()
	opts := &fs.CreateOptions{IfNotExist: true}
	const name = "snapshot/snapshot-1"
	for _, content := range []string{"", "commit 1 by writer A"} {
		n := name + "-" + map[bool]string{true: "empty", false: "data"}[content == ""]
		require.NoError(t, fs.WriteFile(ctx, fsys, n, []byte(content), opts))
		require.NoError(t, fs.WriteFile(ctx, fsys, n, []byte(content), opts),
			"the store answers 412 to the repeat; reading back our own bytes makes it a win")
		err := fs.WriteFile(ctx, fsys, n, []byte("commit 1 by writer B"), opts)
		require.ErrorIs(t, err, iofs.ErrExist)
		require.NotErrorIs(t, err, blobfs.ErrUnverifiedConflict)
		got, err := fs.ReadFile(ctx, fsys, n)
		require.NoError(t, err)
		require.Equal(t, content, string(got))
	}
}

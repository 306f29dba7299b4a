//go:build unix

package localfs_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
)

// TestFileMode checks that published files get the usual umask-derived
// mode (0644 under umask 022), not the 0600 of os.CreateTemp: warehouses are
// often shared by several users.
func TestFileMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	root := t.TempDir()
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	for _, opts := range []*fs.CreateOptions{nil, {IfNotExist: true}} {
		name := "plain"
		if opts != nil {
			name = "exclusive"
		}
		require.NoError(t, fs.WriteFile(context.Background(), fsys, "d/"+name, []byte("x"), opts))
		fi, err := os.Stat(filepath.Join(root, "d", name))
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), name)
	}
}

package storetest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/storetest"
)

func TestMemFS(t *testing.T) {
	storetest.Run(t, func(t *testing.T) fs.FS { return memfs.New(nil) })
}

func TestLocalFS(t *testing.T) {
	storetest.Run(t, func(t *testing.T) fs.FS {
		fsys, err := localfs.New(t.TempDir(), nil)
		require.NoError(t, err)
		return fsys
	})
}

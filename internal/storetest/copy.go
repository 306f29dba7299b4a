package storetest

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	pfs "github.com/paimon-go/paimon-go/fs"
)

// CopyDir copies the regular files below the local directory srcOSDir into
// dst under dstDir (a name in dst's namespace, "." for its root), keeping
// the relative paths, as a test does to put a table written elsewhere
// (testdata) onto the file system under test. Empty directories are not
// copied: object stores cannot hold them.
func CopyDir(ctx context.Context, dst pfs.FS, dstDir, srcOSDir string) error {
	return filepath.WalkDir(srcOSDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(srcOSDir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if dstDir != "." && dstDir != "" {
			name = dstDir + "/" + name
		}
		if err := pfs.WriteFile(ctx, dst, name, data, nil); err != nil {
			return fmt.Errorf("storetest: copy %s to %s: %w", path, name, err)
		}
		return nil
	})
}

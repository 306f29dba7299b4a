package memfs_test

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
)

// Example shows Paimon's commit primitive: of two writers creating the same
// snapshot file with IfNotExist, exactly one wins.
func Example() {
	ctx := context.Background()
	fsys := memfs.New(nil)

	opts := &fs.CreateOptions{IfNotExist: true}
	err1 := fs.WriteFile(ctx, fsys, "t/snapshot/snapshot-1", []byte(`{"id":1}`), opts)
	err2 := fs.WriteFile(ctx, fsys, "t/snapshot/snapshot-1", []byte(`{"id":1,"x":0}`), opts)
	fmt.Println(err1, errors.Is(err2, iofs.ErrExist))

	infos, _ := fs.ReadDir(ctx, fsys, "t/snapshot")
	for _, fi := range infos {
		fmt.Println(fi.Name, fi.Size)
	}
	// Output:
	// <nil> true
	// snapshot-1 8
}

package blobfs

import (
	"context"
	"errors"
	iofs "io/fs"
	"syscall"

	"gocloud.dev/blob"

	"github.com/paimon-go/paimon-go/fs"
)

var _ fs.MkdirAllFS = (*FS)(nil)

// MkdirAll makes dir exist as an empty directory by writing a directory
// marker, the zero-byte object "dir/", unless dir already exists (an
// object or marker below it, or a marker of its own). This is what
// Hadoop's S3A and GCS connectors do for FileSystem.mkdirs, which Java
// Paimon's FileSystemCatalog calls to create a database on an object
// store: without the marker a new, empty database would not exist at all
// until its first table. Only dir gets a marker; its parents exist
// through it (S3A likewise writes no parent markers). A plain object
// called dir is an error (not a directory).
//
// On azureblob the driver stores the marker's trailing slash escaped;
// Stat, List and RemoveAll know that (Markers.EscapedSlash). The fileblob
// driver has real directories but stores no empty ones, so there MkdirAll
// writes nothing, as before.
func (f *FS) MkdirAll(ctx context.Context, dir string) error {
	const op = "mkdir"
	if err := fs.CheckDir(op, dir); err != nil {
		return err
	}
	if err := fs.CheckContext(ctx, op, dir); err != nil {
		return err
	}
	if dir == "." || f.fileDriver {
		return nil
	}
	fi, err := f.Stat(ctx, dir)
	switch {
	case err == nil && fi.IsDir:
		return nil
	case err == nil:
		return fs.PathErr(op, dir, syscall.ENOTDIR)
	case !errors.Is(err, iofs.ErrNotExist):
		return err
	}
	key := f.key(dir) + "/"
	err = f.retry.do(ctx, func() error {
		return f.bucket.WriteAll(ctx, key, nil, &blob.WriterOptions{ContentType: contentType})
	})
	return f.retry.mapErr(op, dir, err)
}

package blobfs

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/paimon-go/paimon-go/fs"
)

// BucketOpener opens the bucket of a URI for [Register]. bucketURL holds
// the scheme, the bucket as host and the URI's query (driver options); its
// path is already removed. The result spans the whole bucket and owns its
// client (see [Own]).
type BucketOpener func(ctx context.Context, bucketURL *url.URL) (*FS, error)

// Register makes fs.OpenURI resolve URIs of scheme through open.
// "scheme://bucket/some/path?query" opens "scheme://bucket?query" and names
// "some/path" inside it; the FS returned to the caller owns the bucket.
// The driver packages s3fs, gcsfs and azurefs call it from init, so a
// blank import is all a program needs.
func Register(scheme string, open BucketOpener) {
	fs.Register(scheme, func(ctx context.Context, u *url.URL) (fs.FS, string, error) {
		name := strings.Trim(u.Path, "/")
		if name == "" {
			name = "."
		}
		if err := fs.CheckDir("open", name); err != nil {
			return nil, "", err
		}
		if u.Host == "" {
			return nil, "", fmt.Errorf("blobfs: %s URI without a bucket", u.Scheme)
		}
		fsys, err := open(ctx, &url.URL{Scheme: u.Scheme, Host: u.Host, RawQuery: u.RawQuery})
		if err != nil {
			return nil, "", fmt.Errorf("blobfs: %s bucket %q: %w", u.Scheme, u.Host, err)
		}
		return fsys, name, nil
	})
}

// DefaultSchemes are the cloud schemes RegisterSchemes uses when called
// without arguments.
var DefaultSchemes = []string{"s3", "gs", "azblob"}

// RegisterSchemes makes fs.OpenURI resolve URIs of the given schemes (by
// default [DefaultSchemes]) through gocloud's generic blob.OpenBucket, for
// drivers without a package of their own here; for S3, GCS and Azure,
// blank-import s3fs, gcsfs or azurefs instead (a later RegisterSchemes
// call for their scheme would replace their opener). It registers nothing
// by itself at import time, and it links no driver: the program must also
// blank-import each gocloud driver it wants.
//
// URIs map to buckets as described for [Register].
//
// Registering "file" would replace fs/localfs for file URIs and make
// create-if-absent unsupported (see the package documentation); don't.
func RegisterSchemes(schemes ...string) {
	if len(schemes) == 0 {
		schemes = DefaultSchemes
	}
	for _, s := range schemes {
		Register(s, func(ctx context.Context, u *url.URL) (*FS, error) {
			return Open(ctx, u.String(), "", nil)
		})
	}
}

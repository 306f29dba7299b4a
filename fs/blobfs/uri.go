package blobfs

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/paimon-go/paimon-go/fs"
)

// DefaultSchemes are the cloud schemes RegisterSchemes uses when called
// without arguments.
var DefaultSchemes = []string{"s3", "gs", "azblob"}

// RegisterSchemes makes fs.OpenURI resolve URIs of the given schemes (by
// default [DefaultSchemes]) through gocloud's blob.OpenBucket. It registers
// nothing by itself at import time, and it links no driver: the program
// must also blank-import each gocloud driver it wants, for example
// gocloud.dev/blob/s3blob for "s3".
//
// "scheme://bucket/some/path?query" opens the bucket "scheme://bucket?query"
// (the query carries driver options such as region) and names
// "some/path" inside it. The returned FS owns the bucket.
//
// Registering "file" would replace fs/localfs for file URIs and make
// create-if-absent unsupported (see the package documentation); don't.
func RegisterSchemes(schemes ...string) {
	if len(schemes) == 0 {
		schemes = DefaultSchemes
	}
	for _, s := range schemes {
		fs.Register(s, openURL)
	}
}

func openURL(ctx context.Context, u *url.URL) (fs.FS, string, error) {
	name := strings.Trim(u.Path, "/")
	if name == "" {
		name = "."
	}
	if err := fs.CheckDir("open", name); err != nil {
		return nil, "", err
	}
	bucketURL := (&url.URL{Scheme: u.Scheme, Host: u.Host, RawQuery: u.RawQuery}).String()
	fsys, err := Open(ctx, bucketURL, "", nil)
	if err != nil {
		return nil, "", fmt.Errorf("blobfs: %w", err)
	}
	return fsys, name, nil
}

package fs

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Opener opens the file system that a URI points into. It returns the FS
// and the name of the URI's location inside it ("." for its root); for
// "s3://bucket/warehouse" that is the bucket and "warehouse". Returning the
// container rather than a [Sub] of it lets callers reach siblings of the
// location (a table's warehouse, say) and keeps one client per bucket.
type Opener func(ctx context.Context, u *url.URL) (fsys FS, name string, err error)

var (
	registryMu sync.RWMutex
	registry   = map[string]Opener{}
)

// Register makes opener responsible for URIs with the given scheme
// (case-insensitive). A later registration for the same scheme replaces the
// earlier one, so a program can substitute its own implementation.
// Implementation packages call it from init; fs/localfs registers "file",
// fs/memfs registers "mem". Register panics if scheme is not a valid URI
// scheme or opener is nil, both programmer errors.
func Register(scheme string, opener Opener) {
	if !schemeRE.MatchString(scheme) || len(scheme) < 2 {
		panic(fmt.Sprintf("fs: Register: invalid scheme %q", scheme))
	}
	if opener == nil {
		panic("fs: Register: nil opener for scheme " + scheme)
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[strings.ToLower(scheme)] = opener
}

// Schemes returns the registered schemes, sorted.
func Schemes() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]string, 0, len(registry))
	for s := range registry {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// schemeRE matches an RFC 3986 scheme followed by ':'. Single-letter
// schemes are excluded by the caller so that Windows paths such as
// `C:\data` stay paths.
var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*$`)

// OpenURI opens the file system a URI or plain path points into and returns
// it together with the location's name inside it (see [Opener]). Callers
// that want a file system rooted at the location use [Sub]:
//
//	fsys, name, err := fs.OpenURI(ctx, "file:///data/warehouse")
//	// ...
//	wh, err := fs.Sub(fsys, name)
//
// Accepted forms:
//   - "scheme://authority/path" for any registered scheme;
//   - "file:/abs/path", the Hadoop style Java Paimon prints;
//   - a plain operating-system path (absolute or relative), handled by the
//     "file" opener with the path made absolute first.
//
// The "file" and "mem" schemes work after importing fs/localfs and fs/memfs
// respectively; s3, gs and azblob after importing fs/blobfs/s3fs, gcsfs and
// azurefs (other gocloud drivers through blobfs.RegisterSchemes). An
// unregistered scheme yields an error wrapping [ErrNoScheme]. The caller
// owns the FS and must Close it.
func OpenURI(ctx context.Context, uri string) (FS, string, error) {
	u, err := parseURI(uri)
	if err != nil {
		return nil, "", err
	}
	registryMu.RLock()
	opener := registry[u.Scheme]
	registryMu.RUnlock()
	if opener == nil {
		hint := ""
		switch u.Scheme {
		case "file":
			hint = " (import github.com/paimon-go/paimon-go/fs/localfs)"
		case "mem":
			hint = " (import github.com/paimon-go/paimon-go/fs/memfs)"
		default:
			hint = " (blank-import fs/blobfs/s3fs, gcsfs or azurefs, or a gocloud.dev driver with blobfs.RegisterSchemes)"
		}
		return nil, "", fmt.Errorf("%w %q%s: %s", ErrNoScheme, u.Scheme, hint, uri)
	}
	fsys, name, err := opener(ctx, u)
	if err != nil {
		return nil, "", fmt.Errorf("fs: open %s: %w", uri, err)
	}
	return fsys, name, nil
}

// parseURI turns uri into a URL with a lower-case scheme; plain paths become
// file URLs without any percent-decoding (a '%' in a path is a literal).
func parseURI(uri string) (*url.URL, error) {
	if uri == "" {
		return nil, fmt.Errorf("%w: empty URI", ErrInvalidName)
	}
	scheme, _, found := strings.Cut(uri, ":")
	if !found || len(scheme) < 2 || !schemeRE.MatchString(scheme) {
		abs, err := filepath.Abs(uri)
		if err != nil {
			return nil, fmt.Errorf("fs: resolve path %q: %w", uri, err)
		}
		return &url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}, nil
	}
	u, err := url.Parse(uri)
	if err != nil {
		return nil, fmt.Errorf("fs: parse URI: %w", err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	return u, nil
}

// OpenFileURI opens the file a URI or plain path names, in the file system
// OpenURI opens for it (one per call, closed with the file). It serves as a
// paimon.BlobOpener: Java opens the objects BLOB descriptors name with the
// table's FileIO, which reaches any path of its scheme.
func OpenFileURI(ctx context.Context, uri string) (File, error) {
	fsys, name, err := OpenURI(ctx, uri)
	if err != nil {
		return nil, err
	}
	f, err := fsys.Open(ctx, name)
	if err != nil {
		_ = fsys.Close()
		return nil, err
	}
	return &ownedFile{File: f, fsys: fsys}, nil
}

// ownedFile closes the file system it came from with the file.
type ownedFile struct {
	File
	fsys FS
}

func (f *ownedFile) Close() error {
	err := f.File.Close()
	if cerr := f.fsys.Close(); err == nil {
		err = cerr
	}
	return err
}

package fs

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
)

// URIOpener opens files by URI as OpenFileURI does, but keeps the file
// system of each location it opens (a bucket of an object store, the local
// file system) and reuses it for later URIs of the same place, until
// Close. OpenFileURI opens a file system per call: for an object store that
// is a client per file, with its connections and credential lookups, which
// a table whose BLOB descriptors name thousands of objects in one bucket
// pays for every row. Its OpenFile method serves as a paimon.BlobOpener:
//
//	blobs := fs.NewURIOpener()
//	defer blobs.Close()
//	tbl, err := paimon.OpenTable(ctx, fsys, path, &paimon.TableOptions{BlobOpener: blobs.OpenFile})
//
// URIs share a file system when they have the same scheme, user
// information, host and query (for the file scheme also the same volume).
// A URIOpener is safe for concurrent use; a file system is opened once even
// when several goroutines ask for it at the same time, and a failed open is
// not remembered.
type URIOpener struct {
	mu     sync.Mutex
	fss    map[string]*openedFS
	closed bool
}

// openedFS is a file system being opened (ready not yet closed) or open,
// with the part of a URI's path that comes before the name of its location
// inside it ("/" for a bucket, "/C:/" for a Windows volume).
type openedFS struct {
	ready  chan struct{}
	fsys   FS
	prefix string
	err    error
}

// NewURIOpener returns a URIOpener that has opened nothing yet.
func NewURIOpener() *URIOpener {
	return &URIOpener{fss: map[string]*openedFS{}}
}

// OpenFile opens the file uri names (a URI or a plain path, as OpenURI
// takes). The file stays usable until it is closed or the URIOpener is.
func (o *URIOpener) OpenFile(ctx context.Context, uri string) (File, error) {
	u, err := parseURI(uri)
	if err != nil {
		return nil, err
	}
	key := locationKey(u)
	for {
		o.mu.Lock()
		if o.closed {
			o.mu.Unlock()
			return nil, PathErr("open", uri, ErrClosed)
		}
		e, ok := o.fss[key]
		if !ok {
			e = &openedFS{ready: make(chan struct{})}
			o.fss[key] = e
		}
		o.mu.Unlock()
		if !ok {
			return o.open(ctx, key, u, uri, e)
		}
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err != nil {
			// The open this call waited for failed (perhaps only for its
			// own caller's context) or is not shared: try again, which
			// opens afresh.
			continue
		}
		name, ok := nameAfter(u.Path, e.prefix)
		if !ok {
			return OpenFileURI(ctx, uri) // a path the opener may spell differently
		}
		return e.fsys.Open(ctx, name)
	}
}

// open opens the file system of e's location, keeps it for later URIs
// when their names can be derived from their paths, and opens uri in it.
func (o *URIOpener) open(ctx context.Context, key string, u *url.URL, uri string, e *openedFS) (File, error) {
	fsys, name, err := OpenURI(ctx, uri)
	if err != nil {
		e.err = err
		o.forget(key, e)
		return nil, err
	}
	prefix, known := pathPrefix(u.Path, name)
	if !known {
		// An opener whose names are not the tail of the path: keep
		// nothing, and open this URI as OpenFileURI does.
		e.err = errNotShared
		o.forget(key, e)
		f, err := fsys.Open(ctx, name)
		if err != nil {
			_ = fsys.Close()
			return nil, err
		}
		return &ownedFile{File: f, fsys: fsys}, nil
	}
	e.fsys, e.prefix = fsys, prefix
	close(e.ready)
	return fsys.Open(ctx, name)
}

// errNotShared marks a location whose file system is opened per URI.
var errNotShared = errors.New("fs: file system not shared")

// forget drops a failed or unshared entry, so that the next URI of its
// location opens afresh, and wakes the goroutines waiting for it.
func (o *URIOpener) forget(key string, e *openedFS) {
	o.mu.Lock()
	if o.fss[key] == e {
		delete(o.fss, key)
	}
	o.mu.Unlock()
	close(e.ready)
}

// pathPrefix returns the part of path before name, the name an opener gave
// path's location, when name is path's tail ("/warehouse/t" and
// "warehouse/t" give "/"; any path and "." give path itself only when it is
// empty or "/").
func pathPrefix(path, name string) (string, bool) {
	if name == "." {
		if strings.Trim(path, "/") == "" {
			return "/", true
		}
		return "", false
	}
	trimmed := strings.TrimRight(path, "/")
	if !strings.HasSuffix(trimmed, name) {
		return "", false
	}
	prefix := trimmed[:len(trimmed)-len(name)]
	if !strings.HasSuffix(prefix, "/") {
		return "", false
	}
	return prefix, true
}

// nameAfter is the name of path's location, given the prefix its file
// system's names come after; false when path does not start with it or
// the rest is not a valid name (say "a/./b", which an opener may clean).
func nameAfter(path, prefix string) (string, bool) {
	if path == "" && prefix == "/" {
		return ".", true
	}
	if !strings.HasPrefix(path, prefix) {
		return "", false
	}
	name := strings.TrimRight(path[len(prefix):], "/")
	if name == "" {
		name = "."
	}
	if CheckDir("open", name) != nil {
		return "", false
	}
	return name, true
}

// locationKey is what decides which file system a URI opens.
func locationKey(u *url.URL) string {
	key := u.Scheme + "://" + u.User.String() + "@" + u.Host + "?" + u.RawQuery
	if u.Scheme == "file" && len(u.Path) >= 3 && u.Path[0] == '/' && u.Path[2] == ':' {
		key += "#" + strings.ToUpper(u.Path[1:3])
	}
	return key
}

// Close closes every file system the URIOpener opened; files opened
// through it must be closed first. Later OpenFile calls fail with
// ErrClosed. Close waits for opens in progress.
func (o *URIOpener) Close() error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return nil
	}
	o.closed = true
	fss := o.fss
	o.fss = nil
	o.mu.Unlock()
	var errs []error
	for _, e := range fss {
		<-e.ready
		if e.fsys != nil {
			errs = append(errs, e.fsys.Close())
		}
	}
	return errors.Join(errs...)
}

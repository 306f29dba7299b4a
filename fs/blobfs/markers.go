package blobfs

import (
	"context"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/paimon-go/paimon-go/fs"
)

// Markers describes the directory markers of one store beyond the portable
// kind. Hadoop's S3A and GCS connectors, consoles and many tools represent
// an empty directory by a zero-byte object "dir/"; blobfs always treats such
// an object as the directory "dir" and never as a file. Some stores need
// more, which their driver package declares here:
//
//   - azureblob stores a key's trailing slash escaped ("dir/" becomes
//     "dir__0x2f__"), so a marker written through gocloud is not listed
//     under the prefix "dir/": Stat must look it up and RemoveAll must
//     delete it by key (EscapedSlash). Listings of the parent still show
//     it, as an object named "dir/", which blobfs maps to the directory.
//     A "dir/" blob written by another client is stored unescaped, so
//     gocloud cannot address it; RemoveAll deletes it through DeleteRaw.
//   - Hadoop's Azure connectors (WASB, and ABFS on accounts with a
//     hierarchical namespace) mark a directory with a zero-byte blob named
//     like the directory itself, carrying the metadata hdi_isfolder=true.
//     Listed, it looks like an empty file (Listed, with BeforeList asking
//     for metadata); looked up, its metadata gives it away (Attributes).
//
// The zero value recognises only the portable markers.
type Markers struct {
	// EscapedSlash declares that the driver escapes a trailing slash in
	// keys.
	EscapedSlash bool
	// BeforeList, if set, becomes blob.ListOptions.BeforeList of every
	// listing, so that listed objects carry what Listed needs.
	BeforeList func(as func(any) bool) error
	// Listed, if set, reports whether a listed object (not a common
	// prefix) is a marker for the directory of the same name.
	Listed func(obj *blob.ListObject) bool
	// Attributes, if set, reports whether an object is a marker for the
	// directory of the same name, judging by its attributes.
	Attributes func(attrs *blob.Attributes) bool
	// DeleteRaw, if set, deletes the object stored under exactly key,
	// bypassing the driver's escaping, and ignores a missing object.
	// With EscapedSlash, a listed key "dir/" may be either the escaped
	// marker (which Bucket.Delete reaches) or one stored unescaped by
	// another client (which only DeleteRaw reaches); RemoveAll removes
	// both.
	DeleteRaw func(ctx context.Context, b *blob.Bucket, key string) error
}

// isMarker reports whether the object behind attrs stands for a directory.
func (f *FS) isMarker(attrs *blob.Attributes) bool {
	return f.markers.Attributes != nil && f.markers.Attributes(attrs)
}

// entry turns an object listed below prefix into the entry List reports;
// ok is false for objects our names cannot express and for the listed
// directory's own marker.
func (f *FS) entry(prefix string, obj *blob.ListObject) (fi fs.FileInfo, ok bool) {
	name := strings.TrimPrefix(obj.Key, prefix)
	isDir := obj.IsDir
	// A common prefix "sub/", or a "sub/" marker object that a driver
	// listed by its escaped key rather than as a prefix.
	if base, cut := strings.CutSuffix(name, "/"); cut {
		name, isDir = base, true
	}
	// "" is the listed directory's own marker; "a/b" or "a//" are keys
	// our names cannot express.
	if name == "" || strings.Contains(name, "/") {
		return fs.FileInfo{}, false
	}
	if !isDir && f.markers.Listed != nil && f.markers.Listed(obj) {
		isDir = true
	}
	fi = fs.FileInfo{Name: name, IsDir: isDir}
	if !isDir {
		fi.Size, fi.ModTime = obj.Size, obj.ModTime
	}
	return fi, true
}

// escapedMarker reports whether a marker object "key/" exists on a store
// that escapes it (see Markers.EscapedSlash); always false elsewhere.
func (f *FS) escapedMarker(ctx context.Context, key string) (bool, error) {
	if !f.markers.EscapedSlash {
		return false, nil
	}
	_, err := f.attributes(ctx, key+"/")
	switch {
	case err == nil:
		return true, nil
	case f.retry.code(err) == gcerrors.NotFound:
		return false, nil
	default:
		return false, err
	}
}

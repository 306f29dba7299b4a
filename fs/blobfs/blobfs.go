package blobfs

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path"
	"strings"
	"syscall"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/paimon-go/paimon-go/fs"
)

// ErrNotAtomic reports a create-if-absent on a bucket whose driver cannot
// do it atomically (fileblob). It wraps fs.ErrUnsupported.
var ErrNotAtomic = fmt.Errorf("blobfs: create-if-absent is not atomic on this bucket (fileblob); use fs/localfs: %w", fs.ErrUnsupported)

// Options tunes a blob file system. A nil *Options means defaults.
type Options struct {
	// UploadBufferSize is the part size for multipart uploads
	// (blob.WriterOptions.BufferSize). Zero lets the driver choose.
	UploadBufferSize int

	// Retry bounds the retries of reads and of create-if-absent
	// verification; nil means the defaults of [RetryPolicy].
	Retry *RetryPolicy

	// Markers describes driver-specific directory markers; the zero value
	// recognises only the portable "dir/" objects. The driver packages
	// (azurefs) fill it in.
	Markers Markers

	// ErrorCode, if set, classifies the bucket's errors in place of
	// gcerrors.Code, for drivers whose own classification is wrong
	// (s3fs sets it; see there). Everything blobfs decides — not found,
	// lost race, retry — follows its answer.
	ErrorCode func(error) gcerrors.ErrorCode
}

// FS is an fs.FS over a *blob.Bucket. It implements fs.RemoveAllFS,
// fs.ReadFileFS and fs.MkdirAllFS (by a directory marker, see MkdirAll). It is safe for concurrent use.
type FS struct {
	bucket     *blob.Bucket
	prefix     string // "" or a valid name, without trailing slash
	owns       bool   // Close closes the bucket
	fileDriver bool   // fileblob: IfNotExist is refused
	bufSize    int
	retry      retrier
	markers    Markers
}

var (
	_ fs.RemoveAllFS = (*FS)(nil)
	_ fs.ReadFileFS  = (*FS)(nil)
)

// New returns a file system over bucket with every name placed below
// prefix ("" for the whole bucket; surrounding slashes are ignored). The
// caller keeps ownership of bucket: Close on the result does not close it.
func New(bucket *blob.Bucket, prefix string, opts *Options) (*FS, error) {
	if bucket == nil {
		return nil, errors.New("blobfs: nil bucket")
	}
	prefix = strings.Trim(prefix, "/")
	if prefix == "." {
		prefix = ""
	}
	if prefix != "" && !fs.ValidName(prefix) {
		return nil, fmt.Errorf("blobfs: prefix %q: %w", prefix, fs.ErrInvalidName)
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	return &FS{
		bucket:     bucket,
		prefix:     prefix,
		fileDriver: isFileBucket(bucket),
		bufSize:    o.UploadBufferSize,
		retry:      retrier{o.Retry.withDefaults(), o.ErrorCode},
		markers:    o.Markers,
	}, nil
}

// Own is New for a bucket the caller hands over: Close on the result
// closes bucket, and Own closes it itself when it fails. Driver packages
// (s3fs, gcsfs, azurefs) build their file systems this way.
func Own(bucket *blob.Bucket, prefix string, opts *Options) (*FS, error) {
	f, err := New(bucket, prefix, opts)
	if err != nil {
		if bucket != nil {
			bucket.Close()
		}
		return nil, err
	}
	f.owns = true
	return f, nil
}

// Open opens the bucket at bucketURL with blob.OpenBucket (the driver for
// its scheme must be linked, e.g. by blank-importing gocloud.dev/blob/s3blob)
// and returns a file system below prefix. The FS owns the bucket: Close
// closes it.
func Open(ctx context.Context, bucketURL, prefix string, opts *Options) (*FS, error) {
	b, err := blob.OpenBucket(ctx, bucketURL)
	if err != nil {
		return nil, fmt.Errorf("blobfs: open bucket %s: %w", bucketURL, err)
	}
	return Own(b, prefix, opts)
}

// isFileBucket recognises the fileblob driver: it is the only driver whose
// Bucket.As accepts *os.FileInfo (the bucket directory). Detecting the
// driver rather than the URL scheme also catches buckets built with
// fileblob.OpenBucket directly.
func isFileBucket(b *blob.Bucket) bool {
	var fi os.FileInfo
	return b.As(&fi)
}

// Bucket returns the underlying bucket, for driver-specific needs.
func (f *FS) Bucket() *blob.Bucket { return f.bucket }

// String describes the file system for logs.
func (f *FS) String() string { return "blobfs(" + f.prefix + ")" }

// key maps a valid name to its object key.
func (f *FS) key(name string) string {
	switch {
	case name == ".":
		return f.prefix
	case f.prefix == "":
		return name
	default:
		return f.prefix + "/" + name
	}
}

// dirPrefix is the listing prefix for the directory name ("" for the root
// of an unprefixed bucket).
func (f *FS) dirPrefix(name string) string {
	if k := f.key(name); k != "" {
		return k + "/"
	}
	return ""
}

// mapErr turns a gocloud error into the fs error contract.
func (c classifier) mapErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	// fileblob reports a path through a file ("file/child") as ENOTDIR;
	// for an object store that key simply does not exist.
	if c.code(err) == gcerrors.NotFound || errors.Is(err, syscall.ENOTDIR) {
		return fs.NotExist(op, name, err)
	}
	return fs.PathErr(op, name, err)
}

// Open looks up the object's size and returns a File doing ranged reads.
func (f *FS) Open(ctx context.Context, name string) (fs.File, error) {
	const op = "open"
	if err := fs.CheckName(op, name); err != nil {
		return nil, err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return nil, err
	}
	key := f.key(name)
	attrs, err := f.attributes(ctx, key)
	if err != nil {
		return nil, f.retry.mapErr(op, name, err)
	}
	if f.isMarker(attrs) {
		return nil, fs.PathErr(op, name, errIsDir)
	}
	return &file{ctx: ctx, bucket: f.bucket, retry: f.retry, key: key, name: name, size: attrs.Size}, nil
}

// errIsDir is the cause when Open meets a directory marker object.
var errIsDir = errors.New("blobfs: is a directory")

// attributes looks up an object's attributes, retrying transient errors.
func (f *FS) attributes(ctx context.Context, key string) (*blob.Attributes, error) {
	var attrs *blob.Attributes
	err := f.retry.do(ctx, func() error {
		var err error
		attrs, err = f.bucket.Attributes(ctx, key)
		return err
	})
	return attrs, err
}

// listPage fetches one listing page, retrying transient errors.
func (f *FS) listPage(ctx context.Context, token []byte, size int, opts *blob.ListOptions) ([]*blob.ListObject, []byte, error) {
	var objs []*blob.ListObject
	var next []byte
	err := f.retry.do(ctx, func() error {
		var err error
		objs, next, err = f.bucket.ListPage(ctx, token, size, opts)
		return err
	})
	return objs, next, err
}

// listOptions returns the options for a listing below prefix.
func (f *FS) listOptions(prefix, delim string) *blob.ListOptions {
	return &blob.ListOptions{Prefix: prefix, Delimiter: delim, BeforeList: f.markers.BeforeList}
}

// listPageSize is the number of objects asked for per listing request
// (the S3 and GCS maximum).
const listPageSize = 1000

// ReadFile reads the whole object with one request. See fs.ReadFileFS.
func (f *FS) ReadFile(ctx context.Context, name string) ([]byte, error) {
	const op = "read"
	if err := fs.CheckName(op, name); err != nil {
		return nil, err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return nil, err
	}
	var b []byte
	err := f.retry.do(ctx, func() error {
		var err error
		b, err = f.bucket.ReadAll(ctx, f.key(name))
		return err
	})
	if err != nil {
		return nil, f.retry.mapErr(op, name, err)
	}
	return b, nil
}

// Stat describes an object, or a directory when objects exist below name.
// The root is always a directory.
func (f *FS) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	const op = "stat"
	if err := fs.CheckDir(op, name); err != nil {
		return fs.FileInfo{}, err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return fs.FileInfo{}, err
	}
	if name == "." {
		return fs.FileInfo{Name: ".", IsDir: true}, nil
	}
	key := f.key(name)
	attrs, err := f.attributes(ctx, key)
	switch {
	case err == nil && f.isMarker(attrs):
		return fs.FileInfo{Name: path.Base(name), IsDir: true}, nil
	case err == nil:
		return fs.FileInfo{Name: path.Base(name), Size: attrs.Size, ModTime: attrs.ModTime}, nil
	case f.retry.code(err) != gcerrors.NotFound:
		return fs.FileInfo{}, f.retry.mapErr(op, name, err)
	}
	// No object: a directory exists if any object (or marker) is below it.
	objs, _, lerr := f.listPage(ctx, blob.FirstPageToken, 1, &blob.ListOptions{Prefix: f.dirPrefix(name)})
	if lerr != nil {
		return fs.FileInfo{}, f.retry.mapErr(op, name, lerr)
	}
	if len(objs) == 0 {
		// A marker the driver stored under an escaped key ("dir/" in
		// azureblob) does not match the listing prefix; look it up.
		ok, merr := f.escapedMarker(ctx, key)
		if merr != nil {
			return fs.FileInfo{}, f.retry.mapErr(op, name, merr)
		}
		if !ok {
			return fs.FileInfo{}, fs.NotExist(op, name, err)
		}
	}
	return fs.FileInfo{Name: path.Base(name), IsDir: true}, nil
}

// List yields the objects and common prefixes directly below dir, in the
// store's order (lexicographic by key for the major stores), one listing
// page (up to 1000 entries) per request. Directory markers are reported as
// the directories they stand for, once.
func (f *FS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	return func(yield func(fs.FileInfo, error) bool) {
		const op = "list"
		if err := fs.CheckDir(op, dir); err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		if err := fs.CheckContext(ctx, op, dir); err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		prefix := f.dirPrefix(dir)
		opts := f.listOptions(prefix, "/")
		dirs := map[string]bool{} // directories yielded, to merge markers with prefixes
		for token := blob.FirstPageToken; len(token) > 0; {
			objs, next, err := f.listPage(ctx, token, listPageSize, opts)
			if err != nil {
				yield(fs.FileInfo{}, f.retry.mapErr(op, dir, err))
				return
			}
			for _, obj := range objs {
				fi, ok := f.entry(prefix, obj)
				if !ok || (fi.IsDir && dirs[fi.Name]) {
					continue
				}
				if fi.IsDir {
					dirs[fi.Name] = true
				}
				if !yield(fi, nil) {
					return
				}
			}
			token = next
		}
	}
}

// Remove deletes the named object.
func (f *FS) Remove(ctx context.Context, name string) error {
	const op = "remove"
	if err := fs.CheckName(op, name); err != nil {
		return err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return err
	}
	return f.retry.mapErr(op, name, f.bucket.Delete(ctx, f.key(name)))
}

// RemoveAll deletes the object called name and every object below it,
// using one flat listing instead of a walk per directory.
func (f *FS) RemoveAll(ctx context.Context, name string) error {
	const op = "removeall"
	if err := fs.CheckName(op, name); err != nil {
		return err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return err
	}
	opts := &blob.ListOptions{Prefix: f.dirPrefix(name)}
	for token := blob.FirstPageToken; len(token) > 0; {
		objs, next, err := f.listPage(ctx, token, listPageSize, opts)
		if err != nil {
			return f.retry.mapErr(op, name, err)
		}
		for _, obj := range objs {
			if err := f.deleteIfExists(ctx, obj.Key); err != nil {
				return f.retry.mapErr(op, name, err)
			}
			if f.markers.DeleteRaw != nil && strings.HasSuffix(obj.Key, "/") {
				if err := f.markers.DeleteRaw(ctx, f.bucket, obj.Key); err != nil {
					return f.retry.mapErr(op, name, err)
				}
			}
		}
		token = next
	}
	// A marker stored under an escaped key is not listed with the rest.
	if f.markers.EscapedSlash {
		if err := f.deleteIfExists(ctx, f.key(name)+"/"); err != nil {
			return f.retry.mapErr(op, name, err)
		}
	}
	// The object called name itself goes last. On fileblob that key may be
	// a directory still holding empty subdirectories, which Delete cannot
	// remove; no object of that name exists, so the job is done (fileblob
	// lists directories only through the files in them).
	err := f.deleteIfExists(ctx, f.key(name))
	if err != nil {
		if _, aerr := f.bucket.Attributes(ctx, f.key(name)); f.retry.code(aerr) == gcerrors.NotFound {
			return nil
		}
	}
	return f.retry.mapErr(op, name, err)
}

func (f *FS) deleteIfExists(ctx context.Context, key string) error {
	err := f.bucket.Delete(ctx, key)
	if err != nil && f.retry.code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}

// Close closes the bucket if the FS opened it (see Open); otherwise it
// does nothing.
func (f *FS) Close() error {
	if f.owns {
		return f.bucket.Close()
	}
	return nil
}

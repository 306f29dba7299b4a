package gcsfs

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/blob/driver"
	"gocloud.dev/gcerrors"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	raw "google.golang.org/api/storage/v1"
)

// bucket is a gocloud blob driver over the GCS JSON API client
// (google.golang.org/api/storage/v1), in place of gocloud's gcsblob.
//
// Why not gcsblob: it is built on cloud.google.com/go/storage, which links
// its gRPC transport with xDS (Envoy's protobuf registry), OpenTelemetry's
// Cloud Monitoring exporter and their descriptors whether or not gRPC is
// used: about 18 MB of the stripped paimon binary. Paimon needs only
// objects get/insert/list/delete over HTTP, which the generated JSON
// client does with the same resumable uploads and the same
// ifGenerationMatch=0 precondition as the storage package's HTTP path.
//
// Keys are sent unchanged. gcsblob hex-escapes "\n", "\r" and "../" in
// keys; Paimon names contain none of them (fs.CheckName), so both drivers
// name every Paimon object the same.
//
// The bucket keeps the HTTP client and endpoint, not the *raw.Service, and
// builds the (cheap) service value per call: a type reachable from a value
// converted to an interface keeps all its exported methods when the
// program uses reflection on methods, as this one does, and the service
// type reaches every call type of the Storage API (about 1 MB).
type bucket struct {
	name           string
	client         *http.Client
	endpoint       string // "" for the default
	universeDomain string
}

func (b *bucket) objects(ctx context.Context) (*raw.ObjectsService, error) {
	opts := []option.ClientOption{option.WithHTTPClient(b.client)}
	if b.endpoint != "" {
		opts = append(opts, option.WithEndpoint(b.endpoint))
	}
	if b.universeDomain != "" {
		opts = append(opts, option.WithUniverseDomain(b.universeDomain))
	}
	svc, err := raw.NewService(ctx, opts...)
	if err != nil {
		return nil, err
	}
	return svc.Objects, nil
}

// errUnimplemented answers SignedURL, which Paimon does not use.
var errUnimplemented = errors.New("gcsfs: signed URLs are not supported")

// chunkSize is the part size of resumable uploads: objects up to this size
// go in one request (as with the storage package's default of 16 MiB).
const chunkSize = 16 << 20

// ErrorCode maps the JSON API's HTTP statuses to gocloud codes. Unlike
// gcsblob, 403 is PermissionDenied rather than NotFound: a warehouse the
// credentials may not read is not an empty one.
func (b *bucket) ErrorCode(err error) gcerrors.ErrorCode {
	switch {
	case errors.Is(err, errUnimplemented):
		return gcerrors.Unimplemented
	case errors.Is(err, context.Canceled):
		return gcerrors.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return gcerrors.DeadlineExceeded
	}
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) {
		return gcerrors.Unknown
	}
	switch c := gerr.Code; {
	case c == http.StatusNotFound:
		return gcerrors.NotFound
	case c == http.StatusUnauthorized || c == http.StatusForbidden:
		return gcerrors.PermissionDenied
	case c == http.StatusPreconditionFailed:
		return gcerrors.FailedPrecondition
	case c == http.StatusTooManyRequests:
		return gcerrors.ResourceExhausted
	case c == http.StatusRequestTimeout:
		return gcerrors.DeadlineExceeded
	case c == http.StatusBadRequest:
		return gcerrors.InvalidArgument
	case c >= 500:
		return gcerrors.Internal
	}
	return gcerrors.Unknown
}

// As exposes nothing. Handing the generated client's types out through
// interfaces would keep all their methods in the binary (about 1 MB).
func (b *bucket) As(any) bool { return false }

// ErrorAs exposes *googleapi.Error.
func (b *bucket) ErrorAs(err error, i any) bool {
	if p, ok := i.(**googleapi.Error); ok {
		return errors.As(err, p)
	}
	return false
}

func (b *bucket) Attributes(ctx context.Context, key string) (*driver.Attributes, error) {
	objs, err := b.objects(ctx)
	if err != nil {
		return nil, err
	}
	obj, err := objs.Get(b.name, key).Context(ctx).Do()
	if err != nil {
		return nil, err
	}
	md5, _ := base64.StdEncoding.DecodeString(obj.Md5Hash)
	return &driver.Attributes{
		CacheControl:       obj.CacheControl,
		ContentDisposition: obj.ContentDisposition,
		ContentEncoding:    obj.ContentEncoding,
		ContentLanguage:    obj.ContentLanguage,
		ContentType:        obj.ContentType,
		Metadata:           obj.Metadata,
		CreateTime:         parseTime(obj.TimeCreated),
		ModTime:            parseTime(obj.Updated),
		Size:               int64(obj.Size),
		MD5:                md5,
		ETag:               obj.Etag,
		AsFunc:             noAs,
	}, nil
}

func noAs(any) bool { return false }

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func (b *bucket) ListPaged(ctx context.Context, opts *driver.ListOptions) (*driver.ListPage, error) {
	objs, err := b.objects(ctx)
	if err != nil {
		return nil, err
	}
	call := objs.List(b.name).Context(ctx).Prefix(opts.Prefix).Delimiter(opts.Delimiter)
	if opts.PageSize > 0 {
		call = call.MaxResults(int64(opts.PageSize))
	}
	if len(opts.PageToken) > 0 {
		call = call.PageToken(string(opts.PageToken))
	}
	if opts.BeforeList != nil {
		if err := opts.BeforeList(noAs); err != nil {
			return nil, err
		}
	}
	res, err := call.Do()
	if err != nil {
		return nil, err
	}
	page := &driver.ListPage{NextPageToken: []byte(res.NextPageToken)}
	for _, obj := range res.Items {
		md5, _ := base64.StdEncoding.DecodeString(obj.Md5Hash)
		page.Objects = append(page.Objects, &driver.ListObject{
			Key:     obj.Name,
			ModTime: parseTime(obj.Updated),
			Size:    int64(obj.Size),
			MD5:     md5,
			AsFunc:  noAs,
		})
	}
	for _, p := range res.Prefixes {
		page.Objects = append(page.Objects, &driver.ListObject{Key: p, IsDir: true, AsFunc: noAs})
	}
	// The JSON API lists objects and prefixes apart, each in key order;
	// gocloud wants one key order.
	sortObjects(page.Objects)
	return page, nil
}

func sortObjects(objs []*driver.ListObject) {
	// Insertion sort of two sorted runs: pages are at most 1000 entries.
	for i := 1; i < len(objs); i++ {
		for j := i; j > 0 && objs[j].Key < objs[j-1].Key; j-- {
			objs[j], objs[j-1] = objs[j-1], objs[j]
		}
	}
}

// NewRangeReader reads [offset, offset+length) (to the end when length is
// negative) with one media download carrying a Range header. A zero length
// or an offset at or past the end reads the metadata only, as the storage
// package does.
func (b *bucket) NewRangeReader(ctx context.Context, key string, offset, length int64, opts *driver.ReaderOptions) (driver.Reader, error) {
	if length == 0 {
		return b.emptyReader(ctx, key)
	}
	objs, err := b.objects(ctx)
	if err != nil {
		return nil, err
	}
	call := objs.Get(b.name, key).Context(ctx)
	if offset > 0 || length > 0 {
		end := ""
		if length > 0 {
			end = strconv.FormatInt(offset+length-1, 10)
		}
		call.Header().Set("Range", "bytes="+strconv.FormatInt(offset, 10)+"-"+end)
	}
	resp, err := call.Download()
	if err != nil {
		var gerr *googleapi.Error
		if errors.As(err, &gerr) && gerr.Code == http.StatusRequestedRangeNotSatisfiable {
			return b.emptyReader(ctx, key)
		}
		return nil, err
	}
	size := resp.ContentLength
	if resp.StatusCode == http.StatusPartialContent {
		// "bytes first-last/size"
		cr := resp.Header.Get("Content-Range")
		i := strings.LastIndexByte(cr, '/')
		n, perr := strconv.ParseInt(cr[i+1:], 10, 64)
		if i < 0 || perr != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("gcsfs: gs://%s/%s: malformed Content-Range %q", b.name, key, cr)
		}
		size = n
	} else if offset > 0 {
		// The server ignored the range: skip to offset.
		if _, err := io.CopyN(io.Discard, resp.Body, offset); err != nil {
			resp.Body.Close()
			return nil, err
		}
	}
	var body io.ReadCloser = resp.Body
	if length > 0 {
		body = struct {
			io.Reader
			io.Closer
		}{io.LimitReader(resp.Body, length), resp.Body}
	}
	mod, _ := http.ParseTime(resp.Header.Get("Last-Modified"))
	return &reader{body: body, attrs: driver.ReaderAttributes{
		ContentType: resp.Header.Get("Content-Type"),
		ModTime:     mod,
		Size:        size,
	}}, nil
}

func (b *bucket) emptyReader(ctx context.Context, key string) (driver.Reader, error) {
	a, err := b.Attributes(ctx, key)
	if err != nil {
		return nil, err
	}
	return &reader{body: http.NoBody, attrs: driver.ReaderAttributes{ContentType: a.ContentType, ModTime: a.ModTime, Size: a.Size}}, nil
}

type reader struct {
	body  io.ReadCloser
	attrs driver.ReaderAttributes
}

func (r *reader) Read(p []byte) (int, error)           { return r.body.Read(p) }
func (r *reader) Close() error                         { return r.body.Close() }
func (r *reader) Attributes() *driver.ReaderAttributes { return &r.attrs }
func (r *reader) As(any) bool                          { return false }

// NewTypedWriter streams the object through a pipe into one insert call
// (a resumable upload beyond chunkSize). IfNotExist sends
// ifGenerationMatch=0, which GCS answers with 412 when the object exists.
// Cancelling ctx before Close aborts the upload: nothing is created.
func (b *bucket) NewTypedWriter(ctx context.Context, key, contentType string, opts *driver.WriterOptions) (driver.Writer, error) {
	obj := &raw.Object{
		Name:               key,
		ContentType:        contentType,
		CacheControl:       opts.CacheControl,
		ContentDisposition: opts.ContentDisposition,
		ContentEncoding:    opts.ContentEncoding,
		ContentLanguage:    opts.ContentLanguage,
		Metadata:           opts.Metadata,
	}
	if len(opts.ContentMD5) > 0 {
		obj.Md5Hash = base64.StdEncoding.EncodeToString(opts.ContentMD5)
	}
	size := chunkSize
	if opts.BufferSize > 0 {
		size = opts.BufferSize
	}
	objs, err := b.objects(ctx)
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	call := objs.Insert(b.name, obj).Context(ctx)
	if opts.IfNotExist {
		call = call.IfGenerationMatch(0)
	}
	if opts.BeforeWrite != nil {
		if err := opts.BeforeWrite(noAs); err != nil {
			return nil, err
		}
	}
	w := &writer{pw: pw, done: make(chan struct{})}
	go func() {
		// Media reads the first chunk at once, so it is attached here.
		_, err := call.Media(pr, googleapi.ContentType(contentType), googleapi.ChunkSize(size)).Do()
		// Unblocks a Write the call no longer reads (it failed early).
		pr.CloseWithError(errAborted(err))
		w.err = err
		close(w.done)
	}()
	return w, nil
}

func errAborted(err error) error {
	if err == nil {
		return io.ErrClosedPipe
	}
	return err
}

type writer struct {
	pw   *io.PipeWriter
	done chan struct{}
	err  error // set before done is closed
}

func (w *writer) Write(p []byte) (int, error) { return w.pw.Write(p) }

func (w *writer) Close() error {
	w.pw.Close()
	<-w.done
	return w.err
}

func (b *bucket) Copy(ctx context.Context, dstKey, srcKey string, opts *driver.CopyOptions) error {
	// Rewrite, unlike copy, finishes objects of any size in steps.
	objs, err := b.objects(ctx)
	if err != nil {
		return err
	}
	call := objs.Rewrite(b.name, srcKey, b.name, dstKey, &raw.Object{}).Context(ctx)
	if opts != nil && opts.BeforeCopy != nil {
		if err := opts.BeforeCopy(noAs); err != nil {
			return err
		}
	}
	for {
		res, err := call.Do()
		if err != nil {
			return err
		}
		if res.Done {
			return nil
		}
		call = call.RewriteToken(res.RewriteToken)
	}
}

func (b *bucket) Delete(ctx context.Context, key string) error {
	objs, err := b.objects(ctx)
	if err != nil {
		return err
	}
	return objs.Delete(b.name, key).Context(ctx).Do()
}

func (b *bucket) SignedURL(context.Context, string, *driver.SignedURLOptions) (string, error) {
	return "", errUnimplemented
}

func (b *bucket) Close() error { return nil }

package blobfs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/driver"
	"gocloud.dev/blob/memblob"
	"gocloud.dev/gcerrors"
)

// Operations of faultDriver that faults can be attached to.
const (
	opAttrs = "attributes"
	opList  = "list"
	opRead  = "read"
	opWrite = "write"
)

// fault is what one call of an operation does instead of (or after)
// succeeding.
type fault struct {
	code  gcerrors.ErrorCode // error returned (OK: none)
	after bool               // perform the real operation first: a lost response
	short bool               // read: serve only half of the range, then end
	hook  func()             // run before answering
}

// injected is an error with the gocloud code the fault asked for, as a
// driver would produce from an HTTP status or a transport failure.
type injected struct{ code gcerrors.ErrorCode }

func (e injected) Error() string { return fmt.Sprintf("injected %v", e.code) }

// faultDriver is a gocloud driver over a memblob bucket that fails chosen
// calls. With escapeSlash it also stores a key's trailing slash escaped,
// as azureblob does, so that "dir/" markers behave as they do on Azure.
type faultDriver struct {
	b           *blob.Bucket
	escapeSlash bool

	mu     sync.Mutex
	faults map[string][]fault
	calls  map[string]int
}

// newFaultBucket returns the bucket and its driver; the bucket is closed
// at the end of the test.
func newFaultBucket(t *testing.T, escapeSlash bool) (*blob.Bucket, *faultDriver) {
	t.Helper()
	d := &faultDriver{b: memblob.OpenBucket(nil), escapeSlash: escapeSlash, faults: map[string][]fault{}, calls: map[string]int{}}
	b := blob.NewBucket(d)
	t.Cleanup(func() { b.Close(); d.b.Close() })
	return b, d
}

// inject queues faults for the next calls of op, one per call.
func (d *faultDriver) inject(op string, fs ...fault) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults[op] = append(d.faults[op], fs...)
}

// count returns how many times op was called.
func (d *faultDriver) count(op string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls[op]
}

// reset clears the call counts and pending faults.
func (d *faultDriver) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults, d.calls = map[string][]fault{}, map[string]int{}
}

// next counts a call of op and returns its fault (the zero fault if none
// is queued).
func (d *faultDriver) next(op string) fault {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.calls[op]++
	q := d.faults[op]
	if len(q) == 0 {
		return fault{}
	}
	d.faults[op] = q[1:]
	return q[0]
}

// answer runs the fault's hook and returns its error, or err when the
// fault has none.
func (f fault) answer(err error) error {
	if f.hook != nil {
		f.hook()
	}
	if f.code != gcerrors.OK {
		return injected{f.code}
	}
	return err
}

const escapedSlash = "__0x2f__"

func (d *faultDriver) esc(key string) string {
	if d.escapeSlash && strings.HasSuffix(key, "/") {
		return strings.TrimSuffix(key, "/") + escapedSlash
	}
	return key
}

func (d *faultDriver) unesc(key string) string {
	if d.escapeSlash && strings.HasSuffix(key, escapedSlash) {
		return strings.TrimSuffix(key, escapedSlash) + "/"
	}
	return key
}

func (d *faultDriver) ErrorCode(err error) gcerrors.ErrorCode {
	var inj injected
	if errors.As(err, &inj) {
		return inj.code
	}
	return gcerrors.Code(err)
}

func (d *faultDriver) As(any) bool             { return false }
func (d *faultDriver) ErrorAs(error, any) bool { return false }
func (d *faultDriver) Close() error            { return nil }

func (d *faultDriver) Attributes(ctx context.Context, key string) (*driver.Attributes, error) {
	f := d.next(opAttrs)
	if f.code != gcerrors.OK && !f.after {
		return nil, f.answer(nil)
	}
	a, err := d.b.Attributes(ctx, d.esc(key))
	if err != nil {
		return nil, f.answer(err)
	}
	return &driver.Attributes{
		ContentType: a.ContentType, Metadata: a.Metadata, ModTime: a.ModTime,
		Size: a.Size, MD5: a.MD5, ETag: a.ETag,
	}, f.answer(nil)
}

func (d *faultDriver) ListPaged(ctx context.Context, opts *driver.ListOptions) (*driver.ListPage, error) {
	f := d.next(opList)
	if f.code != gcerrors.OK && !f.after {
		return nil, f.answer(nil)
	}
	token := opts.PageToken
	if len(token) == 0 {
		token = blob.FirstPageToken
	}
	objs, next, err := d.b.ListPage(ctx, token, max(opts.PageSize, 1), &blob.ListOptions{Prefix: opts.Prefix, Delimiter: opts.Delimiter})
	if err != nil && err != io.EOF {
		return nil, f.answer(err)
	}
	page := &driver.ListPage{NextPageToken: next}
	for _, o := range objs {
		page.Objects = append(page.Objects, &driver.ListObject{
			Key: d.unesc(o.Key), ModTime: o.ModTime, Size: o.Size, MD5: o.MD5, IsDir: o.IsDir,
		})
	}
	return page, f.answer(nil)
}

func (d *faultDriver) NewRangeReader(ctx context.Context, key string, offset, length int64, _ *driver.ReaderOptions) (driver.Reader, error) {
	f := d.next(opRead)
	if f.code != gcerrors.OK {
		return nil, f.answer(nil)
	}
	r, err := d.b.NewRangeReader(ctx, d.esc(key), offset, length, nil)
	if err != nil {
		return nil, f.answer(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, f.answer(err)
	}
	if f.short {
		data = data[:len(data)/2]
	}
	return &memReader{Reader: bytes.NewReader(data), attrs: driver.ReaderAttributes{
		ContentType: r.ContentType(), ModTime: r.ModTime(), Size: r.Size(),
	}}, f.answer(nil)
}

func (d *faultDriver) NewTypedWriter(ctx context.Context, key, contentType string, opts *driver.WriterOptions) (driver.Writer, error) {
	return &faultWriter{d: d, ctx: ctx, key: d.esc(key), opts: &blob.WriterOptions{
		ContentType: contentType, IfNotExist: opts.IfNotExist, Metadata: opts.Metadata,
	}}, nil
}

func (d *faultDriver) Copy(context.Context, string, string, *driver.CopyOptions) error {
	return injected{gcerrors.Unimplemented}
}

func (d *faultDriver) Delete(ctx context.Context, key string) error {
	return d.b.Delete(ctx, d.esc(key))
}

func (d *faultDriver) SignedURL(context.Context, string, *driver.SignedURLOptions) (string, error) {
	return "", injected{gcerrors.Unimplemented}
}

type memReader struct {
	*bytes.Reader
	attrs driver.ReaderAttributes
}

func (r *memReader) Close() error                         { return nil }
func (r *memReader) Attributes() *driver.ReaderAttributes { return &r.attrs }
func (r *memReader) As(any) bool                          { return false }
func (d *faultDriver) store(ctx context.Context, key string, data []byte, o *blob.WriterOptions) error {
	return d.b.Upload(ctx, key, bytes.NewReader(data), o)
}

// faultWriter buffers an upload and commits it on Close, where the write
// faults apply.
type faultWriter struct {
	d    *faultDriver
	ctx  context.Context
	key  string
	opts *blob.WriterOptions
	buf  bytes.Buffer
}

func (w *faultWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }

func (w *faultWriter) Close() error {
	f := w.d.next(opWrite)
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if f.code != gcerrors.OK && !f.after {
		return f.answer(nil)
	}
	return f.answer(w.d.store(w.ctx, w.key, w.buf.Bytes(), w.opts))
}

package blobfs

import (
	"context"
	"errors"
	"io"

	"gocloud.dev/blob"

	"github.com/paimon-go/paimon-go/fs"
)

// contentType is what every Paimon file is to an object store; setting it
// also keeps gocloud from buffering 512 bytes to sniff one.
const contentType = "application/octet-stream"

// errAborted ends the upload's input when the caller aborts.
var errAborted = errors.New("blobfs: write aborted")

// Create streams the file to the store through Bucket.Upload, fed by a
// pipe. The upload runs in a goroutine until Close or Abort, which the
// caller must call. A create-if-absent is buffered instead and uploaded by
// Close, so that its outcome can be verified (see [ErrUnverifiedConflict]).
func (f *FS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	const op = "create"
	if err := fs.CheckName(op, name); err != nil {
		return nil, err
	}
	if err := fs.CheckContext(ctx, op, name); err != nil {
		return nil, err
	}
	ifNotExist := opts != nil && opts.IfNotExist
	if ifNotExist {
		if f.fileDriver {
			return nil, fs.PathErr(op, name, ErrNotAtomic)
		}
		return &condWriter{f: f, ctx: ctx, name: name, key: f.key(name)}, nil
	}
	upCtx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	w := &writer{
		ctx:    ctx,
		name:   name,
		buffer: int64(f.bufSize),
		errs:   f.retry.classifier,
		pw:     pw,
		cancel: cancel,
		done:   make(chan struct{}),
	}
	wopts := &blob.WriterOptions{
		ContentType: contentType,
		BufferSize:  f.bufSize,
	}
	key := f.key(name)
	go func() {
		defer close(w.done)
		err := f.bucket.Upload(upCtx, key, pr, wopts)
		if err == nil {
			err = io.ErrClosedPipe
		}
		// Unblock a Write still waiting on the pipe when the upload
		// stopped early (bad credentials, missing bucket, ...).
		pr.CloseWithError(err)
		if err != io.ErrClosedPipe {
			w.uploadErr = err
		}
	}()
	return w, nil
}

// writer feeds a plain (replacing) Upload running in another goroutine.
//
// Abort must never let a driver commit what was written so far. Drivers
// such as memblob commit on Close whenever their context is still live,
// even if their input ended in an error, so Abort cancels the upload's
// context first and only then breaks the pipe.
type writer struct {
	ctx       context.Context
	name      string
	buffer    int64 // Options.UploadBufferSize, 0 for the driver's default
	errs      classifier
	pw        *io.PipeWriter
	cancel    context.CancelFunc
	done      chan struct{}
	uploadErr error // written before done is closed
	finished  bool  // Close or Abort was called
	err       error // sticky write error
}

// defaultUploadBuffer estimates the upload buffer the drivers choose when
// Options.UploadBufferSize is 0 (5 MiB parts for S3 and Azure, 16 MiB
// chunks for GCS, allocated as the first bytes arrive).
const defaultUploadBuffer = 8 << 20

// BufferSize is the upload part the driver fills before sending it
// (fs.BufferedWriter).
func (w *writer) BufferSize() int64 {
	if w.buffer > 0 {
		return w.buffer
	}
	return defaultUploadBuffer
}

func (w *writer) Write(p []byte) (int, error) {
	if w.finished {
		return 0, fs.PathErr("write", w.name, fs.ErrClosed)
	}
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.pw.Write(p)
	if err != nil {
		w.err = w.errs.mapErr("write", w.name, err)
		return n, w.err
	}
	return n, nil
}

func (w *writer) Close() error {
	const op = "create"
	if w.finished {
		return fs.PathErr(op, w.name, fs.ErrClosed)
	}
	w.finished = true
	if err := w.ctx.Err(); err != nil {
		w.stop(err)
		return fs.PathErr(op, w.name, err)
	}
	if w.err != nil {
		w.stop(w.err)
		return w.err
	}
	w.pw.Close()
	<-w.done
	w.cancel()
	return w.errs.mapErr(op, w.name, w.uploadErr)
}

// stop cancels the upload so nothing is committed and waits for it.
func (w *writer) stop(cause error) {
	w.cancel()
	w.pw.CloseWithError(cause)
	<-w.done
}

func (w *writer) Abort() error {
	if w.finished {
		return nil
	}
	w.finished = true
	w.stop(errAborted)
	return nil
}

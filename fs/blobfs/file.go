package blobfs

import (
	"context"
	"errors"
	"io"
	"sync/atomic"

	"gocloud.dev/blob"

	"github.com/paimon-go/paimon-go/fs"
)

// file reads an object with one ranged request per ReadAt. gocloud's
// blob.Reader offers only Read and Seek, which share a position and so
// cannot serve concurrent random reads; a fresh range reader per call can.
type file struct {
	ctx    context.Context
	bucket *blob.Bucket
	retry  retrier
	key    string
	name   string
	size   int64
	closed atomic.Bool
}

func (r *file) Size() int64 { return r.size }

func (r *file) ReadAt(p []byte, off int64) (int, error) {
	const op = "read"
	if r.closed.Load() {
		return 0, fs.PathErr(op, r.name, fs.ErrClosed)
	}
	if err := fs.CheckContext(r.ctx, op, r.name); err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, fs.PathErr(op, r.name, errors.New("blobfs: negative offset"))
	}
	if len(p) == 0 {
		return 0, nil
	}
	if off >= r.size {
		return 0, io.EOF
	}
	want := min(int64(len(p)), r.size-off)
	var n int
	err := r.retry.do(r.ctx, func() error {
		var err error
		n, err = r.readRange(p[:want], off)
		return err
	})
	if err != nil {
		return n, r.retry.mapErr(op, r.name, err)
	}
	if want < int64(len(p)) {
		return n, io.EOF
	}
	return n, nil
}

// readRange fills p from offset off with one ranged request. A body that
// ends early — a dropped connection, or an object replaced since Open —
// is io.ErrUnexpectedEOF, which the retry policy treats as transient.
func (r *file) readRange(p []byte, off int64) (int, error) {
	rr, err := r.bucket.NewRangeReader(r.ctx, r.key, off, int64(len(p)), nil)
	if err != nil {
		return 0, err
	}
	defer rr.Close()
	n, err := io.ReadFull(rr, p)
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func (r *file) Close() error {
	if r.closed.Swap(true) {
		return fs.PathErr("close", r.name, fs.ErrClosed)
	}
	return nil
}

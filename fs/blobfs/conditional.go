package blobfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/paimon-go/paimon-go/fs"
)

// ErrUnverifiedConflict reports a create-if-absent whose outcome blobfs
// could not establish: the store answered with a conflict or an ambiguous
// error, and reading the object back to see whose content it holds failed
// too (or the context ended first). The file may or may not have been
// written by this writer.
//
// Commit code must treat it as "outcome unknown", never as "lost": the
// snapshot may be published, so retrying the commit under the next number
// could apply it twice. Java Paimon's FileStoreCommitImpl faces the same
// question after an ambiguous rename and answers it by reading the snapshot
// back and comparing the commit identifier; do the same once the store is
// reachable again.
//
// The error never satisfies errors.Is(err, io/fs.ErrExist).
var ErrUnverifiedConflict = errors.New("blobfs: create-if-absent outcome unknown (conflict or ambiguous answer, object could not be read back)")

// condWriter buffers the content of a create-if-absent so that Close can
// repeat the upload and compare what the store holds. Snapshot and hint
// files, the only files Paimon creates this way, are a few kilobytes.
type condWriter struct {
	f        *FS
	ctx      context.Context
	name     string
	key      string
	buf      bytes.Buffer
	finished bool
}

func (w *condWriter) Write(p []byte) (int, error) {
	if w.finished {
		return 0, fs.PathErr("write", w.name, fs.ErrClosed)
	}
	return w.buf.Write(p)
}

func (w *condWriter) Close() error {
	const op = "create"
	if w.finished {
		return fs.PathErr(op, w.name, fs.ErrClosed)
	}
	w.finished = true
	if err := w.ctx.Err(); err != nil {
		return fs.PathErr(op, w.name, err)
	}
	return w.f.createIfAbsent(w.ctx, w.name, w.key, w.buf.Bytes())
}

func (w *condWriter) Abort() error {
	w.finished = true
	w.buf = bytes.Buffer{}
	return nil
}

// createIfAbsent publishes data under key unless the key exists, and makes
// sure a retried request cannot turn a win into a reported loss.
//
// SDKs retry failed requests on their own. If the first conditional PUT
// landed but its response was lost, the retry meets the object that PUT
// created and the store answers 412: a win reported as a conflict. S3 may
// also answer 409 ConditionalRequestConflict (gocloud code Unknown) while
// a competing conditional write is in flight. So on a conflict or an
// ambiguous answer, the object is read back: our bytes mean we won,
// other bytes mean we lost. An ambiguous answer with no object means the
// request did not land (yet), so the conditional upload is simply repeated
// — If-None-Match keeps that safe even if the earlier request lands late.
func (f *FS) createIfAbsent(ctx context.Context, name, key string, data []byte) error {
	const op = "create"
	var last error
	for attempt := 0; attempt < f.retry.Attempts; attempt++ {
		if attempt > 0 {
			if err := f.retry.pause(ctx, attempt-1); err != nil {
				return unverified(op, name, last, err)
			}
		}
		err := f.bucket.Upload(ctx, key, bytes.NewReader(data), &blob.WriterOptions{
			ContentType: contentType,
			IfNotExist:  true,
			BufferSize:  f.bufSize,
		})
		if err == nil {
			return nil
		}
		conflict := f.retry.code(err) == gcerrors.FailedPrecondition
		switch {
		case conflict:
		case ctx.Err() != nil:
			// The request was sent; whether it landed is unknown and
			// can no longer be checked.
			return unverified(op, name, err, ctx.Err())
		case !f.retry.transient(err):
			// A definite refusal (permission, bad request, no bucket).
			return f.retry.mapErr(op, name, err)
		}
		same, rerr := f.holds(ctx, key, data)
		switch {
		case rerr == nil && same:
			return nil
		case rerr == nil:
			return fs.Exist(op, name, err)
		case !conflict && f.retry.code(rerr) == gcerrors.NotFound:
			last = err
			continue
		default:
			return unverified(op, name, err, rerr)
		}
	}
	return unverified(op, name, last, nil)
}

// holds reports whether the object at key has exactly the content data.
// It compares sizes first (a lost race usually ends there) and then reads
// the object in one ranged request; both requests are retried. Asking for
// exactly the stored size keeps the range satisfiable on every store, even
// for an empty object.
func (f *FS) holds(ctx context.Context, key string, data []byte) (bool, error) {
	attrs, err := f.attributes(ctx, key)
	if err != nil {
		return false, err
	}
	if attrs.Size != int64(len(data)) {
		return false, nil
	}
	if len(data) == 0 {
		return true, nil
	}
	var got []byte
	err = f.retry.do(ctx, func() error {
		r, err := f.bucket.NewRangeReader(ctx, key, 0, int64(len(data)), nil)
		if err != nil {
			return err
		}
		defer r.Close()
		got, err = io.ReadAll(r)
		return err
	})
	if err != nil {
		return false, err
	}
	return bytes.Equal(got, data), nil
}

// unverified builds the ErrUnverifiedConflict error for name. The store's
// answer is wrapped; the reason the check failed is only described, so
// that a NotFound from the read-back cannot make the error look like
// io/fs.ErrNotExist.
func unverified(op, name string, answer, check error) error {
	var err error
	switch {
	case answer == nil:
		err = ErrUnverifiedConflict
	case check == nil:
		err = fmt.Errorf("%w: %w", ErrUnverifiedConflict, answer)
	case errors.Is(check, context.Canceled) || errors.Is(check, context.DeadlineExceeded):
		err = fmt.Errorf("%w: %w; %w", ErrUnverifiedConflict, answer, check)
	default:
		err = fmt.Errorf("%w: %w; read-back: %v", ErrUnverifiedConflict, answer, check)
	}
	return fs.PathErr(op, name, err)
}

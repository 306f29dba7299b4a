package blobfs

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"gocloud.dev/gcerrors"
)

// RetryPolicy bounds the retries blobfs adds on top of the SDK's own for
// reads (File.ReadAt, ReadFile, the size lookup of Open and Stat, each
// listing page) and for the verification of create-if-absent (see
// [ErrUnverifiedConflict]). It plays the part of the retry settings of
// Hadoop's S3A (fs.s3a.retry.limit, fs.s3a.retry.interval) behind Java
// Paimon's S3 FileIO.
//
// Only transient answers are retried: gocloud codes Unknown (which covers
// transport errors such as a reset connection or a truncated body, and the
// 5xx answers the drivers do not classify), Internal, ResourceExhausted
// (throttling), and DeadlineExceeded while the caller's context is still
// live. NotFound, PermissionDenied, FailedPrecondition, InvalidArgument and
// cancellation are final.
type RetryPolicy struct {
	// Attempts is the total number of tries, the first included. Zero
	// means 4; 1 disables retries.
	Attempts int
	// Backoff is the pause before the first retry; it doubles with each
	// further retry, with random jitter of up to half its value. Zero
	// means 100ms.
	Backoff time.Duration
	// MaxBackoff caps one pause. Zero means 2s.
	MaxBackoff time.Duration
}

func (p *RetryPolicy) withDefaults() RetryPolicy {
	var out RetryPolicy
	if p != nil {
		out = *p
	}
	if out.Attempts <= 0 {
		out.Attempts = 4
	}
	if out.Backoff <= 0 {
		out.Backoff = 100 * time.Millisecond
	}
	if out.MaxBackoff <= 0 {
		out.MaxBackoff = 2 * time.Second
	}
	if out.MaxBackoff < out.Backoff {
		out.MaxBackoff = out.Backoff
	}
	return out
}

// classifier maps an error to its gocloud code: gcerrors.Code, unless a
// driver package supplied a better one (Options.ErrorCode).
type classifier func(error) gcerrors.ErrorCode

func (c classifier) code(err error) gcerrors.ErrorCode {
	if c == nil || err == nil {
		return gcerrors.Code(err)
	}
	return c(err)
}

// transient reports whether err may go away if the request is repeated
// (ignoring the context).
func (c classifier) transient(err error) bool {
	switch c.code(err) {
	case gcerrors.Unknown, gcerrors.Internal, gcerrors.ResourceExhausted, gcerrors.DeadlineExceeded:
		return err != nil
	}
	return false
}

// retrier applies a RetryPolicy, judging errors with a classifier.
type retrier struct {
	RetryPolicy
	classifier
}

// do runs fn until it succeeds, fails with a non-transient error, the
// attempts are used up or ctx is done. It returns fn's last error; when
// ctx ended during a transient failure or a pause, the error wraps ctx's.
func (r retrier) do(ctx context.Context, fn func() error) error {
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || !r.transient(err) {
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			if errors.Is(err, cerr) {
				return err
			}
			return fmt.Errorf("%w (after %w)", cerr, err)
		}
		if attempt+1 >= r.Attempts {
			return err
		}
		if werr := r.pause(ctx, attempt); werr != nil {
			return fmt.Errorf("%w (retrying after %w)", werr, err)
		}
	}
}

// pause sleeps before retry number attempt+1, or until ctx is done.
func (p RetryPolicy) pause(ctx context.Context, attempt int) error {
	d := p.Backoff
	for range attempt {
		if d >= p.MaxBackoff {
			break
		}
		d *= 2
	}
	d = min(d, p.MaxBackoff)
	d += time.Duration(rand.Int64N(int64(d)/2 + 1))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

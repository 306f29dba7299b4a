package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
)

var (
	// ErrUnsupported reports an operation an implementation cannot perform
	// safely, for example a create-if-absent that would not be atomic. It
	// wraps errors.ErrUnsupported.
	ErrUnsupported = fmt.Errorf("fs: operation not supported: %w", errors.ErrUnsupported)

	// ErrInvalidName reports a name that is not a valid slash-separated
	// path relative to the root (absolute, containing "..", empty elements
	// or a trailing slash). It wraps io/fs.ErrInvalid.
	ErrInvalidName = fmt.Errorf("fs: invalid name: %w", iofs.ErrInvalid)

	// ErrIsDir reports that a file operation was applied to a directory.
	ErrIsDir = errors.New("fs: is a directory")

	// ErrNotDir reports that a path element that must be a directory is a
	// file (for example creating "a/b" when "a" is a file).
	ErrNotDir = errors.New("fs: not a directory")

	// ErrClosed reports use of a File or Writer after Close or Abort. It
	// wraps io/fs.ErrClosed.
	ErrClosed = fmt.Errorf("fs: already closed: %w", iofs.ErrClosed)

	// ErrNotPublished marks a Writer.Close failure that happened before
	// anything could become visible under the name (a full disk while the
	// temporary file was written or synced, say): unlike other Close
	// failures, it is a definite "not published", so a committer may
	// remove its files instead of keeping them for an unknown outcome.
	ErrNotPublished = errors.New("fs: file not published")

	// ErrNoScheme reports a URI whose scheme has no registered opener.
	ErrNoScheme = errors.New("fs: no opener registered for scheme")
)

// PathErr builds the *io/fs.PathError used for every error about a name.
// Implementations call it so that Path is always the name given by the
// caller (never an implementation-specific absolute path or object key).
func PathErr(op, name string, err error) error {
	return &iofs.PathError{Op: op, Path: name, Err: err}
}

// NotExist returns a *io/fs.PathError for op on name that satisfies
// errors.Is(err, io/fs.ErrNotExist) and, when cause is non-nil, also wraps
// cause for inspection.
func NotExist(op, name string, cause error) error {
	if cause == nil {
		return PathErr(op, name, iofs.ErrNotExist)
	}
	return PathErr(op, name, fmt.Errorf("%w: %w", iofs.ErrNotExist, cause))
}

// Exist returns a *io/fs.PathError for op on name that satisfies
// errors.Is(err, io/fs.ErrExist) and, when cause is non-nil, also wraps
// cause for inspection. Implementations return it from Writer.Close when an
// IfNotExist create loses.
func Exist(op, name string, cause error) error {
	if cause == nil {
		return PathErr(op, name, iofs.ErrExist)
	}
	return PathErr(op, name, fmt.Errorf("%w: %w", iofs.ErrExist, cause))
}

// CheckContext returns a *io/fs.PathError for op on name wrapping ctx.Err()
// when ctx is already done, so implementations fail fast and uniformly
// before starting any work.
func CheckContext(ctx context.Context, op, name string) error {
	if err := ctx.Err(); err != nil {
		return PathErr(op, name, err)
	}
	return nil
}

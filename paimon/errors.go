package paimon

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrCorrupt is wrapped by every error caused by a table file whose bytes
	// cannot be decoded: truncated, bit-flipped or malformed metadata, index
	// or data files. Such errors are *CorruptError values that name the file.
	ErrCorrupt = errors.New("paimon: corrupt file")

	// ErrSnapshotNotFound reports a snapshot id that does not exist (never
	// committed, or expired).
	ErrSnapshotNotFound = errors.New("paimon: snapshot not found")

	// ErrSchemaNotFound reports a schema id without a schema file.
	ErrSchemaNotFound = errors.New("paimon: schema not found")

	// ErrTagNotFound reports a tag name without a tag file.
	ErrTagNotFound = errors.New("paimon: tag not found")

	// ErrUnsupported reports a table feature this library does not implement
	// yet. It is returned instead of a guess.
	ErrUnsupported = fmt.Errorf("paimon: unsupported: %w", errors.ErrUnsupported)
)

// CorruptError is a file that could not be decoded. errors.Is(err,
// ErrCorrupt) holds for it, and the codec's own error (with its sentinel, such
// as manifest.ErrCorrupt) stays in the chain.
type CorruptError struct {
	// Path is the file's name in the table's file system.
	Path string
	// Err is the decoding error.
	Err error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("paimon: corrupt file %s: %v", e.Path, e.Err)
}

// Unwrap returns both ErrCorrupt and the decoding error.
func (e *CorruptError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

func corrupt(path string, err error) error {
	if err == nil {
		return nil
	}
	return &CorruptError{Path: path, Err: err}
}

// internalError is an error of an internal package (datafile, mergefunc)
// given this package's sentinel: errors.Is finds both outer and the
// internal error's own sentinel, and the text is outer's followed by the
// internal message without its package prefix, so that a message keeps one
// prefix ("paimon: unsupported: ...: option file.format=...", not "...:
// datafile: unsupported: option ...").
type internalError struct {
	outer, err error
	detail     string
}

func (e *internalError) Error() string   { return e.outer.Error() + ": " + e.detail }
func (e *internalError) Unwrap() []error { return []error{e.outer, e.err} }

// fromInternal wraps err, which wraps the internal sentinel inner, as an
// error of this package's sentinel outer.
func fromInternal(outer, inner, err error) error {
	return &internalError{outer: outer, err: err, detail: internalDetail(inner, err)}
}

// internalDetail is the text of err without the prefix of the internal
// sentinel inner it wraps.
func internalDetail(inner, err error) string {
	return strings.TrimPrefix(err.Error(), inner.Error()+": ")
}

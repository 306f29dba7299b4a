package orc

import (
	"errors"
	"fmt"
)

// ErrCorrupt reports an ORC file that cannot be decoded: a damaged or
// truncated tail, a stream that ends early, an RLE run or compression chunk
// that does not fit its stream, a length no real file can have. Messages
// name the file when the caller gave its name (ReadOptions.Name).
var ErrCorrupt = errors.New("orc: corrupt file")

// ErrSchema reports a requested field that the file does not hold, or holds
// with a type that cannot be converted to the requested Paimon type.
var ErrSchema = errors.New("orc: schema mismatch")

// ErrUnsupported reports an ORC feature this package does not implement:
// column encryption, union columns, a compression kind without a decoder
// here, or a Paimon type ORC cannot hold.
var ErrUnsupported = fmt.Errorf("orc: unsupported: %w", errors.ErrUnsupported)

// corruptError marks a decoding failure inside the package. It carries no
// prefix of its own: the Reader turns it into ErrCorrupt naming the file
// (Reader.wrap), so a message has exactly one "orc: corrupt file" prefix.
type corruptError struct{ msg string }

func (e *corruptError) Error() string { return e.msg }

// corruptf reports corrupt input.
func corruptf(format string, args ...any) error {
	return &corruptError{msg: fmt.Sprintf(format, args...)}
}

// within prefixes a corrupt error with where it happened (a stripe, a
// column); other errors pass unchanged.
func within(err error, format string, args ...any) error {
	var ce *corruptError
	if errors.As(err, &ce) {
		return &corruptError{msg: fmt.Sprintf(format, args...) + ": " + ce.msg}
	}
	return err
}

// unsupportedf reports a feature this package does not implement.
func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

package binaryrow

import "errors"

var (
	// ErrCorrupt marks bytes that are not a well-formed BinaryRow (or
	// nested BinaryArray/BinaryMap) for the types they are read with.
	ErrCorrupt = errors.New("binaryrow: corrupt row")

	// ErrValue marks a Go value that does not match its Paimon type when
	// encoding, e.g. an int64 for an INT column or a decimal that does not fit
	// its precision.
	ErrValue = errors.New("binaryrow: value does not match type")

	// ErrType marks a data type this codec cannot handle, e.g. an ARRAY type
	// without an element type or a type not supported by a bucket function.
	ErrType = errors.New("binaryrow: unsupported type")
)

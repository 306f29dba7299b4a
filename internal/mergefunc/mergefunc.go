// Package mergefunc holds the merge engines of primary-key tables: the
// functions that combine every version of one key, read from the LSM levels
// in order, into the row a read returns. They mirror Java Paimon's
// org.apache.paimon.mergetree.compact.MergeFunction implementations
// (DeduplicateMergeFunction, PartialUpdateMergeFunction,
// AggregateMergeFunction, FirstRowMergeFunction) and the options that tune
// them.
//
// Functions work on rows of the value model (format/data): they are called
// once per version of a key and are not on the decode hot path of tables
// without merging.
package mergefunc

import (
	"errors"
	"fmt"

	"github.com/paimon-go/paimon-go/format/data"
)

// ErrUnsupported reports a merge engine, aggregate function or option
// combination this package cannot compute exactly. The message names the
// function and the field; no value is ever guessed.
var ErrUnsupported = fmt.Errorf("mergefunc: unsupported: %w", errors.ErrUnsupported)

// ErrInvalid reports table options Java would also refuse.
var ErrInvalid = errors.New("mergefunc: invalid merge options")

// Row is one version of a key: its sequence number, row kind and the values
// of every value field (the table's fields, in schema order, as
// format/binaryrow decodes them).
type Row struct {
	Seq    int64
	Kind   data.RowKind
	Values []any
}

// Function combines the versions of one key. The merge reader calls Reset,
// then Add for each version in merge order (ascending sequence, or the
// user-defined sequence order), then Result. A Function is used by one
// goroutine at a time and may keep references to the rows it was given until
// the next Reset.
type Function interface {
	Reset()
	Add(r *Row) error
	// Result returns the merged row, or nil when the key produces no row
	// (for example when its last version deletes it and deletes are not
	// kept).
	Result() (*Row, error)
}

// Factory creates the Functions of one table; it is safe for concurrent use.
type Factory interface {
	New() Function
}

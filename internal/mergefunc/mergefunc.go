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
//
// # Engines
//
// NewFactory picks the engine from the table option merge-engine:
//
//   - deduplicate (default): the last version wins, whatever its kind.
//   - partial-update: the latest non-null value of every field wins;
//     sequence groups, per-field aggregate functions, and the delete options
//     partial-update.remove-record-on-delete and
//     partial-update.remove-record-on-sequence-group are honoured.
//   - aggregation: every field is folded by its aggregate function
//     (fields.<f>.aggregate-function, fields.default-aggregate-function,
//     default last_non_null_value), retractions included.
//   - first-row: the first version wins.
//
// Every Function behaves like Java's ReducerMergeFunctionWrapper around the
// engine, which is what Java's MergeFileSplitRead uses: a key with a single
// version returns that version unchanged, and the engine only runs when a
// key has two versions or more. The Result may be a retraction (-U/-D);
// dropping it or keeping it is the reader's choice, as with Java's
// DropDeleteReader.
//
// # Aggregate functions
//
// All of Java's built-in functions are accepted: sum, product, min, max,
// last_value, last_non_null_value, first_value, first_non_null_value (and
// its legacy name first_not_null_value), bool_and, bool_or, listagg,
// collect, merge_map, merge_map_with_keytime, nested_update,
// nested_partial_update, primary-key, rbm32, rbm64, theta_sketch and
// hll_sketch, with fields.<f>.ignore-retract, fields.<f>.distinct,
// fields.<f>.list-agg-delimiter, fields.<f>.nested-key,
// fields.<f>.count-limit and fields.<f>.ts-field. Results whose order
// comes from a Java HashMap or HashSet (collect with distinct, merge_map,
// merge_map_with_keytime, keyed nested_update and nested_partial_update)
// are returned in that order, computed from Java's hashCode of the keys.
// rbm32 reproduces RoaringBitmap 1.2.1's union and run optimisation byte
// for byte. Only the union of two non-null theta_sketch, hll_sketch or
// rbm64 values, and hash orders over keys whose Java hashCode is not
// reproducible (byte arrays hash by identity), return ErrUnsupported.
//
// Values are those of format/data, for every field of the table in schema
// order; a DECIMAL carries its column's precision and scale.
//
// # Java version
//
// The semantics are those of Java Paimon 1.4.2. Options only Java 2.0.0
// knows that change a merge (fields.<f>.nested-key-null-strategy,
// fields.<f>.nested-sequence-field) are refused with ErrUnsupported. Other
// 2.0.0 changes are not followed and are noted where they apply: integer
// overflow in sum and product throws in 2.0.0 and wraps in 1.4.2 (here it
// wraps); listagg also skips blank strings in 2.0.0; nested_update and
// nested_partial_update also deduplicate a lone input in 2.0.0; 2.0.0
// refuses primary-key fields in sequence groups and skips a sequence
// group's fields once processed.
//
// The aggregation engine ignores ignore-delete, as Java's
// AggregateMergeFunction does (writers drop the deletes instead).
//
// # Errors
//
// NewFactory returns ErrInvalid for option combinations Java rejects and
// ErrUnsupported for configurations that cannot be computed exactly. Some
// functions can only be computed for some values (for example the union of
// two theta sketches, or a Java HashMap whose bin turned into a tree); they
// are accepted by NewFactory so that tables whose keys do not need them stay
// readable, and Add returns ErrUnsupported when a merge needs them. Add
// returns ErrMerge where Java throws while merging (a retraction the
// function cannot undo, a delete the engine does not accept, a NULL in a
// NOT NULL field, division by zero, a corrupt bitmap).
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

// ErrMerge reports a merge Java refuses with an exception: the message says
// what Java would have thrown.
var ErrMerge = errors.New("mergefunc: merge failed")

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

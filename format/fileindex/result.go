package fileindex

import (
	"github.com/RoaringBitmap/roaring/v2"
)

// Result is what an index says about a predicate (Java FileIndexResult):
// the file may hold matching rows (Remain), holds none (Skip), or may hold
// them only at the listed row positions (a bitmap result, Java
// BitmapIndexResult). An empty bitmap means Skip.
type Result struct {
	skip bool
	rows *roaring.Bitmap // nil: no row set
}

// Remain is the result of an index that cannot exclude the file.
func Remain() Result { return Result{} }

// Skip is the result of an index proving that no row matches.
func Skip() Result { return Result{skip: true} }

// Rows is a result selecting the given row positions.
func Rows(b *roaring.Bitmap) Result { return Result{rows: b} }

// Remain reports whether the file may hold matching rows.
func (r Result) Remain() bool { return !r.skip && (r.rows == nil || !r.rows.IsEmpty()) }

// Bitmap returns the selected row positions, nil when the result selects
// no particular rows.
func (r Result) Bitmap() *roaring.Bitmap { return r.rows }

// And combines two results of a conjunction as Java's FileIndexResult.and
// and BitmapIndexResult.and do.
func (r Result) And(o Result) Result {
	switch {
	case r.skip:
		return r
	case r.rows == nil: // REMAIN.and(x) = x
		return o
	case o.rows != nil:
		return Rows(roaring.And(r.rows, o.rows))
	case o.Remain():
		return r
	default:
		return Skip()
	}
}

// Or combines two results of a disjunction as Java's FileIndexResult.or
// and BitmapIndexResult.or do.
func (r Result) Or(o Result) Result {
	switch {
	case r.skip: // SKIP.or(x) = x
		return o
	case r.rows == nil:
		return r
	case o.rows != nil:
		return Rows(roaring.Or(r.rows, o.rows))
	case o.Remain():
		return Remain()
	default:
		return r
	}
}

// Op is a leaf predicate function an index is asked about.
type Op int

// The leaf functions of Java's FunctionVisitor that file indexes answer.
const (
	OpEqual Op = iota + 1
	OpNotEqual
	OpIn
	OpNotIn
	OpIsNull
	OpIsNotNull
	OpLessThan
	OpLessOrEqual
	OpGreaterThan
	OpGreaterOrEqual
)

// Index is one decoded index of one column of one data file (Java
// FileIndexReader). Test answers a leaf predicate on the column; literals
// are the values of the predicate package (int8/int16/int32/int64,
// float32/float64, string, []byte, bool, data.Timestamp) and nil for a
// NULL literal.
type Index interface {
	Test(op Op, literals []any) Result
}

// remainIdx answers Remain to everything: an index type not decoded here,
// or one that failed to decode.
type remainIdx struct{}

func (remainIdx) Test(Op, []any) Result { return Remain() }

// emptyIdx is the index of a column that held no value at all (Java
// EmptyFileIndexReader): only IS NULL and the negative tests may match.
type emptyIdx struct{}

func (emptyIdx) Test(op Op, _ []any) Result {
	switch op {
	case OpEqual, OpIn, OpIsNotNull, OpLessThan, OpLessOrEqual, OpGreaterThan, OpGreaterOrEqual:
		return Skip()
	}
	return Remain()
}

// inByEqual answers IN and NOT IN as Java's FileIndexReader.visitIn and
// visitNotIn do by default: the OR of the per-literal EQUAL (NOT EQUAL)
// results.
func inByEqual(idx Index, op Op, literals []any) Result {
	one := OpEqual
	if op == OpNotIn {
		one = OpNotEqual
	}
	if len(literals) == 0 {
		return Remain()
	}
	var r Result
	for i, l := range literals {
		x := idx.Test(one, []any{l})
		if i == 0 {
			r = x
		} else {
			r = r.Or(x)
		}
	}
	return r
}

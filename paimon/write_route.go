package paimon

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// constantColumn reports whether every row of arr holds the same value
// (all NULL counts as the same). It knows the array types partition keys
// usually have and answers false for the others, which only sends the batch
// down the row-by-row routing path.
func constantColumn(arr arrow.Array) bool {
	n := arr.Len()
	if n <= 1 {
		return true
	}
	switch nulls := arr.NullN(); {
	case nulls == n:
		return true
	case nulls > 0:
		return false
	}
	switch a := arr.(type) {
	case *array.String:
		first := a.Value(0)
		for i := 1; i < n; i++ {
			if a.Value(i) != first {
				return false
			}
		}
		return true
	case *array.Binary:
		first := a.Value(0)
		for i := 1; i < n; i++ {
			if !bytes.Equal(a.Value(i), first) {
				return false
			}
		}
		return true
	case *array.Int8:
		return allEqual(a.Int8Values())
	case *array.Int16:
		return allEqual(a.Int16Values())
	case *array.Int32:
		return allEqual(a.Int32Values())
	case *array.Int64:
		return allEqual(a.Int64Values())
	case *array.Date32:
		return allEqual(a.Date32Values())
	case *array.Boolean:
		first := a.Value(0)
		for i := 1; i < n; i++ {
			if a.Value(i) != first {
				return false
			}
		}
		return true
	}
	return false
}

func allEqual[T comparable](vals []T) bool {
	for _, v := range vals[1:] {
		if v != vals[0] {
			return false
		}
	}
	return true
}

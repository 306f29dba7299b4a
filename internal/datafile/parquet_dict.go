package datafile

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Dictionary or PLAIN, per column and file.
//
// parquet-java, which writes Java's files, starts every column chunk with a
// dictionary and gives it up when its first page is complete if the
// dictionary and the encoded indices do not come to fewer bytes than the
// raw values (FallbackValuesWriter.getBytes, isCompressionSatisfying), or
// earlier when the dictionary outgrows parquet.dictionary.page.size; the
// dictionary is then discarded and the column chunk is all PLAIN. So a
// column of unique values (ids, timestamps, random doubles and strings) is
// PLAIN in Java's files, and a column of few distinct values keeps its
// dictionary.
//
// arrow-go gives the dictionary up only when it reaches the dictionary page
// size limit (1 MiB) or, later still, when a dictionary data page has
// already been cut: a unique BIGINT column is hashed for its first 131,072
// values in every row group, and the pages cut before the fallback stay
// dictionary-encoded. That hashing was the largest single cost of a write
// (issue 23: a quarter of the CPU of a 2M-row ingest). Its own cost-based
// check (WithDictionaryCostFallbackFor) decides on the first 1,024-value
// batch, and the first batch of a file is often smaller still (the Writer
// checks the file size every 1,000 rows), which gave up dictionaries that
// Java keeps (a column of 1,000 distinct INTs).
//
// So the Writer decides up front, from a sample of the file's first rows
// (the rest of the batch that opens the file, up to dictSampleRows): a
// column whose sampled values are nearly all distinct is written PLAIN
// from the start, as parquet-java ends up writing it; every other column
// keeps arrow-go's dictionary with its usual fallback. The threshold is
// conservative: a sample of 8,192 values is at least 98% distinct only
// when the column has on the order of 200,000 distinct values or more,
// where Java's first-page check (131,072 BIGINT or 262,144 INT values)
// gives the dictionary up too. A sample smaller than dictSampleMin decides
// nothing. The choice changes only the encoding of the column chunks:
// values, statistics and row-group boundaries stay the same.
const (
	dictSampleRows = 8192
	dictSampleMin  = 4096
	// dictDistinctShare: the sampled values must be at least this
	// distinct (in thousandths) for a column to be written PLAIN.
	dictDistinctShare = 980
)

// plainColumns reports, per column of sample (a flat batch in the file's
// layout), whether the column should be written PLAIN rather than start
// with a dictionary. It returns nil when nothing is decided.
func plainColumns(sample arrow.RecordBatch) []bool {
	if sample == nil || sample.NumRows() == 0 {
		return nil
	}
	var out []bool
	for i, col := range sample.Columns() {
		if col.Len() > dictSampleRows {
			col = array.NewSlice(col, 0, dictSampleRows)
			defer col.Release()
		}
		if nearlyUnique(col) {
			if out == nil {
				out = make([]bool, sample.NumCols())
			}
			out[i] = true
		}
	}
	return out
}

// nearlyUnique reports whether arr has at least dictSampleMin non-null
// values of which at least dictDistinctShare thousandths are distinct.
// Types arrow-go does not dictionary-encode (booleans, decimals above
// precision 18, nested types) answer false.
func nearlyUnique(arr arrow.Array) bool {
	valid := arr.Len() - arr.NullN()
	if valid < dictSampleMin {
		return false
	}
	need := (valid*dictDistinctShare + 999) / 1000
	switch a := arr.(type) {
	case *array.Int8:
		return distinctAtLeast(a, a.Value, need)
	case *array.Int16:
		return distinctAtLeast(a, a.Value, need)
	case *array.Int32:
		return distinctAtLeast(a, a.Value, need)
	case *array.Int64:
		return distinctAtLeast(a, a.Value, need)
	case *array.Uint8:
		return distinctAtLeast(a, a.Value, need)
	case *array.Uint16:
		return distinctAtLeast(a, a.Value, need)
	case *array.Uint32:
		return distinctAtLeast(a, a.Value, need)
	case *array.Uint64:
		return distinctAtLeast(a, a.Value, need)
	case *array.Date32:
		return distinctAtLeast(a, a.Value, need)
	case *array.Date64:
		return distinctAtLeast(a, a.Value, need)
	case *array.Time32:
		return distinctAtLeast(a, a.Value, need)
	case *array.Time64:
		return distinctAtLeast(a, a.Value, need)
	case *array.Timestamp:
		return distinctAtLeast(a, a.Value, need)
	case *array.Float32:
		return distinctAtLeast(a, func(i int) uint32 { return math.Float32bits(a.Value(i)) }, need)
	case *array.Float64:
		return distinctAtLeast(a, func(i int) uint64 { return math.Float64bits(a.Value(i)) }, need)
	case *array.Decimal128:
		// Stored as INT32/INT64 (and dictionary-encoded) up to precision
		// 18; above that as FIXED_LEN_BYTE_ARRAY, always PLAIN.
		if a.DataType().(*arrow.Decimal128Type).Precision > 18 {
			return false
		}
		return distinctAtLeast(a, func(i int) uint64 { return a.Value(i).LowBits() }, need)
	case *array.String:
		// Value and ValueString view the array's bytes without copying.
		return distinctAtLeast(a, a.Value, need)
	case *array.Binary:
		return distinctAtLeast(a, a.ValueString, need)
	}
	return false
}

// distinctAtLeast reports whether the non-null values of arr (read with
// value) hold at least need distinct ones, stopping as soon as that is
// certain either way.
func distinctAtLeast[K comparable](arr arrow.Array, value func(int) K, need int) bool {
	seen := make(map[K]struct{}, arr.Len())
	left := arr.Len() - arr.NullN() // non-null values not yet looked at
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			continue
		}
		seen[value(i)] = struct{}{}
		left--
		if len(seen) >= need {
			return true
		}
		if len(seen)+left < need {
			return false
		}
	}
	return false
}

package testtable

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Java Paimon 1.4.2 computes the value statistics of a Parquet data file from
// the footer that parquet-java 1.16 returns after closing the file
// (ParquetBulkWriter.writerMetadata → ParquetSimpleStatsExtractor). That
// footer holds the writer's own column chunk statistics, merged over the row
// groups by ParquetUtil.extractColumnStats, so:
//
//   - min and max follow parquet-java's comparators: signed for integers,
//     dates, times, timestamps and decimals, false < true, unsigned bytes for
//     strings, and Float.compare / Double.compare for floating point (-0.0 <
//     +0.0, NaN above everything: one NaN makes the maximum NaN);
//   - nothing is dropped or truncated on the way (the 4 KiB limit and the
//     NaN rules of parquet-java apply only when a footer is serialized or
//     read back from a file, not to this in-memory one);
//   - row-group boundaries do not matter, since merging is associative.
//
// Java looks the statistics up by column name, so nested columns (ARRAY, MAP,
// MULTISET, ROW, VARIANT) have none at all. ParquetSimpleStatsExtractor then
// keeps min/max only for the types it converts (strings, BOOLEAN, DECIMAL,
// integers, DATE, TIME, FLOAT, DOUBLE, TIMESTAMP/LTZ up to precision 6);
// others (BINARY, VARBINARY, TIMESTAMP(7..9)) keep the null count alone. The
// column's collector (statsmode.go) applies last.

// footerStats is parquet-java's Statistics of one column over the file.
type footerStats struct {
	present  bool // Java finds a leaf column by the field's name
	hasValue bool // hasNonNullValue
	min, max any  // bool, int64 (all integer-backed types), float32, float64, decimal128.Num, string
	nulls    int64
}

// accumulator tracks min and max under a comparator.
type accumulator[T any] struct {
	has      bool
	min, max T
}

func (a *accumulator[T]) add(v T, compare func(a, b T) int) {
	if !a.has {
		a.has, a.min, a.max = true, v, v
		return
	}
	if compare(a.min, v) > 0 {
		a.min = v
	}
	if compare(a.max, v) < 0 {
		a.max = v
	}
}

// javaFloatCompare is Java's Double.compare (and, on float32 values widened
// exactly, Float.compare): numeric order, then -0.0 < +0.0 and every NaN equal
// and above +Inf.
func javaFloatCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	ab, bb := javaBits(a), javaBits(b)
	switch {
	case ab == bb:
		return 0
	case ab < bb:
		return -1
	}
	return 1
}

// javaBits is Double.doubleToLongBits: the bits with every NaN collapsed to
// the canonical one, read as a signed number.
func javaBits(f float64) int64 {
	if math.IsNaN(f) {
		return 0x7ff8000000000000
	}
	return int64(math.Float64bits(f))
}

func f32Compare(a, b float32) int        { return javaFloatCompare(float64(a), float64(b)) }
func decCompare(a, b decimal128.Num) int { return a.Cmp(b) }
func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// scanColumn computes the footer statistics of one column from its chunks.
func scanColumn(t schema.DataType, chunks []arrow.Array) footerStats {
	if t.IsNested() || t.Root == schema.Variant {
		return footerStats{}
	}
	st := footerStats{present: true}
	for _, arr := range chunks {
		st.nulls += int64(arr.NullN())
	}
	switch t.Root {
	case schema.Boolean:
		var a accumulator[bool]
		for _, arr := range chunks {
			c := arr.(*array.Boolean)
			for i := 0; i < c.Len(); i++ {
				if c.IsValid(i) {
					a.add(c.Value(i), boolCompare)
				}
			}
		}
		st.hasValue, st.min, st.max = a.has, a.min, a.max
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Date, schema.Time,
		schema.Timestamp, schema.TimestampLTZ:
		var a accumulator[int64]
		for _, arr := range chunks {
			scanInts(arr, &a)
		}
		st.hasValue, st.min, st.max = a.has, a.min, a.max
	case schema.Float:
		var a accumulator[float32]
		for _, arr := range chunks {
			c := arr.(*array.Float32)
			for i, v := range c.Float32Values() {
				if c.IsValid(i) {
					a.add(v, f32Compare)
				}
			}
		}
		st.hasValue, st.min, st.max = a.has, a.min, a.max
	case schema.Double:
		var a accumulator[float64]
		for _, arr := range chunks {
			c := arr.(*array.Float64)
			for i, v := range c.Float64Values() {
				if c.IsValid(i) {
					a.add(v, javaFloatCompare)
				}
			}
		}
		st.hasValue, st.min, st.max = a.has, a.min, a.max
	case schema.Decimal:
		var a accumulator[decimal128.Num]
		for _, arr := range chunks {
			c := arr.(*array.Decimal128)
			for i, v := range c.Values() {
				if c.IsValid(i) {
					a.add(v, decCompare)
				}
			}
		}
		st.hasValue, st.min, st.max = a.has, a.min, a.max
	case schema.Char, schema.VarChar, schema.Binary, schema.VarBinary, schema.Blob:
		var a accumulator[string]
		for _, arr := range chunks {
			scanBytes(arr, &a)
		}
		st.hasValue, st.min, st.max = a.has, a.min, a.max
	}
	return st
}

func scanInts(arr arrow.Array, a *accumulator[int64]) {
	switch c := arr.(type) {
	case *array.Int8:
		scanTyped(c, c.Int8Values(), a)
	case *array.Int16:
		scanTyped(c, c.Int16Values(), a)
	case *array.Int32:
		scanTyped(c, c.Int32Values(), a)
	case *array.Int64:
		scanTyped(c, c.Int64Values(), a)
	case *array.Date32:
		scanTyped(c, c.Date32Values(), a)
	case *array.Time32:
		scanTyped(c, c.Time32Values(), a)
	case *array.Timestamp:
		scanTyped(c, c.TimestampValues(), a)
	}
}

// scanTyped folds integer values into a; the fast path without nulls keeps
// the hot loop free of validity checks.
func scanTyped[T ~int8 | ~int16 | ~int32 | ~int64](arr arrow.Array, vals []T, a *accumulator[int64]) {
	if len(vals) == 0 {
		return
	}
	has := a.has
	lo, hi := a.min, a.max
	nullable := arr.NullN() > 0
	for i, v := range vals {
		if nullable && !arr.IsValid(i) {
			continue
		}
		x := int64(v)
		if !has {
			has, lo, hi = true, x, x
			continue
		}
		lo = min(lo, x)
		hi = max(hi, x)
	}
	a.has, a.min, a.max = has, lo, hi
}

func scanBytes(arr arrow.Array, a *accumulator[string]) {
	switch c := arr.(type) {
	case *array.String:
		for i := 0; i < c.Len(); i++ {
			if c.IsValid(i) {
				a.add(c.Value(i), strings.Compare)
			}
		}
	case *array.Binary:
		for i := 0; i < c.Len(); i++ {
			if c.IsValid(i) {
				a.add(string(c.Value(i)), strings.Compare)
			}
		}
	case *array.LargeBinary:
		for i := 0; i < c.Len(); i++ {
			if c.IsValid(i) {
				a.add(string(c.Value(i)), strings.Compare)
			}
		}
	}
}

// extract converts footer statistics into Paimon values as
// ParquetSimpleStatsExtractor.toFieldStats does, then applies the collector.
func extract(t schema.DataType, st footerStats, mode statsMode) colStats {
	if !st.present {
		return colStats{}
	}
	nulls := st.nulls
	out := colStats{nullCount: &nulls}
	if st.hasValue {
		out.min, out.max = paimonValue(t, st.min), paimonValue(t, st.max)
		if out.min == nil || out.max == nil {
			out.min, out.max = nil, nil
		}
	}
	return mode.convert(out)
}

// paimonValue turns one footer min or max into the Paimon value Java stores,
// or nil for types whose min/max Java does not keep.
func paimonValue(t schema.DataType, v any) any {
	switch t.Root {
	case schema.Boolean:
		return v.(bool)
	case schema.TinyInt:
		return int8(v.(int64))
	case schema.SmallInt:
		return int16(v.(int64))
	case schema.Int, schema.Date, schema.Time:
		return int32(v.(int64))
	case schema.BigInt:
		return v.(int64)
	case schema.Float:
		return v.(float32)
	case schema.Double:
		return v.(float64)
	case schema.Decimal:
		return data.Decimal{Unscaled: v.(decimal128.Num).BigInt(), Precision: t.Precision, Scale: t.Scale}
	case schema.Char, schema.VarChar:
		return javaString(v.(string))
	case schema.Timestamp, schema.TimestampLTZ:
		switch {
		case t.Precision <= 3:
			return data.Timestamp{Millis: v.(int64)}
		case t.Precision <= 6:
			return data.TimestampFromMicros(v.(int64))
		}
	}
	return nil
}

// valueStats computes _VALUE_STATS and _VALUE_STATS_COLS of a data file
// (SimpleStatsConverter.toBinary): in dense mode the columns without any
// statistics are left out and named columns listed, unless all are kept.
func valueStats(fields []schema.DataField, columns [][]arrow.Array, modes []statsMode, dense bool) (manifest.SimpleStats, []string, error) {
	var (
		types      []schema.DataType
		mins, maxs []any
		nulls      []*int64
		names      []string
	)
	for i, f := range fields {
		cs := extract(f.Type, scanColumn(f.Type, columns[i]), modes[i])
		if dense && cs.isNone() {
			continue
		}
		types = append(types, f.Type.Copy(true))
		mins = append(mins, cs.min)
		maxs = append(maxs, cs.max)
		nulls = append(nulls, cs.nullCount)
		names = append(names, f.Name)
	}
	st, err := encodeStats(types, mins, maxs, nulls)
	if err != nil {
		return manifest.SimpleStats{}, nil, err
	}
	if !dense || len(names) == len(fields) {
		names = nil
	} else if names == nil {
		names = []string{}
	}
	return st, names, nil
}

// encodeStats serializes min and max rows and the null counts.
func encodeStats(types []schema.DataType, mins, maxs []any, nulls []*int64) (manifest.SimpleStats, error) {
	minRow, err := binaryrow.Encode(data.Insert, types, mins)
	if err != nil {
		return manifest.SimpleStats{}, fmt.Errorf("testtable: encode min stats: %w", err)
	}
	maxRow, err := binaryrow.Encode(data.Insert, types, maxs)
	if err != nil {
		return manifest.SimpleStats{}, fmt.Errorf("testtable: encode max stats: %w", err)
	}
	if nulls == nil {
		nulls = []*int64{}
	}
	return manifest.SimpleStats{
		MinValues:  binaryrow.MarshalSerialized(minRow, len(types)),
		MaxValues:  binaryrow.MarshalSerialized(maxRow, len(types)),
		NullCounts: nulls,
	}, nil
}

// partitionStats computes _PARTITION_STATS of a manifest: min, max and null
// count of every partition field over the entries, in Java's "full" mode
// (ManifestFile.ManifestEntryWriter with a default SimpleStatsCollector),
// where values are ordered by their Java compareTo. Values that are not
// Comparable in Java (BINARY) get null min/max.
func partitionStats(types []schema.DataType, partitions [][]any) (manifest.SimpleStats, error) {
	n := len(types)
	mins, maxs := make([]any, n), make([]any, n)
	nulls := make([]*int64, n)
	for i := range types {
		var cnt int64
		for _, p := range partitions {
			v := p[i]
			if v == nil {
				cnt++
				continue
			}
			if mins[i] == nil {
				if _, ok := javaCompare(v, v); !ok {
					continue
				}
				mins[i], maxs[i] = v, v
				continue
			}
			if c, _ := javaCompare(v, mins[i]); c < 0 {
				mins[i] = v
			}
			if c, _ := javaCompare(v, maxs[i]); c > 0 {
				maxs[i] = v
			}
		}
		nulls[i] = &cnt
	}
	return encodeStats(types, mins, maxs, nulls)
}

// javaCompare orders two non-null values of the same Paimon type as their
// Java internal classes' compareTo does; ok is false for types that are not
// Comparable in Java.
func javaCompare(a, b any) (int, bool) {
	switch x := a.(type) {
	case bool:
		return boolCompare(x, b.(bool)), true
	case int8:
		return cmp.Compare(x, b.(int8)), true
	case int16:
		return cmp.Compare(x, b.(int16)), true
	case int32:
		return cmp.Compare(x, b.(int32)), true
	case int64:
		return cmp.Compare(x, b.(int64)), true
	case float32:
		return f32Compare(x, b.(float32)), true
	case float64:
		return javaFloatCompare(x, b.(float64)), true
	case string:
		return strings.Compare(x, b.(string)), true
	case data.Decimal:
		return x.Cmp(b.(data.Decimal)), true
	case data.Timestamp:
		y := b.(data.Timestamp)
		if c := cmp.Compare(x.Millis, y.Millis); c != 0 {
			return c, true
		}
		return cmp.Compare(x.NanoOfMilli, y.NanoOfMilli), true
	}
	return 0, false
}

package datafile

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/format/schema"
)

// minMax tracks the smallest and largest non-null value of one column, in
// Java's order (compare.go), over the Arrow arrays of a file. It copies what
// it keeps, so the arrays may be released after add.
type minMax interface {
	add(arr arrow.Array)
	// bounds returns the raw min and max (bool; int64 for every
	// integer-backed type; float32; float64; decimal128.Num; string). ok is
	// false when there was no value, or when truncation found no upper
	// bound.
	bounds() (lo, hi any, ok bool)
}

// newMinMax returns the tracker for a column type, or nil for the types
// whose min/max Java never keeps: BINARY, VARBINARY and BLOB (parquet
// statistics Java does not convert; byte[] is not Comparable), nested types
// and VARIANT. truncate > 0 makes strings follow Java's
// TruncateSimpleColStatsCollector row by row (the Avro path).
func newMinMax(t schema.DataType, truncate int) minMax {
	switch t.Root {
	case schema.Boolean:
		return &boolMinMax{}
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Date, schema.Time,
		schema.Timestamp, schema.TimestampLTZ:
		return &intMinMax{}
	case schema.Float:
		return &f32MinMax{}
	case schema.Double:
		return &f64MinMax{}
	case schema.Decimal:
		return &decMinMax{}
	case schema.Char, schema.VarChar:
		return &strMinMax{truncate: truncate}
	}
	return nil
}

type boolMinMax struct{ acc accumulator[bool] }

func (m *boolMinMax) add(arr arrow.Array) {
	c, ok := arr.(*array.Boolean)
	if !ok {
		return
	}
	for i := 0; i < c.Len(); i++ {
		if c.IsValid(i) {
			m.acc.add(c.Value(i), boolCompare)
		}
	}
}

func (m *boolMinMax) bounds() (any, any, bool) { return m.acc.min, m.acc.max, m.acc.has }

type f32MinMax struct{ acc accumulator[float32] }

func (m *f32MinMax) add(arr arrow.Array) {
	c, ok := arr.(*array.Float32)
	if !ok {
		return
	}
	for i, v := range c.Float32Values() {
		if c.IsValid(i) {
			m.acc.add(v, f32Compare)
		}
	}
}

func (m *f32MinMax) bounds() (any, any, bool) { return m.acc.min, m.acc.max, m.acc.has }

type f64MinMax struct{ acc accumulator[float64] }

func (m *f64MinMax) add(arr arrow.Array) {
	c, ok := arr.(*array.Float64)
	if !ok {
		return
	}
	for i, v := range c.Float64Values() {
		if c.IsValid(i) {
			m.acc.add(v, javaFloatCompare)
		}
	}
}

func (m *f64MinMax) bounds() (any, any, bool) { return m.acc.min, m.acc.max, m.acc.has }

type decMinMax struct{ acc accumulator[decimal128.Num] }

func (m *decMinMax) add(arr arrow.Array) {
	c, ok := arr.(*array.Decimal128)
	if !ok {
		return
	}
	for i, v := range c.Values() {
		if c.IsValid(i) {
			m.acc.add(v, decCompare)
		}
	}
}

func (m *decMinMax) bounds() (any, any, bool) { return m.acc.min, m.acc.max, m.acc.has }

// intMinMax covers every type stored as an Arrow integer: TINYINT to
// BIGINT, DATE, TIME and TIMESTAMP (in the column's unit).
type intMinMax struct{ acc accumulator[int64] }

func (m *intMinMax) add(arr arrow.Array) {
	switch c := arr.(type) {
	case *array.Int8:
		scanInts(c, c.Int8Values(), &m.acc)
	case *array.Int16:
		scanInts(c, c.Int16Values(), &m.acc)
	case *array.Int32:
		scanInts(c, c.Int32Values(), &m.acc)
	case *array.Int64:
		scanInts(c, c.Int64Values(), &m.acc)
	case *array.Date32:
		scanInts(c, c.Date32Values(), &m.acc)
	case *array.Time32:
		scanInts(c, c.Time32Values(), &m.acc)
	case *array.Timestamp:
		scanInts(c, c.TimestampValues(), &m.acc)
	}
}

func (m *intMinMax) bounds() (any, any, bool) { return m.acc.min, m.acc.max, m.acc.has }

// scanInts folds integer values into a; the path without nulls keeps the
// hot loop free of validity checks.
func scanInts[T ~int8 | ~int16 | ~int32 | ~int64](arr arrow.Array, vals []T, a *accumulator[int64]) {
	has, lo, hi := a.has, a.min, a.max
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

// strMinMax tracks CHAR and VARCHAR columns. Without truncation it keeps the
// plain min and max (what parquet-java's footer holds, and Java's full
// collector). With truncate = N it is Java's TruncateSimpleColStatsCollector
// fed row by row: a value below the kept minimum replaces it by its first N
// code points, a value above the kept maximum by the least N-code-point
// string not below it, and once no such string exists (a run of U+10FFFF)
// the column gives up on min and max for good. Comparisons are against the
// truncated values kept, as in Java.
type strMinMax struct {
	truncate    int
	has, failed bool
	min, max    string
}

func (m *strMinMax) add(arr arrow.Array) {
	c, ok := arr.(*array.String)
	if !ok {
		return
	}
	for i := 0; i < c.Len() && !m.failed; i++ {
		if c.IsValid(i) {
			m.offer(c.Value(i))
		}
	}
}

// offer takes one value; v may point into an Arrow buffer, so whatever is
// kept is cloned.
func (m *strMinMax) offer(v string) {
	if !m.has || v < m.min {
		lo := v
		if m.truncate > 0 {
			lo = truncateMin(v, m.truncate)
		}
		m.min = strings.Clone(lo)
	}
	if !m.has || v > m.max {
		hi, ok := v, true
		if m.truncate > 0 {
			hi, ok = truncateMax(v, m.truncate)
		}
		if ok {
			m.max = strings.Clone(hi)
		} else {
			m.failed = true
		}
	}
	m.has = true
}

func (m *strMinMax) bounds() (any, any, bool) { return m.min, m.max, m.has && !m.failed }

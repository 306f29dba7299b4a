package fileindex_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/fileindex"
	"github.com/paimon-go/paimon-go/format/schema"
)

// rangeCase is a column type with a value generator and the SQL order of
// its values.
type rangeCase struct {
	name string
	t    schema.DataType
	gen  func(r *rand.Rand) any
	cmp  func(a, b any) int
}

func rangeCases() []rangeCase {
	ints := func(a, b any) int { return cmp.Compare(toI64(a), toI64(b)) }
	ts := func(a, b any) int { return a.(data.Timestamp).Compare(b.(data.Timestamp)) }
	// Non-zero floats: the indexes answer Remain for a zero literal.
	nz := func(r *rand.Rand) int {
		if x := r.IntN(400) - 200; x != 0 {
			return x
		}
		return 1
	}
	return []rangeCase{
		{"tinyint", schema.TinyIntType(), func(r *rand.Rand) any { return int8(r.IntN(256) - 128) }, ints},
		{"smallint", schema.SmallIntType(), func(r *rand.Rand) any { return int16(r.IntN(2000) - 1000) }, ints},
		{"int", schema.IntType(), func(r *rand.Rand) any { return int32(r.IntN(200) - 100) }, ints},
		{"bigint", schema.BigIntType(), func(r *rand.Rand) any {
			if r.IntN(10) == 0 {
				return []int64{math.MaxInt64, math.MinInt64 + 1, 0}[r.IntN(3)]
			}
			return r.Int64N(1<<40) - 1<<39
		}, ints},
		{"date", schema.DateType(), func(r *rand.Rand) any { return int32(r.IntN(40000) - 20000) }, ints},
		{"time", schema.TimeType(3), func(r *rand.Rand) any { return int32(r.IntN(86_400_000)) }, ints},
		{"timestamp3", schema.TimestampType(3), func(r *rand.Rand) any {
			return data.Timestamp{Millis: r.Int64N(1<<42) - 1<<41}
		}, ts},
		{"timestamp6", schema.TimestampType(6), func(r *rand.Rand) any {
			return data.TimestampFromMicros(r.Int64N(1<<50) - 1<<49)
		}, ts},
		{"timestamp_ltz6", schema.TimestampLTZType(6), func(r *rand.Rand) any {
			return data.TimestampFromMicros(r.Int64N(2000) - 1000)
		}, ts},
		{"decimal", schema.DecimalType(10, 2), func(r *rand.Rand) any {
			return data.NewDecimalFromInt64(r.Int64N(20000)-10000, 10, 2)
		}, func(a, b any) int { return a.(data.Decimal).Cmp(b.(data.Decimal)) }},
		{"float", schema.FloatType(), func(r *rand.Rand) any {
			return float32(nz(r)) / 8
		}, func(a, b any) int { return cmp.Compare(a.(float32), b.(float32)) }},
		{"double", schema.DoubleType(), func(r *rand.Rand) any {
			return float64(nz(r)) / 16
		}, func(a, b any) int { return cmp.Compare(a.(float64), b.(float64)) }},
		{"string", schema.StringType(), func(r *rand.Rand) any {
			var sb strings.Builder
			for range r.IntN(4) {
				sb.WriteString([]string{"a", "b", "é", "z", "\x00", "ÿ"}[r.IntN(6)])
			}
			return sb.String()
		}, func(a, b any) int { return strings.Compare(a.(string), b.(string)) }},
		{"boolean", schema.BooleanType(), func(r *rand.Rand) any { return r.IntN(2) == 0 },
			func(a, b any) int { return cmp.Compare(b2i(a.(bool)), b2i(b.(bool))) }},
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func toI64(v any) int64 {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	}
	panic(fmt.Sprintf("%T", v))
}

// TestWriteRangeIndexesRoundTrip writes bsi and range-bitmap indexes of
// random columns of every type Java builds them for (with nulls, several
// dictionary chunk sizes), reads them back through Parse and requires the
// exact row set of every comparison, IN, NOT IN and null test, for
// literals taken from the data and from the generator (mostly absent).
func TestWriteRangeIndexesRoundTrip(t *testing.T) {
	seed := uint64(21)
	ops := []struct {
		op   fileindex.Op
		hold func(c int) bool
	}{
		{fileindex.OpEqual, func(c int) bool { return c == 0 }},
		{fileindex.OpNotEqual, func(c int) bool { return c != 0 }},
		{fileindex.OpLessThan, func(c int) bool { return c < 0 }},
		{fileindex.OpLessOrEqual, func(c int) bool { return c <= 0 }},
		{fileindex.OpGreaterThan, func(c int) bool { return c > 0 }},
		{fileindex.OpGreaterOrEqual, func(c int) bool { return c >= 0 }},
	}
	checked := 0
	for _, tc := range rangeCases() {
		for _, typ := range []string{"bsi", "range-bitmap"} {
			for _, opts := range []map[string]string{nil, {"chunk-size": "0"}, {"chunk-size": "9"}} {
				if typ == "bsi" && opts != nil {
					continue
				}
				w, err := fileindex.NewColumnWriter(typ, tc.t, opts)
				require.NoError(t, err)
				if w == nil {
					require.True(t, typ == "bsi" && (tc.name == "float" || tc.name == "double" || tc.name == "string" || tc.name == "boolean"),
						"%s %s: no writer", typ, tc.name)
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%v", typ, tc.name, opts), func(t *testing.T) {
					r := rand.New(rand.NewPCG(seed, uint64(len(tc.name))))
					n := 1 + r.IntN(600)
					vals := make([]any, n)
					for i := range vals {
						if r.IntN(9) != 0 {
							vals[i] = tc.gen(r)
						}
						w.Add(vals[i])
					}
					f, err := fileindex.Parse(fileindex.Encode([]fileindex.ColumnIndex{{Column: "c", Type: typ, Bytes: w.Bytes()}}))
					require.NoError(t, err)
					ix := f.Index("c", typ, tc.t)
					want := func(hold func(v any) bool) *roaring.Bitmap {
						b := roaring.New()
						for i, v := range vals {
							if hold(v) {
								b.Add(uint32(i))
							}
						}
						return b
					}
					got := ix.Test(fileindex.OpIsNull, nil).Bitmap()
					require.NotNil(t, got)
					require.True(t, want(func(v any) bool { return v == nil }).Equals(got), "is null")
					lits := []any{}
					for range 30 {
						lits = append(lits, tc.gen(r))
						if v := vals[r.IntN(n)]; v != nil {
							lits = append(lits, v)
						}
					}
					for _, lit := range lits {
						for _, o := range ops {
							got := ix.Test(o.op, []any{lit}).Bitmap()
							exp := want(func(v any) bool { return v != nil && o.hold(tc.cmp(v, lit)) })
							require.NotNil(t, got, "%v %v", o.op, lit)
							require.True(t, exp.Equals(got), "op %v %v: rows %v, want %v", o.op, lit, got, exp)
							checked++
						}
					}
					in := lits[:3]
					exp := want(func(v any) bool {
						for _, l := range in {
							if v != nil && tc.cmp(v, l) == 0 {
								return true
							}
						}
						return false
					})
					require.True(t, exp.Equals(ix.Test(fileindex.OpIn, in).Bitmap()), "in %v", in)
					notIn := want(func(v any) bool { return v != nil })
					notIn.AndNot(exp)
					require.True(t, notIn.Equals(ix.Test(fileindex.OpNotIn, in).Bitmap()), "not in %v", in)
				})
			}
		}
	}
	t.Logf("%d comparisons", checked)
}

// TestWriteRangeIndexesEdges: a column of NULLs only, Long.MIN_VALUE (which
// Java's bsi writer cannot store: no index), options Java refuses, and
// types neither index is built for.
func TestWriteRangeIndexesEdges(t *testing.T) {
	for _, typ := range []string{"bsi", "range-bitmap"} {
		w, err := fileindex.NewColumnWriter(typ, schema.BigIntType(), nil)
		require.NoError(t, err)
		for range 5 {
			w.Add(nil)
		}
		f, err := fileindex.Parse(fileindex.Encode([]fileindex.ColumnIndex{{Column: "c", Type: typ, Bytes: w.Bytes()}}))
		require.NoError(t, err)
		ix := f.Index("c", typ, schema.BigIntType())
		require.Equal(t, uint64(5), ix.Test(fileindex.OpIsNull, nil).Bitmap().GetCardinality(), typ)
		require.False(t, ix.Test(fileindex.OpEqual, []any{int64(1)}).Remain(), typ)
		require.False(t, ix.Test(fileindex.OpGreaterThan, []any{int64(-1)}).Remain(), typ)
	}
	w, err := fileindex.NewColumnWriter("bsi", schema.BigIntType(), nil)
	require.NoError(t, err)
	w.Add(int64(1))
	w.Add(int64(math.MinInt64))
	require.Nil(t, w.Bytes())
	_, err = fileindex.NewColumnWriter("range-bitmap", schema.IntType(), map[string]string{"chunk-size": "-1"})
	require.Error(t, err)
	for _, c := range []struct {
		typ string
		t   schema.DataType
	}{
		{"bsi", schema.DecimalType(20, 0)}, {"bsi", schema.StringType()}, {"bsi", schema.DoubleType()},
		{"range-bitmap", schema.DecimalType(19, 0)}, {"range-bitmap", schema.TimestampType(9)},
		{"range-bitmap", schema.BytesType()},
	} {
		w, err := fileindex.NewColumnWriter(c.typ, c.t, nil)
		require.NoError(t, err)
		require.Nil(t, w, "%s on %v", c.typ, c.t)
	}
	// Floating-point zeros and NaN are written (Java keys them by
	// Float.compare); the reader answers Remain for such literals and
	// exact rows for the others.
	w, err = fileindex.NewColumnWriter("range-bitmap", schema.DoubleType(), nil)
	require.NoError(t, err)
	for _, v := range []float64{math.NaN(), 0, math.Copysign(0, -1), 1.5, math.Inf(-1), math.NaN()} {
		w.Add(v)
	}
	f, err := fileindex.Parse(fileindex.Encode([]fileindex.ColumnIndex{{Column: "c", Type: "range-bitmap", Bytes: w.Bytes()}}))
	require.NoError(t, err)
	ix := f.Index("c", "range-bitmap", schema.DoubleType())
	require.Equal(t, []uint32{3}, ix.Test(fileindex.OpEqual, []any{1.5}).Bitmap().ToArray())
	require.Equal(t, []uint32{4}, ix.Test(fileindex.OpLessThan, []any{-1.0}).Bitmap().ToArray())
	require.True(t, ix.Test(fileindex.OpEqual, []any{0.0}).Remain())
}

package fileindex_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/fileindex"
	"github.com/paimon-go/paimon-go/format/schema"
)

// TestBitmapLookupManyBlocks: bitmap indexes large enough for many
// version-2 index blocks (16 KiB each) answer every equality, IN and NOT
// EQUAL with the exact rows, for values in the data and absent ones
// (below, between and above the blocks' keys), and an integer literal out
// of the column type's range matches nothing (no key is cut to fit).
func TestBitmapLookupManyBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		t   schema.DataType
		gen func() any
	}{
		{schema.StringType(), func() any { return fmt.Sprintf("v%06d", r.IntN(20000)) }},
		{schema.BigIntType(), func() any { return r.Int64N(40000) - 20000 }},
		{schema.IntType(), func() any { return int32(r.IntN(40000) - 20000) }},
		{schema.TinyIntType(), func() any { return int8(r.IntN(256) - 128) }},
		{schema.DoubleType(), func() any { return float64(r.IntN(20000)-10000) + 0.5 }},
	} {
		w, err := fileindex.NewColumnWriter("bitmap", c.t, nil)
		require.NoError(t, err)
		vals := make([]any, 12000)
		for i := range vals {
			if r.IntN(20) != 0 {
				vals[i] = c.gen()
			}
			w.Add(vals[i])
		}
		f, err := fileindex.Parse(fileindex.Encode([]fileindex.ColumnIndex{{Column: "c", Type: "bitmap", Bytes: w.Bytes()}}))
		require.NoError(t, err)
		ix := f.Index("c", "bitmap", c.t)
		rows := func(lits ...any) *roaring.Bitmap {
			b := roaring.New()
			for i, v := range vals {
				for _, l := range lits {
					if v != nil && fmt.Sprint(v) == fmt.Sprint(l) {
						b.Add(uint32(i))
					}
				}
			}
			return b
		}
		for range 300 {
			lit := c.gen()
			if r.IntN(2) == 0 {
				for lit = vals[r.IntN(len(vals))]; lit == nil; lit = vals[r.IntN(len(vals))] {
				}
			}
			got := ix.Test(fileindex.OpEqual, []any{lit}).Bitmap()
			require.NotNil(t, got, "%v = %v", c.t, lit)
			require.True(t, rows(lit).Equals(got), "%v = %v: %v", c.t, lit, got)
			ne := ix.Test(fileindex.OpNotEqual, []any{lit}).Bitmap()
			require.NotNil(t, ne)
			require.Equal(t, uint64(len(vals))-got.GetCardinality(), ne.GetCardinality())
		}
		in := []any{c.gen(), c.gen(), vals[0], vals[1]}
		in = append(in[:2], in[2:]...)
		require.True(t, rows(in...).Equals(ix.Test(fileindex.OpIn, in).Bitmap()), "%v in %v", c.t, in)
		nulls := ix.Test(fileindex.OpIsNull, nil).Bitmap()
		require.NotNil(t, nulls)
		for i, v := range vals {
			require.Equal(t, v == nil, nulls.Contains(uint32(i)))
		}
	}
	w, err := fileindex.NewColumnWriter("bitmap", schema.TinyIntType(), nil)
	require.NoError(t, err)
	w.Add(int8(44)) // 300 cut to a byte
	w.Add(int8(-1))
	f, err := fileindex.Parse(fileindex.Encode([]fileindex.ColumnIndex{{Column: "c", Type: "bitmap", Bytes: w.Bytes()}}))
	require.NoError(t, err)
	got := f.Index("c", "bitmap", schema.TinyIntType()).Test(fileindex.OpEqual, []any{int64(300)}).Bitmap()
	require.NotNil(t, got)
	require.True(t, got.IsEmpty(), "tinyint = 300: %v", got)
}

// TestRangeBitmapReadsLazily: with the bit slices damaged, a range-bitmap
// index still answers what its ebm and its min and max answer (IS NULL, a
// literal outside [min, max]), as Java's RangeBitmap does without reading
// the slices, and answers Remain where the slices are needed; a
// dictionary chunk whose keys do not rise answers Remain for the keys that
// land in it.
func TestRangeBitmapReadsLazily(t *testing.T) {
	w, err := fileindex.NewColumnWriter("range-bitmap", schema.BigIntType(), map[string]string{"chunk-size": "16"})
	require.NoError(t, err)
	for i := range 40 {
		w.Add(int64(10 * i)) // 0..390, two keys a chunk
	}
	w.Add(nil)
	good := w.Bytes()
	test := func(b []byte, op fileindex.Op, lit any) fileindex.Result {
		f, err := fileindex.Parse(fileindex.Encode([]fileindex.ColumnIndex{{Column: "c", Type: "range-bitmap", Bytes: b}}))
		require.NoError(t, err)
		var lits []any
		if lit != nil {
			lits = []any{lit}
		}
		return f.Index("c", "range-bitmap", schema.BigIntType()).Test(op, lits)
	}
	require.Equal(t, []uint32{5}, test(good, fileindex.OpEqual, int64(50)).Bitmap().ToArray())
	require.Equal(t, uint64(40), test(good, fileindex.OpGreaterOrEqual, int64(-5)).Bitmap().GetCardinality())

	// The last slice's bytes come last: damage its cookie.
	damaged := append([]byte(nil), good...)
	sliceAt := len(damaged) - 1
	for ; sliceAt > 0; sliceAt-- {
		if damaged[sliceAt-1] == 0x3b && damaged[sliceAt] == 0x30 { // a roaring cookie 12347, little-endian
			break
		}
	}
	require.Positive(t, sliceAt)
	damaged[sliceAt-1] = 0xff
	require.True(t, test(damaged, fileindex.OpEqual, int64(50)).Remain())
	require.Nil(t, test(damaged, fileindex.OpEqual, int64(50)).Bitmap())
	require.Equal(t, []uint32{40}, test(damaged, fileindex.OpIsNull, nil).Bitmap().ToArray())
	require.True(t, test(damaged, fileindex.OpEqual, int64(1000)).Bitmap().IsEmpty())
	require.Equal(t, uint64(40), test(damaged, fileindex.OpGreaterOrEqual, int64(-5)).Bitmap().GetCardinality())

	// Swap key 10 (in the first chunk, after 0) with key 30 (the second
	// chunk's first; 8-byte keys stored big-endian).
	swapped := append([]byte(nil), good...)
	k10 := []byte{0, 0, 0, 0, 0, 0, 0, 10}
	k30 := []byte{0, 0, 0, 0, 0, 0, 0, 30}
	i10, i30 := indexOf(swapped, k10, 0), indexOf(swapped, k30, 0)
	require.True(t, i10 > 0 && i30 > 0)
	copy(swapped[i10:], k30)
	copy(swapped[i30:], k10)
	for _, k := range []int64{10, 20, 30} {
		require.Nil(t, test(swapped, fileindex.OpEqual, k).Bitmap(), "= %d", k)
	}
	require.Equal(t, []uint32{30}, test(swapped, fileindex.OpEqual, int64(300)).Bitmap().ToArray())
}

func indexOf(b, sub []byte, from int) int {
	for i := from; i+len(sub) <= len(b); i++ {
		if string(b[i:i+len(sub)]) == string(sub) {
			return i
		}
	}
	return -1
}

package fileindex

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

// javaIndexes returns the separate .index files Java wrote for the golden
// table file-index-separate (s STRING bloom-filter, c STRING bitmap v2,
// c1 INT bitmap v1).
func javaIndexes(t *testing.T) [][]byte {
	t.Helper()
	files, err := filepath.Glob("../../testdata/golden/java-*/file-index-separate/warehouse/interop.db/file_index_separate/bucket-0/*.index")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out = append(out, b)
	}
	return out
}

var goldenTypes = map[string]schema.DataType{
	"s": schema.VarCharType(schema.MaxLength), "c": schema.VarCharType(schema.MaxLength), "c1": schema.IntType(),
	"n": schema.BigIntType(), "r": schema.IntType(),
}

func TestParseJavaIndex(t *testing.T) {
	withFive := 0
	for _, b := range javaIndexes(t) {
		f, err := Parse(b)
		require.NoError(t, err)
		cols := f.Columns()
		slices.Sort(cols)
		// The table's options: bloom-filter on s, bitmap on c and c1, bsi on n, range-bitmap on r and s.
		require.Equal(t, []string{"c", "c1", "n", "r", "s"}, cols)
		styp := f.Types("s")
		slices.Sort(styp)
		require.Equal(t, []string{"bloom-filter", "range-bitmap"}, styp)
		require.Equal(t, []string{"bitmap"}, f.Types("c"))
		require.Equal(t, []string{"bsi"}, f.Types("n"))
		require.Equal(t, []string{"range-bitmap"}, f.Types("r"))
		for col, typ := range goldenTypes {
			for _, ix := range f.IndexesOf(col, typ) {
				_, remainOnly := ix.(remainIdx)
				require.False(t, remainOnly, "column %s: index not decoded", col)
			}
		}
		// Every file holds a non-NULL c1; no file holds c1 = 10; only the fifth write's file holds c1 = 5.
		bm := f.Index("c1", "bitmap", schema.IntType())
		require.False(t, bm.Test(OpEqual, []any{int32(10)}).Remain())
		require.True(t, bm.Test(OpIsNotNull, nil).Remain())
		if bm.Test(OpEqual, []any{int32(5)}).Remain() {
			withFive++
		}
	}
	require.Positive(t, withFive)
	require.Less(t, withFive, len(javaIndexes(t)))
}

// TestCorruptIndexNeverPanics truncates and flips bytes of Java's indexes:
// decoding and testing may fail or answer anything, but never panic.
func TestCorruptIndexNeverPanics(t *testing.T) {
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	probe := func(b []byte) {
		f, err := Parse(b)
		if err != nil {
			return
		}
		for col, typ := range goldenTypes {
			for _, ix := range f.IndexesOf(col, typ) {
				for _, op := range []Op{OpEqual, OpNotEqual, OpIn, OpNotIn, OpIsNull, OpIsNotNull, OpLessThan} {
					ix.Test(op, []any{"q"})
					ix.Test(op, []any{int32(7), nil})
				}
			}
		}
	}
	for _, b := range javaIndexes(t) {
		for n := range len(b) {
			probe(b[:n])
		}
		for range 300 {
			c := slices.Clone(b)
			for range 1 + rng.IntN(3) {
				c[rng.IntN(len(c))] ^= byte(1 + rng.IntN(255))
			}
			probe(c)
		}
	}
}

// TestResultCombination follows Java FileIndexResult / BitmapIndexResult.
func TestResultCombination(t *testing.T) {
	require.False(t, Skip().Or(Skip()).Remain())
	require.True(t, Skip().Or(Remain()).Remain())
	require.False(t, Remain().And(Skip()).Remain())
	require.True(t, Remain().And(Remain()).Remain())
}

// TestWriteReadRoundTrip writes bloom-filter and bitmap indexes, encodes
// them in the file-index format and answers from what it reads back: a
// written value is never excluded, an absent one is (bitmap) or mostly
// is (bloom filter).
func TestWriteReadRoundTrip(t *testing.T) {
	str := schema.StringType()
	bw, err := NewColumnWriter("bloom-filter", str, map[string]string{"items": "100"})
	require.NoError(t, err)
	mw, err := NewColumnWriter("bitmap", str, nil)
	require.NoError(t, err)
	iw, err := NewColumnWriter("bitmap", schema.IntType(), nil)
	require.NoError(t, err)
	for i := range 300 {
		var v any = string(rune('a' + i%20))
		if i%7 == 0 {
			v = nil
		}
		bw.Add(v)
		mw.Add(v)
		iw.Add(int32(i % 5))
	}
	b := Encode([]ColumnIndex{{"s", "bloom-filter", bw.Bytes()}, {"s", "bitmap", mw.Bytes()}, {"n", "bitmap", iw.Bytes()}})
	f, err := Parse(b)
	require.NoError(t, err)
	bloomIdx := f.Index("s", "bloom-filter", str)
	bm := f.Index("s", "bitmap", str)
	for i := range 20 {
		v := string(rune('a' + i))
		require.True(t, bloomIdx.Test(OpEqual, []any{v}).Remain(), v)
		r := bm.Test(OpEqual, []any{v})
		require.True(t, r.Remain(), v)
		for _, row := range r.Bitmap().ToArray() {
			require.Equal(t, i, int(row)%20)
			require.NotZero(t, row%7)
		}
	}
	require.False(t, bm.Test(OpEqual, []any{"zz"}).Remain())
	require.Equal(t, uint64(43), bm.Test(OpIsNull, nil).Bitmap().GetCardinality())
	ib := f.Index("n", "bitmap", schema.IntType())
	require.Equal(t, uint64(60), ib.Test(OpEqual, []any{int32(3)}).Bitmap().GetCardinality())
	require.False(t, ib.Test(OpIn, []any{int32(7), int32(-1)}).Remain())
}

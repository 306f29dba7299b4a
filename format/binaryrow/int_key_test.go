package binaryrow_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/schema"
)

// TestIntKeyMatchesKeyHash: for keys of one to nine integer fields, random
// and extreme values and NULLs, IntKey hashes as KeyHash does.
func TestIntKeyMatchesKeyHash(t *testing.T) {
	roots := []schema.TypeRoot{schema.TinyInt, schema.SmallInt, schema.Int, schema.Date, schema.Time, schema.BigInt}
	r := rand.New(rand.NewPCG(7, 11))
	extremes := []int64{0, 1, -1, math.MinInt64, math.MaxInt64, math.MinInt32, math.MaxInt32, math.MinInt16, math.MaxInt8}
	for round := range 2000 {
		n := 1 + round%9
		types := make([]schema.DataType, n)
		for i := range types {
			types[i] = schema.DataType{Root: roots[r.IntN(len(roots))], Nullable: true}
		}
		k, ok := binaryrow.NewIntKey(types)
		require.True(t, ok)
		k.Reset()
		vals := make([]any, n)
		for i, ty := range types {
			if r.IntN(8) == 0 {
				k.SetNull(i)
				continue
			}
			v := r.Int64()
			if r.IntN(3) == 0 {
				v = extremes[r.IntN(len(extremes))]
			}
			switch ty.Root {
			case schema.TinyInt:
				vals[i] = int8(v)
			case schema.SmallInt:
				vals[i] = int16(v)
			case schema.BigInt:
				vals[i] = v
			default:
				vals[i] = int32(v)
			}
			k.Set(i, v)
		}
		want, err := binaryrow.KeyHash(types, vals)
		require.NoError(t, err)
		require.Equal(t, want, k.Hash(), "types %v values %v", types, vals)
	}
	_, ok := binaryrow.NewIntKey([]schema.DataType{schema.BigIntType(), schema.StringType()})
	require.False(t, ok)
}

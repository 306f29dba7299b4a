package binaryrow_test

import (
	"flag"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

var randSeed = flag.Uint64("binaryrow.seed", 0, "seed for TestRandomRoundTrip (0 = time based)")

// gen generates random types and matching values.
type gen struct{ r *rand.Rand }

// typ returns a random type; VECTOR only where Java allows it (row fields,
// not array or map elements).
func (g gen) typ(depth int, inArray bool) schema.DataType {
	scalars := []func() schema.DataType{
		func() schema.DataType { return tOf(schema.Boolean) },
		func() schema.DataType { return tOf(schema.TinyInt) },
		func() schema.DataType { return tOf(schema.SmallInt) },
		tInt, tBigInt,
		func() schema.DataType { return tOf(schema.Float) },
		func() schema.DataType { return tOf(schema.Double) },
		func() schema.DataType { p := 1 + g.r.IntN(38); return tDecimal(p, g.r.IntN(p+1)) },
		tString,
		func() schema.DataType { return schema.DataType{Root: schema.Char, Length: 10} },
		tBytes,
		func() schema.DataType { return tOf(schema.Date) },
		func() schema.DataType { return tOf(schema.Time) },
		func() schema.DataType { return tTimestamp(g.r.IntN(10)) },
		func() schema.DataType { return tLTZ(g.r.IntN(10)) },
		func() schema.DataType { return tOf(schema.Variant) },
		func() schema.DataType { return tOf(schema.Blob) },
	}
	if depth < 3 && g.r.IntN(4) == 0 {
		kinds := 5
		if inArray {
			kinds = 4
		}
		switch g.r.IntN(kinds) {
		case 0:
			return tArray(g.typ(depth+1, true))
		case 1:
			return tMap(g.typ(depth+1, true), g.typ(depth+1, true))
		case 2:
			return tMultiset(g.typ(depth+1, true))
		case 3:
			return tRow(g.types(depth+1, g.r.IntN(4))...)
		default:
			elems := []schema.DataType{tOf(schema.Float), tOf(schema.Double), tInt(), tBigInt(), tOf(schema.TinyInt)}
			return tVector(elems[g.r.IntN(len(elems))], 1+g.r.IntN(5))
		}
	}
	return scalars[g.r.IntN(len(scalars))]()
}

func (g gen) types(depth, n int) []schema.DataType {
	out := make([]schema.DataType, n)
	for i := range out {
		out[i] = g.typ(depth, false)
	}
	return out
}

func (g gen) bytes(maxLen int) []byte {
	b := make([]byte, g.r.IntN(maxLen+1))
	for i := range b {
		b[i] = byte(g.r.Uint32())
	}
	return b
}

func (g gen) value(t schema.DataType, nullable bool) any {
	if nullable && g.r.IntN(5) == 0 {
		return nil
	}
	switch t.Root {
	case schema.Boolean:
		return g.r.IntN(2) == 0
	case schema.TinyInt:
		return int8(g.r.Uint32())
	case schema.SmallInt:
		return int16(g.r.Uint32())
	case schema.Int, schema.Date, schema.Time:
		return int32(g.r.Uint32())
	case schema.BigInt:
		return int64(g.r.Uint64())
	case schema.Float:
		for {
			if f := math.Float32frombits(g.r.Uint32()); f == f {
				return f
			}
		}
	case schema.Double:
		for {
			if f := math.Float64frombits(g.r.Uint64()); f == f {
				return f
			}
		}
	case schema.Decimal:
		lim := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Precision)), nil)
		raw := make([]byte, 17)
		for i := range raw {
			raw[i] = byte(g.r.Uint32())
		}
		// Mostly small values, sometimes up to the full precision.
		u := new(big.Int).SetBytes(raw[:1+g.r.IntN(len(raw))])
		u.Mod(u, lim)
		if g.r.IntN(2) == 0 {
			u.Neg(u)
		}
		return data.Decimal{Unscaled: u, Precision: t.Precision, Scale: t.Scale}
	case schema.Char, schema.VarChar:
		return string(g.bytes(20))
	case schema.Binary, schema.VarBinary, schema.Blob:
		return g.bytes(20)
	case schema.Timestamp, schema.TimestampLTZ:
		ts := data.Timestamp{Millis: int64(g.r.Uint64())}
		if t.Precision > 3 {
			ts.NanoOfMilli = int32(g.r.IntN(1_000_000))
		}
		return ts
	case schema.Variant:
		return data.Variant{Value: g.bytes(12), Metadata: g.bytes(6)}
	case schema.Array:
		out := make([]any, g.r.IntN(6))
		for i := range out {
			out[i] = g.value(*t.Element, true)
		}
		return out
	case schema.Map, schema.Multiset:
		n := g.r.IntN(5)
		m := data.Map{Keys: make([]any, n), Values: make([]any, n)}
		for i := 0; i < n; i++ {
			if t.Root == schema.Map {
				m.Keys[i] = g.value(*t.Key, true)
				m.Values[i] = g.value(*t.Value, true)
			} else {
				m.Keys[i] = g.value(*t.Element, true)
				m.Values[i] = int32(g.r.IntN(10))
			}
		}
		return m
	case schema.Row:
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			out[i] = g.value(f.Type, true)
		}
		return out
	case schema.Vector:
		out := make([]any, t.Length)
		for i := range out {
			out[i] = g.value(*t.Element, false)
		}
		return out
	}
	panic("unhandled type")
}

func TestRandomRoundTrip(t *testing.T) {
	seed := *randSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -binaryrow.seed=%d)", seed, seed)
	g := gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	var w binaryrow.Writer
	for iter := 0; iter < 2000; iter++ {
		ts := g.types(0, g.r.IntN(12))
		vs := make([]any, len(ts))
		for i := range ts {
			vs[i] = g.value(ts[i], true)
		}
		kind := data.RowKind(g.r.IntN(4))
		row, err := w.Encode(kind, ts, vs)
		require.NoError(t, err, "iter %d", iter)
		require.Zero(t, len(row)%8)
		fresh, err := binaryrow.Encode(kind, ts, vs)
		require.NoError(t, err)
		require.Equal(t, fresh, row, "iter %d: Writer and Encode differ", iter)

		r, err := binaryrow.ParseSerialized(binaryrow.MarshalSerialized(row, len(ts)))
		require.NoError(t, err, "iter %d", iter)
		require.Equal(t, kind, r.Kind())
		got, err := r.Values(ts)
		require.NoError(t, err, "iter %d", iter)
		requireSameValues(t, vs, got, "iter %d", iter)
		for i := range ts {
			require.Equal(t, vs[i] == nil, r.IsNullAt(i))
		}
		require.Equal(t, binaryrow.Hash(row), r.Hash())
	}
}

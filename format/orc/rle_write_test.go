package orc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIntRLERoundTrip encodes random sequences with the v2 writer and
// decodes them with the reader: runs, repeats, monotonic stretches,
// extremes, signed and unsigned.
func TestIntRLERoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := range 3000 {
		signed := iter%2 == 0
		n := 1 + r.IntN(2000)
		vals := make([]int64, n)
		v := int64(0)
		for i := range vals {
			switch r.IntN(8) {
			case 0:
				v = int64(r.Uint64())
			case 1:
				v += int64(r.IntN(5))
			case 2:
				v -= int64(r.IntN(5))
			case 3:
				v = []int64{0, 1, -1, math.MaxInt64, math.MinInt64, -1420070400, -1420070399}[r.IntN(7)]
			case 4:
				// keep v: repeats
			default:
				v = int64(r.IntN(1000)) - 500
			}
			if !signed && v < 0 {
				v = -(v + 1)
			}
			vals[i] = v
		}
		for _, comp := range []*compressor{nil, mustCompressor(t, CompressionZstd)} {
			out := newOutStream(comp, 1000)
			w := newIntWriter(out, signed)
			for _, v := range vals {
				w.write(v)
			}
			w.flush()
			raw := out.finish()
			var c *codec
			if comp != nil {
				c = &codec{kind: CompressionZstd, blockSize: 1000}
			}
			d := newIntDecoder(newInStream("t", raw, c), signed, true)
			got := make([]int64, n)
			require.NoError(t, d.next(got), "iteration %d", iter)
			for i := range vals {
				if got[i] != vals[i] {
					t.Fatalf("iteration %d signed=%v: value %d: got %d, want %d (around %v)", iter, signed, i, got[i], vals[i], vals[max(0, i-5):min(n, i+5)])
				}
			}
		}
	}
}

func mustCompressor(t *testing.T, k CompressionKind) *compressor {
	c, err := newCompressor(k, 1)
	require.NoError(t, err)
	return c
}

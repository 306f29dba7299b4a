package mergefunc

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/require"
)

// le builds little-endian bytes from 16- and 32-bit values: u16 and u32
// wrap them.
type u16 uint16
type u32 uint32

func le(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch x := p.(type) {
		case u16:
			b = binary.LittleEndian.AppendUint16(b, uint16(x))
		case u32:
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		case byte:
			b = append(b, x)
		default:
			panic(p)
		}
	}
	return b
}

// arrayBitmap is a one-container bitmap (key 0) stored as an array.
func arrayBitmap(vals ...uint16) []byte {
	parts := []any{u32(12346), u32(1), u16(0), u16(len(vals) - 1), u32(16)}
	for _, v := range vals {
		parts = append(parts, u16(v))
	}
	return le(parts...)
}

// runBitmap is a one-container bitmap (key 0) stored as runs (start,
// length-1 pairs).
func runBitmap(runs ...uint16) []byte {
	card := 0
	for i := 1; i < len(runs); i += 2 {
		card += int(runs[i]) + 1
	}
	parts := []any{u32(12347), byte(1), u16(0), u16(card - 1), u16(len(runs) / 2)}
	for _, v := range runs {
		parts = append(parts, u16(v))
	}
	return le(parts...)
}

// bitmapOf serializes a Go roaring bitmap; Go writes the same portable
// format, with container types of its own choosing (a valid input).
func bitmapOf(t testing.TB, vals []uint32, optimize bool) []byte {
	rb := roaring.BitmapOf(vals...)
	if optimize {
		rb.RunOptimize()
	}
	b, err := rb.ToBytes()
	require.NoError(t, err)
	return b
}

func TestRoaringUnionBytes(t *testing.T) {
	evens := make([]uint32, 0, 5000)
	for v := uint32(0); v < 10000; v += 2 {
		evens = append(evens, v)
	}
	allButZero := make([]uint32, 0, 65535)
	for v := uint32(1); v < 65536; v++ {
		allButZero = append(allButZero, v)
	}
	tests := []struct {
		name      string
		acc, in   []byte
		want      []byte
		wantKinds []containerKind
	}{
		{"array stays array", arrayBitmap(1, 2, 3), arrayBitmap(5), arrayBitmap(1, 2, 3, 5), nil},
		{"array becomes run", arrayBitmap(1, 2, 3), arrayBitmap(4), runBitmap(1, 3), nil},
		// Equal sizes: an array stays an array (runOptimize needs a strictly
		// smaller run container) ...
		{"tie from arrays keeps array", arrayBitmap(1), arrayBitmap(2, 3), arrayBitmap(1, 2, 3), nil},
		// ... but a union computed by a run container stays a run container
		// (toEfficientContainer keeps runs unless strictly larger, and
		// compares with the array size including its 2-byte header).
		{"tie from run keeps run", runBitmap(1, 1), arrayBitmap(3), runBitmap(1, 2), nil},
		{"run origin up to array size plus two", runBitmap(1, 1), arrayBitmap(4, 5), runBitmap(1, 1, 4, 1), nil},
		{"array origin same set stays array", arrayBitmap(1, 2), arrayBitmap(4, 5), arrayBitmap(1, 2, 4, 5), nil},
		{"bitmap with array stays bitmap", bitmapOf(t, evens, false), arrayBitmap(1), nil, []containerKind{kindBitmap}},
		{"full bitmap becomes run", bitmapOf(t, allButZero, false), arrayBitmap(0), runBitmap(0, 0xFFFF), nil},
		// Key 0: {7} ∪ {8} stays an array (4 bytes vs 6 as runs); key 1
		// is only in the accumulator and becomes a run container.
		{"untouched containers are run-optimized", le(u32(12346), u32(2), u16(0), u16(0), u16(1), u16(3), u32(24), u32(26), u16(7), u16(10), u16(11), u16(12), u16(13)),
			arrayBitmap(8),
			le(u32(12347|1<<16), byte(2), u16(0), u16(1), u16(1), u16(3), u16(7), u16(8), u16(1), u16(10), u16(3)), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := roaringUnion(tt.acc, tt.in)
			require.NoError(t, err)
			if tt.want != nil {
				require.Equal(t, tt.want, got)
			}
			if tt.wantKinds != nil {
				bm, err := parseRoaring(got)
				require.NoError(t, err)
				for i, c := range bm.cs {
					require.Equal(t, tt.wantKinds[i], c.kind)
				}
			}
			checkAgainstGo(t, tt.acc, tt.in, got)
		})
	}
}

// checkAgainstGo verifies the union's set with the Go library and that the
// result is stable under another run-optimizing union (with an empty
// bitmap), as Java's output is.
func checkAgainstGo(t *testing.T, acc, in, got []byte) {
	t.Helper()
	a, b, u := roaring.New(), roaring.New(), roaring.New()
	require.NoError(t, a.UnmarshalBinary(acc))
	require.NoError(t, b.UnmarshalBinary(in))
	require.NoError(t, u.UnmarshalBinary(got))
	require.True(t, roaring.Or(a, b).Equals(u), "union set differs")
	empty, err := roaring.New().ToBytes()
	require.NoError(t, err)
	again, err := roaringUnion(got, empty)
	require.NoError(t, err)
	require.Equal(t, got, again)
}

func TestRoaringUnionRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() []uint32 {
		var vals []uint32
		for c := 0; c < 1+rng.IntN(6); c++ {
			key := uint32(rng.IntN(8)) << 16
			switch rng.IntN(4) {
			case 0: // sparse
				for i := 0; i < 1+rng.IntN(50); i++ {
					vals = append(vals, key|uint32(rng.IntN(65536)))
				}
			case 1: // dense
				for i := 0; i < 6000; i++ {
					vals = append(vals, key|uint32(rng.IntN(65536)))
				}
			case 2: // runs
				for i := 0; i < 1+rng.IntN(20); i++ {
					start := rng.IntN(65000)
					for v := start; v < start+1+rng.IntN(500); v++ {
						vals = append(vals, key|uint32(v))
					}
				}
			default: // near-ties: short runs of 2-3 values
				for i := 0; i < 1+rng.IntN(30); i++ {
					start := rng.IntN(65000)
					for v := start; v < start+2+rng.IntN(2); v++ {
						vals = append(vals, key|uint32(v))
					}
				}
			}
		}
		return vals
	}
	for i := 0; i < 300; i++ {
		acc := bitmapOf(t, gen(), rng.IntN(2) == 0)
		in := bitmapOf(t, gen(), rng.IntN(2) == 0)
		got, err := roaringUnion(acc, in)
		require.NoError(t, err)
		checkAgainstGo(t, acc, in, got)
	}
}

func TestRoaringCorrupt(t *testing.T) {
	good := arrayBitmap(1, 2)
	tests := map[string][]byte{
		"empty":             nil,
		"bad cookie":        le(u32(1), u32(0)),
		"truncated size":    le(u32(12346)),
		"truncated header":  le(u32(12346), u32(1), u16(0)),
		"truncated values":  good[:len(good)-1],
		"unsorted keys":     le(u32(12346), u32(2), u16(1), u16(0), u16(1), u16(0), u32(24), u32(26), u16(1), u16(1)),
		"unsorted values":   arrayBitmap(2, 1),
		"overlapping runs":  runBitmap(1, 5, 3, 1),
		"run past 65535":    runBitmap(65535, 1),
		"bitmap card wrong": append(le(u32(12346), u32(1), u16(0), u16(5000), u32(16)), make([]byte, 8192)...),
		"too many":          le(u32(12346), u32(1<<16+1)),
	}
	for name, b := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := roaringUnion(b, good)
			require.ErrorIs(t, err, errRoaring)
			_, err = roaringUnion(good, b)
			require.ErrorIs(t, err, errRoaring)
		})
	}
}

func FuzzRoaringUnion(f *testing.F) {
	f.Add(arrayBitmap(1, 2, 3), runBitmap(4, 10))
	f.Add(runBitmap(0, 0xFFFF), arrayBitmap(7))
	f.Add(bitmapOf(f, []uint32{1, 2, 3, 70000, 1 << 20}, true), bitmapOf(f, []uint32{5, 70001}, false))
	evens := make([]uint32, 0, 5000)
	for v := uint32(0); v < 10000; v += 2 {
		evens = append(evens, v)
	}
	f.Add(bitmapOf(f, evens, false), arrayBitmap(1))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		out, err := roaringUnion(a, b)
		if err != nil {
			return
		}
		if _, err := parseRoaring(out); err != nil {
			t.Fatalf("union output does not parse: %v", err)
		}
	})
}

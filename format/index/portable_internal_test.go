package index

import (
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/require"
)

func containersOf(t *testing.T, bm *roaring.Bitmap) []container {
	t.Helper()
	raw, err := bm.ToBytes()
	require.NoError(t, err)
	cs, n, err := parseContainers(raw)
	require.NoError(t, err)
	require.Equal(t, len(raw), n)
	return cs
}

// TestPortableRoundTrip checks that parsing and re-serializing Go roaring's
// output (the portable format) gives the same bytes, with and without run
// containers, below and above the offset-header threshold.
func TestPortableRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		bm := roaring.New()
		containers := 1 + rng.IntN(8)
		for range containers {
			base := uint32(rng.IntN(1<<10) << 16)
			switch rng.IntN(3) {
			case 0:
				for range 1 + rng.IntN(100) {
					bm.Add(base + uint32(rng.IntN(1<<16)))
				}
			case 1:
				for range 5000 + rng.IntN(20000) {
					bm.Add(base + uint32(rng.IntN(1<<16)))
				}
			default:
				start := uint64(base) + uint64(rng.IntN(1000))
				bm.AddRange(start, start+uint64(1+rng.IntN(60000)))
			}
		}
		if i%2 == 0 {
			bm.RunOptimize()
		}
		raw, err := bm.ToBytes()
		require.NoError(t, err)
		cs, _, err := parseContainers(raw)
		require.NoError(t, err)
		require.Equal(t, raw, appendContainers(nil, cs), "bitmap %d", i)

		// Java's run optimisation keeps the values.
		for j := range cs {
			cs[j] = javaRunOptimize(cs[j])
		}
		back := roaring.New()
		_, err = back.FromBuffer(appendContainers(nil, cs))
		require.NoError(t, err)
		require.True(t, bm.Equals(back))
	}
}

// bitmapOfRuns builds, value by value (so as array or bitmap containers, as
// Java's add does), runs of runLen values separated by gap missing ones.
func bitmapOfRuns(runs, runLen, gap int) *roaring.Bitmap {
	bm := roaring.New()
	for k := range runs {
		start := uint32(k * (runLen + gap))
		for v := range uint32(runLen) {
			bm.Add(start + v)
		}
	}
	return bm
}

// TestJavaRunOptimize pins the cases where Java RoaringBitmap 1.2.1's
// runOptimize and Go's RunOptimize disagree.
func TestJavaRunOptimize(t *testing.T) {
	single := func(t *testing.T, bm *roaring.Bitmap) container {
		t.Helper()
		cs := containersOf(t, bm)
		require.Len(t, cs, 1)
		return cs[0]
	}
	tests := []struct {
		name     string
		bm       func() *roaring.Bitmap
		runFirst bool // run-optimise with Go first, to start from a run container
		want     containerKind
	}{
		{"array, run same size: stays array", func() *roaring.Bitmap { return roaring.BitmapOf(0, 1, 2) }, false, kindArray},
		{"array, run smaller: run", func() *roaring.Bitmap { return roaring.BitmapOf(0, 1, 2, 3) }, false, kindRun},
		{"array, scattered: array", func() *roaring.Bitmap { return roaring.BitmapOf(1, 3, 5, 7) }, false, kindArray},
		// 2048 runs: 8194 bytes as runs, not below Java's 8192 for a bitmap;
		// Go counts a bitmap as 8224 bytes and would pick runs.
		{"bitmap, 2048 runs: stays bitmap", func() *roaring.Bitmap { return bitmapOfRuns(2048, 3, 1) }, false, kindBitmap},
		{"bitmap, 2047 runs: run", func() *roaring.Bitmap { return bitmapOfRuns(2047, 3, 1) }, false, kindRun},
		// A run container of one run of two values: 6 bytes, equal to Java's
		// array size 2+2·2; Java keeps the run, Go turns it into an array.
		{"run tie with array: stays run", func() *roaring.Bitmap { return roaring.BitmapOf(5, 6) }, true, kindRun},
		{"run, array smaller: array", func() *roaring.Bitmap { return roaring.BitmapOf(5, 6, 8, 10, 12) }, true, kindArray},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bm := tt.bm()
			c := single(t, bm)
			if tt.runFirst {
				c = c.toRuns(c.numRuns())
			}
			if !tt.runFirst {
				require.NotEqual(t, kindRun, c.kind)
			}
			got := javaRunOptimize(c)
			require.Equal(t, tt.want, got.kind)
			require.Equal(t, c.card, got.card)
			var a, b []int
			c.values(func(v int) { a = append(a, v) })
			got.values(func(v int) { b = append(b, v) })
			require.Equal(t, a, b)
		})
	}

	t.Run("Go really differs on the 2048-run bitmap", func(t *testing.T) {
		bm := bitmapOfRuns(2048, 3, 1)
		bm.RunOptimize()
		require.Equal(t, kindRun, single(t, bm).kind)
	})
	t.Run("run container above the bitmap size becomes a bitmap", func(t *testing.T) {
		c := single(t, bitmapOfRuns(2100, 3, 1))
		require.Equal(t, kindBitmap, c.kind)
		require.Equal(t, kindBitmap, javaRunOptimize(c).kind)
		r := c.toRuns(c.numRuns())
		require.Equal(t, 2100, len(r.data)/4)
		require.Equal(t, kindBitmap, javaRunOptimize(r).kind)
	})
}

func TestNumRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 50 {
		bm := roaring.New()
		for range 5000 + rng.IntN(30000) {
			bm.Add(uint32(rng.IntN(1 << 16)))
		}
		for range rng.IntN(20) {
			s := uint64(rng.IntN(1 << 16))
			bm.AddRange(s, min(s+uint64(rng.IntN(500)), 1<<16))
		}
		want, prev := 0, -2
		it := bm.Iterator()
		for it.HasNext() {
			v := int(it.Next())
			if v != prev+1 {
				want++
			}
			prev = v
		}
		c := containersOf(t, bm)[0]
		require.Equal(t, want, c.numRuns())
	}
}

func TestParseContainersRejects(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
	}{
		{"empty", nil},
		{"short cookie", []byte{0x3A, 0x30}},
		{"bad cookie", []byte{1, 2, 3, 4, 0, 0, 0, 0}},
		{"too many containers", []byte{0x3A, 0x30, 0, 0, 1, 0, 1, 0}},
		{"missing header", []byte{0x3A, 0x30, 0, 0, 1, 0, 0, 0}},
		{"empty run container", []byte{0x3B, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 0}},
		{"run past 65535", []byte{0x3B, 0x30, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0xFF, 0xFF, 1, 0}},
		{"overlapping runs", []byte{0x3B, 0x30, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 5, 0, 3, 0, 1, 0}},
		{"keys out of order", []byte{0x3A, 0x30, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 5, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseContainers(tt.raw)
			require.ErrorIs(t, err, errPortable)
		})
	}
	t.Run("bitmap popcount mismatch", func(t *testing.T) {
		raw, err := bitmapOfRuns(1000, 5, 1).ToBytes()
		require.NoError(t, err)
		raw[len(raw)-1] |= 0x80 // one more bit than the header's cardinality
		_, _, err = parseContainers(raw)
		require.ErrorContains(t, err, "header says")
	})
}

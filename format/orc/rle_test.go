package orc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func decodeInts(t *testing.T, raw []byte, signed, v2 bool, n int) []int64 {
	t.Helper()
	d := newIntDecoder(newInStream("test", raw, nil), signed, v2)
	out := make([]int64, n)
	require.NoError(t, d.next(out))
	return out
}

// The examples of the ORC specification (ORCv1.md, "Run Length Encoding").
func TestRLESpecExamples(t *testing.T) {
	t.Run("byte run", func(t *testing.T) {
		d := &byteRLE{in: newInStream("t", []byte{0x61, 0x00}, nil)}
		out := make([]byte, 100)
		require.NoError(t, d.next(out))
		require.Equal(t, make([]byte, 100), out)
	})
	t.Run("byte literals", func(t *testing.T) {
		d := &byteRLE{in: newInStream("t", []byte{0xfe, 0x44, 0x45}, nil)}
		out := make([]byte, 2)
		require.NoError(t, d.next(out))
		require.Equal(t, []byte{0x44, 0x45}, out)
	})
	t.Run("boolean", func(t *testing.T) {
		d := newBoolRLE(newInStream("t", []byte{0xfe, 0xff, 0x80}, nil))
		out := make([]byte, 16)
		require.NoError(t, d.next(out))
		require.Equal(t, []byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}, out)
	})
	t.Run("v1 run", func(t *testing.T) {
		out := decodeInts(t, []byte{0x61, 0x00, 0x07}, false, false, 100)
		for _, v := range out {
			require.EqualValues(t, 7, v)
		}
		out = decodeInts(t, []byte{0x61, 0xff, 0x64}, false, false, 100)
		for i, v := range out {
			require.EqualValues(t, 100-i, v)
		}
	})
	t.Run("v1 literals", func(t *testing.T) {
		out := decodeInts(t, []byte{0xfb, 0x02, 0x03, 0x06, 0x07, 0xb}, false, false, 5)
		require.Equal(t, []int64{2, 3, 6, 7, 11}, out)
	})
	t.Run("v2 short repeat", func(t *testing.T) {
		out := decodeInts(t, []byte{0x0a, 0x27, 0x10}, false, true, 5)
		require.Equal(t, []int64{10000, 10000, 10000, 10000, 10000}, out)
	})
	t.Run("v2 direct", func(t *testing.T) {
		out := decodeInts(t, []byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}, false, true, 4)
		require.Equal(t, []int64{23713, 43806, 57005, 48879}, out)
	})
	t.Run("v2 patched base", func(t *testing.T) {
		raw := []byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50,
			0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8}
		out := decodeInts(t, raw, false, true, 20)
		require.Equal(t, []int64{2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110,
			2120, 2130, 2140, 2150, 2160, 2170, 2180, 2190}, out)
	})
	t.Run("v2 delta", func(t *testing.T) {
		out := decodeInts(t, []byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}, false, true, 10)
		require.Equal(t, []int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}, out)
	})
}

func TestRLETruncatedIsCorrupt(t *testing.T) {
	for _, raw := range [][]byte{{0x5e, 0x03, 0x5c}, {0x8e, 0x13, 0x2b}, {0xc6}, {0x0a, 0x27}} {
		d := newIntDecoder(newInStream("t", raw, nil), false, true)
		err := d.next(make([]int64, 4))
		var ce *corruptError
		require.ErrorAs(t, err, &ce)
	}
}

func TestLZOLiteralsAndMatches(t *testing.T) {
	// "abcabcabcabc": 3 literals (first byte 17+3), a match of 9 at
	// distance 3 (M2-style 0x40.. code: length 3+L needs L; use a 32..63
	// M3 code: length 2+7=9, distance 3 -> LE16 (3-1)<<2), end marker.
	src := []byte{17 + 3, 'a', 'b', 'c', 32 | 7, (3 - 1) << 2, 0, 0x11, 0, 0}
	dst := make([]byte, 64)
	n, err := lzoDecompress(src, dst)
	require.NoError(t, err)
	require.Equal(t, "abcabcabcabc", string(dst[:n]))
	_, err = lzoDecompress(src[:5], dst)
	require.Error(t, err)
	_, err = lzoDecompress(src, dst[:5])
	require.Error(t, err)
}

package javacompat

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func intMap() *HashMap { return &HashMap{} }

func keys(m *HashMap) []int32 {
	var out []int32
	for _, e := range m.Entries() {
		out = append(out, e.Key.(int32))
	}
	return out
}

func TestHashMap(t *testing.T) {
	t.Run("bins then insertion order", func(t *testing.T) {
		m := intMap()
		for _, k := range []int32{16, 3, 0, 19, 3} {
			require.NoError(t, m.Put(k, k, nil))
		}
		require.Equal(t, []int32{16, 0, 3, 19}, keys(m))
	})
	t.Run("resize splits bins keeping order", func(t *testing.T) {
		m := intMap()
		for k := int32(0); k < 13; k++ { // the 13th put passes the threshold of 12
			require.NoError(t, m.Put(k+16*(k%2), k+16*(k%2), nil))
		}
		require.Equal(t, m.Capacity(), 32)
		require.Equal(t, []int32{0, 2, 4, 6, 8, 10, 12, 17, 19, 21, 23, 25, 27}, keys(m))
	})
	t.Run("computeIfAbsent prepends and grows late", func(t *testing.T) {
		m := intMap()
		for _, k := range []int32{0, 16, 32} {
			_, err := m.ComputeIfAbsent(k, k, func() any { return true })
			require.NoError(t, err)
		}
		require.Equal(t, []int32{32, 16, 0}, keys(m))
		for k := int32(1); k <= 10; k++ {
			_, err := m.ComputeIfAbsent(k, k, func() any { return true })
			require.NoError(t, err)
		}
		// 13 entries, threshold 12: Java only grows on the next call.
		require.Equal(t, m.Capacity(), 16)
		_, err := m.ComputeIfAbsent(1, int32(1), func() any { return true })
		require.NoError(t, err)
		require.Equal(t, m.Capacity(), 32)
	})
	t.Run("remove", func(t *testing.T) {
		m := intMap()
		for _, k := range []int32{0, 16, 32} {
			require.NoError(t, m.Put(k, k, nil))
		}
		require.NoError(t, m.Remove(16, int32(16)))
		require.NoError(t, m.Remove(5, int32(5)))
		require.Equal(t, []int32{0, 32}, keys(m))
	})
	t.Run("treeified bin is unsupported", func(t *testing.T) {
		m := intMap()
		var err error
		for k := int32(0); k < 20 && err == nil; k++ {
			err = m.Put(k*64, k*64, nil)
		}
		require.ErrorIs(t, err, ErrTreeified)
		require.Equal(t, m.Capacity(), 64)
	})
}

func TestHashMapCopySizing(t *testing.T) {
	// new HashMap<>(m) of 3 entries: tableSizeFor(3/0.75+1) = 8 bins,
	// threshold 6; the 7th key doubles the table (below 16 bins the
	// threshold is recomputed, not doubled: 12).
	m := NewHashMapFor(3)
	for k := int32(0); k < 6; k++ {
		require.NoError(t, m.Put(k, k, nil))
	}
	require.Equal(t, 8, m.Capacity())
	require.NoError(t, m.Put(8, int32(8), nil)) // bin 0 of 8 bins, bin 8 of 16
	require.Equal(t, 16, m.Capacity())
	require.Equal(t, []int32{0, 1, 2, 3, 4, 5, 8}, keys(m))
	for k := int32(9); k < 14; k++ {
		require.NoError(t, m.Put(k, k, nil))
	}
	require.Equal(t, 16, m.Capacity(), "12 entries: at the threshold")
	require.NoError(t, m.Put(14, int32(14), nil))
	require.Equal(t, 32, m.Capacity())
}

package offheap_test

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/offheap"
)

func TestArenaAllocatesZeroedAlignedMemory(t *testing.T) {
	a := offheap.New(1 << 12)
	defer a.Release()
	var _ memory.Allocator = a
	for round := range 3 {
		var bufs [][]byte
		for i := 1; i < 300; i += 7 {
			b := a.Allocate(i)
			require.Len(t, b, i)
			require.Zero(t, uintptr(unsafe.Pointer(&b[0]))%64, "aligned")
			for _, x := range b {
				require.Zero(t, x, "round %d", round)
			}
			for j := range b {
				b[j] = 0xff
			}
			bufs = append(bufs, b)
		}
		big := a.Allocate(1 << 13)
		require.Len(t, big, 1<<13)
		big[0] = 1
		require.Greater(t, a.Used(), int64(0))
		grown := a.Reallocate(2000, bufs[0])
		require.Equal(t, byte(0xff), grown[0])
		require.Zero(t, grown[1999])
		a.Reset()
		require.Zero(t, a.Used())
	}
	require.LessOrEqual(t, a.Mapped(), int64(8<<12), "pages are reused, big allocations unmapped")
}

func TestArenaHoldsArrowCopies(t *testing.T) {
	a := offheap.New(0)
	defer a.Release()
	b := array.NewStringBuilder(memcheck.New())
	for i := range 1000 {
		if i%7 == 0 {
			b.AppendNull()
		} else {
			b.Append(string(rune('a' + i%26)))
		}
	}
	src := b.NewArray()
	b.Release()
	defer src.Release()
	slice := array.NewSlice(src, 10, 500)
	defer slice.Release()
	cp, err := array.Concatenate([]arrow.Array{slice}, a)
	require.NoError(t, err)
	require.True(t, array.Equal(slice, cp))
	require.NotSame(t, &slice.Data().Buffers()[2].Bytes()[0], &cp.Data().Buffers()[2].Bytes()[0])
	cp.Release()
	require.Greater(t, a.Used(), int64(0))
}

package memcheck_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// TestPoison: a string read from a batch after the batch is released shows
// the poison, and the allocator still counts what is held.
func TestPoison(t *testing.T) {
	mem := memcheck.New()
	b := array.NewStringBuilder(mem)
	b.Append("kept")
	for range 100 { // grows the buffers: Reallocate moves them
		b.Append("x")
	}
	arr := b.NewStringArray()
	b.Release()
	require.Positive(t, mem.CurrentAlloc())
	alias := arr.Value(0)
	arr.Release()
	mem.AssertSize(t, 0)
	require.Equal(t, "\xa5\xa5\xa5\xa5", alias)

	buf := mem.Allocate(8)
	copy(buf, "abcdefgh")
	grown := mem.Reallocate(64, buf)
	require.Equal(t, "abcdefgh", string(grown[:8]))
	require.Equal(t, []byte{0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5}, buf)
	mem.Free(grown)
	mem.AssertSize(t, 0)
}

// fakeT records the errors AssertSize reports.
type fakeT struct{ errs []string }

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

// TestLeakReported: a buffer not freed is reported by AssertSize.
func TestLeakReported(t *testing.T) {
	mem := memcheck.New()
	b := mem.Allocate(100)
	var ft fakeT
	mem.AssertSize(&ft, 0)
	require.NotEmpty(t, ft.errs)
	if os.Getenv("PAIMON_MEMCHECK_SITES") != "1" {
		require.Contains(t, ft.errs[0], "100 bytes held")
	}
	mem.Free(b)
	ft = fakeT{}
	mem.AssertSize(&ft, 0)
	require.Empty(t, ft.errs)
}

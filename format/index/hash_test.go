package index_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/index"
)

func TestHashIndex(t *testing.T) {
	tests := []struct {
		name   string
		hashes []int32
		hex    string
	}{
		{"empty", []int32{}, ""},
		{"one", []int32{1}, "00000001"},
		{"signed and extremes", []int32{-1, math.MinInt32, math.MaxInt32, 0x12345678},
			"ffffffff 80000000 7fffffff 12345678"},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := index.EncodeHashIndex(tt.hashes)
			require.Equal(t, unhex(t, tt.hex), b)
			got, err := index.DecodeHashIndex(b)
			require.NoError(t, err)
			require.Equal(t, tt.hashes, got)
			streamed, err := index.ReadHashIndex(ctx, iotest.OneByteReader(bytes.NewReader(b)))
			require.NoError(t, err)
			require.Equal(t, len(tt.hashes), len(streamed))
			if len(tt.hashes) > 0 {
				require.Equal(t, tt.hashes, streamed)
			}
		})
	}
	require.Equal(t, unhex(t, "aa 00000002"), index.AppendHashIndex([]byte{0xaa}, []int32{2}))

	t.Run("large", func(t *testing.T) {
		hashes := make([]int32, 100000)
		for i := range hashes {
			hashes[i] = int32(i*2654435761) ^ 0x5bd1e995
		}
		got, err := index.ReadHashIndex(ctx, bytes.NewReader(index.EncodeHashIndex(hashes)))
		require.NoError(t, err)
		require.Equal(t, hashes, got)
	})
	t.Run("partial value", func(t *testing.T) {
		_, err := index.DecodeHashIndex([]byte{0, 0, 0, 1, 2})
		require.ErrorIs(t, err, index.ErrCorrupt)
		_, err = index.ReadHashIndex(ctx, bytes.NewReader([]byte{0, 0, 0, 1, 2, 3}))
		require.ErrorIs(t, err, index.ErrCorrupt)
	})
	t.Run("reader error", func(t *testing.T) {
		boom := errors.New("boom")
		_, err := index.ReadHashIndex(ctx, iotest.ErrReader(boom))
		require.ErrorIs(t, err, boom)
	})
	t.Run("canceled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := index.ReadHashIndex(cctx, bytes.NewReader([]byte{0, 0, 0, 1}))
		require.ErrorIs(t, err, context.Canceled)
	})
	require.Equal(t, "HASH", index.IndexTypeHash)
	require.Equal(t, "DELETION_VECTORS", index.IndexTypeDeletionVectors)
}

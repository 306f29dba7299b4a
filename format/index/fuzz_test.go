package index_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/index"
)

// FuzzReadDeletionVector feeds arbitrary files and ranges to
// ReadDeletionVector: it must never panic, must fail only with ErrCorrupt
// (the reader itself cannot fail), and whatever it accepts must survive an
// encode/decode round trip.
func FuzzReadDeletionVector(f *testing.F) {
	for _, name := range []string{"dvindex-32", "dvindex-64"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		require.NoError(f, err)
		f.Add(data, int64(1), int64(24), false)
		f.Add(data, int64(1), int64(44), true)
		f.Add(data, int64(33), int64(22), true)
		f.Add(data, int64(45), int64(42), false)
	}
	w := index.NewDVWriter()
	require.NoError(f, w.Write("a", newDV(f, true, 1, 2, 3, 4, 5, 1<<33, 1<<33+1)))
	dense := index.NewDeletionVector()
	for p := range int64(5000) {
		require.NoError(f, dense.Add(p*3))
	}
	require.NoError(f, w.Write("b", dense))
	for _, m := range w.Metas() {
		f.Add(w.Bytes(), int64(m.Offset), int64(m.Length), true)
	}

	ctx := context.Background()
	// ignoreCRC lets the fuzzer reach the bitmap decoders without having to
	// forge checksums.
	f.Fuzz(func(t *testing.T, data []byte, offset, length int64, ignoreCRC bool) {
		opts := &index.ReadOptions{IgnoreChecksum: ignoreCRC}
		dv, err := index.ReadDeletionVector(ctx, bytes.NewReader(data), offset, length, opts)
		if err != nil {
			require.ErrorIs(t, err, index.ErrCorrupt)
			return
		}
		card := dv.Cardinality()
		n, last := int64(0), int64(0)
		for p := range dv.Positions() {
			require.True(t, dv.IsDeleted(p))
			n++
			last = p
		}
		require.Equal(t, card, n)
		if last > 1<<40 || index.DenseCount(dv) > 1<<16 {
			// Java's dense 64-bit layout writes 12 bytes per key below the
			// largest: a few bytes of input can ask for gigabytes of output.
			return
		}

		blob, err := dv.MarshalBinary()
		if err != nil {
			return // e.g. a 64-bit key too large to write densely
		}
		var back index.DeletionVector
		require.NoError(t, back.UnmarshalBinary(blob))
		require.True(t, dv.Equal(&back))
		again, err := back.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, blob, again)
	})
}

// FuzzReadHashIndex checks that both hash index decoders agree, never panic
// and round-trip.
func FuzzReadHashIndex(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{1, 2, 3})
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := index.DecodeHashIndex(data)
		streamed, err2 := index.ReadHashIndex(ctx, bytes.NewReader(data))
		if err != nil {
			require.ErrorIs(t, err, index.ErrCorrupt)
			require.ErrorIs(t, err2, index.ErrCorrupt)
			return
		}
		require.NoError(t, err2)
		require.Equal(t, len(got), len(streamed))
		for i := range got {
			require.Equal(t, got[i], streamed[i])
		}
		require.Equal(t, data, index.EncodeHashIndex(got))
	})
}

package index_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/index"
)

func ptr[T any](v T) *T { return &v }

func positions(dv *index.DeletionVector) []int64 {
	return slices.Collect(dv.Positions())
}

func newDV(t testing.TB, is64 bool, ps ...int64) *index.DeletionVector {
	t.Helper()
	dv := index.NewDeletionVector()
	if is64 {
		dv = index.NewDeletionVector64()
	}
	for _, p := range ps {
		require.NoError(t, dv.Add(p))
	}
	return dv
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	require.NoError(t, err)
	return b
}

// TestJavaFixtures decodes Java's compatibility resources the way
// DeletionVectorsIndexFileTest does and re-encodes them byte for byte.
func TestJavaFixtures(t *testing.T) {
	tests := []struct {
		file  string
		is64  bool
		metas []index.DVMeta
	}{
		{"dvindex-32", false, []index.DVMeta{
			{DataFile: "file1", Offset: 1, Length: 24, Cardinality: ptr[int64](2)},
			{DataFile: "file2", Offset: 33, Length: 22, Cardinality: ptr[int64](1)},
		}},
		{"dvindex-64", true, []index.DVMeta{
			{DataFile: "file1", Offset: 1, Length: 44, Cardinality: ptr[int64](2)},
			{DataFile: "file2", Offset: 45, Length: 42, Cardinality: ptr[int64](1)},
		}},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			require.NoError(t, err)

			all, err := index.ReadAll(ctx, bytes.NewReader(data), tt.metas, nil)
			require.NoError(t, err)
			require.Len(t, all, 2)
			dv1, dv2 := all["file1"], all["file2"]
			require.Equal(t, tt.is64, dv1.Is64())
			require.Equal(t, tt.is64, dv2.Is64())
			require.Equal(t, []int64{2, 3}, positions(dv1))
			require.Equal(t, []int64{1}, positions(dv2))
			require.True(t, dv1.IsDeleted(2))
			require.True(t, dv1.IsDeleted(3))
			require.False(t, dv1.IsDeleted(1))
			require.True(t, dv2.IsDeleted(1))
			require.Equal(t, int64(2), dv1.Cardinality())
			require.Equal(t, int64(1), dv2.Cardinality())

			// One vector at a time, as the split read path does.
			one, err := index.ReadDeletionVector(ctx, bytes.NewReader(data), 33+12*b2i(tt.is64), int64(tt.metas[1].Length), nil)
			require.NoError(t, err)
			require.Equal(t, []int64{1}, positions(one))

			// Java writes these files from fresh vectors: so must we.
			w := index.NewDVWriter()
			require.NoError(t, w.Write("file1", newDV(t, tt.is64, 2, 3)))
			require.NoError(t, w.Write("file2", newDV(t, tt.is64, 1)))
			require.Equal(t, data, w.Bytes())
			require.Equal(t, tt.metas, w.Metas())
			require.Equal(t, int64(len(data)), w.Size())

			// And from the decoded ones.
			w = index.NewDVWriter()
			require.NoError(t, w.Write("file1", dv1))
			require.NoError(t, w.Write("file2", dv2))
			require.Equal(t, data, w.Bytes())
		})
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestWorkedExample checks the bytes quoted in paimon-format.md §7.7.
func TestWorkedExample(t *testing.T) {
	doc32 := unhex(t, `01
		00000018 5E43F2D0 3A300000 01000000 0000 0100 10000000 0200 0300 C898F63D
		00000016 5E43F2D0 3A300000 01000000 0000 0000 10000000 0100 FA2B5192`)
	data, err := os.ReadFile(filepath.Join("testdata", "dvindex-32"))
	require.NoError(t, err)
	require.Equal(t, doc32, data)
	require.Equal(t, uint32(0xC898F63D), crc32.ChecksumIEEE(doc32[5:29]))

	w := index.NewDVWriter()
	require.NoError(t, w.Write("fileA", newDV(t, false, 2, 3)))
	require.NoError(t, w.Write("fileB", newDV(t, false, 1)))
	require.Equal(t, doc32, w.Bytes())
	require.Equal(t, []index.DVMeta{
		{DataFile: "fileA", Offset: 1, Length: 24, Cardinality: ptr[int64](2)},
		{DataFile: "fileB", Offset: 33, Length: 22, Cardinality: ptr[int64](1)},
	}, w.Metas())

	prefix64 := unhex(t, `01 00000024 D1D33964 0100000000000000 00000000 3A30`)
	w = index.NewDVWriter()
	require.NoError(t, w.Write("fileA", newDV(t, true, 2, 3)))
	got := w.Bytes()
	require.True(t, bytes.HasPrefix(got, prefix64), "%x", got)
	require.Equal(t, int32(44), w.Metas()[0].Length)
	require.Equal(t, uint32(0x7A813847), binary.BigEndian.Uint32(got[5+36:]))
	require.Equal(t, uint32(0x7A813847), crc32.ChecksumIEEE(got[5:5+36]))
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dense := func(from, n int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = from + int64(i)
		}
		return out
	}
	sparse := func(n int, max int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = rng.Int64N(max)
		}
		return out
	}
	alternate := func(from, n int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = from + 2*int64(i)
		}
		return out
	}
	tests := []struct {
		name string
		is64 bool
		ps   []int64
	}{
		{"empty 32", false, nil},
		{"empty 64", true, nil},
		{"one 32", false, []int64{0}},
		{"max 32", false, []int64{index.MaxPosition32}},
		{"array container", false, sparse(1000, 1<<16)},
		{"bitmap container", false, sparse(10000, 1<<16)},
		{"dense 32 (no run optimisation)", false, dense(100, 70000)},
		{"many containers", false, sparse(5000, 1<<31-1)},
		{"dense 64 (runs)", true, dense(100, 70000)},
		{"alternating 64 (bitmap stays)", true, alternate(0, 30000)},
		{"keys with gaps 64", true, []int64{5, 3<<32 + 7, 3<<32 + 8, 9<<32 + 1}},
		{"high key 64", true, []int64{1000<<32 | 0xFFFFFFFF}},
		{"sparse 64", true, sparse(3000, 1<<40)},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dv := newDV(t, tt.is64, tt.ps...)
			want := slices.Sorted(slices.Values(tt.ps))
			want = slices.Compact(want)
			require.Equal(t, int64(len(want)), dv.Cardinality())
			require.Equal(t, len(want) == 0, dv.IsEmpty())

			w := index.NewDVWriter()
			require.NoError(t, w.Write("a", dv))
			require.NoError(t, w.Write("b", newDV(t, tt.is64, 7)))
			all, err := index.ReadAll(ctx, bytes.NewReader(w.Bytes()), w.Metas(), nil)
			require.NoError(t, err)
			got := all["a"]
			require.Equal(t, tt.is64, got.Is64())
			if len(want) == 0 {
				require.Empty(t, positions(got))
			} else {
				require.Equal(t, want, positions(got))
			}
			require.True(t, dv.Equal(got))
			require.Equal(t, []int64{7}, positions(all["b"]))

			// Re-encoding a decoded vector gives the same bytes.
			w2 := index.NewDVWriter()
			require.NoError(t, w2.Write("a", got))
			require.NoError(t, w2.Write("b", all["b"]))
			require.Equal(t, w.Bytes(), w2.Bytes())

			blob, err := dv.MarshalBinary()
			require.NoError(t, err)
			var back index.DeletionVector
			require.NoError(t, back.UnmarshalBinary(blob))
			require.True(t, dv.Equal(&back))
		})
	}
}

func TestSixtyFourBitLayout(t *testing.T) {
	t.Run("dense keys with empty bitmaps in the gaps", func(t *testing.T) {
		dv := newDV(t, true, 2<<32|5)
		blob, err := dv.MarshalBinary()
		require.NoError(t, err)
		// size, magic, count 3, then key 0 (empty), key 1 (empty), key 2 {5}.
		want := unhex(t, `D1D33964 0300000000000000
			00000000 3A30000000000000
			01000000 3A30000000000000
			02000000 3A300000 01000000 0000 0000 10000000 0500`)
		require.Equal(t, want, blob[4:len(blob)-4])
		require.Equal(t, uint32(len(want)), binary.BigEndian.Uint32(blob))
	})
	t.Run("sparse keys are accepted and written densely", func(t *testing.T) {
		payload := unhex(t, `D1D33964 0100000000000000
			02000000 3A300000 01000000 0000 0000 10000000 0500`)
		var dv index.DeletionVector
		require.NoError(t, dv.UnmarshalBinary(blob(payload)))
		require.Equal(t, []int64{2<<32 | 5}, positions(&dv))
		again, err := dv.MarshalBinary()
		require.NoError(t, err)
		dense, err := newDV(t, true, 2<<32|5).MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, dense, again)
	})
	t.Run("empty 64-bit vector writes count 0", func(t *testing.T) {
		b, err := index.NewDeletionVector64().MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, unhex(t, `D1D33964 0000000000000000`), b[4:len(b)-4])
	})
	t.Run("converted from 32-bit keeps its one bitmap", func(t *testing.T) {
		b, err := index.NewDeletionVector().To64().MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, unhex(t, `D1D33964 0100000000000000 00000000 3A30000000000000`), b[4:len(b)-4])
		var zero index.DeletionVector
		b2, err := zero.To64().MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, b, b2)
	})
	t.Run("run containers for ranges", func(t *testing.T) {
		dv := newDV(t, true, 10, 11, 12, 13, 14)
		b, err := dv.MarshalBinary()
		require.NoError(t, err)
		// cookie 12347 with one container, run flag, key 0 card-1 4, one run [10, +5).
		require.Equal(t, unhex(t, `D1D33964 0100000000000000 00000000 3B300000 01 0000 0400 0100 0A00 0400`), b[4:len(b)-4])
	})
}

// blob wraps magic+bitmap bytes with the size and CRC fields.
func blob(payload []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(payload)))
	out = append(out, payload...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(payload))
}

// TestRunContainers32 checks that 32-bit vectors holding run containers (which
// Java's writer does not produce but its reader accepts) decode, and are
// written back unchanged, as Java would write them.
func TestRunContainers32(t *testing.T) {
	bm := roaring.New()
	bm.AddRange(100, 5000)
	bm.Add(70000)
	bm.AddRange(1<<20, 1<<20+100000)
	bm.RunOptimize()
	require.True(t, bm.HasRunCompression())
	raw, err := bm.ToBytes()
	require.NoError(t, err)
	payload := binary.BigEndian.AppendUint32(nil, index.Magic32)
	payload = append(payload, raw...)
	b := blob(payload)

	var dv index.DeletionVector
	require.NoError(t, dv.UnmarshalBinary(b))
	require.False(t, dv.Is64())
	require.Equal(t, int64(bm.GetCardinality()), dv.Cardinality())
	require.True(t, dv.IsDeleted(100))
	require.True(t, dv.IsDeleted(4999))
	require.False(t, dv.IsDeleted(5000))
	require.True(t, dv.IsDeleted(70000))
	require.True(t, dv.IsDeleted(1<<20+99999))

	again, err := dv.MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, b, again)

	// Fewer than four containers with runs: no offset header.
	small := roaring.New()
	small.AddRange(0, 10)
	small.RunOptimize()
	raw, err = small.ToBytes()
	require.NoError(t, err)
	payload = append(binary.BigEndian.AppendUint32(nil, index.Magic32), raw...)
	require.NoError(t, dv.UnmarshalBinary(blob(payload)))
	require.Equal(t, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, positions(&dv))
}

func TestAddLimits(t *testing.T) {
	dv := index.NewDeletionVector()
	require.Error(t, dv.Add(-1))
	require.Error(t, dv.Add(index.MaxPosition32+1))
	require.NoError(t, dv.Add(index.MaxPosition32))

	dv64 := index.NewDeletionVector64()
	require.Error(t, dv64.Add(-1))
	require.Error(t, dv64.Add(index.MaxPosition64+1))
	require.NoError(t, dv64.Add(index.MaxPosition64))
	_, err := dv64.MarshalBinary()
	require.ErrorContains(t, err, "exceeds 2 GB", "Java's dense layout cannot hold such a key either")
	require.NoError(t, dv64.Add(index.MaxPosition32+1))
	require.True(t, dv64.IsDeleted(index.MaxPosition32+1))
	require.False(t, dv64.IsDeleted(-5))
	require.False(t, dv64.IsDeleted(math.MaxInt64))

	added, err := dv64.CheckedAdd(42)
	require.NoError(t, err)
	require.True(t, added)
	added, err = dv64.CheckedAdd(42)
	require.NoError(t, err)
	require.False(t, added)

	var zero index.DeletionVector
	require.False(t, zero.Is64())
	require.True(t, zero.IsEmpty())
	require.False(t, zero.IsDeleted(0))
	require.NoError(t, zero.Add(3))
	require.Equal(t, []int64{3}, positions(&zero))
}

func TestMerge(t *testing.T) {
	a := newDV(t, false, 1, 2)
	require.NoError(t, a.Merge(newDV(t, false, 2, 5)))
	require.Equal(t, []int64{1, 2, 5}, positions(a))
	require.Error(t, a.Merge(newDV(t, true, 3)))

	b := newDV(t, true, 1)
	require.NoError(t, b.Merge(newDV(t, true, 4<<32)))
	require.Equal(t, []int64{1, 4 << 32}, positions(b))

	c := a.To64()
	require.True(t, c.Is64())
	require.Equal(t, positions(a), positions(c))
	require.False(t, a.Is64(), "To64 copies")
	require.NoError(t, c.Add(9))
	require.False(t, a.IsDeleted(9))

	d := c.Clone()
	require.NoError(t, d.Add(10))
	require.False(t, c.IsDeleted(10))
	require.False(t, c.Equal(d))
	require.Contains(t, d.String(), "64-bit")
}

func TestPositionsEarlyStop(t *testing.T) {
	dv := newDV(t, true, 1, 2, 3, 1<<33)
	var got []int64
	for p := range dv.Positions() {
		got = append(got, p)
		if len(got) == 2 {
			break
		}
	}
	require.Equal(t, []int64{1, 2}, got)
}

func TestWriteRolling(t *testing.T) {
	vectors := []index.NamedDV{
		{DataFile: "a", DV: newDV(t, false, 1)},
		{DataFile: "b", DV: newDV(t, false, 2)},
		{DataFile: "c", DV: newDV(t, false, 3)},
	}
	// Each 32-bit single-value vector takes 30 bytes; the file starts at 1.
	files, err := index.WriteRolling(vectors, 40)
	require.NoError(t, err)
	require.Len(t, files, 2)
	require.Len(t, files[0].Metas, 2) // 1+30 = 31 <= 40, 61 > 40: closed after "b"
	require.Len(t, files[1].Metas, 1)
	require.Equal(t, int32(1), files[1].Metas[0].Offset)

	files, err = index.WriteRolling(vectors, index.DefaultDVTargetFileSize)
	require.NoError(t, err)
	require.Len(t, files, 1)
	require.Len(t, files[0].Metas, 3)

	files, err = index.WriteRolling(nil, 10)
	require.NoError(t, err)
	require.Empty(t, files)

	w := index.NewDVWriter()
	require.Equal(t, []byte{1}, w.Bytes(), "an empty writeSingleFile is the version byte alone")
	require.NoError(t, w.Write("a", newDV(t, false)))
	require.Error(t, w.Write("a", newDV(t, false)))
}

func TestReadErrors(t *testing.T) {
	ctx := context.Background()
	good := func() []byte {
		w := index.NewDVWriter()
		require.NoError(t, w.Write("f", newDV(t, false, 2, 3)))
		return slices.Clone(w.Bytes())
	}
	good64 := func() []byte {
		w := index.NewDVWriter()
		require.NoError(t, w.Write("f", newDV(t, true, 2, 3)))
		return slices.Clone(w.Bytes())
	}
	meta := []index.DVMeta{{DataFile: "f", Offset: 1, Length: 24}}
	meta64 := []index.DVMeta{{DataFile: "f", Offset: 1, Length: 44}}

	tests := []struct {
		name  string
		data  []byte
		metas []index.DVMeta
		msg   string
	}{
		{"bad version", append([]byte{2}, good()[1:]...), meta, "version"},
		{"empty file", nil, meta, "truncated"},
		{"crc mismatch", func() []byte { b := good(); b[len(b)-1] ^= 1; return b }(), meta, "CRC32"},
		{"crc mismatch 64", func() []byte { b := good64(); b[len(b)-1] ^= 1; return b }(), meta64, "CRC32"},
		{"bad magic", func() []byte { b := good(); b[5] = 0; return b }(), meta, "magic"},
		{"truncated", good()[:20], meta, "truncated"},
		{"truncated header", good()[:3], meta, "truncated"},
		{"length mismatch 32", good(), []index.DVMeta{{DataFile: "f", Offset: 1, Length: 25}}, "recorded length"},
		{"length mismatch 64", good64(), []index.DVMeta{{DataFile: "f", Offset: 1, Length: 36}}, "recorded length"},
		{"offset past end", good(), []index.DVMeta{{DataFile: "f", Offset: 100, Length: 24}}, "truncated"},
		{"negative offset", good(), []index.DVMeta{{DataFile: "f", Offset: -1, Length: 24}}, "invalid"},
		{"cardinality mismatch", good(), []index.DVMeta{{DataFile: "f", Offset: 1, Length: 24, Cardinality: ptr[int64](3)}}, "metadata says 3"},
		{"bitmap unsorted", func() []byte {
			b := good()
			b[25], b[27] = 3, 2 // swap the two array values
			return fixCRC(b, 1)
		}(), meta, "strictly increasing"},
		{"bitmap bad cookie", func() []byte { b := good(); b[9] = 0; return fixCRC(b, 1) }(), meta, "cookie"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := index.ReadAll(ctx, bytes.NewReader(tt.data), tt.metas, nil)
			require.ErrorIs(t, err, index.ErrCorrupt)
			require.ErrorContains(t, err, tt.msg)
			require.ErrorContains(t, err, "deletion vector")
		})
	}

	t.Run("IgnoreChecksum accepts what Java accepts", func(t *testing.T) {
		b := good()
		b[len(b)-1] ^= 1
		all, err := index.ReadAll(ctx, bytes.NewReader(b), meta, &index.ReadOptions{IgnoreChecksum: true})
		require.NoError(t, err)
		require.Equal(t, []int64{2, 3}, positions(all["f"]))
	})
	t.Run("canceled context", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := index.ReadAll(cctx, bytes.NewReader(good()), meta, nil)
		require.ErrorIs(t, err, context.Canceled)
	})
}

// fixCRC recomputes the CRC of the 32-bit blob at offset off.
func fixCRC(b []byte, off int) []byte {
	size := int(binary.BigEndian.Uint32(b[off:]))
	binary.BigEndian.PutUint32(b[off+4+size:], crc32.ChecksumIEEE(b[off+4:off+4+size]))
	return b
}

func TestDecode64Errors(t *testing.T) {
	bm := `3A300000 01000000 0000 0000 10000000 0500`
	tests := []struct{ name, payload, msg string }{
		{"count negative", `D1D33964 FFFFFFFFFFFFFFFF`, "bitmap count"},
		{"count too large for data", `D1D33964 0200000000000000 00000000 ` + bm, "truncated"},
		{"key negative", `D1D33964 0100000000000000 FFFFFFFF ` + bm, "unsigned key"},
		{"key too large", `D1D33964 0100000000000000 FFFFFF7F ` + bm, "too large"},
		{"keys descending", `D1D33964 0200000000000000 01000000 ` + bm + ` 00000000 ` + bm, "ascending"},
		{"keys repeated", `D1D33964 0200000000000000 01000000 ` + bm + ` 01000000 ` + bm, "ascending"},
		{"no count", `D1D33964 0100`, "truncated"},
		{"bitmap truncated", `D1D33964 0100000000000000 00000000 3A300000 01000000 0000 0000 10000000 05`, "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dv index.DeletionVector
			err := dv.UnmarshalBinary(blob(unhex(t, tt.payload)))
			require.ErrorIs(t, err, index.ErrCorrupt)
			require.ErrorContains(t, err, tt.msg)
		})
	}
	t.Run("size below magic", func(t *testing.T) {
		var dv index.DeletionVector
		require.ErrorIs(t, dv.UnmarshalBinary(unhex(t, `00000002 5E43 00000000`)), index.ErrCorrupt)
	})
	t.Run("trailing bytes", func(t *testing.T) {
		b, err := newDV(t, false, 1).MarshalBinary()
		require.NoError(t, err)
		var dv index.DeletionVector
		require.ErrorIs(t, dv.UnmarshalBinary(append(b, 0)), index.ErrCorrupt)
	})
}

// TestDeletedInMatchesIsDeleted checks DeletedIn against IsDeleted over
// random ranges of random 32- and 64-bit vectors (positions on both sides
// of the 2^32 key boundary).
func TestDeletedInMatchesIsDeleted(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	for c := range 200 {
		wide := c%2 == 1
		dv := index.NewDeletionVector()
		base := int64(0)
		if wide {
			dv = index.NewDeletionVector64()
			base = int64(r.IntN(3)) << 32
		}
		for range r.IntN(60) {
			p := base + int64(r.IntN(3000)) - 1500
			if p < 0 {
				p = -p
			}
			require.NoError(t, dv.Add(p))
		}
		lo := base + int64(r.IntN(4000)) - 2000
		hi := lo + int64(r.IntN(2000))
		var want []int64
		for p := max(lo, 0); p < hi; p++ {
			if dv.IsDeleted(p) {
				want = append(want, p)
			}
		}
		got := slices.Collect(dv.DeletedIn(lo, hi))
		require.Equal(t, want, got, "case %d: [%d, %d)", c, lo, hi)
	}
}

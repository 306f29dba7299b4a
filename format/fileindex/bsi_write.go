package fileindex

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/paimon-go/paimon-go/format/schema"
)

// bsiWriter is Java BitSliceIndexBitmapFileIndex.Writer (version 1): each
// non-null value is mapped to an int64 as the reader maps literals
// (bsiValue); non-negative values go to the positive side, negative ones
// by absolute value to the negative side.
//
// Java collects every value in a list and slices them at the end; the
// slices only depend on the values' bits because Java's min of each side
// is always 0 (StatsCollectList starts min and max at 0 and min only
// shrinks), so this writer slices as it goes and holds only the bitmaps.
// Java cannot write Long.MIN_VALUE (its absolute value overflows and the
// Appender refuses a negative min): such a column gets no index here.
type bsiWriter struct {
	t        schema.DataType
	rows     uint32
	pos, neg bsiSide
	lossy    bool
}

// bsiSide is one BitSliceIndexRoaringBitmap.Appender with min 0.
type bsiSide struct {
	max    int64
	ebm    *roaring.Bitmap
	slices []*roaring.Bitmap
}

func newBSIWriter(t schema.DataType) *bsiWriter {
	return &bsiWriter{t: t, pos: bsiSide{ebm: roaring.New()}, neg: bsiSide{ebm: roaring.New()}}
}

func (w *bsiWriter) Add(v any) {
	row := w.rows
	w.rows++
	if v == nil || w.lossy {
		return
	}
	x, ok := bsiValue(w.t, v)
	if !ok || x == math.MinInt64 {
		w.lossy = true
		return
	}
	if x < 0 {
		w.neg.add(row, -x)
	} else {
		w.pos.add(row, x)
	}
}

// add records value v (>= 0) at row: slice i holds the rows whose value
// has bit i set (v - min with min 0).
func (s *bsiSide) add(row uint32, v int64) {
	s.max = max(s.max, v)
	for x := uint64(v); x != 0; x &= x - 1 {
		i := bits.TrailingZeros64(x)
		for len(s.slices) <= i {
			s.slices = append(s.slices, roaring.New())
		}
		s.slices[i].Add(row)
	}
	s.ebm.Add(row)
}

func (w *bsiWriter) Bytes() []byte {
	if w.lossy {
		return nil // a value Java cannot index: write no index for the column
	}
	var out bytes.Buffer
	out.WriteByte(1) // version
	out.Write(binary.BigEndian.AppendUint32(nil, w.rows))
	for _, s := range []*bsiSide{&w.pos, &w.neg} {
		if s.ebm.IsEmpty() {
			out.WriteByte(0)
			continue
		}
		out.WriteByte(1)
		s.serialize(&out)
	}
	return out.Bytes()
}

// serialize is BitSliceIndexRoaringBitmap.Appender.serialize: version,
// min, max, the ebm, the slice count and the slices. The slice count is
// the bit length of max, which is exactly the slices add grew.
func (s *bsiSide) serialize(out *bytes.Buffer) {
	out.WriteByte(1)
	out.Write(binary.BigEndian.AppendUint64(nil, 0))
	out.Write(binary.BigEndian.AppendUint64(nil, uint64(s.max)))
	out.Write(javaRoaring(s.ebm))
	out.Write(binary.BigEndian.AppendUint32(nil, uint32(len(s.slices))))
	for _, b := range s.slices {
		out.Write(javaRoaring(b))
	}
}

// javaRoaring serializes a bitmap as Java RoaringBitmap32.serialize does:
// run-optimized first, then the portable RoaringBitmap format. The
// bitmaps must have been built by adding rows (not by set operations), so
// that every container has the form Java's adds give it before
// runOptimize.
func javaRoaring(b *roaring.Bitmap) []byte {
	b.RunOptimize()
	out, _ := b.ToBytes()
	return out
}

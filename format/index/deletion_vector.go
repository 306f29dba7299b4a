package index

import (
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// Position limits of the two deletion-vector formats.
const (
	// MaxPosition32 is the largest row position a 32-bit deletion vector
	// accepts (RoaringBitmap32.MAX_VALUE = Integer.MAX_VALUE).
	MaxPosition32 int64 = math.MaxInt32
	// MaxPosition64 is the largest row position a 64-bit deletion vector
	// accepts (OptimizedRoaringBitmap64.MAX_VALUE, inherited from Iceberg:
	// high half Integer.MAX_VALUE-1, low half 0x80000000).
	MaxPosition64 int64 = (math.MaxInt32-1)<<32 | 0x80000000
)

// DeletionVector records the deleted row positions (0-based row ordinals) of
// one data file. It mirrors Java's DeletionVector interface with its two
// implementations: BitmapDeletionVector (32-bit, the default) and
// Bitmap64DeletionVector (deletion-vectors.bitmap64 = true, Iceberg's layout).
// The format is fixed when the vector is created or decoded and is the one it
// is written in, as in Java.
//
// The zero value is an empty 32-bit deletion vector. A DeletionVector is not
// safe for concurrent use while it is being modified.
type DeletionVector struct {
	is64 bool
	// keys and bitmaps hold the 32-bit bitmaps by the high half of the
	// position, keys ascending. A 32-bit vector has at most the key 0. Empty
	// bitmaps are kept: Java's dense array of bitmaps writes one for every key
	// up to the largest, and a decoded vector must write the same count back.
	keys    []uint32
	bitmaps []*roaring.Bitmap
}

// NewDeletionVector returns an empty 32-bit deletion vector (Java
// BitmapDeletionVector), the format Paimon writes by default.
func NewDeletionVector() *DeletionVector {
	return &DeletionVector{keys: []uint32{0}, bitmaps: []*roaring.Bitmap{roaring.New()}}
}

// NewDeletionVector64 returns an empty 64-bit deletion vector (Java
// Bitmap64DeletionVector), the format used when deletion-vectors.bitmap64 is
// true.
func NewDeletionVector64() *DeletionVector {
	return &DeletionVector{is64: true}
}

// Is64 reports whether dv uses the 64-bit format.
func (dv *DeletionVector) Is64() bool { return dv.is64 }

// Add marks the row at pos as deleted. Positions must be >= 0 and at most
// MaxPosition32 (32-bit) or MaxPosition64 (64-bit); Java throws for larger
// ones ("The file has too many rows").
func (dv *DeletionVector) Add(pos int64) error {
	if err := dv.checkAddable(pos); err != nil {
		return err
	}
	dv.bitmapFor(uint32(pos >> 32)).Add(uint32(pos))
	return nil
}

// CheckedAdd is Add that also reports whether pos was not deleted before
// (Java DeletionVector.checkedDelete).
func (dv *DeletionVector) CheckedAdd(pos int64) (bool, error) {
	if err := dv.checkAddable(pos); err != nil {
		return false, err
	}
	return dv.bitmapFor(uint32(pos >> 32)).CheckedAdd(uint32(pos)), nil
}

func (dv *DeletionVector) checkAddable(pos int64) error {
	limit := MaxPosition32
	if dv.is64 {
		limit = MaxPosition64
	}
	if pos < 0 || pos > limit {
		return fmt.Errorf("index: row position %d outside [0, %d] of a %s deletion vector", pos, limit, dv.formatName())
	}
	return nil
}

func (dv *DeletionVector) formatName() string {
	if dv.is64 {
		return "64-bit"
	}
	return "32-bit"
}

// bitmapFor returns the bitmap of key, creating it (and, through the dense
// layout, nothing else) if needed.
func (dv *DeletionVector) bitmapFor(key uint32) *roaring.Bitmap {
	i, found := slices.BinarySearch(dv.keys, key)
	if found {
		return dv.bitmaps[i]
	}
	bm := roaring.New()
	dv.keys = slices.Insert(dv.keys, i, key)
	dv.bitmaps = slices.Insert(dv.bitmaps, i, bm)
	return bm
}

// IsDeleted reports whether the row at pos is deleted. Positions outside the
// vector's range are reported as not deleted.
func (dv *DeletionVector) IsDeleted(pos int64) bool {
	if pos < 0 {
		return false
	}
	key := uint32(pos >> 32)
	if pos>>32 != int64(key) {
		return false
	}
	// Fast path: nearly every vector has one bitmap, for key 0.
	if len(dv.keys) == 1 {
		return dv.keys[0] == key && dv.bitmaps[0].Contains(uint32(pos))
	}
	i, found := slices.BinarySearch(dv.keys, key)
	return found && dv.bitmaps[i].Contains(uint32(pos))
}

// Cardinality returns the number of deleted rows (Java getCardinality).
func (dv *DeletionVector) Cardinality() int64 {
	var n uint64
	for _, bm := range dv.bitmaps {
		n += bm.GetCardinality()
	}
	return int64(n)
}

// IsEmpty reports whether no row is deleted.
func (dv *DeletionVector) IsEmpty() bool {
	for _, bm := range dv.bitmaps {
		if !bm.IsEmpty() {
			return false
		}
	}
	return true
}

// Positions yields the deleted row positions in ascending order.
func (dv *DeletionVector) Positions() iter.Seq[int64] {
	return func(yield func(int64) bool) {
		for i, bm := range dv.bitmaps {
			high := int64(dv.keys[i]) << 32
			it := bm.Iterator()
			for it.HasNext() {
				if !yield(high | int64(it.Next())) {
					return
				}
			}
		}
	}
}

// DeletedIn yields the deleted row positions in [lo, hi), ascending. It
// visits only the positions in the range (roaring's AdvanceIfNeeded), so a
// reader applying the vector batch by batch pays for the deletions, not for
// a lookup per row.
func (dv *DeletionVector) DeletedIn(lo, hi int64) iter.Seq[int64] {
	return func(yield func(int64) bool) {
		lo = max(lo, 0)
		for i, bm := range dv.bitmaps {
			high := int64(dv.keys[i]) << 32
			if lo >= high && lo-high >= 1<<32 {
				continue
			}
			if high >= hi {
				return
			}
			it := bm.Iterator()
			if lo > high {
				it.AdvanceIfNeeded(uint32(lo - high))
			}
			for it.HasNext() {
				p := high | int64(it.Next())
				if p >= hi || !yield(p) {
					return
				}
			}
		}
	}
}

// Merge adds every position of other to dv (Java DeletionVector.merge). Like
// Java, it refuses to merge vectors of different formats.
func (dv *DeletionVector) Merge(other *DeletionVector) error {
	if dv.is64 != other.is64 {
		return fmt.Errorf("index: cannot merge a %s deletion vector into a %s one", other.formatName(), dv.formatName())
	}
	for i, key := range other.keys {
		dv.bitmapFor(key).Or(other.bitmaps[i])
	}
	return nil
}

// Clone returns a deep copy of dv.
func (dv *DeletionVector) Clone() *DeletionVector {
	out := &DeletionVector{is64: dv.is64, keys: slices.Clone(dv.keys)}
	out.bitmaps = make([]*roaring.Bitmap, len(dv.bitmaps))
	for i, bm := range dv.bitmaps {
		out.bitmaps[i] = bm.Clone()
	}
	return out
}

// To64 returns a 64-bit copy of dv (Java
// Bitmap64DeletionVector.fromBitmapDeletionVector). A 64-bit dv is cloned.
func (dv *DeletionVector) To64() *DeletionVector {
	out := dv.Clone()
	if !out.is64 && len(out.keys) == 0 {
		// Java converts the one RoaringBitmap a 32-bit vector always has.
		out.keys, out.bitmaps = []uint32{0}, []*roaring.Bitmap{roaring.New()}
	}
	out.is64 = true
	return out
}

// Equal reports whether dv and other have the same format and positions.
func (dv *DeletionVector) Equal(other *DeletionVector) bool {
	if dv.is64 != other.is64 || dv.Cardinality() != other.Cardinality() {
		return false
	}
	next, stop := iter.Pull(other.Positions())
	defer stop()
	for p := range dv.Positions() {
		q, ok := next()
		if !ok || p != q {
			return false
		}
	}
	return true
}

// String returns a short description for logs and test failures.
func (dv *DeletionVector) String() string {
	const show = 16
	ps := make([]int64, 0, show)
	for p := range dv.Positions() {
		if len(ps) == show {
			break
		}
		ps = append(ps, p)
	}
	more := ""
	if n := dv.Cardinality(); n > show {
		more = fmt.Sprintf(" … (%d in all)", n)
	}
	return fmt.Sprintf("DeletionVector(%s)%v%s", dv.formatName(), ps, more)
}

// denseCount is the number of 32-bit bitmaps Java's 64-bit layout writes: one
// for every key up to the largest.
func (dv *DeletionVector) denseCount() int64 {
	if len(dv.keys) == 0 {
		return 0
	}
	return int64(dv.keys[len(dv.keys)-1]) + 1
}

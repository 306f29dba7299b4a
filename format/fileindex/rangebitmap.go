package fileindex

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// rangeBitmap is a range-bitmap index (Java RangeBitmapFileIndex and
// RangeBitmap, version 1): the distinct non-null values, sorted, form a
// dictionary whose codes are their ranks (ChunkedDictionary: chunks of
// keys, each chunk's header holding its first key and code); a bit-sliced
// index over the codes (rangebitmap.BitSliceIndexBitmap) holds each row's
// code. A comparison with a literal becomes a comparison of codes with the
// literal's rank, answered with exact row sets.
//
// Layout (big-endian):
//
//	int32 header length; header: int8 version, int32 rows, int32
//	  cardinality, min key and max key (when cardinality > 0), int32
//	  dictionary length
//	dictionary: int32 header length; header: int8 version, int32 chunks,
//	  int32 offsets length, int32 chunks length; then the chunk offsets
//	  (int32 each), the chunk headers (int8 version, key, int32 code,
//	  int32 keys offset, int32 keys count, then int32 keys length and
//	  int32 key length for fixed-length keys, int32 offsets length and int32
//	  keys length for strings) and the keys
//	bit slices: int32 header length; header: int8 version, int8 slices,
//	  int32 ebm length, int32 indexes length, (int32 offset, int32 length)
//	  per slice; then the ebm and the slices (RoaringBitmap each)
//
// Keys are int8/int16/int32/int64 (integers, dates, times; timestamps as
// epoch millis up to precision 3, else micros; compact decimals unscaled),
// float32/float64 and strings (int32 length and UTF-8 bytes), compared as
// Java compares them (Float.compare, BinaryString.compareTo: unsigned
// bytes).
type rangeBitmap struct {
	t        schema.DataType
	rows     int32
	keys     []rbKey // by code
	ebm      *roaring.Bitmap
	slices   []*roaring.Bitmap
	isString bool
}

// rbKey is a dictionary key: int64 for integral types, float64 for
// floating-point ones, string for strings.
type rbKey = any

// rangeBitmapKind is how keys of t are stored: the fixed key length (0 for
// strings); ok false for the types Java refuses (KeyFactory.create).
func rangeBitmapKind(t schema.DataType) (size int, ok bool) {
	switch t.Root {
	case schema.Char, schema.VarChar:
		return 0, true
	case schema.Boolean, schema.TinyInt:
		return 1, true
	case schema.SmallInt:
		return 2, true
	case schema.Int, schema.Date, schema.Time, schema.Float:
		return 4, true
	case schema.BigInt, schema.Double:
		return 8, true
	case schema.Decimal:
		return 8, t.Precision <= data.CompactDecimalMaxPrecision
	case schema.Timestamp, schema.TimestampLTZ:
		return 8, t.Precision <= 6
	}
	return 0, false
}

// readKey reads one key of the index's type.
func (m *rangeBitmap) readKey(r *reader) rbKey {
	switch m.t.Root {
	case schema.Char, schema.VarChar:
		n := r.i32()
		if n < 0 {
			r.err = fmt.Errorf("key of %d bytes", n)
			return ""
		}
		return string(r.take(int(n)))
	case schema.Boolean, schema.TinyInt:
		return int64(int8(r.u8()))
	case schema.SmallInt:
		return int64(r.i16())
	case schema.Int, schema.Date, schema.Time:
		return int64(r.i32())
	case schema.Float:
		return float64(math.Float32frombits(uint32(r.i32())))
	case schema.Double:
		return math.Float64frombits(uint64(r.i64()))
	}
	return r.i64()
}

// compareRangeKeys orders keys as Java's comparators do (Float.compare: -0.0
// below 0.0, NaN above everything).
func compareRangeKeys(a, b rbKey) int {
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case float64:
		y := b.(float64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		xb, yb := int64(math.Float64bits(x)), int64(math.Float64bits(y))
		if x != x {
			xb = math.MaxInt64
		}
		if y != y {
			yb = math.MaxInt64
		}
		return cmp.Compare(xb, yb)
	case string:
		return cmp.Compare(x, b.(string))
	}
	return 0
}

func newRangeBitmap(b []byte, t schema.DataType) (Index, error) {
	keySize, ok := rangeBitmapKind(t)
	if !ok {
		return nil, nil
	}
	m := &rangeBitmap{t: t, isString: keySize == 0}
	r := &reader{b: b}
	headLen := r.i32()
	if r.err != nil || headLen < 0 || int(headLen) > len(b)-4 {
		return nil, fmt.Errorf("%w: range-bitmap header of %d bytes", ErrCorrupt, headLen)
	}
	h := &reader{b: b[:4+int(headLen)], off: 4}
	if v := h.u8(); h.err == nil && v != 1 {
		return nil, fmt.Errorf("%w: range-bitmap version %d", ErrCorrupt, v)
	}
	m.rows = h.i32()
	card := h.i32()
	if card > 0 {
		m.readKey(h) // min and max: the dictionary's first and last keys
		m.readKey(h)
	}
	dictLen := h.i32()
	if h.err != nil {
		return nil, fmt.Errorf("%w: range-bitmap header: %w", ErrCorrupt, h.err)
	}
	dictOff := 4 + int(headLen)
	if m.rows < 0 || card < 0 || dictLen < 0 || dictOff+int(dictLen) > len(b) || int(card) > len(b) {
		return nil, fmt.Errorf("%w: range-bitmap of %d rows, %d values, dictionary of %d bytes", ErrCorrupt, m.rows, card, dictLen)
	}
	if card == 0 {
		m.ebm = roaring.New()
		return m, nil
	}
	if err := m.readDictionary(b[dictOff:dictOff+int(dictLen)], int(card), keySize); err != nil {
		return nil, fmt.Errorf("%w: range-bitmap dictionary: %w", ErrCorrupt, err)
	}
	if err := m.readSlices(b[dictOff+int(dictLen):]); err != nil {
		return nil, fmt.Errorf("%w: range-bitmap bit slices: %w", ErrCorrupt, err)
	}
	if len(m.slices) < bits.Len32(uint32(card-1)) {
		return nil, fmt.Errorf("%w: range-bitmap: %d slices for %d values", ErrCorrupt, len(m.slices), card)
	}
	return m, nil
}

// readDictionary decodes every key of a ChunkedDictionary in code order.
func (m *rangeBitmap) readDictionary(b []byte, card, keySize int) error {
	r := &reader{b: b}
	headLen := r.i32()
	if r.err != nil || headLen < 13 || int(headLen) > len(b)-4 {
		return fmt.Errorf("header of %d bytes", headLen)
	}
	h := &reader{b: b[:4+int(headLen)], off: 4}
	if v := h.u8(); v != 1 {
		return fmt.Errorf("version %d", v)
	}
	chunks, offsLen, chunksLen := h.i32(), h.i32(), h.i32()
	body := 4 + int(headLen)
	if h.err != nil || chunks <= 0 || offsLen != 4*chunks || chunksLen < 0 || body+int(offsLen)+int(chunksLen) > len(b) {
		return fmt.Errorf("%d chunks, offsets of %d bytes, chunks of %d bytes", chunks, offsLen, chunksLen)
	}
	offs := &reader{b: b[body : body+int(offsLen)]}
	chunkBytes := b[body+int(offsLen) : body+int(offsLen)+int(chunksLen)]
	keys := b[body+int(offsLen)+int(chunksLen):]
	m.keys = make([]rbKey, 0, card)
	starts := make([]int32, chunks)
	for i := range starts {
		starts[i] = offs.i32()
	}
	for i, start := range starts {
		end := chunksLen
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if start < 0 || start > end || end > chunksLen {
			return fmt.Errorf("chunk %d at %d..%d", i, start, end)
		}
		c := &reader{b: chunkBytes[start:end]}
		if v := c.u8(); c.err == nil && v != 1 {
			return fmt.Errorf("chunk %d version %d", i, v)
		}
		first := m.readKey(c)
		code, koff, size := c.i32(), c.i32(), c.i32()
		a, kl := c.i32(), c.i32() // fixed: keys length, key length; strings: offsets length, keys length
		if c.err != nil {
			return fmt.Errorf("chunk %d: %w", i, c.err)
		}
		if int(code) != len(m.keys) || size < 0 || len(m.keys)+1+int(size) > card || koff < 0 {
			return fmt.Errorf("chunk %d: code %d after %d keys, %d more", i, code, len(m.keys), size)
		}
		m.keys = append(m.keys, first)
		var kr *reader
		if m.isString {
			if a != 4*size || kl < 0 || int64(koff)+int64(a)+int64(kl) > int64(len(keys)) {
				return fmt.Errorf("chunk %d: keys at %d+%d+%d", i, koff, a, kl)
			}
			ko := &reader{b: keys[koff : koff+a]}
			data := keys[koff+a : koff+a+kl]
			for range size {
				o := ko.i32()
				if o < 0 || int(o) > len(data) {
					return fmt.Errorf("chunk %d: key at %d", i, o)
				}
				kr = &reader{b: data, off: int(o)}
				m.keys = append(m.keys, m.readKey(kr))
				if kr.err != nil {
					return fmt.Errorf("chunk %d: %w", i, kr.err)
				}
			}
		} else {
			if int(kl) != keySize || int64(a) != int64(size)*int64(keySize) || int64(koff)+int64(a) > int64(len(keys)) {
				return fmt.Errorf("chunk %d: %d keys of %d bytes in %d at %d", i, size, kl, a, koff)
			}
			kr = &reader{b: keys[koff : koff+a]}
			for range size {
				m.keys = append(m.keys, m.readKey(kr))
			}
			if kr.err != nil {
				return fmt.Errorf("chunk %d: %w", i, kr.err)
			}
		}
	}
	if len(m.keys) != card {
		return fmt.Errorf("%d keys, want %d", len(m.keys), card)
	}
	for i := 1; i < len(m.keys); i++ {
		if compareRangeKeys(m.keys[i-1], m.keys[i]) >= 0 {
			return fmt.Errorf("keys out of order at code %d", i)
		}
	}
	return nil
}

// readSlices decodes the bit-sliced index of the codes.
func (m *rangeBitmap) readSlices(b []byte) error {
	r := &reader{b: b}
	headLen := r.i32()
	if r.err != nil || headLen < 10 || int(headLen) > len(b)-4 {
		return fmt.Errorf("header of %d bytes", headLen)
	}
	h := &reader{b: b[:4+int(headLen)], off: 4}
	if v := h.u8(); v != 1 {
		return fmt.Errorf("version %d", v)
	}
	n := int(int8(h.u8()))
	ebmLen, idxLen := h.i32(), h.i32()
	body := 4 + int(headLen)
	if h.err != nil || n < 0 || n > 32 || idxLen != int32(8*n) || ebmLen < 0 || body+int(ebmLen) > len(b) {
		return fmt.Errorf("%d slices, ebm of %d bytes", n, ebmLen)
	}
	e := &reader{b: b[body : body+int(ebmLen)]}
	m.ebm = e.roaring()
	if e.err != nil {
		return e.err
	}
	sl := b[body+int(ebmLen):]
	for i := 0; i < n; i++ {
		off, l := h.i32(), h.i32()
		if h.err != nil || off < 0 || l < 0 || int64(off)+int64(l) > int64(len(sl)) {
			return fmt.Errorf("slice %d at %d+%d", i, off, l)
		}
		s := &reader{b: sl[off : off+l]}
		m.slices = append(m.slices, s.roaring())
		if s.err != nil {
			return s.err
		}
	}
	return nil
}

// literalKey maps a predicate literal to a dictionary key (Java
// KeyFactory.createConverter); false when it has no exact key. Float zero
// and NaN have none: Java orders -0.0 below 0.0 and NaN above everything,
// SQL does not.
func (m *rangeBitmap) literalKey(l any) (rbKey, bool) {
	switch m.t.Root {
	case schema.Char, schema.VarChar:
		s, ok := l.(string)
		return s, ok
	case schema.Boolean:
		b, ok := l.(bool)
		if !ok {
			return nil, false
		}
		if b {
			return int64(1), true
		}
		return int64(0), true
	case schema.Float:
		f, ok := l.(float32)
		if !ok || f == 0 || f != f {
			return nil, false
		}
		return float64(f), true
	case schema.Double:
		f, ok := l.(float64)
		if !ok || f == 0 || f != f {
			return nil, false
		}
		return f, true
	}
	v, ok := bsiValue(m.t, l)
	return v, ok
}

// rank is the code of k, or the code of the first key above it and false.
func (m *rangeBitmap) rank(k rbKey) (int, bool) {
	return slices.BinarySearchFunc(m.keys, k, compareRangeKeys)
}

func (m *rangeBitmap) Test(op Op, lits []any) Result {
	switch op {
	case OpIsNull:
		b := m.ebm.Clone()
		b.Flip(0, uint64(m.rows))
		return Rows(b)
	case OpIsNotNull:
		return Rows(m.ebm.Clone())
	case OpEqual, OpIn, OpNotEqual, OpNotIn:
		if len(lits) == 0 {
			return Remain()
		}
		eq := roaring.New()
		for _, l := range lits {
			k, ok := m.literalKey(l)
			if !ok {
				return Remain()
			}
			if code, found := m.rank(k); found {
				_, e, _ := oNeil(m.ebm, m.slices, uint64(code))
				eq.Or(e)
			}
		}
		if op == OpNotEqual || op == OpNotIn {
			return Rows(roaring.AndNot(m.ebm, eq))
		}
		return Rows(eq)
	case OpLessThan, OpLessOrEqual, OpGreaterThan, OpGreaterOrEqual:
		if len(lits) != 1 {
			return Remain()
		}
		k, ok := m.literalKey(lits[0])
		if !ok {
			return Remain()
		}
		if len(m.keys) == 0 {
			return Rows(roaring.New())
		}
		code, found := m.rank(k)
		if code == len(m.keys) {
			// Above every key.
			if op == OpLessThan || op == OpLessOrEqual {
				return Rows(m.ebm.Clone())
			}
			return Rows(roaring.New())
		}
		lt, eq, gt := oNeil(m.ebm, m.slices, uint64(code))
		if !found {
			// k lies between the keys of codes code-1 and code: a row's
			// key is below k exactly when its code is below code.
			gt.Or(eq)
			eq = roaring.New()
		}
		switch op {
		case OpLessThan:
			return Rows(lt)
		case OpLessOrEqual:
			return Rows(roaring.Or(lt, eq))
		case OpGreaterThan:
			return Rows(gt)
		default:
			return Rows(roaring.Or(gt, eq))
		}
	}
	return Remain()
}

package fileindex

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"sync"

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
//
// Decoding is lazy, as Java's RangeBitmap reads its parts on demand: the
// constructor checks the headers (the chunk headers included, whose first
// keys and codes must rise to the cardinality between min and max), a
// lookup reads the keys of the one chunk it lands in (and checks their
// order), and the bitmaps are decoded on first use: the ebm alone for IS
// [NOT] NULL, every slice for a comparison that min and max do not answer.
// Nothing is allocated per key, so a 100,000-key dictionary costs a probe
// of one chunk, not 100,000 boxed keys.
type rangeBitmap struct {
	t        schema.DataType
	keySize  int // fixed key length; 0 for strings
	rows     int32
	card     int
	min, max []byte    // raw keys (see reader.key)
	chunks   []rbChunk // the dictionary's chunk headers
	bsi      rbSlices

	ebmOnce, slicesOnce sync.Once
	ebm                 *roaring.Bitmap   // nil when damaged
	slices              []*roaring.Bitmap // nil when damaged
}

// rbChunk is a chunk of the dictionary: its first key, whose code is
// code, and size more keys with the codes after it.
type rbChunk struct {
	first []byte
	code  int
	size  int
	keys  []byte // fixed-length keys: size of them; strings: their bytes
	offs  []byte // strings: size int32 offsets into keys
}

// rbSlices locates the bitmaps of the bit-sliced index.
type rbSlices struct {
	ebm    []byte
	slices [][]byte
}

// rbLit is a key decoded for comparing: i for integral types, f for
// floating-point ones, s (a view of the bytes) for strings.
type rbLit struct {
	i int64
	f float64
	s []byte
}

// rangeBitmapKind is how keys of t are stored: the fixed key length (0 for
// strings); ok false for the types Java refuses (KeyFactory.create).
func rangeBitmapKind(t schema.DataType) (size int, ok bool) {
	switch t.Root {
	case schema.Decimal:
		return 8, t.Precision <= data.CompactDecimalMaxPrecision
	case schema.Timestamp, schema.TimestampLTZ:
		return 8, t.Precision <= 6
	}
	return bitmapKeySize(t) // the others are stored as in a bitmap index
}

// decode turns a raw key into its comparable form; it does not allocate.
func (m *rangeBitmap) decode(b []byte) rbLit {
	switch {
	case m.keySize == 0:
		return rbLit{s: b}
	case m.t.Root == schema.Float:
		return rbLit{f: float64(math.Float32frombits(binary.BigEndian.Uint32(b)))}
	case m.t.Root == schema.Double:
		return rbLit{f: math.Float64frombits(binary.BigEndian.Uint64(b))}
	}
	return decodeInt(b)
}

// compare orders decoded keys as Java's comparators do.
func (m *rangeBitmap) compare(a, b rbLit) int {
	switch {
	case m.keySize == 0:
		return bytes.Compare(a.s, b.s)
	case m.t.Root == schema.Float || m.t.Root == schema.Double:
		return compareFloats(a.f, b.f)
	}
	return cmp.Compare(a.i, b.i)
}

// compareRaw compares a raw key with a decoded one.
func (m *rangeBitmap) compareRaw(a []byte, b rbLit) int { return m.compare(m.decode(a), b) }

// compareRangeKeys orders keys as Java's comparators do (Float.compare: -0.0
// below 0.0, NaN above everything).
func compareRangeKeys(a, b any) int {
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case float64:
		return compareFloats(x, b.(float64))
	case string:
		return cmp.Compare(x, b.(string))
	}
	return 0
}

// compareFloats is Java's Double.compare (and Float.compare on widened
// floats): -0.0 below 0.0, NaN above everything and equal to itself.
func compareFloats(x, y float64) int {
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
}

func newRangeBitmap(b []byte, t schema.DataType) (Index, error) {
	keySize, ok := rangeBitmapKind(t)
	if !ok {
		return nil, nil
	}
	m := &rangeBitmap{t: t, keySize: keySize}
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
		// min and max: the dictionary's first and last keys
		m.min = h.key(m.keySize)
		m.max = h.key(m.keySize)
	}
	dictLen := h.i32()
	if h.err != nil {
		return nil, fmt.Errorf("%w: range-bitmap header: %w", ErrCorrupt, h.err)
	}
	dictOff := 4 + int(headLen)
	if m.rows < 0 || card < 0 || dictLen < 0 || dictOff+int(dictLen) > len(b) || int(card) > len(b) {
		return nil, fmt.Errorf("%w: range-bitmap of %d rows, %d values, dictionary of %d bytes", ErrCorrupt, m.rows, card, dictLen)
	}
	m.card = int(card)
	if card == 0 {
		m.ebm = roaring.New()
		m.ebmOnce.Do(func() {})
		return m, nil
	}
	if err := m.readDictionary(b[dictOff : dictOff+int(dictLen)]); err != nil {
		return nil, fmt.Errorf("%w: range-bitmap dictionary: %w", ErrCorrupt, err)
	}
	if err := m.readSlicesHeader(b[dictOff+int(dictLen):]); err != nil {
		return nil, fmt.Errorf("%w: range-bitmap bit slices: %w", ErrCorrupt, err)
	}
	if len(m.bsi.slices) < bits.Len32(uint32(card-1)) {
		return nil, fmt.Errorf("%w: range-bitmap: %d slices for %d values", ErrCorrupt, len(m.bsi.slices), card)
	}
	return m, nil
}

// rbChunkHeadMin is the fewest bytes a chunk header takes (version, code,
// keys offset, keys count and two lengths; the key comes on top), which
// bounds the chunks a dictionary of a given size can claim.
const rbChunkHeadMin = 1 + 5*4

// readDictionary reads the headers of a ChunkedDictionary: the codes of
// the chunks must follow on from each other up to the cardinality, their
// first keys rise, the first is min and the last chunk's last key is max.
// The keys inside a chunk are read by find.
func (m *rangeBitmap) readDictionary(b []byte) error {
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
	if h.err != nil || chunks <= 0 || int(chunks) > m.card || offsLen != 4*chunks || chunksLen < 0 ||
		int64(chunks)*rbChunkHeadMin > int64(chunksLen) || body+int(offsLen)+int(chunksLen) > len(b) {
		return fmt.Errorf("%d chunks, offsets of %d bytes, chunks of %d bytes", chunks, offsLen, chunksLen)
	}
	offs := &reader{b: b[body : body+int(offsLen)]}
	chunkBytes := b[body+int(offsLen) : body+int(offsLen)+int(chunksLen)]
	keys := b[body+int(offsLen)+int(chunksLen):]
	m.chunks = make([]rbChunk, chunks)
	next := 0 // the code the next chunk must start at
	for i := range m.chunks {
		start, end := offs.i32(), chunksLen
		if i+1 < len(m.chunks) {
			end = int32(binary.BigEndian.Uint32(offs.b[offs.off:]))
		}
		if start < 0 || start > end || end > chunksLen {
			return fmt.Errorf("chunk %d at %d..%d", i, start, end)
		}
		c := &reader{b: chunkBytes[start:end]}
		if v := c.u8(); c.err == nil && v != 1 {
			return fmt.Errorf("chunk %d version %d", i, v)
		}
		first := c.key(m.keySize)
		code, koff, size := c.i32(), c.i32(), c.i32()
		a, kl := c.i32(), c.i32() // fixed: keys length, key length; strings: offsets length, keys length
		if c.err != nil {
			return fmt.Errorf("chunk %d: %w", i, c.err)
		}
		if int(code) != next || size < 0 || next+1+int(size) > m.card || koff < 0 {
			return fmt.Errorf("chunk %d: code %d after %d keys, %d more", i, code, next, size)
		}
		if i > 0 && m.compare(m.decode(m.chunks[i-1].first), m.decode(first)) >= 0 {
			return fmt.Errorf("chunk %d: keys out of order", i)
		}
		ch := rbChunk{first: first, code: next, size: int(size)}
		if m.keySize == 0 {
			if a != 4*size || kl < 0 || int64(koff)+int64(a)+int64(kl) > int64(len(keys)) {
				return fmt.Errorf("chunk %d: keys at %d+%d+%d", i, koff, a, kl)
			}
			ch.offs = keys[koff : koff+a]
			ch.keys = keys[koff+a : koff+a+kl]
		} else {
			if int(kl) != m.keySize || int64(a) != int64(size)*int64(m.keySize) || int64(koff)+int64(a) > int64(len(keys)) {
				return fmt.Errorf("chunk %d: %d keys of %d bytes in %d at %d", i, size, kl, a, koff)
			}
			ch.keys = keys[koff : koff+a]
		}
		m.chunks[i] = ch
		next += 1 + int(size)
	}
	if next != m.card {
		return fmt.Errorf("%d keys, want %d", next, m.card)
	}
	last := &m.chunks[len(m.chunks)-1]
	lastKey := last.first
	if last.size > 0 {
		var ok bool
		if lastKey, ok = m.keyAt(last, last.size-1); !ok {
			return fmt.Errorf("last key out of bounds")
		}
	}
	if !bytes.Equal(m.chunks[0].first, m.min) || !bytes.Equal(lastKey, m.max) {
		return fmt.Errorf("min or max is not the first or last key")
	}
	return nil
}

// keyAt is the raw key j of the keys after a chunk's first; false when it
// lies outside the chunk's bytes.
func (m *rangeBitmap) keyAt(c *rbChunk, j int) ([]byte, bool) {
	if m.keySize > 0 {
		return c.keys[j*m.keySize : (j+1)*m.keySize], true
	}
	o := int64(int32(binary.BigEndian.Uint32(c.offs[4*j:])))
	if o < 0 || o+4 > int64(len(c.keys)) {
		return nil, false
	}
	n := int64(int32(binary.BigEndian.Uint32(c.keys[o:])))
	if n < 0 || o+4+n > int64(len(c.keys)) {
		return nil, false
	}
	return c.keys[o+4 : o+4+n], true
}

// find is ChunkedDictionary.find: the code of k, or the code of the first
// key above it and false. It reads the keys of the chunk k falls in, and
// refuses (ok false) a chunk whose keys do not rise from the last key of
// the chunk before to the first key of the next. The caller has checked min <= k <= max.
func (m *rangeBitmap) find(k rbLit) (code int, found, ok bool) {
	i := sort.Search(len(m.chunks), func(i int) bool { return m.compareRaw(m.chunks[i].first, k) > 0 }) - 1
	if i < 0 {
		return 0, false, true
	}
	c := &m.chunks[i]
	prev := m.decode(c.first)
	if i > 0 {
		// The chunk before ends below this one's first key.
		b := &m.chunks[i-1]
		last := b.first
		if b.size > 0 {
			var ok bool
			if last, ok = m.keyAt(b, b.size-1); !ok {
				return 0, false, false
			}
		}
		if m.compare(m.decode(last), prev) >= 0 {
			return 0, false, false
		}
	}
	if m.compare(prev, k) == 0 {
		return c.code, true, true
	}
	code, found = c.code+1+c.size, false
	for j := 0; j < c.size; j++ {
		raw, ok := m.keyAt(c, j)
		if !ok {
			return 0, false, false
		}
		key := m.decode(raw)
		if m.compare(prev, key) >= 0 {
			return 0, false, false
		}
		prev = key
		if code == c.code+1+c.size {
			if d := m.compare(key, k); d >= 0 {
				code, found = c.code+1+j, d == 0
			}
		}
	}
	if i+1 < len(m.chunks) && m.compare(prev, m.decode(m.chunks[i+1].first)) >= 0 {
		return 0, false, false
	}
	return code, found, true
}

// readSlicesHeader locates the bitmaps of the bit-sliced index; they are
// decoded on first use (notNull, codeSlices).
func (m *rangeBitmap) readSlicesHeader(b []byte) error {
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
	m.bsi.ebm = b[body : body+int(ebmLen)]
	sl := b[body+int(ebmLen):]
	m.bsi.slices = make([][]byte, n)
	for i := range m.bsi.slices {
		off, l := h.i32(), h.i32()
		if h.err != nil || off < 0 || l < 0 || int64(off)+int64(l) > int64(len(sl)) {
			return fmt.Errorf("slice %d at %d+%d", i, off, l)
		}
		m.bsi.slices[i] = sl[off : off+l]
	}
	return nil
}

// notNull is the rows holding a value (the ebm, decoded once); nil when it
// is damaged. The caller must not change it.
func (m *rangeBitmap) notNull() *roaring.Bitmap {
	m.ebmOnce.Do(func() {
		r := &reader{b: m.bsi.ebm}
		if b := r.roaring(); r.err == nil {
			m.ebm = b
		}
	})
	return m.ebm
}

// codeSlices is the bit slices of the codes (decoded once); nil when one
// is damaged. The caller must not change them.
func (m *rangeBitmap) codeSlices() []*roaring.Bitmap {
	m.slicesOnce.Do(func() {
		out := make([]*roaring.Bitmap, len(m.bsi.slices))
		for i, s := range m.bsi.slices {
			r := &reader{b: s}
			if out[i] = r.roaring(); r.err != nil {
				return
			}
		}
		m.slices = out
	})
	return m.slices
}

// literalKey maps a predicate literal to a dictionary key (Java
// KeyFactory.createConverter); false when it has no exact key. Float zero
// and NaN have none: Java orders -0.0 below 0.0 and NaN above everything,
// SQL does not.
func (m *rangeBitmap) literalKey(l any) (rbLit, bool) {
	switch m.t.Root {
	case schema.Char, schema.VarChar:
		s, ok := l.(string)
		return rbLit{s: []byte(s)}, ok
	case schema.Boolean:
		b, ok := l.(bool)
		if !ok {
			return rbLit{}, false
		}
		if b {
			return rbLit{i: 1}, true
		}
		return rbLit{i: 0}, true
	case schema.Float:
		f, ok := l.(float32)
		if !ok || f == 0 || f != f {
			return rbLit{}, false
		}
		return rbLit{f: float64(f)}, true
	case schema.Double:
		f, ok := l.(float64)
		if !ok || f == 0 || f != f {
			return rbLit{}, false
		}
		return rbLit{f: f}, true
	}
	v, ok := bsiValue(m.t, l)
	return rbLit{i: v}, ok
}

// equal is the rows holding k (RangeBitmap.eq); false when the index is
// damaged.
func (m *rangeBitmap) equal(k rbLit) (*roaring.Bitmap, bool) {
	if m.card == 0 || m.compareRaw(m.min, k) > 0 || m.compareRaw(m.max, k) < 0 {
		return roaring.New(), true
	}
	code, found, ok := m.find(k)
	if !ok {
		return nil, false
	}
	if !found {
		return roaring.New(), true
	}
	ebm, sl := m.notNull(), m.codeSlices()
	if ebm == nil || sl == nil {
		return nil, false
	}
	_, eq, _ := oNeil(ebm, sl, uint64(code))
	return eq, true
}

func (m *rangeBitmap) Test(op Op, lits []any) Result {
	switch op {
	case OpIsNull, OpIsNotNull:
		ebm := m.notNull()
		if ebm == nil {
			return Remain()
		}
		b := ebm.Clone()
		if op == OpIsNull {
			b.Flip(0, uint64(m.rows))
		}
		return Rows(b)
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
			rows, ok := m.equal(k)
			if !ok {
				return Remain()
			}
			eq.Or(rows)
		}
		if op == OpNotEqual || op == OpNotIn {
			ebm := m.notNull()
			if ebm == nil {
				return Remain()
			}
			return Rows(roaring.AndNot(ebm, eq))
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
		if rows, ok := m.compareOutside(op, k); ok {
			if rows == nil {
				return Remain()
			}
			return Rows(rows)
		}
		code, found, ok := m.find(k)
		ebm, sl := m.notNull(), m.codeSlices()
		if !ok || ebm == nil || sl == nil {
			return Remain()
		}
		lt, eq, gt := oNeil(ebm, sl, uint64(code))
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

// compareOutside answers a comparison with k from min and max alone, as
// RangeBitmap's lt, lte, gt and gte do first: every row with a value, or
// none; false when k lies strictly inside the range and the slices must
// answer. The rows are nil when the ebm is damaged.
func (m *rangeBitmap) compareOutside(op Op, k rbLit) (*roaring.Bitmap, bool) {
	if m.card == 0 {
		return roaring.New(), true
	}
	lo, hi := m.compareRaw(m.min, k), m.compareRaw(m.max, k) // min vs k, max vs k
	var all, none bool
	switch op {
	case OpLessThan:
		all, none = hi < 0, lo >= 0
	case OpLessOrEqual:
		all, none = hi <= 0, lo > 0
	case OpGreaterThan:
		all, none = lo > 0, hi <= 0
	default: // OpGreaterOrEqual
		all, none = lo >= 0, hi < 0
	}
	switch {
	case none:
		return roaring.New(), true
	case all:
		ebm := m.notNull()
		if ebm == nil {
			return nil, true
		}
		return ebm.Clone(), true
	}
	return nil, false
}

package fileindex

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// bitmap is a bitmap index (Java BitmapFileIndex with BitmapFileIndexMeta,
// version 1, or BitmapFileIndexMetaV2, version 2): for each distinct value
// and for NULL, the row positions holding it. It answers EQUAL, NOT EQUAL,
// IN, NOT IN, IS NULL and IS NOT NULL with row sets.
//
// Decoding is lazy, as Java's reader looks up only the entries a
// predicate names: the constructor checks the header (in version 2 the
// index blocks' first keys, which must rise); a lookup scans the entries
// (version 1) or the one block its key falls in (version 2, whose keys
// must rise), comparing serialized keys in place, and decodes only the
// bitmaps of the values found. Nothing is allocated per entry.
type bitmap struct {
	t        schema.DataType
	keySize  int    // fixed key length; 0 for strings
	body     []byte // the serialized bitmaps; offsets count from its start
	rowCount int32
	hasNull  bool
	null     int32 // offset of the NULL bitmap, or -1-row for one row
	version  byte
	entries  []byte    // version 1: n entries of key and int32 offset
	n        int       // version 1: the entries' count
	blocks   []bmBlock // version 2
}

// bmBlock is an index block of version 2: its first key and its bytes
// (int32 count, then key, int32 offset and int32 length per entry) up to
// the end of the block region.
type bmBlock struct {
	first []byte
	b     []byte
}

// bitmapKeySize is the serialized length of a key of t (Java
// BitmapFileIndexMeta.getValueReader): 0 for strings (int32 length and
// bytes); ok false for the types Java refuses.
func bitmapKeySize(t schema.DataType) (size int, ok bool) {
	switch t.Root {
	case schema.Char, schema.VarChar:
		return 0, true
	case schema.Boolean, schema.TinyInt:
		return 1, true
	case schema.SmallInt:
		return 2, true
	case schema.Int, schema.Date, schema.Time, schema.Float:
		return 4, true
	case schema.BigInt, schema.Timestamp, schema.TimestampLTZ, schema.Double:
		return 8, true
	}
	return 0, false
}

func newBitmap(b []byte, t schema.DataType) (Index, error) {
	keySize, ok := bitmapKeySize(t)
	if !ok {
		return nil, nil // Java refuses the type
	}
	r := &reader{b: b}
	m := &bitmap{t: t, keySize: keySize}
	m.version = r.u8()
	m.rowCount = r.i32()
	n := r.i32()
	m.hasNull = r.u8() != 0
	if m.hasNull {
		m.null = r.i32()
	}
	switch m.version {
	case 1:
		// The entries are walked once for where the body starts (Java
		// reads them all too); lookups walk them again.
		if r.err == nil && (n < 0 || int64(n)*(m.minKey()+4) > int64(len(b)-r.off)) {
			return nil, fmt.Errorf("%w: bitmap index of %d values", ErrCorrupt, n)
		}
		start := r.off
		for i := int32(0); i < n && r.err == nil; i++ {
			r.key(m.keySize)
			r.i32()
		}
		if r.err == nil {
			m.n = int(n)
			m.entries = b[start:r.off]
			m.body = b[r.off:]
		}
	case 2:
		if m.hasNull {
			r.i32() // length of the NULL bitmap
		}
		blocks := r.i32()
		if r.err == nil && (blocks < 0 || int64(blocks)*(m.minKey()+4) > int64(len(b)-r.off)) {
			return nil, fmt.Errorf("%w: %d bitmap index blocks", ErrCorrupt, blocks)
		}
		firsts := make([][]byte, 0, max(blocks, 0))
		offs := make([]int32, 0, max(blocks, 0))
		for i := int32(0); i < blocks && r.err == nil; i++ {
			firsts = append(firsts, r.key(m.keySize))
			offs = append(offs, r.i32())
		}
		bodyOff := r.i32()
		if r.err != nil {
			break
		}
		blockStart := r.off
		if bodyOff < 0 || blockStart+int(bodyOff) > len(b) {
			return nil, fmt.Errorf("%w: bitmap body at %d", ErrCorrupt, bodyOff)
		}
		m.body = b[blockStart+int(bodyOff):]
		region := b[blockStart : blockStart+int(bodyOff)]
		m.blocks = make([]bmBlock, len(offs))
		for i, off := range offs {
			if off < 0 || int(off) >= len(region) {
				return nil, fmt.Errorf("%w: bitmap index block at %d", ErrCorrupt, off)
			}
			if i > 0 && m.compare(m.decode(firsts[i-1]), m.decode(firsts[i])) >= 0 {
				return nil, fmt.Errorf("%w: bitmap index blocks out of order", ErrCorrupt)
			}
			m.blocks[i] = bmBlock{first: firsts[i], b: region[off:]}
		}
	default:
		return nil, fmt.Errorf("%w: bitmap index version %d", ErrCorrupt, m.version)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: bitmap index: %w", ErrCorrupt, r.err)
	}
	if m.rowCount < 0 {
		return nil, fmt.Errorf("%w: bitmap index of %d rows", ErrCorrupt, m.rowCount)
	}
	return m, nil
}

// key reads one serialized key of keySize bytes (0: a string, int32 length
// and bytes) as a view of its bytes, without a string's length.
func (r *reader) key(keySize int) []byte {
	if keySize > 0 {
		return r.take(keySize)
	}
	n := r.i32()
	if n < 0 {
		r.err = fmt.Errorf("key of %d bytes", n)
		return nil
	}
	return r.take(int(n))
}

// minKey is the fewest bytes a serialized key takes, which bounds the
// entries a count can claim.
func (m *bitmap) minKey() int64 {
	if m.keySize > 0 {
		return int64(m.keySize)
	}
	return 4
}

// decode turns a raw key into its comparable form; it does not allocate.
func (m *bitmap) decode(b []byte) rbLit {
	switch m.t.Root {
	case schema.Char, schema.VarChar:
		return rbLit{s: b}
	case schema.Boolean:
		if b[0] != 0 {
			return rbLit{i: 1}
		}
		return rbLit{}
	case schema.Float:
		return rbLit{f: float64(math.Float32frombits(binary.BigEndian.Uint32(b)))}
	case schema.Double:
		return rbLit{f: math.Float64frombits(binary.BigEndian.Uint64(b))}
	}
	return decodeInt(b)
}

// decodeInt decodes a big-endian signed integer of 1, 2, 4 or 8 bytes.
func decodeInt(b []byte) rbLit {
	switch len(b) {
	case 1:
		return rbLit{i: int64(int8(b[0]))}
	case 2:
		return rbLit{i: int64(int16(binary.BigEndian.Uint16(b)))}
	case 4:
		return rbLit{i: int64(int32(binary.BigEndian.Uint32(b)))}
	}
	return rbLit{i: int64(binary.BigEndian.Uint64(b))}
}

// compare orders decoded keys as BitmapFileIndexMetaV2.getComparator.
func (m *bitmap) compare(a, b rbLit) int {
	switch m.t.Root {
	case schema.Char, schema.VarChar:
		return bytes.Compare(a.s, b.s)
	case schema.Float, schema.Double:
		return compareFloats(a.f, b.f)
	}
	return cmp.Compare(a.i, b.i)
}

// offsetOf finds the offset of key k's bitmap; found false when the index
// has no such key, ok false when the entries consulted are damaged.
func (m *bitmap) offsetOf(k rbLit) (off int32, found, ok bool) {
	if m.version == 1 {
		// Java keeps version 1's entries in a map: a key stands once.
		r := &reader{b: m.entries}
		for i := 0; i < m.n; i++ {
			key, o := r.key(m.keySize), r.i32()
			if r.err != nil {
				return 0, false, false
			}
			if m.compare(m.decode(key), k) == 0 {
				if found {
					return 0, false, false
				}
				off, found = o, true
			}
		}
		return off, found, true
	}
	i := sort.Search(len(m.blocks), func(i int) bool { return m.compare(m.decode(m.blocks[i].first), k) > 0 }) - 1
	if i < 0 {
		return 0, false, true
	}
	// BitmapIndexBlock.findEntry: the block's keys rise from its first.
	r := &reader{b: m.blocks[i].b}
	cnt := r.i32()
	if r.err != nil || cnt <= 0 || int64(cnt)*(m.minKey()+8) > int64(len(r.b)) {
		return 0, false, false
	}
	var prev []byte
	for j := int32(0); j < cnt; j++ {
		key, o := r.key(m.keySize), r.i32()
		r.i32() // length
		if r.err != nil {
			return 0, false, false
		}
		d := m.compare(m.decode(key), k)
		switch {
		case j == 0 && !bytes.Equal(key, m.blocks[i].first):
			return 0, false, false
		case j > 0 && m.compare(m.decode(prev), m.decode(key)) >= 0:
			return 0, false, false
		case d == 0:
			return o, true, true
		case d > 0:
			return 0, false, true
		}
		prev = key
	}
	return 0, false, true
}

func (m *bitmap) Test(op Op, lits []any) Result {
	switch op {
	case OpEqual, OpIn, OpNotEqual, OpNotIn:
	case OpIsNull, OpIsNotNull:
		lits = []any{nil}
	default:
		return Remain()
	}
	union := roaring.New()
	for _, l := range lits {
		b, ok := m.rowsOf(l)
		if !ok {
			return Remain()
		}
		union.Or(b)
	}
	if op == OpNotEqual || op == OpNotIn || op == OpIsNotNull {
		union.Flip(0, uint64(m.rowCount))
	}
	return Rows(union)
}

// rowsOf returns the rows holding literal l (NULL for nil); false when the
// literal has no exact key or the index is damaged.
func (m *bitmap) rowsOf(l any) (*roaring.Bitmap, bool) {
	var off int32
	if l == nil {
		if !m.hasNull {
			return roaring.New(), true
		}
		off = m.null
	} else {
		k, ok := bitmapLiteral(m.t, l)
		if !ok {
			return nil, false
		}
		if !m.fits(k) {
			return roaring.New(), true // no key of the column's type holds it
		}
		var found bool
		if off, found, ok = m.offsetOf(k); !ok {
			return nil, false
		} else if !found {
			return roaring.New(), true
		}
	}
	if off < 0 {
		row := -1 - int64(off)
		if row >= int64(m.rowCount) {
			return nil, false
		}
		return roaring.BitmapOf(uint32(row)), true
	}
	if int(off) > len(m.body) {
		return nil, false
	}
	r := &reader{b: m.body[off:]}
	b := r.roaring()
	return b, r.err == nil
}

// fits reports whether an integral literal is in the range of the
// column's key type; others always are.
func (m *bitmap) fits(k rbLit) bool {
	switch m.t.Root {
	case schema.TinyInt:
		return k.i == int64(int8(k.i))
	case schema.SmallInt:
		return k.i == int64(int16(k.i))
	case schema.Int, schema.Date, schema.Time:
		return k.i == int64(int32(k.i))
	}
	return true
}

// bitmapLiteral is bitmapKey in the form offsetOf compares.
func bitmapLiteral(t schema.DataType, l any) (rbLit, bool) {
	k, ok := bitmapKey(t, l)
	if !ok {
		return rbLit{}, false
	}
	switch x := k.(type) {
	case string:
		return rbLit{s: []byte(x)}, true
	case bool:
		if x {
			return rbLit{i: 1}, true
		}
		return rbLit{}, true
	case int64:
		return rbLit{i: x}, true
	case uint64: // floating-point bits
		if t.Root == schema.Float {
			return rbLit{f: float64(math.Float32frombits(uint32(x)))}, true
		}
		return rbLit{f: math.Float64frombits(x)}, true
	}
	return rbLit{}, false
}

// bitmapKey maps a literal to the key keyReader produces for its value
// (Java BitmapFileIndex.getValueMapper: timestamps become epoch millis up
// to precision 3, else micros). Floating-point zero and NaN have no exact
// key: Java keys by bit pattern, SQL equality does not.
func bitmapKey(t schema.DataType, l any) (any, bool) {
	switch t.Root {
	case schema.Char, schema.VarChar:
		s, ok := l.(string)
		return s, ok
	case schema.Boolean:
		b, ok := l.(bool)
		return b, ok
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.Date, schema.Time, schema.BigInt:
		return asInt64(l)
	case schema.Timestamp, schema.TimestampLTZ:
		ts, ok := l.(data.Timestamp)
		if !ok {
			return nil, false
		}
		if t.Precision <= 3 {
			return ts.Millis, true
		}
		return ts.Micros(), true
	case schema.Float:
		f, ok := l.(float32)
		if !ok || f == 0 || f != f {
			return nil, false
		}
		return uint64(math.Float32bits(f)), true
	case schema.Double:
		f, ok := l.(float64)
		if !ok || f == 0 || f != f {
			return nil, false
		}
		return math.Float64bits(f), true
	}
	return nil, false
}

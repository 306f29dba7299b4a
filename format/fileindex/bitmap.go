package fileindex

import (
	"bytes"
	"fmt"
	"math"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// bitmap is a bitmap index (Java BitmapFileIndex with BitmapFileIndexMeta,
// version 1, or BitmapFileIndexMetaV2, version 2): for each distinct value
// and for NULL, the row positions holding it. It answers EQUAL, NOT EQUAL,
// IN, NOT IN, IS NULL and IS NOT NULL with row sets.
type bitmap struct {
	t        schema.DataType
	body     []byte // the serialized bitmaps; offsets count from its start
	rowCount int32
	hasNull  bool
	null     int32         // offset of the NULL bitmap, or -1-row for one row
	offsets  map[any]int32 // value key -> offset, or -1-row for one row
}

func newBitmap(b []byte, t schema.DataType) (Index, error) {
	if keyReader(t) == nil {
		return nil, nil // Java refuses the type
	}
	r := &reader{b: b}
	m := &bitmap{t: t, offsets: map[any]int32{}}
	version := r.u8()
	m.rowCount = r.i32()
	n := r.i32()
	m.hasNull = r.u8() != 0
	if m.hasNull {
		m.null = r.i32()
	}
	readKey := keyReader(t)
	switch version {
	case 1:
		for i := int32(0); i < n && r.err == nil; i++ {
			k := readKey(r)
			m.offsets[k] = r.i32()
		}
		if r.err == nil {
			m.body = b[r.off:]
		}
	case 2:
		if m.hasNull {
			r.i32() // length of the NULL bitmap
		}
		blocks := r.i32()
		if r.err == nil && (blocks < 0 || int(blocks) > len(b)) {
			return nil, fmt.Errorf("%w: %d bitmap index blocks", ErrCorrupt, blocks)
		}
		blockOffs := make([]int32, 0, blocks)
		for i := int32(0); i < blocks && r.err == nil; i++ {
			readKey(r)
			blockOffs = append(blockOffs, r.i32())
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
		for _, off := range blockOffs {
			if off < 0 || int(off) >= int(bodyOff) {
				return nil, fmt.Errorf("%w: bitmap index block at %d", ErrCorrupt, off)
			}
			br := &reader{b: b[:blockStart+int(bodyOff)], off: blockStart + int(off)}
			k := br.i32()
			for i := int32(0); i < k && br.err == nil; i++ {
				key := readKey(br)
				m.offsets[key] = br.i32()
				br.i32() // length
			}
			if br.err != nil {
				return nil, fmt.Errorf("%w: bitmap index block: %w", ErrCorrupt, br.err)
			}
		}
	default:
		return nil, fmt.Errorf("%w: bitmap index version %d", ErrCorrupt, version)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: bitmap index: %w", ErrCorrupt, r.err)
	}
	if m.rowCount < 0 || int(n) != len(m.offsets) && version == 1 {
		return nil, fmt.Errorf("%w: bitmap index of %d rows, %d values", ErrCorrupt, m.rowCount, n)
	}
	return m, nil
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
		k, ok := bitmapKey(m.t, l)
		if !ok {
			return nil, false
		}
		if off, ok = m.offsets[k]; !ok {
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
	b := roaring.New()
	if _, err := b.ReadFrom(bytes.NewReader(m.body[off:])); err != nil || b.Validate() != nil {
		return nil, false
	}
	return b, true
}

// keyReader returns the reader of serialized value keys for type t (Java
// BitmapFileIndexMeta.getValueReader); nil for the types Java refuses.
func keyReader(t schema.DataType) func(*reader) any {
	switch t.Root {
	case schema.Char, schema.VarChar:
		return func(r *reader) any {
			n := r.i32()
			return string(r.take(int(n)))
		}
	case schema.Boolean:
		return func(r *reader) any { return r.u8() != 0 }
	case schema.TinyInt:
		return func(r *reader) any { return int64(int8(r.u8())) }
	case schema.SmallInt:
		return func(r *reader) any { return int64(r.i16()) }
	case schema.Int, schema.Date, schema.Time:
		return func(r *reader) any { return int64(r.i32()) }
	case schema.BigInt, schema.Timestamp, schema.TimestampLTZ:
		return func(r *reader) any { return r.i64() }
	case schema.Float:
		return func(r *reader) any { return uint64(uint32(r.i32())) }
	case schema.Double:
		return func(r *reader) any { return uint64(r.i64()) }
	}
	return nil
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

package fileindex

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// bsi is a bit-sliced index (Java BitSliceIndexBitmapFileIndex, version
// 1): every non-null value is mapped to an int64 (integers as they are,
// dates and times as days and millis, timestamps as epoch millis up to
// precision 3 and micros above, compact decimals as their unscaled value);
// non-negative values go to the positive slice set, negative ones by
// absolute value to the negative one. It answers every comparison with
// exact row sets.
type bsi struct {
	t        schema.DataType
	rowCount int32
	pos, neg *bitSlices // nil: no value on that side
}

// bitSlices is one Java BitSliceIndexRoaringBitmap: the rows holding a
// value (ebm) and, for each bit of value-min, the rows where it is set.
type bitSlices struct {
	min, max int64
	ebm      *roaring.Bitmap
	slices   []*roaring.Bitmap
}

// bsiSupported reports whether Java builds a BSI index for t
// (BitSliceIndexBitmapFileIndex.getValueMapper).
func bsiSupported(t schema.DataType) bool {
	switch t.Root {
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Date, schema.Time,
		schema.Timestamp, schema.TimestampLTZ:
		return true
	case schema.Decimal:
		return t.Precision <= data.CompactDecimalMaxPrecision
	}
	return false
}

func newBSI(b []byte, t schema.DataType) (Index, error) {
	if !bsiSupported(t) {
		return nil, nil
	}
	r := &reader{b: b}
	if v := r.u8(); r.err == nil && v != 1 {
		return nil, fmt.Errorf("%w: bsi index version %d", ErrCorrupt, v)
	}
	m := &bsi{t: t, rowCount: r.i32()}
	if r.u8() != 0 {
		m.pos = readBitSlices(r)
	}
	if r.u8() != 0 {
		m.neg = readBitSlices(r)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: bsi index: %w", ErrCorrupt, r.err)
	}
	if m.rowCount < 0 {
		return nil, fmt.Errorf("%w: bsi index of %d rows", ErrCorrupt, m.rowCount)
	}
	return m, nil
}

// readBitSlices reads a BitSliceIndexRoaringBitmap (Java
// BitSliceIndexRoaringBitmap.map).
func readBitSlices(r *reader) *bitSlices {
	if v := r.u8(); r.err == nil && v != 1 {
		r.err = fmt.Errorf("bit slices version %d", v)
		return nil
	}
	s := &bitSlices{min: r.i64(), max: r.i64()}
	s.ebm = r.roaring()
	n := r.i32()
	if r.err == nil && (n < 0 || n > 64 || s.min < 0 || s.min > s.max) {
		r.err = fmt.Errorf("bit slices over [%d, %d] with %d slices", s.min, s.max, n)
	}
	for i := int32(0); i < n && r.err == nil; i++ {
		s.slices = append(s.slices, r.roaring())
	}
	if r.err == nil && s.max-s.min >= 1 && int(n) < 64-bits.LeadingZeros64(uint64(s.max-s.min)) {
		r.err = fmt.Errorf("%d slices for values up to %d", n, s.max-s.min)
	}
	return s
}

// roaring reads one serialized RoaringBitmap (Java RoaringBitmap32.
// deserialize, the portable format).
func (r *reader) roaring() *roaring.Bitmap {
	if r.err != nil {
		return nil
	}
	size, err := checkRoaring(r.b[r.off:])
	b := roaring.New()
	if err == nil {
		var n int64
		if n, err = b.ReadFrom(bytes.NewReader(r.b[r.off : r.off+size])); err == nil && n != int64(size) {
			err = fmt.Errorf("%d bytes read of %d", n, size)
		}
	}
	if err != nil {
		r.err = fmt.Errorf("bitmap at byte %d: %w", r.off, err)
		return nil
	}
	r.off += size
	return b
}

// checkRoaring checks a serialized RoaringBitmap (the portable format,
// read as roaring's ReadFrom reads it) for what Bitmap.Validate checks, in
// one pass: keys rising, array containers of rising values, bitmap
// containers whose cardinality is their bit count, run containers of runs
// inside the container that neither overlap nor touch. It returns the
// bitmap's length. Validate compares every run of a container with every
// other one, so a bit slice of a 100,000-row index took milliseconds and a
// hostile container of 32,768 runs seconds.
func checkRoaring(b []byte) (int, error) {
	const (
		serialCookie      = 12347 // roaring's SERIAL_COOKIE: has run containers
		serialCookieNoRun = 12346
		noOffsetThreshold = 4
		arrayMax          = 4096
	)
	r := &reader{b: b}
	le16 := func() int {
		if s := r.take(2); s != nil {
			return int(binary.LittleEndian.Uint16(s))
		}
		return 0
	}
	var cookie uint32
	if s := r.take(4); s != nil {
		cookie = binary.LittleEndian.Uint32(s)
	}
	var size int
	var isRun []byte
	switch {
	case cookie&0xFFFF == serialCookie:
		size = int(cookie>>16) + 1
		isRun = r.take((size + 7) / 8)
	case cookie == serialCookieNoRun:
		if s := r.take(4); s != nil {
			size = int(binary.LittleEndian.Uint32(s))
		}
	default:
		if r.err == nil {
			return 0, fmt.Errorf("no roaring cookie")
		}
	}
	if size > 1<<16 {
		return 0, fmt.Errorf("%d containers", size)
	}
	head := r.take(4 * size)
	if isRun == nil || size >= noOffsetThreshold {
		r.take(4 * size) // offsets
	}
	if r.err != nil {
		return 0, r.err
	}
	for i := range size {
		key, card := binary.LittleEndian.Uint16(head[4*i:]), int(binary.LittleEndian.Uint16(head[4*i+2:]))+1
		if i > 0 && key <= binary.LittleEndian.Uint16(head[4*i-4:]) {
			return 0, fmt.Errorf("container keys out of order")
		}
		switch {
		case isRun != nil && isRun[i/8]&(1<<(i%8)) != 0:
			runs := le16()
			if runs == 0 && r.err == nil {
				return 0, fmt.Errorf("empty run container")
			}
			last := -2
			for range runs {
				start, length := le16(), le16()
				if start+length > 0xFFFF || start <= last+1 {
					return 0, fmt.Errorf("run container: run %d+%d after %d", start, length, last)
				}
				last = start + length
			}
		case card > arrayMax:
			words := r.take(8 * 1024)
			if words == nil {
				break
			}
			ones := 0
			for w := 0; w < len(words); w += 8 {
				ones += bits.OnesCount64(binary.LittleEndian.Uint64(words[w:]))
			}
			if ones != card {
				return 0, fmt.Errorf("bitmap container of %d bits, cardinality %d", ones, card)
			}
		default:
			prev := -1
			for range card {
				v := le16()
				if v <= prev && r.err == nil {
					return 0, fmt.Errorf("array container out of order")
				}
				prev = v
			}
		}
		if r.err != nil {
			return 0, r.err
		}
	}
	return r.off, nil
}

// notNull is the rows of the side holding a value.
func (s *bitSlices) notNull() *roaring.Bitmap {
	if s == nil {
		return roaring.New()
	}
	return s.ebm.Clone()
}

// cmpOp is a comparison of a bitSlices' values with a literal.
type cmpOp int

const (
	cmpEQ cmpOp = iota
	cmpLT
	cmpLE
	cmpGT
	cmpGE
)

// compare returns the rows whose value v satisfies "v op x" (Java
// BitSliceIndexRoaringBitmap.compare: the min/max shortcut, then O'Neil's
// bit-sliced comparison of v-min with x-min).
func (s *bitSlices) compare(op cmpOp, x int64) *roaring.Bitmap {
	if s == nil {
		return roaring.New()
	}
	switch {
	case x < s.min:
		if op == cmpGT || op == cmpGE {
			return s.notNull()
		}
		return roaring.New()
	case x > s.max:
		if op == cmpLT || op == cmpLE {
			return s.notNull()
		}
		return roaring.New()
	}
	lt, eq, gt := oNeil(s.ebm, s.slices, uint64(x-s.min))
	switch op {
	case cmpEQ:
		return eq
	case cmpLT:
		return lt
	case cmpLE:
		return roaring.Or(lt, eq)
	case cmpGT:
		return gt
	default:
		return roaring.Or(gt, eq)
	}
}

// oNeil splits the rows of ebm into those whose sliced value is below, at
// and above x (O'Neil and Quass, "Improved query performance with variant
// indexes", as Java's BitSliceIndexRoaringBitmap.oNeilCompare): walking
// the slices from the highest bit, a row leaves "equal so far" for "less"
// or "greater" at the first bit where it differs from x.
func oNeil(ebm *roaring.Bitmap, slices []*roaring.Bitmap, x uint64) (lt, eq, gt *roaring.Bitmap) {
	lt, gt, eq = roaring.New(), roaring.New(), ebm.Clone()
	if len(slices) < 64 && x>>uint(len(slices)) != 0 {
		// x has a bit above every value: all rows are below it.
		return eq, roaring.New(), gt
	}
	for i := len(slices) - 1; i >= 0; i-- {
		if x>>uint(i)&1 == 1 {
			lt.Or(roaring.AndNot(eq, slices[i]))
			eq.And(slices[i])
		} else {
			gt.Or(roaring.And(eq, slices[i]))
			eq.AndNot(slices[i])
		}
	}
	return lt, eq, gt
}

// bsiValue maps a literal to the int64 Java's value mapper gives the
// column's values; false when it has none.
func bsiValue(t schema.DataType, l any) (int64, bool) {
	switch t.Root {
	case schema.Timestamp, schema.TimestampLTZ:
		ts, ok := l.(data.Timestamp)
		if !ok {
			return 0, false
		}
		if t.Precision <= 3 {
			return ts.Millis, true
		}
		return ts.Micros(), true
	case schema.Decimal:
		d, ok := l.(data.Decimal)
		if !ok || d.Unscaled == nil || d.Scale != t.Scale || !d.Unscaled.IsInt64() {
			return 0, false
		}
		return d.Unscaled.Int64(), true
	}
	return asInt64(l)
}

func (m *bsi) Test(op Op, lits []any) Result {
	all := func() *roaring.Bitmap { return roaring.Or(m.pos.notNull(), m.neg.notNull()) }
	switch op {
	case OpIsNull:
		b := all()
		b.Flip(0, uint64(m.rowCount))
		return Rows(b)
	case OpIsNotNull:
		return Rows(all())
	case OpEqual, OpIn, OpNotEqual, OpNotIn:
		if len(lits) == 0 {
			return Remain()
		}
		eq := roaring.New()
		for _, l := range lits {
			v, ok := bsiValue(m.t, l)
			if !ok || v == math.MinInt64 {
				return Remain()
			}
			eq.Or(m.cmp(cmpEQ, v))
		}
		if op == OpNotEqual || op == OpNotIn {
			return Rows(roaring.AndNot(all(), eq))
		}
		return Rows(eq)
	case OpLessThan, OpLessOrEqual, OpGreaterThan, OpGreaterOrEqual:
		if len(lits) != 1 {
			return Remain()
		}
		v, ok := bsiValue(m.t, lits[0])
		if !ok || v == math.MinInt64 {
			return Remain()
		}
		return Rows(m.cmp(map[Op]cmpOp{OpLessThan: cmpLT, OpLessOrEqual: cmpLE, OpGreaterThan: cmpGT, OpGreaterOrEqual: cmpGE}[op], v))
	}
	return Remain()
}

// cmp returns the rows whose value satisfies "value op v" over both sides
// (Java BitSliceIndexBitmapFileIndex.Reader: a negative v is compared by
// absolute value with the negative side, whose order is reversed).
func (m *bsi) cmp(op cmpOp, v int64) *roaring.Bitmap {
	if v >= 0 {
		switch op {
		case cmpEQ, cmpGT, cmpGE:
			return m.pos.compare(op, v)
		default: // every negative value is below v
			return roaring.Or(m.pos.compare(op, v), m.neg.notNull())
		}
	}
	a := -v
	switch op {
	case cmpEQ:
		return m.neg.compare(cmpEQ, a)
	case cmpLT:
		return m.neg.compare(cmpGT, a)
	case cmpLE:
		return m.neg.compare(cmpGE, a)
	case cmpGT:
		return roaring.Or(m.pos.notNull(), m.neg.compare(cmpLT, a))
	default:
		return roaring.Or(m.pos.notNull(), m.neg.compare(cmpLE, a))
	}
}

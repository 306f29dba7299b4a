package predicate

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
)

// cmpOp is a leaf function restated as "column value OP literal(s)", the
// form the typed loops evaluate. opAll (every non-NULL row) and opNone come
// from literals that decide the answer without looking at values.
type cmpOp uint8

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
	opIn
	opNotIn
	opAll
	opNone
)

// leafOp maps a comparison kind to its operator. Test compares the literal
// to the field (LessThan is "literal > field"), i.e. "field < literal".
func leafOp(k Kind) cmpOp {
	switch k {
	case KindEqual:
		return opEq
	case KindNotEqual:
		return opNe
	case KindLessThan:
		return opLt
	case KindLessOrEqual:
		return opLe
	case KindGreaterThan:
		return opGt
	case KindGreaterOrEqual:
		return opGe
	case KindIn:
		return opIn
	}
	return opNotIn
}

// leafPlan is a leaf's operator with its non-NULL literals, after the NULL
// rules of Test are applied: a comparison with a NULL literal matches
// nothing, IN ignores NULL literals, NOT IN with a NULL literal matches
// nothing and an empty NOT IN matches every non-NULL row.
func (b *Bound) leafPlan() (cmpOp, []any) {
	op := leafOp(b.kind)
	switch op {
	case opIn:
		var lits []any
		for _, l := range b.literals {
			if l != nil {
				lits = append(lits, l)
			}
		}
		if len(lits) == 0 {
			return opNone, nil
		}
		return opIn, lits
	case opNotIn:
		for _, l := range b.literals {
			if l == nil {
				return opNone, nil
			}
		}
		if len(b.literals) == 0 {
			return opAll, nil
		}
		return opNotIn, b.literals
	}
	if len(b.literals) == 0 || b.literals[0] == nil {
		return opNone, nil
	}
	return op, b.literals[:1]
}

// evalLeaf writes the leaf's result for the n rows of col into dst.
func (b *Bound) evalLeaf(col arrow.Array, n int, dst []uint64) error {
	switch b.kind {
	case KindIsNull:
		validityWords(col, n, dst)
		for i := range dst {
			dst[i] = ^dst[i]
		}
		clearTail(dst, n)
		return nil
	case KindIsNotNull:
		validityWords(col, n, dst)
		return nil
	}
	if b.kind == KindStartsWith {
		if s, ok := col.(*array.String); ok && len(b.literals) == 1 {
			if p, ok := b.literals[0].(string); ok {
				stringPrefix(s, p, dst)
				andValidity(col, n, dst)
				return nil
			}
		}
		return b.evalRows(col, n, dst)
	}
	op, lits := b.leafPlan()
	switch op {
	case opNone:
		clear(dst)
		return nil
	case opAll:
		validityWords(col, n, dst)
		return nil
	}
	if !evalTyped(col, op, lits, dst) {
		return b.evalRows(col, n, dst)
	}
	andValidity(col, n, dst)
	return nil
}

// evalRows is the row-at-a-time fallback: each cell is converted to the
// data value model and handed to testValue, so it is exact by construction.
func (b *Bound) evalRows(col arrow.Array, n int, dst []uint64) error {
	clear(dst)
	for i := 0; i < n; i++ {
		v, err := parquet.ArrowValueView(col, i, b.field.Type)
		if err != nil {
			return fmt.Errorf("%w: column %d (%q): %w", ErrBatch, b.index, b.field.Name, err)
		}
		if b.testValue(v) {
			dst[i>>6] |= 1 << (uint(i) & 63)
		}
	}
	return nil
}

// evalTyped runs the typed loop for col's array type, ignoring validity. It
// returns false when there is none for this type and these literals.
func evalTyped(col arrow.Array, op cmpOp, lits []any, dst []uint64) bool {
	switch a := col.(type) {
	case *array.Int8:
		return intLoop(a.Int8Values(), op, lits, dst)
	case *array.Int16:
		return intLoop(a.Int16Values(), op, lits, dst)
	case *array.Int32:
		return intLoop(a.Int32Values(), op, lits, dst)
	case *array.Int64:
		return intLoop(a.Int64Values(), op, lits, dst)
	case *array.Date32:
		return intLoop(a.Date32Values(), op, lits, dst)
	case *array.Float32:
		return floatLoop(a.Float32Values(), op, lits, dst)
	case *array.Float64:
		return floatLoop(a.Float64Values(), op, lits, dst)
	case *array.Timestamp:
		return timestampLoop(a, op, lits, dst)
	case *array.Decimal128:
		return decimalLoop(a, op, lits, dst)
	case *array.String:
		return bytesLoop(a.ValueOffsets(), a.ValueBytes(), false, op, lits, dst)
	case *array.Binary:
		return bytesLoop(a.ValueOffsets(), a.ValueBytes(), true, op, lits, dst)
	case *array.Boolean:
		return boolLoop(a, op, lits, dst)
	}
	return false
}

// integer is what intLoop compares: Go integers and Arrow's integer-backed
// types (Date32, Timestamp), plus the uint64 sort keys of floatLoop.
type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint64
}

// litsAs converts literals to T; ok is false if one has another Go type
// (only possible if the batch and the bound fields disagree).
func litsAs[T integer, L any](lits []any, conv func(L) T) ([]T, bool) {
	out := make([]T, len(lits))
	for i, l := range lits {
		x, ok := l.(L)
		if !ok {
			return nil, false
		}
		out[i] = conv(x)
	}
	return out, true
}

func intLoop[T integer](vals []T, op cmpOp, lits []any, dst []uint64) bool {
	var ls []T
	var ok bool
	switch any(vals).(type) {
	case []int8:
		ls, ok = litsAs(lits, func(x int8) T { return T(x) })
	case []int16:
		ls, ok = litsAs(lits, func(x int16) T { return T(x) })
	case []int32, []arrow.Date32:
		ls, ok = litsAs(lits, func(x int32) T { return T(x) })
	case []int64:
		ls, ok = litsAs(lits, func(x int64) T { return T(x) })
	}
	if !ok {
		return false
	}
	compareWords(vals, op, ls, dst)
	return true
}

// compareWords sets bit i of dst when vals[i] OP lits holds. The operator
// switch runs once per 64 values so that the inner loops stay branch-free.
func compareWords[T integer](vals []T, op cmpOp, lits []T, dst []uint64) {
	set := newLitSet(op, lits)
	for w := range dst {
		lo := w << 6
		dst[w] = compareWord(vals[lo:min(lo+64, len(vals))], op, lits, set)
	}
}

// litSet indexes a long IN / NOT IN list; short lists are scanned.
type litSet[T integer] struct {
	m      map[T]struct{}
	lo, hi T
}

func newLitSet[T integer](op cmpOp, lits []T) *litSet[T] {
	if op != opIn && op != opNotIn || len(lits) <= 8 {
		return nil
	}
	s := &litSet[T]{m: make(map[T]struct{}, len(lits)), lo: slices.Min(lits), hi: slices.Max(lits)}
	for _, l := range lits {
		s.m[l] = struct{}{}
	}
	return s
}

func compareWord[T integer](chunk []T, op cmpOp, lits []T, set *litSet[T]) uint64 {
	var word uint64
	var l T
	if len(lits) > 0 {
		l = lits[0]
	}
	switch op {
	case opEq:
		for j, v := range chunk {
			word |= b2u(v == l) << (uint(j) & 63)
		}
	case opNe:
		for j, v := range chunk {
			word |= b2u(v != l) << (uint(j) & 63)
		}
	case opLt:
		for j, v := range chunk {
			word |= b2u(v < l) << (uint(j) & 63)
		}
	case opLe:
		for j, v := range chunk {
			word |= b2u(v <= l) << (uint(j) & 63)
		}
	case opGt:
		for j, v := range chunk {
			word |= b2u(v > l) << (uint(j) & 63)
		}
	case opGe:
		for j, v := range chunk {
			word |= b2u(v >= l) << (uint(j) & 63)
		}
	case opIn, opNotIn:
		if set != nil {
			// Most values usually miss: skip the hash lookup outside the
			// literals' range.
			for j, v := range chunk {
				if v < set.lo || v > set.hi {
					continue
				}
				_, hit := set.m[v]
				word |= b2u(hit) << (uint(j) & 63)
			}
		} else {
			for j, v := range chunk {
				var hit uint64
				for _, l := range lits {
					hit |= b2u(v == l)
				}
				word |= hit << (uint(j) & 63)
			}
		}
		if op == opNotIn {
			word = ^word
		}
	}
	return word
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// floatKey maps a float onto a uint64 whose unsigned order is Java's
// Double.compare order: -0.0 before 0.0, and every NaN one value above +Inf
// (Java compares doubleToLongBits, which collapses NaNs). float32 values are
// widened first, which keeps Float.compare's order.
func floatKey(x float64) uint64 {
	if x != x {
		return 0xfff8_0000_0000_0000
	}
	b := math.Float64bits(x)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

func floatLoop[F float32 | float64](vals []F, op cmpOp, lits []any, dst []uint64) bool {
	var ls []uint64
	var ok bool
	switch any(vals).(type) {
	case []float32:
		ls, ok = litsAs(lits, func(x float32) uint64 { return floatKey(float64(x)) })
	default:
		ls, ok = litsAs(lits, floatKey)
	}
	if !ok {
		return false
	}
	set := newLitSet(op, ls)
	var keys [64]uint64
	for w := range dst {
		lo := w << 6
		chunk := vals[lo:min(lo+64, len(vals))]
		for j, v := range chunk {
			keys[j] = floatKey(float64(v))
		}
		dst[w] = compareWord(keys[:len(chunk)], op, ls, set)
	}
	return true
}

// timestampLoop compares the column's integer ticks with the literal
// timestamps expressed in the column's unit; see tickLiteral for literals
// between two ticks or outside the int64 range.
func timestampLoop(a *array.Timestamp, op cmpOp, lits []any, dst []uint64) bool {
	unit := a.DataType().(*arrow.TimestampType).Unit
	ticks := make([]int64, 0, len(lits))
	for _, l := range lits {
		ts, ok := l.(data.Timestamp)
		if !ok {
			return false
		}
		t, exact, side := tickLiteral(ts, unit)
		if op == opIn || op == opNotIn {
			// A literal no tick equals can neither match IN nor fail NOT IN.
			if exact && side == 0 {
				ticks = append(ticks, t)
			}
			continue
		}
		op = tickOp(op, exact, side)
		ticks = append(ticks, t)
	}
	switch {
	case op == opIn && len(ticks) == 0:
		op = opNone
	case op == opNotIn && len(ticks) == 0:
		op = opAll
	}
	switch op {
	case opNone:
		clear(dst)
	case opAll:
		fill(dst)
	default:
		vals := a.TimestampValues()
		compareWords(vals, op, litsOf[arrow.Timestamp](ticks), dst)
	}
	return true
}

func litsOf[T ~int64](xs []int64) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = T(x)
	}
	return out
}

func fill(dst []uint64) {
	for i := range dst {
		dst[i] = ^uint64(0)
	}
}

// tickLiteral expresses ts in ticks of unit: floor is the last tick at or
// before ts, exact whether ts falls on it. side is +1 (-1) when ts lies
// beyond the largest (smallest) int64 tick.
func tickLiteral(ts data.Timestamp, unit arrow.TimeUnit) (floor int64, exact bool, side int) {
	nano := int64(ts.NanoOfMilli)
	if unit == arrow.Second {
		s := ts.Millis / 1000
		rem := ts.Millis - s*1000
		if rem < 0 {
			s--
			rem += 1000
		}
		return s, rem == 0 && nano == 0, 0
	}
	per := int64(1) // ticks per millisecond
	switch unit {
	case arrow.Microsecond:
		per = 1000
	case arrow.Nanosecond:
		per = 1_000_000
	}
	sub := nano / (1_000_000 / per) // whole ticks inside the millisecond, >= 0
	exact = nano%(1_000_000/per) == 0
	if ts.Millis > (math.MaxInt64-sub)/per {
		return math.MaxInt64, false, 1
	}
	if ts.Millis < math.MinInt64/per {
		return math.MinInt64, false, -1
	}
	return ts.Millis*per + sub, exact, 0
}

// tickOp restates "value OP ts" as an operator on floor ticks: with ts
// strictly between floor and floor+1, v < ts and v <= ts become v <= floor,
// v > ts and v >= ts become v > floor, = never holds and != always does.
func tickOp(op cmpOp, exact bool, side int) cmpOp {
	switch {
	case side > 0: // ts above every tick
		switch op {
		case opNe, opLt, opLe:
			return opAll
		}
		return opNone
	case side < 0:
		switch op {
		case opNe, opGt, opGe:
			return opAll
		}
		return opNone
	case exact:
		return op
	}
	switch op {
	case opEq:
		return opNone
	case opNe:
		return opAll
	case opLt, opLe:
		return opLe
	}
	return opGt // opGt, opGe
}

// decimalLoop compares 128-bit unscaled values; the literal already has the
// column's scale (Bind rescales it), any other scale goes row by row.
func decimalLoop(a *array.Decimal128, op cmpOp, lits []any, dst []uint64) bool {
	scale := int(a.DataType().(*arrow.Decimal128Type).Scale)
	ls := make([]decimal128.Num, len(lits))
	for i, l := range lits {
		d, ok := l.(data.Decimal)
		if !ok || d.Unscaled == nil || d.Scale != scale || d.Unscaled.BitLen() > 127 {
			return false
		}
		ls[i] = decimal128.FromBigInt(d.Unscaled)
	}
	vals := a.Values()
	l := ls[0]
	for w := range dst {
		lo := w << 6
		chunk := vals[lo:min(lo+64, len(vals))]
		var word uint64
		switch op {
		case opEq, opNe:
			for j, v := range chunk {
				word |= b2u(v == l) << (uint(j) & 63)
			}
			if op == opNe {
				word = ^word
			}
		case opLt:
			for j, v := range chunk {
				word |= b2u(less128(v, l)) << (uint(j) & 63)
			}
		case opLe:
			for j, v := range chunk {
				word |= b2u(!less128(l, v)) << (uint(j) & 63)
			}
		case opGt:
			for j, v := range chunk {
				word |= b2u(less128(l, v)) << (uint(j) & 63)
			}
		case opGe:
			for j, v := range chunk {
				word |= b2u(!less128(v, l)) << (uint(j) & 63)
			}
		case opIn, opNotIn:
			for j, v := range chunk {
				hit := false
				for _, l := range ls {
					hit = hit || v == l
				}
				word |= b2u(hit) << (uint(j) & 63)
			}
			if op == opNotIn {
				word = ^word
			}
		}
		dst[w] = word
	}
	return true
}

func less128(a, b decimal128.Num) bool {
	ah, bh := a.HighBits(), b.HighBits()
	return ah < bh || ah == bh && a.LowBits() < b.LowBits()
}

// bytesLoop compares variable-length values: strings by unsigned bytes
// (Java BinaryString), binary by signed bytes (Java byte[] comparison).
func bytesLoop(offs []int32, buf []byte, signed bool, op cmpOp, lits []any, dst []uint64) bool {
	ls := make([][]byte, len(lits))
	for i, l := range lits {
		switch x := l.(type) {
		case string:
			if signed {
				return false
			}
			ls[i] = []byte(x)
		case []byte:
			if !signed {
				return false
			}
			ls[i] = x
		default:
			return false
		}
	}
	var set map[string]struct{}
	if (op == opIn || op == opNotIn) && len(ls) > 8 {
		set = make(map[string]struct{}, len(ls))
		for _, l := range ls {
			set[string(l)] = struct{}{}
		}
	}
	cmp := bytes.Compare
	if signed {
		cmp = cmpSignedBytes
	}
	base := offs[0] // ValueBytes starts at the first value
	l := ls[0]
	n := len(offs) - 1
	for w := range dst {
		var word uint64
		for j, i := 0, w<<6; j < 64 && i < n; j, i = j+1, i+1 {
			v := buf[offs[i]-base : offs[i+1]-base]
			var hit bool
			switch op {
			case opEq:
				hit = bytes.Equal(v, l)
			case opNe:
				hit = !bytes.Equal(v, l)
			case opLt:
				hit = cmp(v, l) < 0
			case opLe:
				hit = cmp(v, l) <= 0
			case opGt:
				hit = cmp(v, l) > 0
			case opGe:
				hit = cmp(v, l) >= 0
			case opIn, opNotIn:
				if set != nil {
					_, hit = set[string(v)]
				} else {
					for _, l := range ls {
						if bytes.Equal(v, l) {
							hit = true
							break
						}
					}
				}
				hit = hit == (op == opIn)
			}
			word |= b2u(hit) << (uint(j) & 63)
		}
		dst[w] = word
	}
	return true
}

// stringPrefix is Java StartsWith on UTF-8 bytes, ignoring validity.
func stringPrefix(a *array.String, prefix string, dst []uint64) {
	offs, buf := a.ValueOffsets(), a.ValueBytes()
	p := []byte(prefix)
	base := offs[0]
	n := len(offs) - 1
	for w := range dst {
		var word uint64
		for j, i := 0, w<<6; j < 64 && i < n; j, i = j+1, i+1 {
			word |= b2u(bytes.HasPrefix(buf[offs[i]-base:offs[i+1]-base], p)) << (uint(j) & 63)
		}
		dst[w] = word
	}
}

// boolLoop works on whole words of the value bitmap: false < true, as Java
// Boolean.compareTo orders them.
func boolLoop(a *array.Boolean, op cmpOp, lits []any, dst []uint64) bool {
	ls := make([]bool, len(lits))
	for i, l := range lits {
		x, ok := l.(bool)
		if !ok {
			return false
		}
		ls[i] = x
	}
	n := a.Len()
	var buf []byte
	if bufs := a.Data().Buffers(); len(bufs) > 1 && bufs[1] != nil {
		buf = bufs[1].Bytes()
	}
	off := a.Data().Offset()
	for w := range dst {
		v := loadBits(buf, off+w<<6, min(64, n-w<<6))
		eq := func(l bool) uint64 {
			if l {
				return v
			}
			return ^v
		}
		var word uint64
		switch op {
		case opEq:
			word = eq(ls[0])
		case opNe:
			word = ^eq(ls[0])
		case opLt: // v < l: only false < true
			if ls[0] {
				word = ^v
			}
		case opLe:
			word = ^uint64(0)
			if !ls[0] {
				word = ^v
			}
		case opGt:
			if !ls[0] {
				word = v
			}
		case opGe:
			word = ^uint64(0)
			if ls[0] {
				word = v
			}
		case opIn, opNotIn:
			for _, l := range ls {
				word |= eq(l)
			}
			if op == opNotIn {
				word = ^word
			}
		}
		dst[w] = word
	}
	clearTail(dst, n)
	return true
}

// validityWords writes col's validity (1 = not NULL) into dst, zero past n.
func validityWords(col arrow.Array, n int, dst []uint64) {
	buf := col.NullBitmapBytes()
	if col.NullN() == 0 || buf == nil {
		fill(dst)
		if col.NullN() != 0 { // NULL-typed arrays carry no bitmap
			for i := 0; i < n; i++ {
				if col.IsNull(i) {
					dst[i>>6] &^= 1 << (uint(i) & 63)
				}
			}
		}
		clearTail(dst, n)
		return
	}
	off := col.Data().Offset()
	for w := range dst {
		dst[w] = loadBits(buf, off+w<<6, min(64, n-w<<6))
	}
}

// andValidity clears the bits of NULL rows in dst and the bits past n.
func andValidity(col arrow.Array, n int, dst []uint64) {
	if col.NullN() == 0 {
		clearTail(dst, n)
		return
	}
	buf := col.NullBitmapBytes()
	if buf == nil {
		for i := 0; i < n; i++ {
			if col.IsNull(i) {
				dst[i>>6] &^= 1 << (uint(i) & 63)
			}
		}
		clearTail(dst, n)
		return
	}
	off := col.Data().Offset()
	for w := range dst {
		dst[w] &= loadBits(buf, off+w<<6, min(64, n-w<<6))
	}
}

// loadBits reads nbits (1..64) bits of an LSB-first bitmap starting at bit
// pos, as the low bits of the result; bits beyond buf read as zero.
func loadBits(buf []byte, pos, nbits int) uint64 {
	i, shift := pos>>3, uint(pos&7)
	var x uint64
	if i+8 <= len(buf) {
		x = binary.LittleEndian.Uint64(buf[i:])
	} else {
		for k := 0; i+k < len(buf) && k < 8; k++ {
			x |= uint64(buf[i+k]) << (8 * k)
		}
	}
	x >>= shift
	if shift != 0 && i+8 < len(buf) {
		x |= uint64(buf[i+8]) << (64 - shift)
	}
	if nbits < 64 {
		x &= 1<<uint(nbits) - 1
	}
	return x
}

package orc

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// rowSet selects the rows of an Arrow array a column writer takes: a range,
// or explicit indexes (the children of a struct with null rows).
type rowSet struct {
	lo, hi int
	idx    []int
}

func rangeRows(lo, hi int) rowSet { return rowSet{lo: lo, hi: hi} }

func (r rowSet) len() int {
	if r.idx != nil {
		return len(r.idx)
	}
	return r.hi - r.lo
}

func (r rowSet) at(k int) int {
	if r.idx != nil {
		return r.idx[k]
	}
	return r.lo + k
}

// A columnWriter encodes one column (and its children) of the stripe being
// written (Java TreeWriter): values, PRESENT bits, statistics per row
// group, stripe and file, and the row index.
type columnWriter interface {
	base() *colBase
	// write encodes the given rows of arr (all present in the parent).
	write(arr arrow.Array, rows rowSet)
	// positions appends the positions of the column's own streams (after
	// PRESENT) where the next value will go.
	positions(dst []uint64) []uint64
	// flush finishes the stripe's streams and returns them (kind, bytes)
	// and the column's encoding; the writer then resets them.
	flush() ([]stripeStream, columnEncoding)
	reset()
	children() []columnWriter
}

type stripeStream struct {
	kind streamKind
	data []byte
}

// colBase is what every column writer has (Java TreeWriterBase).
type colBase struct {
	id         int
	t          *orcType
	w          *Writer
	presentOut *outStream
	present    *boolWriter
	foundNulls bool
	idx        *statsAcc // the current row group's statistics
	stripe     *statsAcc
	file       *statsAcc
	entries    []rowIndexEntry
	groupPos   []uint64 // positions at the start of the current row group
}

func (b *colBase) base() *colBase { return b }

func (w *Writer) newBase(id int, t *orcType) colBase {
	out := w.newStream()
	return colBase{id: id, t: t, w: w, presentOut: out, present: newBoolWriter(out),
		idx: newStatsAcc(t), stripe: newStatsAcc(t), file: newStatsAcc(t)}
}

// writePresent records the PRESENT bits and counts of rows, returning the
// rows holding values.
func (b *colBase) writePresent(arr arrow.Array, rows rowSet) rowSet {
	n := rows.len()
	if arr.NullN() == 0 {
		for range n {
			b.present.write(true)
		}
		b.idx.increment(n)
		return rows
	}
	var keep []int
	for k := range n {
		i := rows.at(k)
		ok := arr.IsValid(i)
		b.present.write(ok)
		if ok {
			keep = append(keep, i)
		}
	}
	b.idx.increment(len(keep))
	if len(keep) != n {
		b.foundNulls = true
		b.idx.setNull()
	}
	if keep == nil {
		keep = []int{}
	}
	return rowSet{idx: keep}
}

// presentStreams returns the PRESENT stream unless the stripe had no nulls.
func (b *colBase) presentStreams() []stripeStream {
	b.present.flush()
	if !b.foundNulls {
		return nil
	}
	return []stripeStream{{streamPresent, b.presentOut.finish()}}
}

func (b *colBase) resetBase() {
	b.presentOut.reset()
	b.foundNulls = false
	b.entries = b.entries[:0]
}

// recordStart notes the positions where the next row group starts.
func recordStart(c columnWriter) {
	b := c.base()
	b.groupPos = c.positions(b.present.position(b.groupPos[:0]))
}

// boolCol writes boolean columns.
type boolCol struct {
	colBase
	out  *outStream
	data *boolWriter
}

func (c *boolCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	a := arr.(*array.Boolean)
	for k := range rows.len() {
		v := a.Value(rows.at(k))
		c.data.write(v)
		c.idx.updateBool(v)
	}
}
func (c *boolCol) positions(dst []uint64) []uint64 { return c.data.position(dst) }
func (c *boolCol) flush() ([]stripeStream, columnEncoding) {
	c.data.flush()
	return append(c.presentStreams(), stripeStream{streamData, c.out.finish()}), columnEncoding{kind: encDirect}
}
func (c *boolCol) reset()                   { c.resetBase(); c.out.reset() }
func (c *boolCol) children() []columnWriter { return nil }

// byteCol writes tinyint columns (byte RLE).
type byteCol struct {
	colBase
	out  *outStream
	data *byteRLEWriter
}

func (c *byteCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	vals := arr.(*array.Int8).Int8Values()
	for k := range rows.len() {
		v := vals[rows.at(k)]
		c.data.write(byte(v))
		c.idx.updateInt(int64(v))
	}
}
func (c *byteCol) positions(dst []uint64) []uint64 { return c.data.position(dst) }
func (c *byteCol) flush() ([]stripeStream, columnEncoding) {
	c.data.flush()
	return append(c.presentStreams(), stripeStream{streamData, c.out.finish()}), columnEncoding{kind: encDirect}
}
func (c *byteCol) reset()                   { c.resetBase(); c.out.reset() }
func (c *byteCol) children() []columnWriter { return nil }

// intCol writes smallint, int, bigint, date and (Paimon) TIME columns:
// signed integer RLE v2.
type intCol struct {
	colBase
	out  *outStream
	data *intWriter
}

func (c *intCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	n := rows.len()
	put := func(v int64) {
		c.data.write(v)
		if c.t.kind == kindDate {
			c.idx.updateDate(int32(v))
		} else {
			c.idx.updateInt(v)
		}
	}
	switch a := arr.(type) {
	case *array.Int16:
		vals := a.Int16Values()
		for k := range n {
			put(int64(vals[rows.at(k)]))
		}
	case *array.Int32:
		vals := a.Int32Values()
		for k := range n {
			put(int64(vals[rows.at(k)]))
		}
	case *array.Int64:
		vals := a.Int64Values()
		for k := range n {
			put(vals[rows.at(k)])
		}
	case *array.Date32:
		vals := a.Date32Values()
		for k := range n {
			put(int64(vals[rows.at(k)]))
		}
	case *array.Time32:
		vals := a.Time32Values()
		for k := range n {
			put(int64(vals[rows.at(k)]))
		}
	}
}
func (c *intCol) positions(dst []uint64) []uint64 { return c.data.position(dst) }
func (c *intCol) flush() ([]stripeStream, columnEncoding) {
	c.data.flush()
	return append(c.presentStreams(), stripeStream{streamData, c.out.finish()}), columnEncoding{kind: encDirectV2}
}
func (c *intCol) reset()                   { c.resetBase(); c.out.reset() }
func (c *intCol) children() []columnWriter { return nil }

// floatCol writes float and double columns: IEEE 754 little-endian.
type floatCol struct {
	colBase
	out *outStream
}

func (c *floatCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	var b [8]byte
	switch a := arr.(type) {
	case *array.Float32:
		vals := a.Float32Values()
		for k := range rows.len() {
			v := vals[rows.at(k)]
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			c.out.write(b[:4])
			c.idx.updateDouble(float64(v))
		}
	case *array.Float64:
		vals := a.Float64Values()
		for k := range rows.len() {
			v := vals[rows.at(k)]
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			c.out.write(b[:])
			c.idx.updateDouble(v)
		}
	}
}
func (c *floatCol) positions(dst []uint64) []uint64 { return c.out.position(dst) }
func (c *floatCol) flush() ([]stripeStream, columnEncoding) {
	return append(c.presentStreams(), stripeStream{streamData, c.out.finish()}), columnEncoding{kind: encDirect}
}
func (c *floatCol) reset()                   { c.resetBase(); c.out.reset() }
func (c *floatCol) children() []columnWriter { return nil }

// bytesOf returns the bytes of value i of a string or binary array.
type bytesOf struct {
	data  []byte
	off32 []int32
	off64 []int64
}

func newBytesOf(arr arrow.Array) bytesOf {
	var b bytesOf
	if bufs := arr.Data().Buffers(); len(bufs) > 2 && bufs[2] != nil {
		b.data = bufs[2].Bytes()
	}
	switch a := arr.(type) {
	case *array.String:
		b.off32 = a.ValueOffsets()
	case *array.Binary:
		b.off32 = a.ValueOffsets()
	case *array.LargeBinary:
		b.off64 = a.ValueOffsets()
	case *array.LargeString:
		b.off64 = a.ValueOffsets()
	}
	return b
}

func (b bytesOf) at(i int) []byte {
	if b.off64 != nil {
		return b.data[b.off64[i]:b.off64[i+1]]
	}
	return b.data[b.off32[i]:b.off32[i+1]]
}

// stringCol writes string, char and varchar columns, DICTIONARY_V2 or
// DIRECT_V2 as Java's StringBaseTreeWriter decides: values are collected
// into a dictionary until the end of the first row group (or stripe) of the
// file; if the distinct values are then more than the threshold's share of
// the values, the column turns direct for the rest of the file. Binary
// columns are always direct. CHAR values are padded with spaces to the
// length and CHAR/VARCHAR values cut to it, as CharTreeWriter and
// VarcharTreeWriter do.
type stringCol struct {
	colBase
	binary    bool
	maxLen    int // CHAR/VARCHAR length (0: none)
	threshold float64

	decided bool // the dictionary check happened
	useDict bool

	dataOut, lenOut, dictOut *outStream
	lengths                  *intWriter // direct: value lengths; dictionary: entry lengths
	ids                      *intWriter // dictionary: the ids, into dataOut

	// The stripe's dictionary: distinct values in arrival order, their
	// ids, and the id of every value.
	dict     map[string]int32
	values   [][]byte
	rows     []int32
	groupEnd []int // value counts at each row group end (dictionary)
	dictSize int64
	scratch  []byte
}

func (c *stringCol) adjust(v []byte) []byte {
	if c.maxLen <= 0 {
		return v
	}
	// Cut to maxLen characters.
	chars := 0
	for i := range v {
		if v[i]&0xc0 != 0x80 {
			if chars == c.maxLen {
				v = v[:i]
				break
			}
			chars++
		}
	}
	if c.t.kind != kindChar || chars >= c.maxLen {
		return v
	}
	c.scratch = append(append(c.scratch[:0], v...), make([]byte, c.maxLen-chars)...)
	for i := len(v); i < len(c.scratch); i++ {
		c.scratch[i] = ' '
	}
	return c.scratch
}

func (c *stringCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	b := newBytesOf(arr)
	for k := range rows.len() {
		v := c.adjust(b.at(rows.at(k)))
		if c.binary {
			c.idx.updateBinary(len(v))
		} else {
			c.idx.updateString(v)
		}
		if c.useDict {
			id, ok := c.dict[string(v)]
			if !ok {
				id = int32(len(c.values))
				c.dict[string(v)] = id
				c.values = append(c.values, append([]byte(nil), v...))
				c.dictSize += int64(len(v))
			}
			c.rows = append(c.rows, id)
		} else {
			c.dataOut.write(v)
			c.lengths.write(int64(len(v)))
		}
	}
}

func (c *stringCol) positions(dst []uint64) []uint64 {
	if c.useDict {
		return dst // written with the dictionary at the stripe's end
	}
	return c.lengths.position(c.dataOut.position(dst))
}

// groupDone is called when a row group ends: the first one decides the
// encoding (Java checkDictionaryEncoding with
// orc.dictionary.early.check).
func (c *stringCol) groupDone() {
	if c.useDict {
		c.groupEnd = append(c.groupEnd, len(c.rows))
	}
	if !c.decided {
		c.decide()
	}
}

func (c *stringCol) decide() {
	c.decided = true
	if !c.useDict {
		return
	}
	ratio := float32(0)
	if len(c.rows) > 0 {
		ratio = float32(len(c.values)) / float32(len(c.rows))
	}
	if float64(ratio) <= c.threshold {
		return
	}
	// Too many distinct values: write what was collected directly and
	// stay direct. The collected values are the first row group's (or the
	// whole stripe's), so they start at the streams' beginning.
	c.useDict = false
	for _, id := range c.rows {
		v := c.values[id]
		c.dataOut.write(v)
		c.lengths.write(int64(len(v)))
	}
	if len(c.entries) > 0 {
		// Only the first entry can exist: the check runs at the end of
		// the file's first row group; its values start the streams.
		c.entries[0].positions = c.lengths.positionAt0(c.dataOut.positionAt0(c.entries[0].positions))
	}
	c.clearDict()
}

func (c *stringCol) clearDict() {
	clear(c.dict)
	c.values, c.rows, c.groupEnd, c.dictSize = c.values[:0], c.rows[:0], c.groupEnd[:0], 0
}

func (c *stringCol) flush() ([]stripeStream, columnEncoding) {
	if !c.decided {
		c.decide()
	}
	streams := c.presentStreams()
	if !c.useDict {
		c.lengths.flush()
		return append(streams, stripeStream{streamData, c.dataOut.finish()}, stripeStream{streamLength, c.lenOut.finish()}),
			columnEncoding{kind: encDirectV2}
	}
	// Sort the dictionary (Java visits its red-black tree in order) and
	// renumber the rows.
	order := make([]int32, len(c.values))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return compareBytes(c.values[a], c.values[b]) })
	newID := make([]int32, len(order))
	for pos, id := range order {
		newID[id] = int32(pos)
		v := c.values[id]
		c.dictOut.write(v)
		c.lengths.write(int64(len(v)))
	}
	c.lengths.flush()
	g := 0
	for i, id := range c.rows {
		for g < len(c.groupEnd) && c.groupEnd[g] == i && g+1 < len(c.entries) {
			// The next row group starts here.
			c.entries[g+1].positions = c.ids.position(c.entries[g+1].positions)
			g++
		}
		c.ids.write(int64(newID[id]))
	}
	for g+1 < len(c.entries) {
		c.entries[g+1].positions = c.ids.position(c.entries[g+1].positions)
		g++
	}
	if len(c.entries) > 0 {
		c.entries[0].positions = c.ids.positionAt0(c.entries[0].positions)
	}
	c.ids.flush()
	enc := columnEncoding{kind: encDictionaryV2, dictSize: uint64(len(c.values))}
	streams = append(streams, stripeStream{streamData, c.dataOut.finish()}, stripeStream{streamLength, c.lenOut.finish()})
	if len(c.values) > 0 {
		streams = append(streams, stripeStream{streamDictionaryData, c.dictOut.finish()})
	}
	return streams, enc
}

func compareBytes(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return len(a) - len(b)
}

func (c *stringCol) reset() {
	c.resetBase()
	c.dataOut.reset()
	c.lenOut.reset()
	c.dictOut.reset()
	c.clearDict()
}
func (c *stringCol) children() []columnWriter { return nil }

// positionAt0 appends the position of an empty stream (its start).
func (o *outStream) positionAt0(dst []uint64) []uint64 {
	if o.comp == nil {
		return append(dst, 0)
	}
	return append(dst, 0, 0)
}

func (w *intWriter) positionAt0(dst []uint64) []uint64 {
	return append(w.out.positionAt0(dst), 0)
}

// decimalCol writes decimal columns: unbounded zigzag varints of the
// unscaled values and their scales, normalised as Java's HiveDecimal is
// (trailing fraction zeros dropped).
type decimalCol struct {
	colBase
	scale    int
	dataOut  *outStream
	scaleOut *outStream
	scales   *intWriter
}

func (c *decimalCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	vals := arr.(*array.Decimal128).Values()
	var buf [20]byte
	for k := range rows.len() {
		v := vals[rows.at(k)]
		if c.colBase.idx.dec64 {
			c.idx.updateDecimal64(int64(v.LowBits()))
		} else {
			c.idx.updateDecimal(v.BigInt())
		}
		u, s := normalise(v, c.scale)
		c.dataOut.write(appendZigzag128(buf[:0], u))
		c.scales.write(int64(s))
	}
}

// normalise drops trailing zeros of the fraction.
func normalise(v decimal128.Num, scale int) (decimal128.Num, int) {
	if v.Sign() == 0 {
		return v, 0
	}
	if hi := v.HighBits(); (hi == 0 && v.LowBits() < 1<<63) || (hi == -1 && v.LowBits() >= 1<<63) {
		x := int64(v.LowBits())
		for scale > 0 && x%10 == 0 {
			x /= 10
			scale--
		}
		return decimal128.FromI64(x), scale
	}
	ten := decimal128.FromI64(10)
	for scale > 0 {
		q, r := v.Div(ten)
		if r.Sign() != 0 {
			break
		}
		v, scale = q, scale-1
	}
	return v, scale
}

// appendZigzag128 appends a 128-bit value as a zigzag base-128 varint
// (Java SerializationUtils.writeBigInteger).
func appendZigzag128(dst []byte, v decimal128.Num) []byte {
	hi, lo := uint64(v.HighBits()), v.LowBits()
	neg := int64(hi) < 0
	// zigzag: (v << 1) ^ (v >> 127)
	zhi, zlo := hi<<1|lo>>63, lo<<1
	if neg {
		zhi, zlo = ^zhi, ^zlo
	}
	for zhi != 0 || zlo >= 0x80 {
		dst = append(dst, byte(zlo)|0x80)
		zlo = zlo>>7 | zhi<<57
		zhi >>= 7
	}
	return append(dst, byte(zlo))
}

func (c *decimalCol) positions(dst []uint64) []uint64 {
	return c.scales.position(c.dataOut.position(dst))
}
func (c *decimalCol) flush() ([]stripeStream, columnEncoding) {
	c.scales.flush()
	return append(c.presentStreams(), stripeStream{streamData, c.dataOut.finish()},
		stripeStream{streamSecondary, c.scaleOut.finish()}), columnEncoding{kind: encDirectV2}
}
func (c *decimalCol) reset()                   { c.resetBase(); c.dataOut.reset(); c.scaleOut.reset() }
func (c *decimalCol) children() []columnWriter { return nil }

// timestampCol writes timestamp columns as Java's TimestampTreeWriter does
// in a UTC JVM: seconds since 2015-01-01 UTC, truncated toward zero, and
// the nanoseconds with their trailing zeros encoded.
type timestampCol struct {
	colBase
	unit     arrow.TimeUnit
	secsOut  *outStream
	nanosOut *outStream
	secs     *intWriter
	nanos    *intWriter
}

func (c *timestampCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	vals := arr.(*array.Timestamp).TimestampValues()
	for k := range rows.len() {
		v := int64(vals[rows.at(k)])
		// java.sql.Timestamp: epoch millis and the nanos of the second.
		var millis int64
		var subMilli int64
		switch c.unit {
		case arrow.Millisecond:
			millis = v
		case arrow.Microsecond:
			millis, subMilli = floorDiv(v, 1000), floorMod(v, 1000)*1000
		default:
			millis, subMilli = floorDiv(v, 1_000_000), floorMod(v, 1_000_000)
		}
		nanos := int32(floorMod(millis, 1000)*1_000_000 + subMilli)
		secs := millis / 1000 // truncated toward zero, as Java's writer does
		statMillis := secs*1000 + int64(nanos/1_000_000)
		if statMillis < 0 && nanos > 999_999 {
			statMillis -= 1000
		}
		c.secs.write(secs - tsBase)
		c.nanos.write(formatNanos(nanos))
		c.idx.updateTimestamp(statMillis, nanos%1_000_000)
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// formatNanos encodes nanoseconds as TimestampTreeWriter.formatNanos does.
func formatNanos(nanos int32) int64 {
	if nanos == 0 {
		return 0
	}
	if nanos%100 != 0 {
		return int64(nanos) << 3
	}
	nanos /= 100
	zeros := int64(1)
	for nanos%10 == 0 && zeros < 7 {
		nanos /= 10
		zeros++
	}
	return int64(nanos)<<3 | zeros
}

func (c *timestampCol) positions(dst []uint64) []uint64 {
	return c.nanos.position(c.secs.position(dst))
}
func (c *timestampCol) flush() ([]stripeStream, columnEncoding) {
	c.secs.flush()
	c.nanos.flush()
	return append(c.presentStreams(), stripeStream{streamData, c.secsOut.finish()},
		stripeStream{streamSecondary, c.nanosOut.finish()}), columnEncoding{kind: encDirectV2}
}
func (c *timestampCol) reset()                   { c.resetBase(); c.secsOut.reset(); c.nanosOut.reset() }
func (c *timestampCol) children() []columnWriter { return nil }

// structCol writes struct columns: the children get the rows where the
// struct is present.
type structCol struct {
	colBase
	kids []columnWriter
}

func (c *structCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	a := arr.(*array.Struct)
	for i, k := range c.kids {
		k.write(a.Field(i), rows)
	}
}
func (c *structCol) positions(dst []uint64) []uint64 { return dst }
func (c *structCol) flush() ([]stripeStream, columnEncoding) {
	return c.presentStreams(), columnEncoding{kind: encDirect}
}
func (c *structCol) reset()                   { c.resetBase() }
func (c *structCol) children() []columnWriter { return c.kids }

// listCol writes list and map columns: the lengths, then the elements (or
// keys and values) of the present rows.
type listCol struct {
	colBase
	out     *outStream
	lengths *intWriter
	kids    []columnWriter
}

func (c *listCol) write(arr arrow.Array, rows rowSet) {
	rows = c.writePresent(arr, rows)
	var offs []int32
	var child []arrow.Array
	switch a := arr.(type) {
	case *array.Map:
		offs = a.Offsets()[a.Data().Offset():]
		child = []arrow.Array{a.Keys(), a.Items()}
	case *array.List:
		offs = a.Offsets()[a.Data().Offset():]
		child = []arrow.Array{a.ListValues()}
	}
	// Element rows: contiguous when the list rows are.
	var idx []int
	contiguous := true
	prevEnd := -1
	for k := range rows.len() {
		i := rows.at(k)
		lo, hi := int(offs[i]), int(offs[i+1])
		n := hi - lo
		c.lengths.write(int64(n))
		c.idx.updateCollection(int64(n))
		if prevEnd >= 0 && lo != prevEnd {
			contiguous = false
		}
		prevEnd = hi
	}
	var elems rowSet
	if rows.len() == 0 {
		elems = rangeRows(0, 0)
	} else if contiguous {
		elems = rangeRows(int(offs[rows.at(0)]), prevEnd)
	} else {
		for k := range rows.len() {
			i := rows.at(k)
			for j := int(offs[i]); j < int(offs[i+1]); j++ {
				idx = append(idx, j)
			}
		}
		if idx == nil {
			idx = []int{}
		}
		elems = rowSet{idx: idx}
	}
	for i, k := range c.kids {
		k.write(child[i], elems)
	}
}
func (c *listCol) positions(dst []uint64) []uint64 { return c.lengths.position(dst) }
func (c *listCol) flush() ([]stripeStream, columnEncoding) {
	c.lengths.flush()
	return append(c.presentStreams(), stripeStream{streamLength, c.out.finish()}), columnEncoding{kind: encDirectV2}
}
func (c *listCol) reset()                   { c.resetBase(); c.out.reset() }
func (c *listCol) children() []columnWriter { return c.kids }

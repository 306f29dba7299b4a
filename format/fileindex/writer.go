package fileindex

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/paimon-go/paimon-go/format/schema"
)

// ColumnWriter builds one index of one column of one data file (Java
// FileIndexWriter): Add takes each row's value in row order (nil for
// NULL; the values of the predicate package, see Index), Bytes serializes
// the index.
type ColumnWriter interface {
	Add(v any)
	Bytes() []byte
}

// NewColumnWriter returns the writer of an index type for a column of type
// t with the index's options (file-index.<type>.<column>.<option>); nil
// when the type is not written here or Java refuses the column type.
func NewColumnWriter(typ string, t schema.DataType, opts map[string]string) (ColumnWriter, error) {
	switch typ {
	case "bloom-filter":
		if fastHash(t) == nil {
			return nil, nil
		}
		items, fpp := int64(1_000_000), 0.1 // Java BloomFilterFileIndex DEFAULT_ITEMS, DEFAULT_FPP
		if v, ok := opts["items"]; ok {
			if _, err := fmt.Sscan(v, &items); err != nil || items <= 0 || items > math.MaxInt32 {
				return nil, fmt.Errorf("bloom-filter option items=%q: want a positive integer", v)
			}
		}
		if v, ok := opts["fpp"]; ok {
			if _, err := fmt.Sscan(v, &fpp); err != nil || !(fpp > 0 && fpp < 1) {
				return nil, fmt.Errorf("bloom-filter option fpp=%q: want a number between 0 and 1", v)
			}
		}
		return newBloomWriter(t, items, fpp), nil
	case "bitmap":
		if _, ok := bitmapKeySize(t); !ok {
			return nil, nil
		}
		if v, ok := opts["version"]; ok && strings.TrimSpace(v) != "2" {
			return nil, nil // only version 2 (Java's default) is written
		}
		return &bitmapWriter{t: t, rows: map[any]*roaring.Bitmap{}, null: roaring.New()}, nil
	case "bsi":
		if !bsiSupported(t) {
			return nil, nil // Java writes wide decimals' unscaled values truncated to a long: not written
		}
		return newBSIWriter(t), nil
	case "range-bitmap":
		w, err := newRangeBitmapWriter(t, opts)
		if w == nil || err != nil {
			return nil, err
		}
		return w, nil
	}
	return nil, nil
}

// bloomWriter is Java BloomFilterFileIndex.Writer over BloomFilter64.
type bloomWriter struct {
	numHash int32
	bits    []byte
	hash    func(any) (uint64, bool)
	lossy   bool // a value could not be hashed: the filter must not exclude anything
}

func newBloomWriter(t schema.DataType, items int64, fpp float64) *bloomWriter {
	// Java BloomFilter64(items, fpp).
	nb := int32(float64(-items) * math.Log(fpp) / (math.Ln2 * math.Ln2))
	numBits := nb + (8 - nb%8)
	k := int32(math.Max(1, float64(int64(math.Floor(float64(numBits)/float64(items)*math.Ln2+0.5)))))
	return &bloomWriter{numHash: k, bits: make([]byte, numBits/8), hash: fastHashAll(t)}
}

func (w *bloomWriter) Add(v any) {
	if v == nil {
		return
	}
	h, ok := w.hash(v)
	if !ok {
		w.lossy = true
		return
	}
	numBits := int32(len(w.bits) * 8)
	h1, h2 := int32(h), int32(h>>32)
	for i := int32(1); i <= w.numHash; i++ {
		c := h1 + i*h2
		if c < 0 {
			c = ^c
		}
		pos := c % numBits
		w.bits[pos>>3] |= 1 << (pos & 7)
	}
}

func (w *bloomWriter) Bytes() []byte {
	if w.lossy {
		return nil // a value of an unexpected kind: write no index for the column
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(w.numHash))
	return append(out, w.bits...)
}

// fastHashAll is fastHash for writing: floating-point zeros and NaN are
// hashed too, by Java's bit patterns (Float.floatToIntBits, canonical NaN).
func fastHashAll(t schema.DataType) func(any) (uint64, bool) {
	switch t.Root {
	case schema.Float:
		return func(v any) (uint64, bool) {
			f, ok := v.(float32)
			bits := math.Float32bits(f)
			if f != f {
				bits = 0x7fc00000
			}
			return longHash(int64(int32(bits))), ok
		}
	case schema.Double:
		return func(v any) (uint64, bool) {
			f, ok := v.(float64)
			bits := math.Float64bits(f)
			if f != f {
				bits = 0x7ff8000000000000
			}
			return longHash(int64(bits)), ok
		}
	}
	return fastHash(t)
}

// bitmapWriter is Java BitmapFileIndex.Writer, version 2
// (BitmapFileIndexMetaV2 with 16 KiB index blocks).
type bitmapWriter struct {
	t     schema.DataType
	rows  map[any]*roaring.Bitmap
	order []any // first-seen order of the keys (Java's HashMap order is arbitrary)
	null  *roaring.Bitmap
	n     uint32
	lossy bool
}

func (w *bitmapWriter) Add(v any) {
	row := w.n
	w.n++
	if v == nil {
		w.null.Add(row)
		return
	}
	k, ok := writeKey(w.t, v)
	if !ok {
		w.lossy = true
		return
	}
	b := w.rows[k]
	if b == nil {
		b = roaring.New()
		w.rows[k] = b
		w.order = append(w.order, k)
	}
	b.Add(row)
}

type bitmapEntry struct {
	key            any
	offset, length int32
}

func (w *bitmapWriter) Bytes() []byte {
	if w.lossy {
		return nil // a value of an unexpected kind: write no index for the column
	}
	ser := javaRoaring // RoaringBitmap32.serialize: run-optimized, as Java's writer
	nullBytes := ser(w.null)
	var body bytes.Buffer
	if w.null.GetCardinality() > 1 {
		body.Write(nullBytes)
	}
	entries := make([]bitmapEntry, 0, len(w.order))
	for _, k := range w.order {
		b := w.rows[k]
		if b.GetCardinality() == 1 {
			entries = append(entries, bitmapEntry{k, -1 - int32(b.Minimum()), -1})
			continue
		}
		bb := ser(b)
		entries = append(entries, bitmapEntry{k, int32(body.Len()), int32(len(bb))})
		body.Write(bb)
	}
	slices.SortFunc(entries, func(a, b bitmapEntry) int { return compareKeys(w.t, a.key, b.key) })
	// Index blocks of at most 16 KiB (Java BitmapIndexBlock.tryAdd).
	const blockLimit = 16 << 10
	type block struct {
		first   any
		offset  int32
		size    int32
		entries []bitmapEntry
	}
	var blocks []*block
	for _, e := range entries {
		size := 8 + keySize(e.key)
		last := len(blocks) - 1
		if last < 0 || blocks[last].size+size > blockLimit {
			off := int32(0)
			if last >= 0 {
				off = blocks[last].offset + blocks[last].size
			}
			blocks = append(blocks, &block{first: e.key, offset: off, size: 4})
			last++
		}
		blocks[last].size += size
		blocks[last].entries = append(blocks[last].entries, e)
	}
	var out bytes.Buffer
	i32 := func(v int32) { out.Write(binary.BigEndian.AppendUint32(nil, uint32(v))) }
	out.WriteByte(2)
	i32(int32(w.n))
	i32(int32(len(w.rows)))
	hasNull := !w.null.IsEmpty()
	if hasNull {
		out.WriteByte(1)
		if w.null.GetCardinality() == 1 {
			i32(-1 - int32(w.null.Minimum()))
		} else {
			i32(0)
		}
		i32(int32(len(nullBytes)))
	} else {
		out.WriteByte(0)
	}
	i32(int32(len(blocks)))
	var bodyOffset int32
	for _, b := range blocks {
		writeKeyBytes(&out, b.first)
		i32(b.offset)
		bodyOffset += b.size
	}
	i32(bodyOffset)
	for _, b := range blocks {
		i32(int32(len(b.entries)))
		for _, e := range b.entries {
			writeKeyBytes(&out, e.key)
			i32(e.offset)
			i32(e.length)
		}
	}
	out.Write(body.Bytes())
	return out.Bytes()
}

// f32bits and f64bits key FLOAT and DOUBLE values by bit pattern, as
// Java's boxed Float and Double keys are (0.0 and -0.0 apart, NaN one key).
type (
	f32bits uint32
	f64bits uint64
)

// writeKey maps a value to its serialized key form: string, bool, int8,
// int16, int32, int64 (BIGINT and timestamps), float32 or float64.
func writeKey(t schema.DataType, v any) (any, bool) {
	switch t.Root {
	case schema.TinyInt:
		x, ok := v.(int8)
		return x, ok
	case schema.SmallInt:
		x, ok := v.(int16)
		return x, ok
	case schema.Int, schema.Date, schema.Time:
		x, ok := v.(int32)
		return x, ok
	case schema.Float:
		x, ok := v.(float32)
		if x != x {
			return f32bits(0x7fc00000), ok // Java Float.equals: canonical NaN
		}
		return f32bits(math.Float32bits(x)), ok
	case schema.Double:
		x, ok := v.(float64)
		if x != x {
			return f64bits(0x7ff8000000000000), ok
		}
		return f64bits(math.Float64bits(x)), ok
	}
	k, ok := bitmapKey(t, v)
	return k, ok
}

func keySize(k any) int32 {
	switch x := k.(type) {
	case string:
		return 4 + int32(len(x))
	case bool, int8:
		return 1
	case int16:
		return 2
	case int32, f32bits:
		return 4
	}
	return 8
}

func writeKeyBytes(out *bytes.Buffer, k any) {
	switch x := k.(type) {
	case string:
		out.Write(binary.BigEndian.AppendUint32(nil, uint32(len(x))))
		out.WriteString(x)
	case bool:
		if x {
			out.WriteByte(1)
		} else {
			out.WriteByte(0)
		}
	case int8:
		out.WriteByte(byte(x))
	case int16:
		out.Write(binary.BigEndian.AppendUint16(nil, uint16(x)))
	case int32:
		out.Write(binary.BigEndian.AppendUint32(nil, uint32(x)))
	case int64:
		out.Write(binary.BigEndian.AppendUint64(nil, uint64(x)))
	case f32bits:
		out.Write(binary.BigEndian.AppendUint32(nil, uint32(x)))
	case f64bits:
		out.Write(binary.BigEndian.AppendUint64(nil, uint64(x)))
	}
}

// compareKeys orders keys as Java BitmapFileIndexMetaV2.getComparator:
// strings by unsigned bytes (BinaryString), numbers by value, false
// before true.
func compareKeys(_ schema.DataType, a, b any) int {
	switch x := a.(type) {
	case string:
		return strings.Compare(x, b.(string))
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case int8:
		return cmpOrdered(x, b.(int8))
	case int16:
		return cmpOrdered(x, b.(int16))
	case int32:
		return cmpOrdered(x, b.(int32))
	case int64:
		return cmpOrdered(x, b.(int64))
	case f32bits: // Java Float.compare
		fa, fb := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(b.(f32bits)))
		if c := cmpOrdered(fa, fb); c != 0 {
			return c
		}
		return cmpOrdered(int32(x), int32(b.(f32bits)))
	case f64bits:
		fa, fb := math.Float64frombits(uint64(x)), math.Float64frombits(uint64(b.(f64bits)))
		if c := cmpOrdered(fa, fb); c != 0 {
			return c
		}
		return cmpOrdered(int64(x), int64(b.(f64bits)))
	}
	return 0
}

func cmpOrdered[T int8 | int16 | int32 | int64 | float32 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ColumnIndex is one serialized index of one column.
type ColumnIndex struct {
	Column, Type string
	Bytes        []byte
}

// Encode writes a file index (Java FileIndexFormat.Writer).
// Indexes without bytes are left out.
func Encode(indexes []ColumnIndex) []byte {
	var cols []string
	byCol := map[string][]ColumnIndex{}
	for _, ix := range indexes {
		if ix.Bytes == nil {
			continue
		}
		if _, ok := byCol[ix.Column]; !ok {
			cols = append(cols, ix.Column)
		}
		byCol[ix.Column] = append(byCol[ix.Column], ix)
	}
	headLen := 8 + 4 + 4 + 4 + 4
	for _, c := range cols {
		headLen += 4 + utfLen(c)
		for _, ix := range byCol[c] {
			headLen += 8 + utfLen(ix.Type)
		}
	}
	var out bytes.Buffer
	i32 := func(v int32) { out.Write(binary.BigEndian.AppendUint32(nil, uint32(v))) }
	out.Write(binary.BigEndian.AppendUint64(nil, magic))
	i32(1)
	i32(int32(headLen))
	i32(int32(len(cols)))
	pos := headLen
	for _, c := range cols {
		writeUTF(&out, c)
		i32(int32(len(byCol[c])))
		for _, ix := range byCol[c] {
			writeUTF(&out, ix.Type)
			i32(int32(pos))
			i32(int32(len(ix.Bytes)))
			pos += len(ix.Bytes)
		}
	}
	i32(0) // redundant length
	for _, c := range cols {
		for _, ix := range byCol[c] {
			out.Write(ix.Bytes)
		}
	}
	return out.Bytes()
}

// modifiedUTF8 encodes s as Java's DataOutput.writeUTF body.
func modifiedUTF8(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		switch {
		case u != 0 && u < 0x80:
			b = append(b, byte(u))
		case u < 0x800:
			b = append(b, 0xC0|byte(u>>6), 0x80|byte(u&0x3F))
		default:
			b = append(b, 0xE0|byte(u>>12), 0x80|byte(u>>6&0x3F), 0x80|byte(u&0x3F))
		}
	}
	return b
}

func utfLen(s string) int { return 2 + len(modifiedUTF8(s)) }

func writeUTF(out *bytes.Buffer, s string) {
	b := modifiedUTF8(s)
	out.Write(binary.BigEndian.AppendUint16(nil, uint16(len(b))))
	out.Write(b)
}

package fileindex

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/paimon-go/paimon-go/format/schema"
)

// rangeBitmapWriter is Java RangeBitmapFileIndex.Writer over
// RangeBitmap.Appender: the rows of each distinct non-null key (a TreeMap
// in Java, ordered by the key type's comparator), serialized at the end as
// the header, a ChunkedDictionary of the sorted keys (chunks of at most
// chunk-size bytes of keys) and a BitSliceIndexBitmap of each row's code
// (the key's rank). See rangeBitmap for the layout.
type rangeBitmapWriter struct {
	t       schema.DataType
	keySize int // fixed key length; 0 for strings
	limit   int // chunk-size in bytes
	rows    uint32
	keys    map[any]*rbEntry // by rbMapKey
	lossy   bool
}

// rbEntry is one distinct key: its dictionary form (int64, float32 bits,
// float64 bits or string, as serialized) and its rows.
type rbEntry struct {
	key  any
	rows *roaring.Bitmap
}

// rangeBitmapDefaultChunk is KeyFactory.defaultChunkSize: 16 KiB, and 0
// (a chunk per key) for BOOLEAN, TINYINT and SMALLINT.
func rangeBitmapDefaultChunk(t schema.DataType) int {
	switch t.Root {
	case schema.Boolean, schema.TinyInt, schema.SmallInt:
		return 0
	}
	return 16 << 10
}

func newRangeBitmapWriter(t schema.DataType, opts map[string]string) (*rangeBitmapWriter, error) {
	size, ok := rangeBitmapKind(t)
	if !ok {
		return nil, nil
	}
	w := &rangeBitmapWriter{t: t, keySize: size, limit: rangeBitmapDefaultChunk(t), keys: map[any]*rbEntry{}}
	if v, ok := opts["chunk-size"]; ok {
		// The caller has turned Java's memory size (MemorySize.parse) into
		// bytes; Java casts it to an int and allocates chunk buffers of
		// that size, so a negative or larger size fails there.
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 0 || n > math.MaxInt32 {
			return nil, fmt.Errorf("range-bitmap option chunk-size=%q: want a size from 0 to 2 GiB", v)
		}
		w.limit = int(n)
	}
	return w, nil
}

// rbKeyOf maps a value to its dictionary key and to the map key under
// which Java's comparator deems it equal to others: floating-point keys
// are compared as Float.compare / Double.compare do (every NaN alike, -0.0
// apart from 0.0), and the first NaN's bits are the ones serialized
// (ByteBuffer.putFloat writes raw bits).
func (w *rangeBitmapWriter) rbKeyOf(v any) (key, mapKey any, ok bool) {
	switch w.t.Root {
	case schema.Char, schema.VarChar:
		s, ok := v.(string)
		return s, s, ok
	case schema.Boolean:
		b, ok := v.(bool)
		if b {
			return int64(1), int64(1), ok
		}
		return int64(0), int64(0), ok
	case schema.Float:
		f, ok := v.(float32)
		k := f32bits(math.Float32bits(f))
		if f != f {
			return k, f32bits(0x7fc00000), ok
		}
		return k, k, ok
	case schema.Double:
		f, ok := v.(float64)
		k := f64bits(math.Float64bits(f))
		if f != f {
			return k, f64bits(0x7ff8000000000000), ok
		}
		return k, k, ok
	}
	x, ok := bsiValue(w.t, v)
	return x, x, ok
}

func (w *rangeBitmapWriter) Add(v any) {
	row := w.rows
	w.rows++
	if v == nil || w.lossy {
		return
	}
	k, mk, ok := w.rbKeyOf(v)
	if !ok {
		w.lossy = true
		return
	}
	e := w.keys[mk]
	if e == nil {
		e = &rbEntry{key: k, rows: roaring.New()}
		w.keys[mk] = e
	}
	e.rows.Add(row)
}

// compareRBWriteKeys orders dictionary keys as KeyFactory's comparators.
func compareRBWriteKeys(a, b any) int {
	switch x := a.(type) {
	case f32bits:
		return compareRangeKeys(float64(math.Float32frombits(uint32(x))), float64(math.Float32frombits(uint32(b.(f32bits)))))
	case f64bits:
		return compareRangeKeys(math.Float64frombits(uint64(x)), math.Float64frombits(uint64(b.(f64bits))))
	}
	return compareRangeKeys(a, b)
}

// rbKeyBytes appends a key as KeyFactory's serializers write it.
func (w *rangeBitmapWriter) rbKeyBytes(out []byte, k any) []byte {
	switch x := k.(type) {
	case string:
		out = binary.BigEndian.AppendUint32(out, uint32(len(x)))
		return append(out, x...)
	case f32bits:
		return binary.BigEndian.AppendUint32(out, uint32(x))
	case f64bits:
		return binary.BigEndian.AppendUint64(out, uint64(x))
	}
	v := k.(int64)
	switch w.keySize {
	case 1:
		return append(out, byte(v))
	case 2:
		return binary.BigEndian.AppendUint16(out, uint16(v))
	case 4:
		return binary.BigEndian.AppendUint32(out, uint32(v))
	}
	return binary.BigEndian.AppendUint64(out, uint64(v))
}

func (w *rangeBitmapWriter) Bytes() []byte {
	if w.lossy {
		return nil // a value of an unexpected kind: write no index for the column
	}
	entries := make([]*rbEntry, 0, len(w.keys))
	for _, e := range w.keys {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b *rbEntry) int { return compareRBWriteKeys(a.key, b.key) })

	// The bit-sliced index of the codes (BitSliceIndexBitmap.Appender over
	// [0, cardinality-1]; Java sizes the slices by the bit length of max
	// as a long, so an empty dictionary (max -1) has 64 empty slices).
	n := 64
	if len(entries) > 0 {
		n = max(bits.Len64(uint64(len(entries)-1)), 1)
	}
	ebm := roaring.New()
	sl := make([]*roaring.Bitmap, n)
	for i := range sl {
		sl[i] = roaring.New()
	}
	for code, e := range entries {
		rows := e.rows.ToArray()
		ebm.AddMany(rows)
		for c := uint64(code); c != 0; c &= c - 1 {
			sl[bits.TrailingZeros64(c)].AddMany(rows)
		}
	}
	dict := w.dictionary(entries)

	var head []byte
	head = append(head, 1) // version
	head = binary.BigEndian.AppendUint32(head, w.rows)
	head = binary.BigEndian.AppendUint32(head, uint32(len(entries)))
	if len(entries) > 0 {
		head = w.rbKeyBytes(head, entries[0].key)
		head = w.rbKeyBytes(head, entries[len(entries)-1].key)
	}
	head = binary.BigEndian.AppendUint32(head, uint32(len(dict)))
	out := binary.BigEndian.AppendUint32(nil, uint32(len(head)))
	out = append(out, head...)
	out = append(out, dict...)
	return appendCodeSlices(out, ebm, sl)
}

// appendCodeSlices appends BitSliceIndexBitmap.Appender.serialize: header
// length, version, slice count, ebm length, index length, (offset, length)
// per slice, then the ebm and the slices.
func appendCodeSlices(out []byte, ebm *roaring.Bitmap, sl []*roaring.Bitmap) []byte {
	eb := javaRoaring(ebm)
	ser := make([][]byte, len(sl))
	for i, b := range sl {
		ser[i] = javaRoaring(b)
	}
	out = binary.BigEndian.AppendUint32(out, uint32(1+1+4+4+8*len(sl)))
	out = append(out, 1, byte(len(sl)))
	out = binary.BigEndian.AppendUint32(out, uint32(len(eb)))
	out = binary.BigEndian.AppendUint32(out, uint32(8*len(sl)))
	off := 0
	for _, s := range ser {
		out = binary.BigEndian.AppendUint32(out, uint32(off))
		out = binary.BigEndian.AppendUint32(out, uint32(len(s)))
		off += len(s)
	}
	out = append(out, eb...)
	for _, s := range ser {
		out = append(out, s...)
	}
	return out
}

// dictionary serializes ChunkedDictionary.Appender over the sorted keys:
// a chunk starts at a key (held in the chunk's header, with its code) and
// takes the following keys while they fit in chunk-size bytes (for
// strings, chunk-size bytes of keys and chunk-size bytes of their int32
// offsets, FixedLengthChunk and VariableLengthChunk.tryAdd).
func (w *rangeBitmapWriter) dictionary(entries []*rbEntry) []byte {
	var offsets, chunks, keys bytes.Buffer
	type chunk struct {
		first      any
		code       int
		keysOffset int
		size       int
		offs, body []byte // string offsets within body; the keys
	}
	var c *chunk
	flush := func() {
		offsets.Write(binary.BigEndian.AppendUint32(nil, uint32(chunks.Len())))
		h := []byte{1}
		h = w.rbKeyBytes(h, c.first)
		h = binary.BigEndian.AppendUint32(h, uint32(c.code))
		h = binary.BigEndian.AppendUint32(h, uint32(c.keysOffset))
		h = binary.BigEndian.AppendUint32(h, uint32(c.size))
		if w.keySize == 0 {
			h = binary.BigEndian.AppendUint32(h, uint32(len(c.offs)))
			h = binary.BigEndian.AppendUint32(h, uint32(len(c.body)))
		} else {
			h = binary.BigEndian.AppendUint32(h, uint32(len(c.body)))
			h = binary.BigEndian.AppendUint32(h, uint32(w.keySize))
		}
		chunks.Write(h)
		keys.Write(c.offs)
		keys.Write(c.body)
		c = nil
	}
	for code, e := range entries {
		if c != nil {
			kl := len(w.rbKeyBytes(nil, e.key))
			fits := len(c.body)+kl <= w.limit
			if w.keySize == 0 {
				fits = fits && len(c.offs)+4 <= w.limit
			}
			if fits {
				if w.keySize == 0 {
					c.offs = binary.BigEndian.AppendUint32(c.offs, uint32(len(c.body)))
				}
				c.body = w.rbKeyBytes(c.body, e.key)
				c.size++
				continue
			}
			flush()
		}
		c = &chunk{first: e.key, code: code, keysOffset: keys.Len()}
	}
	if c != nil {
		flush()
	}
	var out []byte
	out = binary.BigEndian.AppendUint32(out, 13)
	out = append(out, 1)
	out = binary.BigEndian.AppendUint32(out, uint32(offsets.Len()/4))
	out = binary.BigEndian.AppendUint32(out, uint32(offsets.Len()))
	out = binary.BigEndian.AppendUint32(out, uint32(chunks.Len()))
	out = append(out, offsets.Bytes()...)
	out = append(out, chunks.Bytes()...)
	return append(out, keys.Bytes()...)
}

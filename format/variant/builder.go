package variant

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/big"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// Builder assembles one variant value and its metadata dictionary, byte for
// byte as Java Paimon's GenericVariantBuilder (allowDuplicateKeys false)
// does: integers take the smallest width holding them, decimals the
// smallest of DECIMAL4/8/16 their digits fit, strings of more than 63 bytes
// the long form, object fields are sorted by key (Java String order, UTF-16
// code units), and the metadata lists the keys in the order they were first
// added, unsorted. Readers of shredded Parquet files use it to rebuild a
// value from its typed_value columns (Java ShreddingUtils.rebuild), which
// must give the bytes Java gives.
//
// Objects and arrays are written as in Java: note WritePos, append the
// children (recording a FieldEntry or an offset per child), then
// FinishObject or FinishArray, which shift the children to make room for
// the header.
type Builder struct {
	buf  []byte
	dict map[string]int
	keys []string
}

// FieldEntry records one object field appended to a Builder: its key, its
// dictionary id and its offset from the object's start.
type FieldEntry struct {
	Key    string
	ID     int
	Offset int
}

// sizeLimit is Java's GenericVariantUtil.SIZE_LIMIT (16 MiB): larger values
// or metadata are refused, as Java refuses them.
const sizeLimit = 16 << 20

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{dict: map[string]int{}} }

// WritePos is the current length of the value being built.
func (b *Builder) WritePos() int { return len(b.buf) }

// Result returns the value and the metadata listing every key added.
func (b *Builder) Result() (value, meta []byte, err error) {
	total := 0
	for _, k := range b.keys {
		total += len(k)
	}
	maxSize := max(total, len(b.keys))
	if maxSize > sizeLimit || len(b.buf) > sizeLimit {
		return nil, nil, corrupt("variant of more than %d bytes", sizeLimit)
	}
	off := intSize(maxSize)
	meta = make([]byte, 0, 1+off+(len(b.keys)+1)*off+total)
	meta = append(meta, byte(1|(off-1)<<6))
	meta = appendUint(meta, len(b.keys), off)
	pos := 0
	for _, k := range b.keys {
		meta = appendUint(meta, pos, off)
		pos += len(k)
	}
	meta = appendUint(meta, pos, off)
	for _, k := range b.keys {
		meta = append(meta, k...)
	}
	return slices.Clone(b.buf), meta, nil
}

// AddKey adds key to the dictionary unless present and returns its id.
func (b *Builder) AddKey(key string) int {
	if id, ok := b.dict[key]; ok {
		return id
	}
	id := len(b.keys)
	b.dict[key] = id
	b.keys = append(b.keys, key)
	return id
}

// AppendNull appends the variant null.
func (b *Builder) AppendNull() { b.buf = append(b.buf, primNull<<2) }

// AppendBool appends a boolean.
func (b *Builder) AppendBool(v bool) {
	if v {
		b.buf = append(b.buf, primTrue<<2)
	} else {
		b.buf = append(b.buf, primFalse<<2)
	}
}

// AppendLong appends an integer in the smallest width that holds it.
func (b *Builder) AppendLong(v int64) {
	switch {
	case v == int64(int8(v)):
		b.buf = append(b.buf, primInt8<<2, byte(v))
	case v == int64(int16(v)):
		b.buf = binary.LittleEndian.AppendUint16(append(b.buf, primInt16<<2), uint16(v))
	case v == int64(int32(v)):
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primInt32<<2), uint32(v))
	default:
		b.buf = binary.LittleEndian.AppendUint64(append(b.buf, primInt64<<2), uint64(v))
	}
}

// AppendDouble appends a DOUBLE.
func (b *Builder) AppendDouble(v float64) {
	b.buf = binary.LittleEndian.AppendUint64(append(b.buf, primDouble<<2), math.Float64bits(v))
}

// AppendFloat appends a FLOAT.
func (b *Builder) AppendFloat(v float32) {
	b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primFloat<<2), math.Float32bits(v))
}

// AppendDate appends a DATE (days since the epoch).
func (b *Builder) AppendDate(days int32) {
	b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primDate<<2), uint32(days))
}

// AppendString appends a string, short when it has at most 63 bytes.
func (b *Builder) AppendString(s string) {
	if len(s) > 63 {
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primString<<2), uint32(len(s)))
	} else {
		b.buf = append(b.buf, byte(len(s)<<2|basicShortStr))
	}
	b.buf = append(b.buf, s...)
}

// AppendBinary appends a BINARY.
func (b *Builder) AppendBinary(v []byte) {
	b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primBinary<<2), uint32(len(v)))
	b.buf = append(b.buf, v...)
}

// AppendDecimal appends unscaled * 10^-scale as Java's appendDecimal does
// for a BigDecimal of that scale: DECIMAL4 when the scale and the number of
// digits of unscaled are at most 9, DECIMAL8 at most 18, else DECIMAL16. A
// value beyond 38 digits or scale is refused.
func (b *Builder) AppendDecimal(unscaled *big.Int, scale int) error {
	digits := decimalDigits(unscaled)
	switch {
	case scale < 0 || scale > 38 || digits > 38:
		return corrupt("decimal of %d digits and scale %d", digits, scale)
	case scale <= 9 && digits <= 9:
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primDecimal4<<2, byte(scale)), uint32(int32(unscaled.Int64())))
	case scale <= 18 && digits <= 18:
		b.buf = binary.LittleEndian.AppendUint64(append(b.buf, primDecimal8<<2, byte(scale)), uint64(unscaled.Int64()))
	default:
		b.buf = append(b.buf, primDecimal16<<2, byte(scale))
		b.buf = append(b.buf, twosComplement16(unscaled)...)
	}
	return nil
}

// decimalDigits is BigDecimal.precision of an unscaled value: its number of
// decimal digits, 1 for zero.
func decimalDigits(v *big.Int) int {
	s := new(big.Int).Abs(v).String()
	return len(s)
}

// twosComplement16 is v as 16 little-endian two's-complement bytes.
func twosComplement16(v *big.Int) []byte {
	x := new(big.Int).Set(v)
	if x.Sign() < 0 {
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	be := x.FillBytes(make([]byte, 16))
	slices.Reverse(be)
	return be
}

// FinishObject turns the fields appended since start into an object,
// sorting them by key; a duplicate key is malformed (Java
// VARIANT_DUPLICATE_KEY).
func (b *Builder) FinishObject(start int, fields []FieldEntry) error {
	slices.SortStableFunc(fields, func(x, y FieldEntry) int { return compareUTF16(x.Key, y.Key) })
	maxID := 0
	for i, f := range fields {
		maxID = max(maxID, f.ID)
		if i > 0 && f.Key == fields[i-1].Key {
			return corrupt("duplicate object key %q", f.Key)
		}
	}
	dataSize := len(b.buf) - start
	if dataSize > sizeLimit {
		return corrupt("variant of more than %d bytes", sizeLimit)
	}
	n := len(fields)
	large := n > 255
	sizeBytes := 1
	if large {
		sizeBytes = 4
	}
	idSize, offSize := intSize(maxID), intSize(dataSize)
	header := make([]byte, 0, 1+sizeBytes+n*idSize+(n+1)*offSize)
	h := byte(basicObject) | byte(offSize-1)<<2 | byte(idSize-1)<<4
	if large {
		h |= 1 << 6
	}
	header = append(header, h)
	header = appendUint(header, n, sizeBytes)
	for _, f := range fields {
		header = appendUint(header, f.ID, idSize)
	}
	for _, f := range fields {
		header = appendUint(header, f.Offset, offSize)
	}
	header = appendUint(header, dataSize, offSize)
	b.buf = slices.Insert(b.buf, start, header...)
	return nil
}

// FinishArray turns the elements appended since start, at the given
// offsets from start, into an array.
func (b *Builder) FinishArray(start int, offsets []int) error {
	dataSize := len(b.buf) - start
	if dataSize > sizeLimit {
		return corrupt("variant of more than %d bytes", sizeLimit)
	}
	n := len(offsets)
	large := n > 255
	sizeBytes := 1
	if large {
		sizeBytes = 4
	}
	offSize := intSize(dataSize)
	header := make([]byte, 0, 1+sizeBytes+(n+1)*offSize)
	h := byte(basicArray) | byte(offSize-1)<<2
	if large {
		h |= 1 << 4
	}
	header = append(header, h)
	header = appendUint(header, n, sizeBytes)
	for _, o := range offsets {
		header = appendUint(header, o, offSize)
	}
	header = appendUint(header, dataSize, offSize)
	b.buf = slices.Insert(b.buf, start, header...)
	return nil
}

// AppendVariant appends the value at the start of value (whose keys are in
// meta), re-adding its object keys to this builder's dictionary and
// re-sorting its objects, as Java's appendVariant does; scalars are copied
// unchanged.
func (b *Builder) AppendVariant(value, meta []byte) error {
	m, err := parseMetadata(meta)
	if err != nil {
		return err
	}
	return b.appendVariant(value, 0, m, 0)
}

func (b *Builder) appendVariant(v []byte, pos int, m *metadata, depth int) error {
	if depth > maxDepth {
		return corrupt("nesting deeper than %d", maxDepth)
	}
	if err := need(v, pos, 1); err != nil {
		return err
	}
	h := v[pos]
	info := int(h >> 2)
	switch h & 3 {
	case basicObject:
		idSize, offSize := (info>>2)&3+1, info&3+1
		n, p, err := count(v, pos+1, info&0x10 != 0)
		if err != nil {
			return err
		}
		ids, offs := p, p+n*idSize
		data := offs + (n+1)*offSize
		if err := need(v, 0, data); err != nil {
			return err
		}
		start := len(b.buf)
		fields := make([]FieldEntry, 0, n)
		for i := range n {
			id, err := readUint(v, ids+i*idSize, idSize)
			if err != nil {
				return err
			}
			off, err := readUint(v, offs+i*offSize, offSize)
			if err != nil {
				return err
			}
			key, err := m.key(id)
			if err != nil {
				return err
			}
			fields = append(fields, FieldEntry{Key: key, ID: b.AddKey(key), Offset: len(b.buf) - start})
			if err := b.appendVariant(v, data+off, m, depth+1); err != nil {
				return err
			}
		}
		return b.FinishObject(start, fields)
	case basicArray:
		offSize := info&3 + 1
		n, p, err := count(v, pos+1, info&0x4 != 0)
		if err != nil {
			return err
		}
		data := p + (n+1)*offSize
		if err := need(v, 0, data); err != nil {
			return err
		}
		start := len(b.buf)
		offsets := make([]int, 0, n)
		for i := range n {
			off, err := readUint(v, p+i*offSize, offSize)
			if err != nil {
				return err
			}
			offsets = append(offsets, len(b.buf)-start)
			if err := b.appendVariant(v, data+off, m, depth+1); err != nil {
				return err
			}
		}
		return b.FinishArray(start, offsets)
	}
	size, err := scalarSize(v, pos)
	if err != nil {
		return err
	}
	if err := need(v, pos, size); err != nil {
		return err
	}
	b.buf = append(b.buf, v[pos:pos+size]...)
	return nil
}

// scalarSize is the encoded size of the short string or primitive at pos
// (Java GenericVariantUtil.valueSize).
func scalarSize(v []byte, pos int) (int, error) {
	h := v[pos]
	info := int(h >> 2)
	if h&3 == basicShortStr {
		return 1 + info, nil
	}
	switch info {
	case primNull, primTrue, primFalse:
		return 1, nil
	case primInt8:
		return 2, nil
	case primInt16:
		return 3, nil
	case primInt32, primDate, primFloat:
		return 5, nil
	case primInt64, primDouble, primTimestamp, primTimestampNTZ:
		return 9, nil
	case primDecimal4:
		return 6, nil
	case primDecimal8:
		return 10, nil
	case primDecimal16:
		return 18, nil
	case primBinary, primString:
		n, err := readUint(v, pos+1, 4)
		if err != nil {
			return 0, err
		}
		return 1 + 4 + n, nil
	case primUUID:
		return 17, nil
	}
	return 0, corrupt("unknown primitive type %d", info)
}

// IsObject reports whether the value at the start of v is an object.
func IsObject(v []byte) bool { return len(v) > 0 && v[0]&3 == basicObject }

// ObjectKeys returns the keys of the object at the start of value, in
// stored order.
func ObjectKeys(value, meta []byte) ([]string, error) {
	m, err := parseMetadata(meta)
	if err != nil {
		return nil, err
	}
	if !IsObject(value) {
		return nil, corrupt("not an object")
	}
	info := int(value[0] >> 2)
	idSize := (info>>2)&3 + 1
	n, p, err := count(value, 1, info&0x10 != 0)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, min(n, len(value)))
	for i := range n {
		id, err := readUint(value, p+i*idSize, idSize)
		if err != nil {
			return nil, err
		}
		k, err := m.key(id)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// AppendObjectFields appends every field of the object at the start of
// value (keys in meta) to fields, re-adding the keys and copying the field
// values as AppendVariant does; start is the offset base of the object
// being built. It is the "leftover fields" step of Java's
// ShreddingUtils.rebuild.
func (b *Builder) AppendObjectFields(value, meta []byte, start int, fields []FieldEntry) ([]FieldEntry, error) {
	m, err := parseMetadata(meta)
	if err != nil {
		return nil, err
	}
	if !IsObject(value) {
		return nil, corrupt("not an object")
	}
	info := int(value[0] >> 2)
	idSize, offSize := (info>>2)&3+1, info&3+1
	n, p, err := count(value, 1, info&0x10 != 0)
	if err != nil {
		return nil, err
	}
	ids, offs := p, p+n*idSize
	data := offs + (n+1)*offSize
	if err := need(value, 0, data); err != nil {
		return nil, err
	}
	for i := range n {
		id, err := readUint(value, ids+i*idSize, idSize)
		if err != nil {
			return nil, err
		}
		off, err := readUint(value, offs+i*offSize, offSize)
		if err != nil {
			return nil, err
		}
		key, err := m.key(id)
		if err != nil {
			return nil, err
		}
		fields = append(fields, FieldEntry{Key: key, ID: b.AddKey(key), Offset: len(b.buf) - start})
		if err := b.appendVariant(value, data+off, m, 1); err != nil {
			return nil, err
		}
	}
	return fields, nil
}

// intSize is the smallest number of bytes (1 to 4) holding v.
func intSize(v int) int {
	switch {
	case v <= 0xff:
		return 1
	case v <= 0xffff:
		return 2
	case v <= 0xffffff:
		return 3
	}
	return 4
}

func appendUint(dst []byte, v, n int) []byte {
	for i := 0; i < n; i++ {
		dst = append(dst, byte(v>>(8*i)))
	}
	return dst
}

// compareUTF16 orders strings as Java's String.compareTo does: by UTF-16
// code units, which differs from byte order for characters above U+FFFF.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := utf16Units(ra), utf16Units(rb)
			for i := 0; i < len(ua) && i < len(ub); i++ {
				if ua[i] != ub[i] {
					return cmp.Compare(ua[i], ub[i])
				}
			}
			return cmp.Compare(len(ua), len(ub))
		}
		a, b = a[na:], b[nb:]
	}
	return cmp.Compare(len(a), len(b))
}

func utf16Units(r rune) []uint16 {
	if r >= 0x10000 {
		r1, r2 := utf16.EncodeRune(r)
		return []uint16{uint16(r1), uint16(r2)}
	}
	return []uint16{uint16(r)}
}

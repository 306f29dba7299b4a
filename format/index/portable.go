package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// This file reads and writes the "portable" RoaringBitmap serialization
// (https://github.com/RoaringBitmap/RoaringFormatSpec), the format
// org.roaringbitmap.RoaringBitmap.serialize writes and Go's roaring
// WriteTo/ReadFrom share. It exists for two reasons:
//
//   - validation: roaring's ReadFrom trusts the input (its Validate is
//     quadratic in the number of runs), so parseContainers checks the
//     structure in one linear pass before the bytes reach the library;
//   - Java's container choices: Bitmap64DeletionVector run-length encodes its
//     bitmaps with Java RoaringBitmap.runOptimize before writing, whose rules
//     differ slightly from Go's RunOptimize. javaRunOptimize applies Java's
//     rules so that 64-bit deletion vectors come out byte for byte as Java
//     writes them.

const (
	cookieNoRuns     = 12346 // SERIAL_COOKIE_NO_RUNCONTAINER
	cookieRuns       = 12347 // SERIAL_COOKIE
	noOffsetThresh   = 4     // NO_OFFSET_THRESHOLD
	maxArrayCard     = 4096  // ArrayContainer.DEFAULT_MAX_SIZE
	bitmapBytes      = 8192  // a bitmap container: 2^16 bits
	maxContainers    = 1 << 16
	emptyBitmapBytes = 8 // cookie + size 0
)

type containerKind uint8

const (
	kindArray containerKind = iota
	kindBitmap
	kindRun
)

// container is one parsed container: its 16-bit key, its kind, its
// cardinality and its payload exactly as serialized (little-endian values for
// an array, 1024 little-endian words for a bitmap, the run pairs without the
// leading run count for a run container).
type container struct {
	key  uint16
	kind containerKind
	card int
	data []byte
}

var errPortable = errors.New("malformed RoaringBitmap")

// parseContainers validates a portable RoaringBitmap at the start of b and
// returns its containers (whose data alias b) and the number of bytes it
// occupies. Checks: a known cookie, at most 2^16 containers, strictly
// increasing keys, every declared byte present, arrays strictly increasing,
// bitmap popcounts equal to the declared cardinality, runs non-empty, inside
// the 16-bit range, ordered and not overlapping, and no empty container. The
// offset header is skipped, as Java's deserializer does.
func parseContainers(b []byte) ([]container, int, error) {
	p := 0
	need := func(n int) error {
		if n < 0 || len(b)-p < n {
			return fmt.Errorf("%w: truncated at byte %d", errPortable, p)
		}
		return nil
	}
	if err := need(4); err != nil {
		return nil, 0, err
	}
	cookie := binary.LittleEndian.Uint32(b[p:])
	p += 4
	var size int
	var runFlags []byte
	switch {
	case cookie&0xFFFF == cookieRuns:
		size = int(cookie>>16) + 1
		n := (size + 7) / 8
		if err := need(n); err != nil {
			return nil, 0, err
		}
		runFlags = b[p : p+n]
		p += n
	case cookie == cookieNoRuns:
		if err := need(4); err != nil {
			return nil, 0, err
		}
		s := binary.LittleEndian.Uint32(b[p:])
		p += 4
		if s > maxContainers {
			return nil, 0, fmt.Errorf("%w: %d containers", errPortable, s)
		}
		size = int(s)
	default:
		return nil, 0, fmt.Errorf("%w: unknown cookie %#x", errPortable, cookie)
	}
	if err := need(4 * size); err != nil {
		return nil, 0, err
	}
	header := b[p : p+4*size]
	p += 4 * size
	if runFlags == nil || size >= noOffsetThresh {
		if err := need(4 * size); err != nil {
			return nil, 0, err
		}
		p += 4 * size
	}
	cs := make([]container, size)
	for i := range size {
		c := &cs[i]
		c.key = binary.LittleEndian.Uint16(header[4*i:])
		c.card = int(binary.LittleEndian.Uint16(header[4*i+2:])) + 1
		if i > 0 && c.key <= cs[i-1].key {
			return nil, 0, fmt.Errorf("%w: container keys out of order", errPortable)
		}
		var err error
		switch {
		case runFlags != nil && runFlags[i/8]&(1<<(i%8)) != 0:
			c.kind = kindRun
			if err = need(2); err != nil {
				return nil, 0, err
			}
			nr := int(binary.LittleEndian.Uint16(b[p:]))
			p += 2
			if err = need(4 * nr); err != nil {
				return nil, 0, err
			}
			c.data = b[p : p+4*nr]
			p += 4 * nr
			c.card, err = checkRuns(c.data)
		case c.card > maxArrayCard:
			c.kind = kindBitmap
			if err = need(bitmapBytes); err != nil {
				return nil, 0, err
			}
			c.data = b[p : p+bitmapBytes]
			p += bitmapBytes
			err = checkBitmap(c.data, c.card)
		default:
			c.kind = kindArray
			if err = need(2 * c.card); err != nil {
				return nil, 0, err
			}
			c.data = b[p : p+2*c.card]
			p += 2 * c.card
			err = checkArray(c.data)
		}
		if err != nil {
			return nil, 0, err
		}
	}
	return cs, p, nil
}

// checkRuns validates run pairs and returns the cardinality they cover. The
// cardinality in the descriptive header is not used for run containers.
func checkRuns(data []byte) (int, error) {
	if len(data) == 0 {
		return 0, fmt.Errorf("%w: empty run container", errPortable)
	}
	card, next := 0, 0 // next: smallest start the following run may have
	for i := 0; i < len(data); i += 4 {
		start := int(binary.LittleEndian.Uint16(data[i:]))
		length := int(binary.LittleEndian.Uint16(data[i+2:])) + 1
		if start < next || start+length > 1<<16 {
			return 0, fmt.Errorf("%w: run [%d, +%d) out of order or range", errPortable, start, length)
		}
		next = start + length
		card += length
	}
	return card, nil
}

func checkBitmap(data []byte, card int) error {
	n := 0
	for i := 0; i < len(data); i += 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(data[i:]))
	}
	if n != card {
		return fmt.Errorf("%w: bitmap container holds %d values, header says %d", errPortable, n, card)
	}
	return nil
}

func checkArray(data []byte) error {
	for i := 2; i < len(data); i += 2 {
		if binary.LittleEndian.Uint16(data[i:]) <= binary.LittleEndian.Uint16(data[i-2:]) {
			return fmt.Errorf("%w: array container not strictly increasing", errPortable)
		}
	}
	return nil
}

// numRuns counts the runs of consecutive values in an array or bitmap
// container.
func (c *container) numRuns() int {
	switch c.kind {
	case kindArray:
		runs, prev := 0, -2
		for i := 0; i < len(c.data); i += 2 {
			v := int(binary.LittleEndian.Uint16(c.data[i:]))
			if v != prev+1 {
				runs++
			}
			prev = v
		}
		return runs
	case kindBitmap:
		runs := 0
		var carry uint64 // top bit of the previous word
		for i := 0; i < len(c.data); i += 8 {
			w := binary.LittleEndian.Uint64(c.data[i:])
			// A run starts at every set bit whose lower neighbour is clear.
			starts := w &^ (w<<1 | carry)
			runs += bits.OnesCount64(starts)
			carry = w >> 63
		}
		return runs
	}
	return len(c.data) / 4
}

// javaRunOptimize returns c in the representation Java's
// RoaringBitmap.runOptimize would pick: ArrayContainer.runOptimize and
// BitmapContainer.runOptimize turn into a run container only when it is
// strictly smaller (2 + 4·runs bytes against 2·card, respectively 8192); a
// run container is kept while not larger than both alternatives as
// RunContainer.toEfficientContainer sizes them (8192 for a bitmap, 2 + 2·card
// for an array, that is, counting the array's length prefix) and otherwise
// becomes an array (at most 4096 values) or a bitmap. Java RoaringBitmap 1.2.1,
// the version Paimon 1.4.2 shades.
func javaRunOptimize(c container) container {
	switch c.kind {
	case kindArray:
		if runs := c.numRuns(); 2*c.card > 2+4*runs {
			return c.toRuns(runs)
		}
	case kindBitmap:
		if runs := c.numRuns(); bitmapBytes > 2+4*runs {
			return c.toRuns(runs)
		}
	case kindRun:
		if size := 2 + len(c.data); size > min(bitmapBytes, 2+2*c.card) {
			return c.fromRuns()
		}
	}
	return c
}

// values calls fn for each value of an array or bitmap container, ascending.
func (c *container) values(fn func(v int)) {
	switch c.kind {
	case kindArray:
		for i := 0; i < len(c.data); i += 2 {
			fn(int(binary.LittleEndian.Uint16(c.data[i:])))
		}
	case kindBitmap:
		for i := 0; i < len(c.data); i += 8 {
			w := binary.LittleEndian.Uint64(c.data[i:])
			for w != 0 {
				fn(i*8 + bits.TrailingZeros64(w))
				w &= w - 1
			}
		}
	case kindRun:
		for i := 0; i < len(c.data); i += 4 {
			start := int(binary.LittleEndian.Uint16(c.data[i:]))
			length := int(binary.LittleEndian.Uint16(c.data[i+2:])) + 1
			for v := start; v < start+length; v++ {
				fn(v)
			}
		}
	}
}

func (c container) toRuns(runs int) container {
	out := make([]byte, 0, 4*runs)
	start, prev := -1, -2
	flush := func() {
		if start >= 0 {
			out = binary.LittleEndian.AppendUint16(out, uint16(start))
			out = binary.LittleEndian.AppendUint16(out, uint16(prev-start))
		}
	}
	c.values(func(v int) {
		if v != prev+1 {
			flush()
			start = v
		}
		prev = v
	})
	flush()
	return container{key: c.key, kind: kindRun, card: c.card, data: out}
}

func (c container) fromRuns() container {
	if c.card <= maxArrayCard {
		out := make([]byte, 0, 2*c.card)
		c.values(func(v int) { out = binary.LittleEndian.AppendUint16(out, uint16(v)) })
		return container{key: c.key, kind: kindArray, card: c.card, data: out}
	}
	out := make([]byte, bitmapBytes)
	c.values(func(v int) { out[v/8] |= 1 << (v % 8) })
	return container{key: c.key, kind: kindBitmap, card: c.card, data: out}
}

// appendContainers serializes containers in the portable format, with the
// run-container flags and the offset header exactly as Java's
// RoaringArray.serialize writes them.
func appendContainers(dst []byte, cs []container) []byte {
	base := len(dst)
	hasRun := false
	for i := range cs {
		hasRun = hasRun || cs[i].kind == kindRun
	}
	size := len(cs)
	if hasRun {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(cookieRuns|(size-1)<<16))
		flags := make([]byte, (size+7)/8)
		for i := range cs {
			if cs[i].kind == kindRun {
				flags[i/8] |= 1 << (i % 8)
			}
		}
		dst = append(dst, flags...)
	} else {
		dst = binary.LittleEndian.AppendUint32(dst, cookieNoRuns)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(size))
	}
	for i := range cs {
		dst = binary.LittleEndian.AppendUint16(dst, cs[i].key)
		dst = binary.LittleEndian.AppendUint16(dst, uint16(cs[i].card-1))
	}
	if !hasRun || size >= noOffsetThresh {
		offset := len(dst) - base + 4*size
		for i := range cs {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(offset))
			offset += cs[i].serializedSize()
		}
	}
	for i := range cs {
		if cs[i].kind == kindRun {
			dst = binary.LittleEndian.AppendUint16(dst, uint16(len(cs[i].data)/4))
		}
		dst = append(dst, cs[i].data...)
	}
	return dst
}

func (c *container) serializedSize() int {
	if c.kind == kindRun {
		return 2 + len(c.data)
	}
	return len(c.data)
}

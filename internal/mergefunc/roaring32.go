package mergefunc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// This file reproduces what Paimon's FieldRoaringBitmap32Agg does with two
// serialized bitmaps: RoaringBitmap.deserialize both, acc.or(input) in
// place, runOptimize, serialize — with org.roaringbitmap 1.2.1. The bytes
// follow the portable Roaring format, but which container type (array,
// bitmap or run) each 16-bit chunk ends up in depends on Java's in-place
// union of the two container types involved and on runOptimize's size
// rules, so both are mirrored here rather than delegated to another Roaring
// library.

const (
	roaringCookieNoRuns = 12346
	roaringCookieRuns   = 12347
	roaringNoOffset     = 4    // NO_OFFSET_THRESHOLD
	roaringArrayMax     = 4096 // ArrayContainer.DEFAULT_MAX_SIZE
	roaringBitmapBytes  = 8192
)

var errRoaring = errors.New("invalid roaring bitmap")

type containerKind uint8

const (
	kindArray containerKind = iota
	kindBitmap
	kindRun
)

// rContainer is one 16-bit chunk. Exactly one representation is set: the
// sorted values (array), 1024 words (bitmap) or start/length pairs (run).
type rContainer struct {
	kind   containerKind
	values []uint16
	words  []uint64
	runs   []uint16
}

type rBitmap struct {
	keys []uint16
	cs   []rContainer
}

// parseRoaring reads the portable format as Java's RoaringArray.deserialize
// (ByteBuffer) does, and additionally rejects what would make the union
// meaningless: unsorted keys or values, overlapping runs, a bitmap whose
// population differs from its header.
func parseRoaring(b []byte) (*rBitmap, error) {
	r := reader{b: b}
	cookie, ok := r.u32()
	if !ok {
		return nil, fmt.Errorf("%w: truncated cookie", errRoaring)
	}
	var size int
	hasRuns := cookie&0xFFFF == roaringCookieRuns
	switch {
	case hasRuns:
		size = int(cookie>>16) + 1
	case cookie == roaringCookieNoRuns:
		n, ok := r.u32()
		if !ok {
			return nil, fmt.Errorf("%w: truncated size", errRoaring)
		}
		if n > 1<<16 {
			return nil, fmt.Errorf("%w: size too large", errRoaring)
		}
		size = int(n)
	default:
		return nil, fmt.Errorf("%w: unknown cookie %d", errRoaring, int32(cookie))
	}
	var runFlags []byte
	if hasRuns {
		if runFlags, ok = r.take((size + 7) / 8); !ok {
			return nil, fmt.Errorf("%w: truncated run flags", errRoaring)
		}
	}
	bm := &rBitmap{keys: make([]uint16, size), cs: make([]rContainer, size)}
	cards := make([]int, size)
	for k := 0; k < size; k++ {
		key, ok1 := r.u16()
		c, ok2 := r.u16()
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%w: truncated header", errRoaring)
		}
		if k > 0 && key <= bm.keys[k-1] {
			return nil, fmt.Errorf("%w: keys not increasing", errRoaring)
		}
		bm.keys[k], cards[k] = key, int(c)+1
	}
	if !hasRuns || size >= roaringNoOffset {
		if _, ok := r.take(4 * size); !ok {
			return nil, fmt.Errorf("%w: truncated offsets", errRoaring)
		}
	}
	for k := 0; k < size; k++ {
		isRun := runFlags != nil && runFlags[k/8]&(1<<(k%8)) != 0
		switch {
		case isRun:
			n, ok := r.u16()
			if !ok {
				return nil, fmt.Errorf("%w: truncated run container", errRoaring)
			}
			runs := make([]uint16, 2*int(n))
			prevEnd := -2
			for i := range runs {
				if runs[i], ok = r.u16(); !ok {
					return nil, fmt.Errorf("%w: truncated run container", errRoaring)
				}
			}
			for i := 0; i < len(runs); i += 2 {
				start, end := int(runs[i]), int(runs[i])+int(runs[i+1])
				if end > 0xFFFF || start <= prevEnd {
					return nil, fmt.Errorf("%w: runs overlap or overflow", errRoaring)
				}
				prevEnd = end
			}
			bm.cs[k] = rContainer{kind: kindRun, runs: runs}
		case cards[k] > roaringArrayMax:
			words := make([]uint64, 1024)
			card := 0
			for i := range words {
				w, ok := r.u64()
				if !ok {
					return nil, fmt.Errorf("%w: truncated bitmap container", errRoaring)
				}
				words[i] = w
				card += bits.OnesCount64(w)
			}
			if card != cards[k] {
				return nil, fmt.Errorf("%w: bitmap container of %d values declares %d", errRoaring, card, cards[k])
			}
			bm.cs[k] = rContainer{kind: kindBitmap, words: words}
		default:
			vals := make([]uint16, cards[k])
			for i := range vals {
				if vals[i], ok = r.u16(); !ok {
					return nil, fmt.Errorf("%w: truncated array container", errRoaring)
				}
				if i > 0 && vals[i] <= vals[i-1] {
					return nil, fmt.Errorf("%w: array container not sorted", errRoaring)
				}
			}
			bm.cs[k] = rContainer{kind: kindArray, values: vals}
		}
	}
	return bm, nil
}

type reader struct {
	b   []byte
	off int
}

func (r *reader) take(n int) ([]byte, bool) {
	if n < 0 || len(r.b)-r.off < n {
		return nil, false
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s, true
}

func (r *reader) u16() (uint16, bool) {
	s, ok := r.take(2)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint16(s), true
}

func (r *reader) u32() (uint32, bool) {
	s, ok := r.take(4)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint32(s), true
}

func (r *reader) u64() (uint64, bool) {
	s, ok := r.take(8)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint64(s), true
}

// toWords returns the container as a 65536-bit set.
func (c *rContainer) toWords() []uint64 {
	w := make([]uint64, 1024)
	switch c.kind {
	case kindBitmap:
		copy(w, c.words)
	case kindArray:
		for _, v := range c.values {
			w[v>>6] |= 1 << (v & 63)
		}
	case kindRun:
		for i := 0; i < len(c.runs); i += 2 {
			setRange(w, int(c.runs[i]), int(c.runs[i])+int(c.runs[i+1]))
		}
	}
	return w
}

// setRange sets the bits first..last (inclusive).
func setRange(w []uint64, first, last int) {
	for first <= last {
		i, lo := first>>6, uint(first&63)
		hi := uint(63)
		if last>>6 == i {
			hi = uint(last & 63)
		}
		mask := ^uint64(0) << lo
		if hi < 63 {
			mask &= (uint64(1) << (hi + 1)) - 1
		}
		w[i] |= mask
		first = (i + 1) << 6
	}
}

// cardinality is getCardinality: for a run container the sum of the run
// lengths, for the others the number of values.
func (c *rContainer) cardinality() int {
	switch c.kind {
	case kindArray:
		return len(c.values)
	case kindBitmap:
		n := 0
		for _, w := range c.words {
			n += bits.OnesCount64(w)
		}
		return n
	}
	n := 0
	for i := 1; i < len(c.runs); i += 2 {
		n += int(c.runs[i]) + 1
	}
	return n
}

// isFull is Container.isFull: for a run container, exactly the single run
// [0, 65535].
func (c *rContainer) isFull() bool {
	if c.kind == kindRun {
		return len(c.runs) == 2 && c.runs[0] == 0 && c.runs[1] == 0xFFFF
	}
	return c.cardinality() == 1<<16
}

// wordsStats returns the cardinality and the number of maximal runs of a
// bit set.
func wordsStats(w []uint64) (card, runs int) {
	prevTop := uint64(0)
	for _, x := range w {
		card += bits.OnesCount64(x)
		// A run starts at every set bit whose predecessor is clear.
		starts := x &^ (x<<1 | prevTop)
		runs += bits.OnesCount64(starts)
		prevTop = x >> 63
	}
	return card, runs
}

// fromWords builds a container of the given kind from a bit set.
func fromWords(kind containerKind, w []uint64) rContainer {
	switch kind {
	case kindBitmap:
		return rContainer{kind: kindBitmap, words: w}
	case kindArray:
		var vals []uint16
		for i, x := range w {
			for x != 0 {
				t := bits.TrailingZeros64(x)
				vals = append(vals, uint16(i*64+t))
				x &= x - 1
			}
		}
		return rContainer{kind: kindArray, values: vals}
	}
	return rContainer{kind: kindRun, runs: wordRuns(w)}
}

// wordRuns returns the maximal runs of a bit set as start/length pairs.
func wordRuns(w []uint64) []uint16 {
	var runs []uint16
	start, inRun := 0, false
	for i, x := range w {
		base, pos := i*64, 0 // bits below pos are done
		for pos < 64 {
			rest := x >> uint(pos)
			if !inRun {
				if rest == 0 {
					break
				}
				pos += bits.TrailingZeros64(rest)
				start, inRun = base+pos, true
				continue
			}
			ones := bits.TrailingZeros64(^rest)
			if pos+ones >= 64 {
				break // the run goes on into the next word
			}
			end := base + pos + ones - 1
			runs = append(runs, uint16(start), uint16(end-start))
			inRun = false
			pos += ones
		}
	}
	if inRun {
		runs = append(runs, uint16(start), uint16(0xFFFF-start))
	}
	return runs
}

func runBytes(runs int) int { return 2 + 4*runs }

// toEfficient is RunContainer.toEfficientContainer: keep the run container
// unless an array or a bitmap is strictly smaller.
func toEfficient(card, runs int) containerKind {
	arrayBytes := 2*card + 2
	if runBytes(runs) <= min(roaringBitmapBytes, arrayBytes) {
		return kindRun
	}
	if card <= roaringArrayMax {
		return kindArray
	}
	return kindBitmap
}

// runOptimizeKind is Container.runOptimize for a container of kind pre.
func runOptimizeKind(pre containerKind, card, runs int) containerKind {
	switch pre {
	case kindArray:
		if 2*card > runBytes(runs) {
			return kindRun
		}
		return kindArray
	case kindBitmap:
		if runBytes(runs) < roaringBitmapBytes {
			return kindRun
		}
		return kindBitmap
	}
	return toEfficient(card, runs)
}

// optimizeAlone is runOptimize on a container no union touched: a run
// container keeps its runs as stored when it stays a run container.
func optimizeAlone(c rContainer) rContainer {
	if c.kind == kindRun {
		card := c.cardinality()
		k := toEfficient(card, len(c.runs)/2)
		if k == kindRun {
			return c
		}
		return fromWords(k, c.toWords())
	}
	w := c.toWords()
	card, runs := wordsStats(w)
	k := runOptimizeKind(c.kind, card, runs)
	if k == c.kind {
		return c
	}
	return fromWords(k, w)
}

// unionKind is the container type Java's a.ior(b) returns (before
// runOptimize), given the union's cardinality and maximal run count.
func unionKind(a, b *rContainer, card, runs int) containerKind {
	full := card == 1<<16
	switch a.kind {
	case kindArray:
		switch b.kind {
		case kindArray: // ArrayContainer.ior(ArrayContainer)
			if card <= roaringArrayMax {
				return kindArray
			}
			return kindBitmap
		case kindBitmap: // BitmapContainer.or(ArrayContainer)
			if full {
				return kindRun
			}
			return kindBitmap
		}
		// RunContainer.or(ArrayContainer): lazyor, then repairAfterLazy.
		if b.isFull() || full {
			return kindRun
		}
		if runs > roaringArrayMax {
			return kindBitmap
		}
		return toEfficient(card, runs)
	case kindBitmap:
		if b.kind != kindArray && full { // ior(Bitmap), ior(Run) check isFull
			return kindRun
		}
		return kindBitmap
	}
	if a.isFull() {
		return kindRun
	}
	if b.kind == kindBitmap { // RunContainer.or(BitmapContainer)
		if full {
			return kindRun
		}
		return kindBitmap
	}
	return toEfficient(card, runs) // ior(Array), ior(Run)
}

// unionContainer is a.ior(b) followed by runOptimize.
func unionContainer(a, b *rContainer) rContainer {
	if a.kind == kindRun && a.isFull() {
		return *a
	}
	w := a.toWords()
	for i, x := range b.toWords() {
		w[i] |= x
	}
	card, runs := wordsStats(w)
	pre := unionKind(a, b, card, runs)
	if pre == kindRun {
		// The run container Java builds has maximal runs.
		return fromWords(toEfficient(card, runs), w)
	}
	return fromWords(runOptimizeKind(pre, card, runs), w)
}

// roaringUnion returns the serialized union of two serialized bitmaps.
func roaringUnion(accBytes, inBytes []byte) ([]byte, error) {
	a, err := parseRoaring(accBytes)
	if err != nil {
		return nil, err
	}
	b, err := parseRoaring(inBytes)
	if err != nil {
		return nil, err
	}
	out := &rBitmap{}
	i, j := 0, 0
	for i < len(a.keys) || j < len(b.keys) {
		switch {
		case j >= len(b.keys) || (i < len(a.keys) && a.keys[i] < b.keys[j]):
			out.keys = append(out.keys, a.keys[i])
			out.cs = append(out.cs, optimizeAlone(a.cs[i]))
			i++
		case i >= len(a.keys) || b.keys[j] < a.keys[i]:
			out.keys = append(out.keys, b.keys[j])
			out.cs = append(out.cs, optimizeAlone(b.cs[j]))
			j++
		default:
			out.keys = append(out.keys, a.keys[i])
			out.cs = append(out.cs, unionContainer(&a.cs[i], &b.cs[j]))
			i++
			j++
		}
	}
	return out.serialize(), nil
}

// serialize writes the portable format as RoaringArray.serialize does.
func (bm *rBitmap) serialize() []byte {
	size := len(bm.keys)
	hasRuns := false
	for _, c := range bm.cs {
		if c.kind == kindRun {
			hasRuns = true
			break
		}
	}
	var out []byte
	var start int
	if hasRuns {
		out = binary.LittleEndian.AppendUint32(out, uint32(roaringCookieRuns|(size-1)<<16))
		flags := make([]byte, (size+7)/8)
		for k, c := range bm.cs {
			if c.kind == kindRun {
				flags[k/8] |= 1 << (k % 8)
			}
		}
		out = append(out, flags...)
		if size < roaringNoOffset {
			start = 4 + 4*size + len(flags)
		} else {
			start = 4 + 8*size + len(flags)
		}
	} else {
		out = binary.LittleEndian.AppendUint32(out, roaringCookieNoRuns)
		out = binary.LittleEndian.AppendUint32(out, uint32(size))
		start = 4 + 4 + 8*size
	}
	for k, c := range bm.cs {
		out = binary.LittleEndian.AppendUint16(out, bm.keys[k])
		out = binary.LittleEndian.AppendUint16(out, uint16(c.cardinality()-1))
	}
	if !hasRuns || size >= roaringNoOffset {
		for _, c := range bm.cs {
			out = binary.LittleEndian.AppendUint32(out, uint32(start))
			start += c.sizeInBytes()
		}
	}
	for _, c := range bm.cs {
		switch c.kind {
		case kindArray:
			for _, v := range c.values {
				out = binary.LittleEndian.AppendUint16(out, v)
			}
		case kindBitmap:
			for _, w := range c.words {
				out = binary.LittleEndian.AppendUint64(out, w)
			}
		case kindRun:
			out = binary.LittleEndian.AppendUint16(out, uint16(len(c.runs)/2))
			for _, v := range c.runs {
				out = binary.LittleEndian.AppendUint16(out, v)
			}
		}
	}
	return out
}

// sizeInBytes is Container.getArraySizeInBytes.
func (c *rContainer) sizeInBytes() int {
	switch c.kind {
	case kindArray:
		return 2 * len(c.values)
	case kindBitmap:
		return roaringBitmapBytes
	}
	return runBytes(len(c.runs) / 2)
}

package orc

import (
	"encoding/binary"
	"math/bits"
)

// outStream collects one stream of a stripe (Java OutStream): bytes are
// buffered up to the block size, then compressed into a chunk with its
// 3-byte header (or stored as is when compression does not shrink them).
// Without a codec the bytes are kept as they come.
type outStream struct {
	comp      *compressor // nil: no compression
	blockSize int
	buf       []byte // the current chunk's bytes (all bytes without a codec)
	out       []byte // finished chunks
}

func newOutStream(comp *compressor, blockSize int) *outStream {
	return &outStream{comp: comp, blockSize: blockSize}
}

func (o *outStream) writeByte(b byte) {
	o.buf = append(o.buf, b)
	if o.comp != nil && len(o.buf) >= o.blockSize {
		o.spill()
	}
}

func (o *outStream) write(p []byte) {
	if o.comp == nil {
		o.buf = append(o.buf, p...)
		return
	}
	for len(p) > 0 {
		k := min(len(p), o.blockSize-len(o.buf))
		o.buf = append(o.buf, p[:k]...)
		p = p[k:]
		if len(o.buf) >= o.blockSize {
			o.spill()
		}
	}
}

// spill compresses the current chunk.
func (o *outStream) spill() {
	if len(o.buf) == 0 {
		return
	}
	hdr := len(o.out)
	o.out = append(o.out, 0, 0, 0)
	var ok bool
	o.out, ok = o.comp.compress(o.out, o.buf)
	n := len(o.out) - hdr - chunkHeaderSize
	if !ok {
		o.out = append(o.out[:hdr+chunkHeaderSize], o.buf...)
		n = len(o.buf)
	}
	v := n << 1
	if !ok {
		v |= 1
	}
	o.out[hdr], o.out[hdr+1], o.out[hdr+2] = byte(v), byte(v>>8), byte(v>>16)
	o.buf = o.buf[:0]
}

// position appends the stream's current position in row index form:
// (chunk offset, offset in the chunk) with a codec, the byte offset
// without.
func (o *outStream) position(dst []uint64) []uint64 {
	if o.comp == nil {
		return append(dst, uint64(len(o.buf)))
	}
	return append(dst, uint64(len(o.out)), uint64(len(o.buf)))
}

// finish flushes the last chunk and returns the stream's bytes.
func (o *outStream) finish() []byte {
	if o.comp == nil {
		return o.buf
	}
	o.spill()
	return o.out
}

// size is the bytes the stream holds.
func (o *outStream) size() int { return len(o.out) + len(o.buf) }

// reset empties the stream for the next stripe, keeping its buffers.
func (o *outStream) reset() {
	o.buf, o.out = o.buf[:0], o.out[:0]
}

// byteRLEWriter writes byte RLE (Java RunLengthByteWriter): runs of 3 to
// 130 equal bytes, literal lists of up to 128.
type byteRLEWriter struct {
	out    *outStream
	lits   [128]byte
	n      int
	repeat bool
	tail   int // equal bytes at the end of lits
}

func (w *byteRLEWriter) write(b byte) {
	switch {
	case w.n == 0:
		w.lits[0], w.n, w.tail = b, 1, 1
	case w.repeat:
		if b == w.lits[0] {
			w.n++
			if w.n == 130 {
				w.writeValues()
			}
		} else {
			w.writeValues()
			w.lits[0], w.n, w.tail = b, 1, 1
		}
	default:
		if b == w.lits[w.n-1] {
			w.tail++
		} else {
			w.tail = 1
		}
		if w.tail == 3 {
			if w.n == 2 {
				w.repeat = true
				w.n = 3
			} else {
				w.n -= 2
				w.writeValues()
				w.lits[0], w.repeat, w.n = b, true, 3
			}
		} else {
			w.lits[w.n] = b
			w.n++
			if w.n == 128 {
				w.writeValues()
			}
		}
	}
}

func (w *byteRLEWriter) writeValues() {
	if w.n == 0 {
		return
	}
	if w.repeat {
		w.out.writeByte(byte(w.n - 3))
		w.out.writeByte(w.lits[0])
	} else {
		w.out.writeByte(byte(-w.n))
		w.out.write(w.lits[:w.n])
	}
	w.n, w.repeat, w.tail = 0, false, 0
}

func (w *byteRLEWriter) flush() { w.writeValues() }

func (w *byteRLEWriter) position(dst []uint64) []uint64 {
	return append(w.out.position(dst), uint64(w.n))
}

// boolWriter writes a bit stream (Java BitFieldWriter): bits most
// significant first into bytes, the bytes as byte RLE.
type boolWriter struct {
	bytes byteRLEWriter
	cur   byte
	used  int // bits of cur filled
}

func newBoolWriter(out *outStream) *boolWriter { return &boolWriter{bytes: byteRLEWriter{out: out}} }

func (w *boolWriter) write(bit bool) {
	if bit {
		w.cur |= 1 << (7 - w.used)
	}
	w.used++
	if w.used == 8 {
		w.bytes.write(w.cur)
		w.cur, w.used = 0, 0
	}
}

func (w *boolWriter) flush() {
	if w.used > 0 {
		w.bytes.write(w.cur)
		w.cur, w.used = 0, 0
	}
	w.bytes.flush()
}

func (w *boolWriter) position(dst []uint64) []uint64 {
	return append(w.bytes.position(dst), uint64(w.used))
}

// intWriter writes integer RLE version 2. Values gather into runs of at
// most 512: a run of three or more equal values becomes a short repeat (up
// to 10) or a fixed-delta run; other values become a delta run when they
// are monotonic, else a direct run of bit-packed values at the byte-aligned
// width of the largest (Java RunLengthIntegerWriterV2 with aligned bit
// packing; patched base runs, an optimisation for outliers, are not
// written).
type intWriter struct {
	out    *outStream
	signed bool
	lits   [512]int64
	n      int
	fixed  int // equal values at the end of lits
	packed []byte
}

func newIntWriter(out *outStream, signed bool) *intWriter {
	return &intWriter{out: out, signed: signed}
}

func (w *intWriter) write(v int64) {
	if w.n > 0 && v == w.lits[w.n-1] {
		w.fixed++
	} else {
		if w.fixed >= 3 {
			// Everything buffered is that repeat (the values before it
			// went out when it reached three).
			w.writeRepeat()
		}
		w.fixed = 1
	}
	w.lits[w.n] = v
	w.n++
	if w.fixed == 3 && w.n > 3 {
		w.writeVariable(w.lits[:w.n-3])
		w.lits[0], w.lits[1], w.lits[2] = v, v, v
		w.n = 3
	}
	if w.n == len(w.lits) {
		w.flushRun()
	}
}

// flushRun writes what is buffered.
func (w *intWriter) flushRun() {
	if w.n == 0 {
		return
	}
	if w.fixed == w.n && w.n >= 3 {
		w.writeRepeat()
	} else {
		w.writeVariable(w.lits[:w.n])
	}
	w.n, w.fixed = 0, 0
}

func (w *intWriter) flush() { w.flushRun() }

func (w *intWriter) position(dst []uint64) []uint64 {
	return append(w.out.position(dst), uint64(w.n))
}

func (w *intWriter) zigzag(v int64) uint64 {
	if w.signed {
		return uint64(v<<1) ^ uint64(v>>63)
	}
	return uint64(v)
}

func (w *intWriter) writeVarint(v int64) {
	var b [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(b[:], w.zigzag(v))
	w.out.write(b[:n])
}

func (w *intWriter) writeSignedVarint(v int64) {
	var b [binary.MaxVarintLen64]byte
	n := binary.PutVarint(b[:], v)
	w.out.write(b[:n])
}

// writeRepeat writes the buffered run of equal values.
func (w *intWriter) writeRepeat() {
	v := w.lits[0]
	n := w.n
	if n <= 10 {
		u := w.zigzag(v)
		width := max((bits.Len64(u)+7)/8, 1)
		w.out.writeByte(byte((width-1)<<3 | (n - 3)))
		for i := width - 1; i >= 0; i-- {
			w.out.writeByte(byte(u >> (8 * i)))
		}
	} else {
		w.out.writeByte(byte(3<<6 | (n-1)>>8))
		w.out.writeByte(byte(n - 1))
		w.writeVarint(v)
		w.out.writeByte(0) // fixed delta 0
	}
	w.n, w.fixed = 0, 0
}

// writeVariable writes a run of values that is not a repeat.
func (w *intWriter) writeVariable(vals []int64) {
	n := len(vals)
	if n > 3 {
		first := vals[1] - vals[0]
		overflow := (vals[1] >= vals[0]) != (first >= 0)
		inc, dec, fixed := true, true, true
		var maxDelta uint64
		for i := 1; i < n && !overflow; i++ {
			d := vals[i] - vals[i-1]
			if (vals[i] >= vals[i-1]) != (d >= 0) {
				overflow = true
				break
			}
			inc = inc && d >= 0
			dec = dec && d <= 0
			fixed = fixed && d == first
			if i > 1 {
				ad := uint64(d)
				if d < 0 {
					ad = uint64(-d)
				}
				maxDelta = max(maxDelta, ad)
			}
		}
		if !overflow && first != 0 && (fixed || inc || dec) {
			w.writeDelta(vals, first, fixed, maxDelta)
			return
		}
	}
	w.writeDirect(vals)
}

func (w *intWriter) writeDelta(vals []int64, first int64, fixed bool, maxDelta uint64) {
	n := len(vals)
	width := 0
	if !fixed {
		width = alignedBits(bits.Len64(maxDelta))
		if width == 1 {
			width = 2 // code 0 means a fixed delta
		}
	}
	code := 0
	if width > 0 {
		code = encodeBitWidth(width)
	}
	w.out.writeByte(byte(3<<6 | code<<1 | (n-1)>>8))
	w.out.writeByte(byte(n - 1))
	w.writeVarint(vals[0])
	w.writeSignedVarint(first)
	if fixed {
		return
	}
	deltas := make([]uint64, 0, n-2)
	for i := 2; i < n; i++ {
		d := vals[i] - vals[i-1]
		if d < 0 {
			d = -d
		}
		deltas = append(deltas, uint64(d))
	}
	w.pack(deltas, width)
}

func (w *intWriter) writeDirect(vals []int64) {
	n := len(vals)
	us := make([]uint64, n)
	var all uint64
	for i, v := range vals {
		us[i] = w.zigzag(v)
		all |= us[i]
	}
	width := alignedBits(bits.Len64(all))
	w.out.writeByte(byte(1<<6 | encodeBitWidth(width)<<1 | (n-1)>>8))
	w.out.writeByte(byte(n - 1))
	w.pack(us, width)
}

// pack writes values of width bits, big-endian, padded to a byte.
func (w *intWriter) pack(vals []uint64, width int) {
	nbytes := (len(vals)*width + 7) / 8
	if cap(w.packed) < nbytes {
		w.packed = make([]byte, nbytes)
	}
	b := w.packed[:nbytes]
	switch width {
	case 8:
		for i, v := range vals {
			b[i] = byte(v)
		}
	case 16:
		for i, v := range vals {
			binary.BigEndian.PutUint16(b[2*i:], uint16(v))
		}
	case 32:
		for i, v := range vals {
			binary.BigEndian.PutUint32(b[4*i:], uint32(v))
		}
	case 64:
		for i, v := range vals {
			binary.BigEndian.PutUint64(b[8*i:], v)
		}
	default:
		clear(b)
		bit := 0
		for _, v := range vals {
			for k := width - 1; k >= 0; k-- {
				if v>>k&1 != 0 {
					b[bit>>3] |= 0x80 >> (bit & 7)
				}
				bit++
			}
		}
	}
	w.out.write(b)
}

// alignedBits rounds a bit count up to the widths Java's aligned bit
// packing uses (SerializationUtils.getClosestAlignedFixedBits).
func alignedBits(n int) int {
	switch {
	case n <= 1:
		return 1
	case n <= 2:
		return 2
	case n <= 4:
		return 4
	case n <= 8:
		return 8
	case n <= 16:
		return 16
	case n <= 24:
		return 24
	case n <= 32:
		return 32
	case n <= 40:
		return 40
	case n <= 48:
		return 48
	case n <= 56:
		return 56
	}
	return 64
}

// encodeBitWidth is the inverse of decodeBitWidth for the widths the
// table holds.
func encodeBitWidth(n int) int {
	switch {
	case n <= 24:
		return n - 1
	case n <= 26:
		return 24
	case n <= 28:
		return 25
	case n <= 30:
		return 26
	case n <= 32:
		return 27
	case n <= 40:
		return 28
	case n <= 48:
		return 29
	case n <= 56:
		return 30
	}
	return 31
}

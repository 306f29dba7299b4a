package orc

import "encoding/binary"

// Run-length decoders of the ORC specification ("Run Length Encoding"):
// byte RLE, boolean bit streams over byte RLE, and integer RLE versions 1
// and 2. Java: RunLengthByteReader, BitFieldReader, RunLengthIntegerReader,
// RunLengthIntegerReaderV2. Each decoder holds at most one run (v2: 512
// values), so a corrupt length can make it read past its stream (an error)
// but never allocate.

// byteRLE decodes byte RLE: a control byte 0..127 is a run of control+3
// copies of the next byte, -128..-1 is a list of -control literal bytes.
type byteRLE struct {
	in    *inStream
	run   bool
	value byte // run value
	left  int  // values left in the current run or literal list
}

func (d *byteRLE) readHeader() error {
	c, err := d.in.readByte()
	if err != nil {
		return err
	}
	if c < 0x80 {
		d.run, d.left = true, int(c)+3
		d.value, err = d.in.readByte()
		return err
	}
	d.run, d.left = false, 256-int(c)
	return nil
}

// next fills dst.
func (d *byteRLE) next(dst []byte) error {
	for len(dst) > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return err
			}
		}
		n := min(len(dst), d.left)
		if d.run {
			v := d.value
			for i := range dst[:n] {
				dst[i] = v
			}
		} else if err := d.in.readInto(dst[:n]); err != nil {
			return err
		}
		d.left -= n
		dst = dst[n:]
	}
	return nil
}

// skip passes over n values.
func (d *byteRLE) skip(n int64) error {
	for n > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return err
			}
		}
		k := min(n, int64(d.left))
		if !d.run {
			if err := d.in.skipBytes(k); err != nil {
				return err
			}
		}
		d.left -= int(k)
		n -= k
	}
	return nil
}

// seek positions the decoder at a row index position: the stream's
// position, then the number of values to skip in the run found there.
func (d *byteRLE) seek(pos []uint64) ([]uint64, error) {
	pos, err := d.in.seek(pos)
	if err != nil {
		return nil, err
	}
	if len(pos) < 1 {
		return nil, corruptf("%s: row index position too short", d.in.name)
	}
	d.left = 0
	return pos[1:], d.skip(int64(pos[0]))
}

// boolRLE decodes a bit stream: bytes of byte RLE, bits most significant
// first.
type boolRLE struct {
	bytes byteRLE
	cur   byte
	bits  int // bits of cur not yet consumed
	buf   [256]byte
}

func newBoolRLE(in *inStream) *boolRLE { return &boolRLE{bytes: byteRLE{in: in}} }

// next stores the next len(dst) bits into dst as 0 or 1.
func (d *boolRLE) next(dst []byte) error {
	i := 0
	for i < len(dst) && d.bits > 0 {
		d.bits--
		dst[i] = d.cur >> d.bits & 1
		i++
	}
	for i < len(dst) {
		whole := (len(dst) - i) / 8
		if whole > 0 {
			chunk := d.buf[:min(whole, len(d.buf))]
			if err := d.bytes.next(chunk); err != nil {
				return err
			}
			for _, b := range chunk {
				o := dst[i : i+8 : i+8]
				o[0] = b >> 7 & 1
				o[1] = b >> 6 & 1
				o[2] = b >> 5 & 1
				o[3] = b >> 4 & 1
				o[4] = b >> 3 & 1
				o[5] = b >> 2 & 1
				o[6] = b >> 1 & 1
				o[7] = b & 1
				i += 8
			}
			continue
		}
		var one [1]byte
		if err := d.bytes.next(one[:]); err != nil {
			return err
		}
		d.cur, d.bits = one[0], 8
		for i < len(dst) {
			d.bits--
			dst[i] = d.cur >> d.bits & 1
			i++
		}
	}
	return nil
}

// skip passes over n bits.
func (d *boolRLE) skip(n int64) error {
	k := min(n, int64(d.bits))
	d.bits -= int(k)
	n -= k
	if n == 0 {
		return nil
	}
	if err := d.bytes.skip(n / 8); err != nil {
		return err
	}
	if r := n % 8; r > 0 {
		var one [1]byte
		if err := d.bytes.next(one[:]); err != nil {
			return err
		}
		d.cur, d.bits = one[0], 8-int(r)
	}
	return nil
}

// seek positions the decoder: the byte RLE position, then the bits to skip
// in the byte found there.
func (d *boolRLE) seek(pos []uint64) ([]uint64, error) {
	pos, err := d.bytes.seek(pos)
	if err != nil {
		return nil, err
	}
	if len(pos) < 1 {
		return nil, corruptf("%s: row index position too short", d.bytes.in.name)
	}
	d.bits = 0
	if pos[0] > 8 {
		return nil, corruptf("%s: row index bit offset %d", d.bytes.in.name, pos[0])
	}
	return pos[1:], d.skip(int64(pos[0]))
}

// intDecoder decodes a stream of integers (RLE v1 or v2).
type intDecoder interface {
	// next fills dst.
	next(dst []int64) error
	// skip passes over n values.
	skip(n int64) error
	// seek positions the decoder at a row index position and returns the
	// numbers it did not use.
	seek(pos []uint64) ([]uint64, error)
}

func newIntDecoder(in *inStream, signed, v2 bool) intDecoder {
	if v2 {
		return &rleV2{in: in, signed: signed}
	}
	return &rleV1{in: in, signed: signed}
}

// rleV1 decodes integer RLE version 1: a control byte 0..127 is a run of
// control+3 values starting at a varint with a fixed delta byte; -128..-1 is
// a list of -control varints.
type rleV1 struct {
	in     *inStream
	signed bool
	run    bool
	left   int
	value  int64 // the run's next value
	delta  int64
}

func (d *rleV1) readHeader() error {
	c, err := d.in.readByte()
	if err != nil {
		return err
	}
	if c < 0x80 {
		d.run, d.left = true, int(c)+3
		db, err := d.in.readByte()
		if err != nil {
			return err
		}
		d.delta = int64(int8(db))
		d.value, err = d.readVarint()
		return err
	}
	d.run, d.left = false, 256-int(c)
	return nil
}

func (d *rleV1) readVarint() (int64, error) {
	if d.signed {
		return d.in.varint()
	}
	u, err := d.in.uvarint()
	return int64(u), err
}

func (d *rleV1) next(dst []int64) error {
	for len(dst) > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return err
			}
		}
		n := min(len(dst), d.left)
		if d.run {
			v, dl := d.value, d.delta
			for i := range dst[:n] {
				dst[i] = v
				v += dl
			}
			d.value = v
		} else {
			for i := range dst[:n] {
				v, err := d.readVarint()
				if err != nil {
					return err
				}
				dst[i] = v
			}
		}
		d.left -= n
		dst = dst[n:]
	}
	return nil
}

func (d *rleV1) skip(n int64) error {
	for n > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return err
			}
		}
		k := min(n, int64(d.left))
		if d.run {
			d.value += k * d.delta
		} else {
			for range k {
				if _, err := d.in.uvarint(); err != nil {
					return err
				}
			}
		}
		d.left -= int(k)
		n -= k
	}
	return nil
}

func (d *rleV1) seek(pos []uint64) ([]uint64, error) {
	pos, err := d.in.seek(pos)
	if err != nil {
		return nil, err
	}
	if len(pos) < 1 {
		return nil, corruptf("%s: row index position too short", d.in.name)
	}
	d.left = 0
	return pos[1:], d.skip(int64(pos[0]))
}

// rleV2 decodes integer RLE version 2: short repeat, direct, patched base
// and delta sub-encodings of up to 512 values each.
type rleV2 struct {
	in      *inStream
	signed  bool
	lits    [512]int64
	n, used int
	patch   [32]int64
	scratch []byte
}

// decodeBitWidth maps the 5-bit width code of RLE v2 to a bit width.
func decodeBitWidth(c int) int {
	switch {
	case c <= 23:
		return c + 1
	case c == 24:
		return 26
	case c == 25:
		return 28
	case c == 26:
		return 30
	case c == 27:
		return 32
	case c == 28:
		return 40
	case c == 29:
		return 48
	case c == 30:
		return 56
	}
	return 64
}

// closestFixedBits rounds a bit width up to one the width table can code.
func closestFixedBits(n int) int {
	switch {
	case n == 0:
		return 1
	case n <= 24:
		return n
	case n <= 26:
		return 26
	case n <= 28:
		return 28
	case n <= 30:
		return 30
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

func zigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// unpack reads len(dst) big-endian values of w bits, padded to a byte.
func (d *rleV2) unpack(dst []int64, w int) error {
	nbytes := (len(dst)*w + 7) / 8
	b, err := d.in.read(nbytes, &d.scratch)
	if err != nil {
		return err
	}
	switch w {
	case 8:
		for i := range dst {
			dst[i] = int64(b[i])
		}
		return nil
	case 16:
		for i := range dst {
			dst[i] = int64(binary.BigEndian.Uint16(b[2*i:]))
		}
		return nil
	case 32:
		for i := range dst {
			dst[i] = int64(binary.BigEndian.Uint32(b[4*i:]))
		}
		return nil
	case 64:
		for i := range dst {
			dst[i] = int64(binary.BigEndian.Uint64(b[8*i:]))
		}
		return nil
	}
	var acc uint64 // bits not yet used, right-aligned
	have := 0
	p := 0
	mask := uint64(1)<<w - 1
	if w == 64 {
		mask = ^uint64(0)
	}
	for i := range dst {
		// Gather at least w bits; at most 7 stay from before, so a 64-bit
		// value needs two steps.
		if w <= 56 {
			for have < w {
				acc = acc<<8 | uint64(b[p])
				p++
				have += 8
			}
			have -= w
			dst[i] = int64(acc >> have & mask)
			continue
		}
		var v uint64
		need := w
		for need > 0 {
			if have == 0 {
				acc = uint64(b[p])
				p++
				have = 8
			}
			k := min(need, have)
			v = v<<k | (acc>>(have-k))&(1<<k-1)
			have -= k
			need -= k
		}
		dst[i] = int64(v)
	}
	return nil
}

func (d *rleV2) readValues() error {
	first, err := d.in.readByte()
	if err != nil {
		return err
	}
	d.n, d.used = 0, 0
	switch first >> 6 {
	case 0: // short repeat
		size := int(first>>3&7) + 1
		count := int(first&7) + 3
		b, err := d.in.read(size, &d.scratch)
		if err != nil {
			return err
		}
		var u uint64
		for _, x := range b {
			u = u<<8 | uint64(x)
		}
		v := int64(u)
		if d.signed {
			v = zigzag(u)
		}
		for i := range count {
			d.lits[i] = v
		}
		d.n = count
	case 1: // direct
		w := decodeBitWidth(int(first >> 1 & 0x1f))
		second, err := d.in.readByte()
		if err != nil {
			return err
		}
		count := int(first&1)<<8 | int(second) + 1
		if err := d.unpack(d.lits[:count], w); err != nil {
			return err
		}
		if d.signed {
			for i := range d.lits[:count] {
				d.lits[i] = zigzag(uint64(d.lits[i]))
			}
		}
		d.n = count
	case 2:
		return d.readPatchedBase(first)
	case 3:
		return d.readDelta(first)
	}
	return nil
}

func (d *rleV2) readPatchedBase(first byte) error {
	w := decodeBitWidth(int(first >> 1 & 0x1f))
	hdr, err := d.in.read(3, &d.scratch)
	if err != nil {
		return err
	}
	count := int(first&1)<<8 | int(hdr[0]) + 1
	bw := int(hdr[1]>>5&7) + 1
	pw := decodeBitWidth(int(hdr[1] & 0x1f))
	pgw := int(hdr[2]>>5&7) + 1
	pl := int(hdr[2] & 0x1f)
	if pw+pgw > 64 {
		return corruptf("%s: patched base run with patch width %d and gap width %d", d.in.name, pw, pgw)
	}
	b, err := d.in.read(bw, &d.scratch)
	if err != nil {
		return err
	}
	var u uint64
	for _, x := range b {
		u = u<<8 | uint64(x)
	}
	base := int64(u)
	if msb := uint64(1) << (bw*8 - 1); u&msb != 0 {
		base = -int64(u &^ msb)
	}
	if err := d.unpack(d.lits[:count], w); err != nil {
		return err
	}
	patches := d.patch[:pl]
	if err := d.unpack(patches, closestFixedBits(pw+pgw)); err != nil {
		return err
	}
	pmask := uint64(1)<<pw - 1
	if pw == 64 {
		pmask = ^uint64(0)
	}
	// Each patch is (gap, value): the gap counts values from the previous
	// patch; a gap of 255 with value 0 only extends the next gap.
	at := -1
	for i := 0; i < pl; i++ {
		gap := int(uint64(patches[i]) >> pw)
		if pw == 64 {
			gap = 0
		}
		val := uint64(patches[i]) & pmask
		if at < 0 {
			at = 0
		}
		at += gap
		if gap == 255 && val == 0 {
			continue
		}
		if at >= count {
			return corruptf("%s: patch beyond its run", d.in.name)
		}
		if w < 64 {
			d.lits[at] = int64(uint64(d.lits[at]) | val<<w)
		}
	}
	for i := range d.lits[:count] {
		d.lits[i] += base
	}
	d.n = count
	return nil
}

func (d *rleV2) readDelta(first byte) error {
	fbc := int(first >> 1 & 0x1f)
	w := 0
	if fbc != 0 {
		w = decodeBitWidth(fbc)
	}
	second, err := d.in.readByte()
	if err != nil {
		return err
	}
	count := int(first&1)<<8 | int(second) + 1
	var firstVal int64
	if d.signed {
		firstVal, err = d.in.varint()
	} else {
		var u uint64
		u, err = d.in.uvarint()
		firstVal = int64(u)
	}
	if err != nil {
		return err
	}
	deltaBase, err := d.in.varint()
	if err != nil {
		return err
	}
	d.lits[0] = firstVal
	if w == 0 {
		v := firstVal
		for i := 1; i < count; i++ {
			v += deltaBase
			d.lits[i] = v
		}
		d.n = count
		return nil
	}
	if count < 2 {
		return corruptf("%s: delta run of %d values with a bit width", d.in.name, count)
	}
	d.lits[1] = firstVal + deltaBase
	if err := d.unpack(d.lits[2:count], w); err != nil {
		return err
	}
	prev := d.lits[1]
	if deltaBase < 0 {
		for i := 2; i < count; i++ {
			prev -= d.lits[i]
			d.lits[i] = prev
		}
	} else {
		for i := 2; i < count; i++ {
			prev += d.lits[i]
			d.lits[i] = prev
		}
	}
	d.n = count
	return nil
}

func (d *rleV2) next(dst []int64) error {
	for len(dst) > 0 {
		if d.used == d.n {
			if err := d.readValues(); err != nil {
				return err
			}
		}
		k := copy(dst, d.lits[d.used:d.n])
		d.used += k
		dst = dst[k:]
	}
	return nil
}

func (d *rleV2) skip(n int64) error {
	for n > 0 {
		if d.used == d.n {
			if err := d.readValues(); err != nil {
				return err
			}
		}
		k := min(n, int64(d.n-d.used))
		d.used += int(k)
		n -= k
	}
	return nil
}

func (d *rleV2) seek(pos []uint64) ([]uint64, error) {
	pos, err := d.in.seek(pos)
	if err != nil {
		return nil, err
	}
	if len(pos) < 1 {
		return nil, corruptf("%s: row index position too short", d.in.name)
	}
	d.n, d.used = 0, 0
	return pos[1:], d.skip(int64(pos[0]))
}

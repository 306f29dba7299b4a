package orc

import (
	"encoding/binary"
	"math"
)

// The ORC tail, stripe footers and row indexes are Protocol Buffers
// messages (orc_proto.proto, proto2). This file holds a small wire-format
// reader and writer instead of generated code: the package needs a dozen
// messages, decodes them from untrusted bytes (so every length is checked
// against what is left before anything is allocated), and writes them in a
// fixed field order. Unknown fields are skipped, as protobuf requires, so
// files from newer writers still decode.

// Wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// pbReader walks the fields of one message. The first error sticks: later
// calls return zero values and next reports false.
type pbReader struct {
	b   []byte
	err error
}

// next reads the next field's key; it reports false at the end of the
// message or after an error.
func (p *pbReader) next() (field int, wire int, ok bool) {
	if p.err != nil || len(p.b) == 0 {
		return 0, 0, false
	}
	key := p.varint()
	if p.err != nil {
		return 0, 0, false
	}
	field, wire = int(key>>3), int(key&7)
	if field <= 0 || key>>3 > math.MaxInt32 {
		p.fail("invalid field number %d", key>>3)
		return 0, 0, false
	}
	return field, wire, true
}

func (p *pbReader) fail(format string, args ...any) {
	if p.err == nil {
		p.err = corruptf("protobuf: "+format, args...)
	}
	p.b = nil
}

func (p *pbReader) varint() uint64 {
	v, n := binary.Uvarint(p.b)
	if n <= 0 {
		p.fail("bad varint")
		return 0
	}
	p.b = p.b[n:]
	return v
}

func (p *pbReader) bytes() []byte {
	n := p.varint()
	if p.err != nil {
		return nil
	}
	if n > uint64(len(p.b)) {
		p.fail("field of %d bytes with %d left", n, len(p.b))
		return nil
	}
	out := p.b[:n:n]
	p.b = p.b[n:]
	return out
}

func (p *pbReader) fixed64() uint64 {
	if len(p.b) < 8 {
		p.fail("truncated fixed64")
		return 0
	}
	v := binary.LittleEndian.Uint64(p.b)
	p.b = p.b[8:]
	return v
}

// skip passes over a field of the given wire type.
func (p *pbReader) skip(wire int) {
	switch wire {
	case wireVarint:
		p.varint()
	case wireFixed64:
		p.fixed64()
	case wireBytes:
		p.bytes()
	case wireFixed32:
		if len(p.b) < 4 {
			p.fail("truncated fixed32")
			return
		}
		p.b = p.b[4:]
	default:
		p.fail("unsupported wire type %d", wire)
	}
}

// uint reads a varint field, checking its wire type.
func (p *pbReader) uint(wire int) uint64 {
	if wire != wireVarint {
		p.fail("wire type %d for a varint field", wire)
		return 0
	}
	return p.varint()
}

// sint reads a zigzag-encoded (sint64/sint32) field.
func (p *pbReader) sint(wire int) int64 {
	v := p.uint(wire)
	return int64(v>>1) ^ -int64(v&1)
}

// str reads a length-delimited field.
func (p *pbReader) str(wire int) []byte {
	if wire != wireBytes {
		p.fail("wire type %d for a bytes field", wire)
		return nil
	}
	return p.bytes()
}

// double reads a fixed64 field holding an IEEE double.
func (p *pbReader) double(wire int) float64 {
	if wire != wireFixed64 {
		p.fail("wire type %d for a double field", wire)
		return 0
	}
	return math.Float64frombits(p.fixed64())
}

// uints reads a repeated uint field in either form (packed or not),
// appending to dst. A packed run may hold at most one value per byte, which
// bounds what it can make the caller allocate.
func (p *pbReader) uints(wire int, dst []uint64) []uint64 {
	if wire == wireVarint {
		return append(dst, p.varint())
	}
	b := p.str(wire)
	for len(b) > 0 && p.err == nil {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			p.fail("bad packed varint")
			return dst
		}
		dst = append(dst, v)
		b = b[n:]
	}
	return dst
}

// sub returns a reader over an embedded message.
func (p *pbReader) sub(wire int) pbReader {
	b := p.str(wire)
	return pbReader{b: b, err: p.err}
}

// pbWriter appends a message's fields to a buffer.
type pbWriter struct {
	b []byte
}

func (w *pbWriter) key(field, wire int) {
	w.b = binary.AppendUvarint(w.b, uint64(field)<<3|uint64(wire))
}

func (w *pbWriter) uint(field int, v uint64) {
	w.key(field, wireVarint)
	w.b = binary.AppendUvarint(w.b, v)
}

func (w *pbWriter) sint(field int, v int64) {
	w.uint(field, uint64(v<<1)^uint64(v>>63))
}

func (w *pbWriter) boolean(field int, v bool) {
	if v {
		w.uint(field, 1)
	} else {
		w.uint(field, 0)
	}
}

func (w *pbWriter) bytes(field int, v []byte) {
	w.key(field, wireBytes)
	w.b = binary.AppendUvarint(w.b, uint64(len(v)))
	w.b = append(w.b, v...)
}

func (w *pbWriter) str(field int, v string) {
	w.key(field, wireBytes)
	w.b = binary.AppendUvarint(w.b, uint64(len(v)))
	w.b = append(w.b, v...)
}

func (w *pbWriter) double(field int, v float64) {
	w.key(field, wireFixed64)
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
}

// packed writes a packed repeated uint field (nothing when vs is empty).
func (w *pbWriter) packed(field int, vs []uint64) {
	if len(vs) == 0 {
		return
	}
	n := 0
	for _, v := range vs {
		n += uvarintLen(v)
	}
	w.key(field, wireBytes)
	w.b = binary.AppendUvarint(w.b, uint64(n))
	for _, v := range vs {
		w.b = binary.AppendUvarint(w.b, v)
	}
}

// message writes an embedded message built by f.
func (w *pbWriter) message(field int, f func(*pbWriter)) {
	var sub pbWriter
	f(&sub)
	w.bytes(field, sub.b)
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

package orc

import "github.com/apache/arrow-go/v18/arrow/memory"

// inStream reads one stream of a stripe (Java InStream): the stream's raw
// bytes, decompressed a chunk at a time when the file has a codec. The RLE
// decoders pull bytes from it; seek jumps to a row group's position from the
// row index.
type inStream struct {
	name  string // "column 3 DATA", for messages
	raw   []byte
	codec *codec

	buf  []byte // the current decompressed chunk (raw itself without a codec)
	pos  int    // next byte of buf
	next int    // offset in raw of the chunk after buf
	dbuf []byte // decompression buffer, reused across chunks
}

func newInStream(name string, raw []byte, c *codec) *inStream {
	s := &inStream{name: name, raw: raw, codec: c}
	s.reset()
	return s
}

// reset positions the stream at its start.
func (s *inStream) reset() {
	if s.codec == nil || s.codec.kind == CompressionNone {
		s.buf, s.pos, s.next = s.raw, 0, len(s.raw)
		return
	}
	s.buf, s.pos, s.next = nil, 0, 0
}

// fill loads the next chunk; it reports false at the end of the stream.
func (s *inStream) fill() (bool, error) {
	for s.pos >= len(s.buf) {
		if s.next >= len(s.raw) {
			return false, nil
		}
		if err := s.loadChunk(s.next); err != nil {
			return false, err
		}
	}
	return true, nil
}

// loadChunk decompresses the chunk starting at offset off of raw.
func (s *inStream) loadChunk(off int) error {
	data, original, rest, err := splitChunk(s.raw[off:])
	if err != nil {
		return within(err, "%s", s.name)
	}
	s.next = len(s.raw) - len(rest)
	s.pos = 0
	if original {
		if len(data) > s.codec.blockSize {
			return corruptf("%s: uncompressed chunk of %d bytes exceeds the block size %d", s.name, len(data), s.codec.blockSize)
		}
		s.buf = data
		return nil
	}
	if s.dbuf == nil {
		s.dbuf = make([]byte, 0, s.codec.blockSize)
	}
	s.dbuf, err = s.codec.decompress(s.dbuf[:0], data)
	if err != nil {
		return within(err, "%s", s.name)
	}
	s.buf = s.dbuf
	return nil
}

// seek moves to a position of the row index: for a compressed stream the
// chunk's offset in the stream and the offset within the decompressed
// chunk, otherwise the byte offset. It consumes the numbers it uses from
// pos and returns the rest.
func (s *inStream) seek(pos []uint64) ([]uint64, error) {
	if s.codec == nil || s.codec.kind == CompressionNone {
		if len(pos) < 1 {
			return nil, corruptf("%s: row index position too short", s.name)
		}
		if pos[0] > uint64(len(s.raw)) {
			return nil, corruptf("%s: row index position %d beyond the stream's %d bytes", s.name, pos[0], len(s.raw))
		}
		s.buf, s.pos, s.next = s.raw, int(pos[0]), len(s.raw)
		return pos[1:], nil
	}
	if len(pos) < 2 {
		return nil, corruptf("%s: row index position too short", s.name)
	}
	off, in := pos[0], pos[1]
	switch {
	case off > uint64(len(s.raw)):
		return nil, corruptf("%s: row index position %d beyond the stream's %d bytes", s.name, off, len(s.raw))
	case off == uint64(len(s.raw)):
		// The end of the stream (a row group with no values left).
		if in != 0 {
			return nil, corruptf("%s: row index position %d/%d beyond the stream", s.name, off, in)
		}
		s.buf, s.pos, s.next = nil, 0, len(s.raw)
		return pos[2:], nil
	}
	if err := s.loadChunk(int(off)); err != nil {
		return nil, err
	}
	if in > uint64(len(s.buf)) {
		return nil, corruptf("%s: row index position %d beyond the chunk's %d bytes", s.name, in, len(s.buf))
	}
	s.pos = int(in)
	return pos[2:], nil
}

func (s *inStream) eofError() error {
	return corruptf("%s: unexpected end of stream", s.name)
}

// readByte returns the next byte.
func (s *inStream) readByte() (byte, error) {
	if s.pos < len(s.buf) {
		b := s.buf[s.pos]
		s.pos++
		return b, nil
	}
	ok, err := s.fill()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, s.eofError()
	}
	b := s.buf[s.pos]
	s.pos++
	return b, nil
}

// read returns the next n bytes: a slice of the chunk when they lie in it,
// else a copy into scratch (grown as needed; the caller keeps it). n must
// have been checked against what the caller may allocate.
func (s *inStream) read(n int, scratch *[]byte) ([]byte, error) {
	if s.pos+n <= len(s.buf) {
		b := s.buf[s.pos : s.pos+n]
		s.pos += n
		return b, nil
	}
	if cap(*scratch) < n {
		*scratch = make([]byte, 0, n)
	}
	out := (*scratch)[:0]
	for len(out) < n {
		ok, err := s.fill()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, s.eofError()
		}
		k := min(n-len(out), len(s.buf)-s.pos)
		out = append(out, s.buf[s.pos:s.pos+k]...)
		s.pos += k
	}
	*scratch = out
	return out, nil
}

// readInto fills dst completely.
func (s *inStream) readInto(dst []byte) error {
	for len(dst) > 0 {
		if s.pos >= len(s.buf) {
			ok, err := s.fill()
			if err != nil {
				return err
			}
			if !ok {
				return s.eofError()
			}
		}
		k := copy(dst, s.buf[s.pos:])
		s.pos += k
		dst = dst[k:]
	}
	return nil
}

// readGrow reads n bytes into a new buffer from mem. The buffer grows as
// the bytes arrive, so a claimed n larger than what the stream holds fails
// before allocating much more than the stream's real content.
func (s *inStream) readGrow(mem memory.Allocator, n int64) (*memory.Buffer, error) {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(min(n, 1<<20)))
	var filled int64
	for filled < n {
		if s.pos >= len(s.buf) {
			ok, err := s.fill()
			if err == nil && !ok {
				err = s.eofError()
			}
			if err != nil {
				buf.Release()
				return nil, err
			}
		}
		if filled == int64(buf.Len()) {
			buf.Resize(int(min(n, 2*filled)))
		}
		k := copy(buf.Bytes()[filled:], s.buf[s.pos:])
		s.pos += k
		filled += int64(k)
	}
	return buf, nil
}

// skipBytes passes over n bytes.
func (s *inStream) skipBytes(n int64) error {
	for n > 0 {
		if s.pos >= len(s.buf) {
			ok, err := s.fill()
			if err != nil {
				return err
			}
			if !ok {
				return s.eofError()
			}
		}
		k := min(n, int64(len(s.buf)-s.pos))
		s.pos += int(k)
		n -= k
	}
	return nil
}

// remaining is an upper bound of the decompressed bytes left: the raw bytes
// left times the expansion a chunk may have. It bounds what a claimed
// length may make a reader allocate.
func (s *inStream) remaining() int64 {
	left := int64(len(s.buf) - s.pos)
	if s.codec == nil || s.codec.kind == CompressionNone {
		return left + int64(len(s.raw)-s.next)
	}
	chunks := int64(len(s.raw)-s.next)/chunkHeaderSize + 1
	return left + chunks*int64(s.codec.blockSize)
}

// uvarint reads a base-128 varint of at most 64 bits.
func (s *inStream) uvarint() (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		b, err := s.readByte()
		if err != nil {
			return 0, err
		}
		if shift == 63 && b > 1 {
			return 0, corruptf("%s: varint overflows 64 bits", s.name)
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
}

// varint reads a zigzag-encoded signed varint.
func (s *inStream) varint() (int64, error) {
	u, err := s.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

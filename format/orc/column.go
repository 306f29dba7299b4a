package orc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A columnReader decodes one column of the file (and its children) into
// Arrow arrays, stripe by stripe (Java TreeReaderFactory's TreeReaders).
//
// Nulls nest as in Java: a column's PRESENT stream and values cover only
// the slots where its parent is present, so read takes the parent's
// validity (nil when every slot is present) and returns an array of n
// slots, null wherever the parent or the column itself is.
type columnReader interface {
	// startStripe binds the reader to a stripe's streams and encodings.
	startStripe(s *stripeState) error
	// seek moves to a row group, consuming the row index positions of
	// this column (and its children's, for nested readers).
	seek(pos [][]uint64) error
	// read decodes n slots.
	read(n int, parent []byte) (arrow.ArrayData, error)
}

// stripeState is what a stripe gives its column readers: the streams read
// from the file, the column encodings and the writer's time zone.
type stripeState struct {
	codec     *codec
	streams   map[streamKey][]byte
	encodings []columnEncoding
	timezone  string
	mem       memory.Allocator
	version   fileVersion
}

type streamKey struct {
	column int
	kind   streamKind
}

// stream returns the named stream, or nil when the stripe has none.
func (s *stripeState) stream(col int, kind streamKind) *inStream {
	raw, ok := s.streams[streamKey{col, kind}]
	if !ok {
		return nil
	}
	return newInStream(streamName(col, kind), raw, s.codec)
}

// required returns a stream the column's encoding has; a stream the stripe
// footer does not list is empty (writers omit empty streams, e.g. the DATA
// of a column whose values are all null), and reading a value from it is
// an error.
func (s *stripeState) required(col int, kind streamKind) (*inStream, error) {
	if in := s.stream(col, kind); in != nil {
		return in, nil
	}
	return newInStream(streamName(col, kind), nil, s.codec), nil
}

func (s *stripeState) encoding(col int) (columnEncoding, error) {
	if col >= len(s.encodings) {
		return columnEncoding{}, corruptf("stripe footer has no encoding for column %d", col)
	}
	return s.encodings[col], nil
}

func streamName(col int, kind streamKind) string {
	return "column " + itoa(col) + " " + kind.String()
}

func itoa(v int) string {
	if v >= 0 && v < 10 {
		return string(rune('0' + v))
	}
	var b [20]byte
	i := len(b)
	neg := v < 0
	u := uint64(v)
	if neg {
		u = uint64(-v)
	}
	for u > 0 {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// presence reads a column's PRESENT stream (Java TreeReader's present
// handling) and combines it with the parent's validity.
type presence struct {
	col     int
	present *boolRLE
	valid   []byte // scratch: per-slot validity of the last read
	bits    []byte // scratch: the bits read
}

func (p *presence) startStripe(s *stripeState) {
	p.present = nil
	if in := s.stream(p.col, streamPresent); in != nil {
		p.present = newBoolRLE(in)
	}
}

func (p *presence) seek(pos []uint64) ([]uint64, error) {
	if p.present == nil {
		return pos, nil
	}
	return p.present.seek(pos)
}

// read returns the validity of n slots (nil when all are valid) and the
// number of valid ones.
func (p *presence) read(n int, parent []byte) ([]byte, int, error) {
	if p.present == nil {
		if parent == nil {
			return nil, n, nil
		}
		return parent, countOnes(parent), nil
	}
	if cap(p.valid) < n {
		p.valid = make([]byte, n)
	}
	valid := p.valid[:n]
	if parent == nil {
		if err := p.present.next(valid); err != nil {
			return nil, 0, err
		}
		return valid, countOnes(valid), nil
	}
	k := countOnes(parent)
	if cap(p.bits) < k {
		p.bits = make([]byte, k)
	}
	bits := p.bits[:k]
	if err := p.present.next(bits); err != nil {
		return nil, 0, err
	}
	j, ones := 0, 0
	for i := range valid {
		if parent[i] != 0 {
			valid[i] = bits[j]
			ones += int(bits[j])
			j++
		} else {
			valid[i] = 0
		}
	}
	return valid, ones, nil
}

func countOnes(b []byte) int {
	n := 0
	for _, v := range b {
		n += int(v)
	}
	return n
}

// validityBuffer packs per-slot validity into an Arrow bitmap; it returns
// nil and 0 nulls when every slot is valid.
func validityBuffer(mem memory.Allocator, valid []byte, n int) (*memory.Buffer, int) {
	if valid == nil {
		return nil, 0
	}
	nulls := n - countOnes(valid[:n])
	if nulls == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	bits := buf.Bytes()
	clear(bits)
	for i, v := range valid[:n] {
		if v != 0 {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return buf, nulls
}

// newBuffer allocates a buffer of n bytes from mem.
func newBuffer(mem memory.Allocator, n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n)
	return buf
}

// releaseAll releases buffers built so far when a read fails.
func releaseAll(bufs ...*memory.Buffer) {
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
}

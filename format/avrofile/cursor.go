package avrofile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// zeroSizeSlack is how many items an Avro array or map (or records a block)
// may claim beyond the bytes left to decode them. Items that encode to at
// least one byte never need it; items that encode to none (null, empty
// records, fixed(0)) would otherwise let a five-byte count spin the decoder
// for billions of iterations.
const zeroSizeSlack = 4096

var (
	errShort     = errors.New("unexpected end of block")
	errVarint    = errors.New("invalid varint")
	errIntRange  = errors.New("int out of range")
	errNegLength = errors.New("negative length")
)

// cursor walks the Avro binary encoding (the "Binary Encoding" section of
// the Avro specification) of one decompressed block. Every read is bounds
// checked: corrupt input yields an error, never a panic.
type cursor struct {
	buf []byte
	pos int
}

// long reads a zig-zag varint (Avro long).
func (c *cursor) long() (int64, error) {
	if c.pos < len(c.buf) {
		if b := c.buf[c.pos]; b < 0x80 {
			c.pos++
			return int64(b>>1) ^ -int64(b&1), nil
		}
	}
	if len(c.buf)-c.pos >= 10 {
		// Enough bytes for the longest varint: no per-byte bounds check.
		buf := c.buf[c.pos : c.pos+10]
		var u uint64
		for i, b := range buf {
			u |= uint64(b&0x7f) << (7 * uint(i))
			if b < 0x80 {
				if i == 9 && b > 1 {
					return 0, errVarint
				}
				c.pos += i + 1
				return int64(u>>1) ^ -int64(u&1), nil
			}
		}
		return 0, errVarint
	}
	return c.longSlow()
}

func (c *cursor) longSlow() (int64, error) {
	var u uint64
	for shift := uint(0); shift < 70; shift += 7 {
		if c.pos >= len(c.buf) {
			return 0, errShort
		}
		b := c.buf[c.pos]
		c.pos++
		if shift == 63 && b > 1 {
			return 0, errVarint
		}
		u |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return int64(u>>1) ^ -int64(u&1), nil
		}
	}
	return 0, errVarint
}

// int reads an Avro int: a zig-zag varint that must fit 32 bits.
func (c *cursor) int() (int32, error) {
	v, err := c.long()
	if err != nil {
		return 0, err
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, errIntRange
	}
	return int32(v), nil
}

// bytes reads a length-prefixed byte sequence (Avro bytes and string). The
// result aliases the block.
func (c *cursor) bytes() ([]byte, error) {
	n, err := c.long()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, errNegLength
	}
	if n > int64(len(c.buf)-c.pos) {
		return nil, errShort
	}
	out := c.buf[c.pos : c.pos+int(n) : c.pos+int(n)]
	c.pos += int(n)
	return out, nil
}

// fixed reads n raw bytes (Avro fixed).
func (c *cursor) fixed(n int) ([]byte, error) {
	if n > len(c.buf)-c.pos {
		return nil, errShort
	}
	out := c.buf[c.pos : c.pos+n : c.pos+n]
	c.pos += n
	return out, nil
}

func (c *cursor) skip(n int64) error {
	if n < 0 {
		return errNegLength
	}
	if n > int64(len(c.buf)-c.pos) {
		return errShort
	}
	c.pos += int(n)
	return nil
}

func (c *cursor) boolean() (bool, error) {
	if c.pos >= len(c.buf) {
		return false, errShort
	}
	b := c.buf[c.pos]
	if b > 1 {
		return false, fmt.Errorf("invalid boolean byte %d", b)
	}
	c.pos++
	return b == 1, nil
}

func (c *cursor) float() (float32, error) {
	if len(c.buf)-c.pos < 4 {
		return 0, errShort
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(c.buf[c.pos:]))
	c.pos += 4
	return v, nil
}

func (c *cursor) double() (float64, error) {
	if len(c.buf)-c.pos < 8 {
		return 0, errShort
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(c.buf[c.pos:]))
	c.pos += 8
	return v, nil
}

// index reads a union branch index and checks it against the branch count.
func (c *cursor) index(n int) (int, error) {
	v, err := c.long()
	if err != nil {
		return 0, err
	}
	if v < 0 || v >= int64(n) {
		return 0, fmt.Errorf("union index %d out of range [0, %d)", v, n)
	}
	return int(v), nil
}

// null reads the branch index of the two-branch union n describes and
// reports whether the value is null. Outside a union (n == 0) nothing is
// read.
func (c *cursor) null(n nullBranch) (bool, error) {
	if n == 0 {
		return false, nil
	}
	if c.pos >= len(c.buf) {
		return false, errShort
	}
	b := c.buf[c.pos]
	if b != 0 && b != 2 { // the zig-zag encodings of 0 and 1
		return false, fmt.Errorf("union index byte %#x out of range [0, 2)", b)
	}
	c.pos++
	return nullBranch(b>>1+1) == n, nil
}

// budget starts the item budget of one array or map: the bytes left plus
// zeroSizeSlack (see zeroSizeSlack).
func (c *cursor) budget() int64 { return int64(len(c.buf)-c.pos) + zeroSizeSlack }

// block reads the item count of the next block of an array or map, 0 at
// the end. A negative count is followed by the block's byte size, which a
// reader that decodes every item does not need. budget is charged with the
// count.
func (c *cursor) block(budget *int64) (int64, error) {
	n, _, err := c.blockWithSize(budget)
	return n, err
}

// blockWithSize is block that also returns the block's byte size, or -1
// when the writer did not record it.
func (c *cursor) blockWithSize(budget *int64) (n, size int64, err error) {
	n, err = c.long()
	if err != nil {
		return 0, 0, err
	}
	size = -1
	if n < 0 {
		if n == math.MinInt64 {
			return 0, 0, errVarint
		}
		n = -n
		if size, err = c.long(); err != nil {
			return 0, 0, err
		}
		if size < 0 {
			return 0, 0, errNegLength
		}
	}
	if n > *budget {
		return 0, 0, fmt.Errorf("block of %d items exceeds the %d bytes left", n, len(c.buf)-c.pos)
	}
	*budget -= n
	return n, size, nil
}

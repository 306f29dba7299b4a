package avro

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ZeroSizeSlack is how many items an array or map block (or rows a
// container block) may claim beyond the bytes left to decode them. Items
// that encode to at least one byte never need it; items that encode to none
// (null, empty records, fixed(0)) would otherwise let a five-byte count spin
// a decoder for billions of iterations.
const ZeroSizeSlack = 4096

// Cursor walks the Avro binary encoding (the "Binary Encoding" section of
// the Avro specification) of one decompressed block, as handed out by
// BlockReader.Next. Callers that know their target types decode with it
// directly instead of going through reflection (format/manifest decodes
// manifest entries this way, as Java's ManifestEntrySerializer reads
// fields straight from the row). Every read is bounds checked: bad bytes
// yield an error wrapping ErrCorrupt, never a panic or an allocation the
// block cannot back.
//
// The zero Cursor is an empty block; Reset points it at another.
type Cursor struct {
	buf []byte
	pos int
}

// NewCursor returns a Cursor at the start of block.
func NewCursor(block []byte) Cursor { return Cursor{buf: block} }

// Reset points the cursor at the start of block.
func (c *Cursor) Reset(block []byte) { c.buf, c.pos = block, 0 }

// Pos returns the offset of the next byte to read.
func (c *Cursor) Pos() int { return c.pos }

// Len returns the number of bytes left.
func (c *Cursor) Len() int { return len(c.buf) - c.pos }

func errShort() error { return fmt.Errorf("%w: unexpected end of block", ErrCorrupt) }

func errVarint() error { return fmt.Errorf("%w: invalid varint", ErrCorrupt) }

// Seek moves the cursor to offset pos, one Pos returned earlier (to read a
// value twice). An offset outside the block leaves the cursor at its end.
func (c *Cursor) Seek(pos int) {
	if pos < 0 || pos > len(c.buf) {
		pos = len(c.buf)
	}
	c.pos = pos
}

// Long reads a zig-zag varint (Avro long).
func (c *Cursor) Long() (int64, error) {
	if c.pos < len(c.buf) {
		if b := c.buf[c.pos]; b < 0x80 {
			c.pos++
			return int64(b>>1) ^ -int64(b&1), nil
		}
	}
	if len(c.buf)-c.pos >= 10 {
		// Room for the longest varint: no bounds check per byte.
		var u uint64
		for i, b := range c.buf[c.pos : c.pos+10] {
			u |= uint64(b&0x7f) << (7 * uint(i))
			if b < 0x80 {
				if i == 9 && b > 1 {
					return 0, errVarint()
				}
				c.pos += i + 1
				return int64(u>>1) ^ -int64(u&1), nil
			}
		}
		return 0, errVarint()
	}
	return c.longSlow()
}

// longSlow is Long near the end of the block.
func (c *Cursor) longSlow() (int64, error) {
	var u uint64
	for shift := uint(0); shift < 70; shift += 7 {
		if c.pos >= len(c.buf) {
			return 0, errShort()
		}
		b := c.buf[c.pos]
		c.pos++
		if shift == 63 && b > 1 {
			return 0, errVarint()
		}
		u |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return int64(u>>1) ^ -int64(u&1), nil
		}
	}
	return 0, errVarint()
}

// Int reads an Avro int: a zig-zag varint that must fit 32 bits.
func (c *Cursor) Int() (int32, error) {
	v, err := c.Long()
	if err != nil {
		return 0, err
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, fmt.Errorf("%w: int %d out of range", ErrCorrupt, v)
	}
	return int32(v), nil
}

// Bytes reads a length-prefixed byte sequence (Avro bytes and string). The
// result aliases the block and its capacity ends with it, so appending to
// it never overwrites the bytes that follow.
func (c *Cursor) Bytes() ([]byte, error) {
	n, err := c.Long()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("%w: negative length %d", ErrCorrupt, n)
	}
	if n > int64(len(c.buf)-c.pos) {
		return nil, errShort()
	}
	end := c.pos + int(n)
	out := c.buf[c.pos:end:end]
	c.pos = end
	return out, nil
}

// Fixed reads n raw bytes (Avro fixed). The result aliases the block, as
// Bytes does.
func (c *Cursor) Fixed(n int) ([]byte, error) {
	if n < 0 || n > len(c.buf)-c.pos {
		return nil, errShort()
	}
	end := c.pos + n
	out := c.buf[c.pos:end:end]
	c.pos = end
	return out, nil
}

// Boolean reads one byte that must be 0 or 1.
func (c *Cursor) Boolean() (bool, error) {
	if c.pos >= len(c.buf) {
		return false, errShort()
	}
	b := c.buf[c.pos]
	if b > 1 {
		return false, fmt.Errorf("%w: invalid boolean byte %d", ErrCorrupt, b)
	}
	c.pos++
	return b == 1, nil
}

// Float reads a little-endian IEEE 754 single (Avro float).
func (c *Cursor) Float() (float32, error) {
	if len(c.buf)-c.pos < 4 {
		return 0, errShort()
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(c.buf[c.pos:]))
	c.pos += 4
	return v, nil
}

// Double reads a little-endian IEEE 754 double (Avro double).
func (c *Cursor) Double() (float64, error) {
	if len(c.buf)-c.pos < 8 {
		return 0, errShort()
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(c.buf[c.pos:]))
	c.pos += 8
	return v, nil
}

// Skip advances over n bytes.
func (c *Cursor) Skip(n int64) error {
	if n < 0 {
		return fmt.Errorf("%w: negative length %d", ErrCorrupt, n)
	}
	if n > int64(len(c.buf)-c.pos) {
		return errShort()
	}
	c.pos += int(n)
	return nil
}

// Index reads a union branch index and checks it against the branch count.
func (c *Cursor) Index(branches int) (int, error) {
	v, err := c.Long()
	if err != nil {
		return 0, err
	}
	if v < 0 || v >= int64(branches) {
		return 0, fmt.Errorf("%w: union index %d out of range [0, %d)", ErrCorrupt, v, branches)
	}
	return int(v), nil
}

// Budget starts the item budget of one array or map: the bytes left plus a
// small slack for items that encode to no bytes at all.
func (c *Cursor) Budget() int64 { return int64(len(c.buf)-c.pos) + ZeroSizeSlack }

// Block reads the item count of the next block of an array or map, 0 after
// the last one, and the block's byte size, -1 when the writer did not
// record it (a negative count announces the size). The count is charged to
// budget (see Budget), so that a corrupt count fails before anything is
// allocated for it.
func (c *Cursor) Block(budget *int64) (count, size int64, err error) {
	if count, err = c.Long(); err != nil {
		return 0, 0, err
	}
	size = -1
	if count < 0 {
		if count == math.MinInt64 {
			return 0, 0, errVarint()
		}
		count = -count
		if size, err = c.Long(); err != nil {
			return 0, 0, err
		}
		if size < 0 {
			return 0, 0, fmt.Errorf("%w: negative block size %d", ErrCorrupt, size)
		}
	}
	if count > *budget {
		return 0, 0, fmt.Errorf("%w: block of %d items exceeds the %d bytes left", ErrCorrupt, count, len(c.buf)-c.pos)
	}
	*budget -= count
	return count, size, nil
}

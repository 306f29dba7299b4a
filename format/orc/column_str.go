package orc

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// bytesColumn reads string, char, varchar and binary columns, DIRECT
// (lengths + contiguous bytes) or DICTIONARY (a sorted dictionary per
// stripe + indexes) encoded, into utf8, binary or large_binary arrays.
//
// CHAR and VARCHAR values are cut to the type's length in characters, and
// CHAR values lose their trailing spaces, as Java's CharTreeReader and
// VarcharTreeReader do (Java's writer pads CHAR values to the length).
type bytesColumn struct {
	presence
	dt     arrow.DataType
	large  bool     // 64-bit offsets
	kind   typeKind // the file column's kind
	maxLen int      // CHAR/VARCHAR length in characters (0: no cut)
	mem    memory.Allocator

	dict    bool
	lengths intDecoder
	data    *inStream
	indexes intDecoder

	// The stripe's dictionary: entry i is dictData[dictOff[i]:dictOff[i+1]].
	dictData []byte
	dictOff  []int64

	vals []int64
}

func (c *bytesColumn) startStripe(s *stripeState) error {
	c.presence.startStripe(s)
	c.mem = s.mem
	enc, err := s.encoding(c.col)
	if err != nil {
		return err
	}
	v2 := enc.kind.v2()
	data, err := s.required(c.col, streamData)
	if err != nil {
		return err
	}
	length, err := s.required(c.col, streamLength)
	if err != nil {
		return err
	}
	c.dict = enc.kind.dictionary()
	if c.kind == kindBinary && c.dict {
		return corruptf("binary column %d has a dictionary encoding", c.col)
	}
	if !c.dict {
		c.data = data
		c.lengths = newIntDecoder(length, false, v2)
		c.dictData, c.dictOff = nil, nil
		return nil
	}
	c.indexes = newIntDecoder(data, false, v2)
	// The dictionary: the whole DICTIONARY_DATA stream, then one length
	// per entry. Entries are distinct, so there are at most one per byte
	// plus the empty string: that bounds what dictSize may allocate.
	dd, err := s.required(c.col, streamDictionaryData)
	if err != nil {
		return err
	}
	c.dictData = c.dictData[:0]
	for {
		ok, err := dd.fill()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		c.dictData = append(c.dictData, dd.buf[dd.pos:]...)
		dd.pos = len(dd.buf)
	}
	if enc.dictSize > uint64(len(c.dictData))+1 {
		return corruptf("column %d: dictionary of %d entries in %d bytes", c.col, enc.dictSize, len(c.dictData))
	}
	size := int(enc.dictSize)
	lens := make([]int64, size)
	if err := newIntDecoder(length, false, v2).next(lens); err != nil {
		return err
	}
	if cap(c.dictOff) < size+1 {
		c.dictOff = make([]int64, size+1)
	}
	c.dictOff = c.dictOff[:size+1]
	var off int64
	for i, l := range lens {
		if l < 0 || l > int64(len(c.dictData))-off {
			return corruptf("column %d: dictionary entry %d of %d bytes beyond the dictionary", c.col, i, l)
		}
		c.dictOff[i] = off
		off += l
	}
	c.dictOff[size] = off
	return nil
}

func (c *bytesColumn) seek(pos [][]uint64) error {
	p, err := c.presence.seek(pos[c.col])
	if err != nil {
		return err
	}
	if c.dict {
		_, err = c.indexes.seek(p)
		return err
	}
	if p, err = c.data.seek(p); err != nil {
		return err
	}
	_, err = c.lengths.seek(p)
	return err
}

func (c *bytesColumn) read(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence.read(n, parent)
	if err != nil {
		return nil, err
	}
	if cap(c.vals) < k {
		c.vals = make([]int64, k)
	}
	vals := c.vals[:k]
	var total int64
	if c.dict {
		if err := c.indexes.next(vals); err != nil {
			return nil, err
		}
		size := int64(len(c.dictOff) - 1)
		for _, ix := range vals {
			if ix < 0 || ix >= size {
				return nil, corruptf("column %d: dictionary index %d of %d entries", c.col, ix, size)
			}
			total += c.dictOff[ix+1] - c.dictOff[ix]
		}
	} else {
		if err := c.lengths.next(vals); err != nil {
			return nil, err
		}
		for _, l := range vals {
			if l < 0 {
				return nil, corruptf("column %d: negative length %d", c.col, l)
			}
			total += l
			if total < 0 || total > c.data.remaining() {
				return nil, corruptf("column %d: values of %d bytes beyond the stream", c.col, total)
			}
			// readGrow allocates only as the bytes arrive.
		}
	}
	if !c.large && total > math.MaxInt32 {
		return nil, unsupportedf("column %d: more than 2 GiB of values in one batch", c.col)
	}
	offW := 4
	if c.large {
		offW = 8
	}
	var dataBuf *memory.Buffer
	if c.dict {
		dataBuf = newBuffer(c.mem, int(total))
		data := dataBuf.Bytes()
		p := 0
		for _, ix := range vals {
			p += copy(data[p:], c.dictData[c.dictOff[ix]:c.dictOff[ix+1]])
		}
	} else if dataBuf, err = c.data.readGrow(c.mem, total); err != nil {
		return nil, err
	}
	data := dataBuf.Bytes()
	offBuf := newBuffer(c.mem, (n+1)*offW)
	// Per value: its length after the CHAR/VARCHAR rules.
	var end int64
	var src int64
	j := 0
	setOff := c.offsetSetter(offBuf)
	setOff(0, 0)
	for i := 0; i < n; i++ {
		if valid == nil || valid[i] != 0 {
			var l int64
			if c.dict {
				l = c.dictOff[vals[j]+1] - c.dictOff[vals[j]]
			} else {
				l = vals[j]
			}
			j++
			v := data[src : src+l]
			v = c.adjust(v)
			if end != src {
				copy(data[end:], v)
			}
			src += l
			end += int64(len(v))
		}
		setOff(i+1, end)
	}
	dataBuf.Resize(int(end))
	vb, nulls := validityBuffer(c.mem, valid, n)
	d := array.NewData(c.dt, n, []*memory.Buffer{vb, offBuf, dataBuf}, nil, nulls, 0)
	releaseAll(vb, offBuf, dataBuf)
	return d, nil
}

func (c *bytesColumn) offsetSetter(buf *memory.Buffer) func(int, int64) {
	if c.large {
		offs := arrow.Int64Traits.CastFromBytes(buf.Bytes())
		return func(i int, v int64) { offs[i] = v }
	}
	offs := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	return func(i int, v int64) { offs[i] = int32(v) }
}

// adjust applies the CHAR/VARCHAR rules of Java's readers to one value:
// VARCHAR and CHAR are cut to maxLen characters, CHAR then loses its
// trailing spaces (StringExpr.truncate / rightTrimAndTruncate).
func (c *bytesColumn) adjust(v []byte) []byte {
	if c.maxLen <= 0 || (c.kind != kindChar && c.kind != kindVarchar) {
		return v
	}
	if len(v) > c.maxLen {
		// Cut after maxLen characters (a character is a UTF-8 leading
		// byte and its continuation bytes, as Java's Utf8 helpers count).
		chars := 0
		for i := range v {
			if v[i]&0xc0 != 0x80 {
				if chars == c.maxLen {
					v = v[:i]
					break
				}
				chars++
			}
		}
	}
	if c.kind == kindChar {
		for len(v) > 0 && v[len(v)-1] == ' ' {
			v = v[:len(v)-1]
		}
	}
	return v
}

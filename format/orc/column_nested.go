package orc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// maxNestedValues bounds the list elements or map entries one batch may
// hold for one column: the lengths come from the file, and every element
// costs memory in each child reader. Readers of tables with larger arrays
// ask for a smaller batch size.
const maxNestedValues = 1 << 24

// structColumn reads a struct column: its PRESENT stream and its children,
// which hold values only where the struct is present.
type structColumn struct {
	presence
	dt       *arrow.StructType
	mem      memory.Allocator
	children []columnReader
}

func (c *structColumn) startStripe(s *stripeState) error {
	c.presence.startStripe(s)
	c.mem = s.mem
	for _, ch := range c.children {
		if err := ch.startStripe(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *structColumn) seek(pos [][]uint64) error {
	if _, err := c.presence.seek(pos[c.col]); err != nil {
		return err
	}
	for _, ch := range c.children {
		if err := ch.seek(pos); err != nil {
			return err
		}
	}
	return nil
}

func (c *structColumn) read(n int, parent []byte) (arrow.ArrayData, error) {
	valid, _, err := c.presence.read(n, parent)
	if err != nil {
		return nil, err
	}
	// The children overwrite the presence scratch: keep a copy.
	var own []byte
	if valid != nil {
		own = append([]byte(nil), valid...)
	}
	kids := make([]arrow.ArrayData, len(c.children))
	release := func() {
		for _, k := range kids {
			if k != nil {
				k.Release()
			}
		}
	}
	for i, ch := range c.children {
		if kids[i], err = ch.read(n, own); err != nil {
			release()
			return nil, err
		}
	}
	vb, nulls := validityBuffer(c.mem, own, n)
	d := array.NewData(c.dt, n, []*memory.Buffer{vb}, kids, nulls, 0)
	releaseAll(vb)
	release()
	return d, nil
}

// listColumn reads list and map columns: a LENGTH per present slot and the
// elements (or keys and values) of all of them in order.
type listColumn struct {
	presence
	dt       arrow.DataType // *arrow.ListType or *arrow.MapType
	mem      memory.Allocator
	lengths  intDecoder
	children []columnReader // element, or key and value
	lens     []int64
}

func (c *listColumn) startStripe(s *stripeState) error {
	c.presence.startStripe(s)
	c.mem = s.mem
	enc, err := s.encoding(c.col)
	if err != nil {
		return err
	}
	in, err := s.required(c.col, streamLength)
	if err != nil {
		return err
	}
	c.lengths = newIntDecoder(in, false, enc.kind.v2())
	for _, ch := range c.children {
		if err := ch.startStripe(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *listColumn) seek(pos [][]uint64) error {
	p, err := c.presence.seek(pos[c.col])
	if err != nil {
		return err
	}
	if _, err := c.lengths.seek(p); err != nil {
		return err
	}
	for _, ch := range c.children {
		if err := ch.seek(pos); err != nil {
			return err
		}
	}
	return nil
}

func (c *listColumn) read(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence.read(n, parent)
	if err != nil {
		return nil, err
	}
	var own []byte
	if valid != nil {
		own = append([]byte(nil), valid...)
	}
	if cap(c.lens) < k {
		c.lens = make([]int64, k)
	}
	lens := c.lens[:k]
	if err := c.lengths.next(lens); err != nil {
		return nil, err
	}
	offBuf := newBuffer(c.mem, (n+1)*4)
	offs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	var total int64
	j := 0
	offs[0] = 0
	for i := 0; i < n; i++ {
		if own == nil || own[i] != 0 {
			l := lens[j]
			j++
			if l < 0 {
				offBuf.Release()
				return nil, corruptf("column %d: negative length %d", c.col, l)
			}
			total += l
			if total > maxNestedValues {
				offBuf.Release()
				return nil, unsupportedf("column %d: more than %d elements in a batch of %d rows; read with a smaller batch size", c.col, maxNestedValues, n)
			}
		}
		offs[i+1] = int32(total)
	}
	kids := make([]arrow.ArrayData, len(c.children))
	release := func() {
		for _, k := range kids {
			if k != nil {
				k.Release()
			}
		}
	}
	for i, ch := range c.children {
		if kids[i], err = ch.read(int(total), nil); err != nil {
			release()
			offBuf.Release()
			return nil, err
		}
	}
	child := kids[0]
	if mt, ok := c.dt.(*arrow.MapType); ok {
		child = array.NewData(mt.Elem(), int(total), []*memory.Buffer{nil}, kids, 0, 0)
		release()
	}
	vb, nulls := validityBuffer(c.mem, own, n)
	d := array.NewData(c.dt, n, []*memory.Buffer{vb, offBuf}, []arrow.ArrayData{child}, nulls, 0)
	releaseAll(vb, offBuf)
	child.Release()
	return d, nil
}

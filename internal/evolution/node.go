package evolution

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
)

// node converts one column (or nested child) read as the file's type into
// the table's type. The tree mirrors the cast executors
// SchemaEvolutionUtil.createCastExecutor builds: identity, ROW projection by
// field id, ARRAY element and MAP value casts, and a leaf rule.
type node interface {
	// apply returns a new reference; it never releases src.
	apply(src arrow.Array, mem memory.Allocator) (arrow.Array, error)
}

// buildNode mirrors createCastExecutor(inputType = from, targetType = to).
// target is the Arrow type of to (with the field ids ToArrowField assigns),
// path names the field in errors.
func buildNode(from, to schema.DataType, target arrow.DataType, path string, e *env) (node, error) {
	if from.EqualIgnoreNullable(to) {
		return identityNode{}, nil
	}
	switch {
	case from.Root == schema.Row && to.Root == schema.Row:
		st, ok := target.(*arrow.StructType)
		if !ok || st.NumFields() != len(to.Fields) {
			return nil, fmt.Errorf("%w: %s: Arrow type %s for %s", ErrIncompatible, path, target, to)
		}
		n := &structNode{target: st, children: make([]structChild, len(to.Fields))}
		for i, tf := range to.Fields {
			j := from.FieldIndexByID(tf.ID)
			if j < 0 {
				n.children[i] = structChild{src: -1}
				continue
			}
			c, err := buildNode(from.Fields[j].Type, tf.Type, st.Field(i).Type, path+"."+tf.Name, e)
			if err != nil {
				return nil, err
			}
			n.children[i] = structChild{src: j, node: c}
		}
		return n, nil
	case from.Root == schema.Array && to.Root == schema.Array:
		lt, ok := target.(*arrow.ListType)
		if !ok || from.Element == nil || to.Element == nil {
			return nil, fmt.Errorf("%w: %s: Arrow type %s for %s", ErrIncompatible, path, target, to)
		}
		c, err := buildNode(*from.Element, *to.Element, lt.Elem(), path+".element", e)
		if err != nil {
			return nil, err
		}
		return &listNode{target: lt, elem: c}, nil
	case from.Root == schema.Map && to.Root == schema.Map:
		mt, ok := target.(*arrow.MapType)
		if !ok || from.Key == nil || to.Key == nil || from.Value == nil || to.Value == nil {
			return nil, fmt.Errorf("%w: %s: Arrow type %s for %s", ErrIncompatible, path, target, to)
		}
		if !from.Key.Equal(*to.Key) {
			return nil, fmt.Errorf("%w: %s: map key type changed from %s to %s", ErrIncompatible, path, from.Key, to.Key)
		}
		c, err := buildNode(*from.Value, *to.Value, mt.ItemType(), path+".value", e)
		if err != nil {
			return nil, err
		}
		return &mapNode{target: mt, value: c}, nil
	}
	fn, ok := resolve(from, to, e)
	if !ok {
		return nil, fmt.Errorf("%w: %s: no cast from %s to %s", ErrIncompatible, path, from, to)
	}
	return &castNode{from: from, to: to, target: target, fn: fn}, nil
}

// identityNode passes the column through (same Java type, so the same Arrow
// type).
type identityNode struct{}

func (identityNode) apply(src arrow.Array, _ memory.Allocator) (arrow.Array, error) {
	src.Retain()
	return src, nil
}

type structChild struct {
	src  int // index of the child in the file's (pruned) ROW; -1: all NULL
	node node
}

// structNode mirrors createRowCastExecutor: a ProjectedRow by field id, then
// a CastedRow.
type structNode struct {
	target   *arrow.StructType
	children []structChild
}

func (n *structNode) apply(src arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	sa, ok := src.(*array.Struct)
	if !ok {
		return nil, fmt.Errorf("%w: %s where a struct was expected", ErrBatch, src.DataType())
	}
	kids := make([]arrow.Array, len(n.children))
	defer releaseAll(kids)
	for i, c := range n.children {
		if c.src < 0 {
			kids[i] = array.MakeArrayOfNull(mem, n.target.Field(i).Type, sa.Len())
			continue
		}
		if c.src >= sa.NumField() {
			return nil, fmt.Errorf("%w: struct has %d fields, want field %d", ErrBatch, sa.NumField(), c.src)
		}
		out, err := c.node.apply(sa.Field(c.src), mem)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.target.Field(i).Name, err)
		}
		kids[i] = out
	}
	d := newStructData(sa, n.target, kids, mem)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// newStructData builds a struct with src's validity and the given children
// (each of src's length, aligned with it). The result has offset 0, so a
// sliced src has its validity bitmap copied.
func newStructData(src *array.Struct, target arrow.DataType, kids []arrow.Array, mem memory.Allocator) arrow.ArrayData {
	n := src.Len()
	childData := make([]arrow.ArrayData, len(kids))
	for i, k := range kids {
		childData[i] = k.Data()
	}
	var validity *memory.Buffer
	nulls := src.NullN()
	if nulls > 0 {
		sd := src.Data()
		bm := sd.Buffers()[0]
		if sd.Offset() == 0 {
			validity = bm
		} else {
			validity = memory.NewResizableBuffer(mem)
			validity.Resize(int(bitutil.BytesForBits(int64(n))))
			bitutil.CopyBitmap(bm.Bytes(), sd.Offset(), n, validity.Bytes(), 0)
			defer validity.Release()
		}
	}
	return array.NewData(target, n, []*memory.Buffer{validity}, childData, nulls, 0)
}

// listNode mirrors createArrayCastExecutor: the element cast applied to
// every element; offsets and validity are shared with the input.
type listNode struct {
	target *arrow.ListType
	elem   node
}

func (n *listNode) apply(src arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	la, ok := src.(*array.List)
	if !ok {
		return nil, fmt.Errorf("%w: %s where a list was expected", ErrBatch, src.DataType())
	}
	elems, err := n.elem.apply(la.ListValues(), mem)
	if err != nil {
		return nil, fmt.Errorf("element: %w", err)
	}
	defer elems.Release()
	sd := la.Data()
	d := array.NewData(n.target, sd.Len(), sd.Buffers(), []arrow.ArrayData{elems.Data()}, sd.NullN(), sd.Offset())
	defer d.Release()
	return array.MakeFromData(d), nil
}

// mapNode mirrors createMapCastExecutor: keys unchanged, the value cast
// applied to every value.
type mapNode struct {
	target *arrow.MapType
	value  node
}

func (n *mapNode) apply(src arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	ma, ok := src.(*array.Map)
	if !ok {
		return nil, fmt.Errorf("%w: %s where a map was expected", ErrBatch, src.DataType())
	}
	entries, ok := ma.ListValues().(*array.Struct)
	if !ok || entries.NumField() != 2 {
		return nil, fmt.Errorf("%w: malformed map entries", ErrBatch)
	}
	values, err := n.value.apply(entries.Field(1), mem)
	if err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	keys := entries.Field(0)
	keys.Retain()
	kids := []arrow.Array{keys, values}
	defer releaseAll(kids)
	ed := newStructData(entries, n.target.Elem(), kids, mem)
	defer ed.Release()
	sd := ma.Data()
	d := array.NewData(n.target, sd.Len(), sd.Buffers(), []arrow.ArrayData{ed}, sd.NullN(), sd.Offset())
	defer d.Release()
	return array.MakeFromData(d), nil
}

func releaseAll(arrs []arrow.Array) {
	for _, a := range arrs {
		if a != nil {
			a.Release()
		}
	}
}

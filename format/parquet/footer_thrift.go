package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The footer is checked before arrow-go decodes it: arrow-go sizes the
// children of each schema node by the node's num_children
// (schema.FromParquet) before it checks that many elements follow, so one
// flipped bit in that varint made it allocate tens of gigabytes and the
// process died (found by TestCorruptFiles). checkFooterSchema walks the
// Thrift compact encoding of FileMetaData (parquet.thrift) with bounds on
// every length, reads each SchemaElement's num_children (field 5 of the
// elements in field 2) and refuses a count larger than the elements there
// are. Everything else in the footer is skipped here and left to arrow-go.

// footerTailSize is how much of a file's end Open reads at once: arrow-go's
// own first footer read (file.NewParquetReader's default footer read size),
// served from this copy so the check costs no extra request.
const footerTailSize = 64 << 10

// tailReaderAt serves reads that fall inside the cached tail from it.
type tailReaderAt struct {
	r    io.ReaderAt
	off  int64
	tail []byte
}

func (t *tailReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= t.off && off+int64(len(p)) <= t.off+int64(len(t.tail)) {
		return copy(p, t.tail[off-t.off:]), nil
	}
	return t.r.ReadAt(p, off)
}

// readTail reads the end of the file and checks the footer's schema
// counts. It returns a reader that serves the tail from memory. Files too
// short or not ending in the plain footer magic are left to arrow-go's
// errors. A damaged footer is an error wrapping errThrift; any other error
// is the file system's.
func readTail(r io.ReaderAt, size int64) (io.ReaderAt, error) {
	if size < 12 {
		return r, nil
	}
	n := min(size, footerTailSize)
	tail := make([]byte, n)
	if _, err := r.ReadAt(tail, size-n); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	tr := &tailReaderAt{r: r, off: size - n, tail: tail}
	if string(tail[n-4:]) != "PAR1" {
		return tr, nil
	}
	flen := int64(binary.LittleEndian.Uint32(tail[n-8 : n-4]))
	if flen > size-12 {
		return nil, fmt.Errorf("%w: footer of %d bytes in a file of %d bytes", errThrift, flen, size)
	}
	var footer []byte
	if flen <= n-8 {
		footer = tail[n-8-flen : n-8]
	} else {
		footer = make([]byte, flen)
		if _, err := r.ReadAt(footer, size-8-flen); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
	}
	if err := checkFooterSchema(footer); err != nil {
		return nil, err
	}
	return tr, nil
}

// Thrift compact protocol type ids.
const (
	tcStop   = 0
	tcTrue   = 1
	tcFalse  = 2
	tcByte   = 3
	tcI16    = 4
	tcI32    = 5
	tcI64    = 6
	tcDouble = 7
	tcBinary = 8
	tcList   = 9
	tcSet    = 10
	tcMap    = 11
	tcStruct = 12
)

const thriftMaxDepth = 64

var errThrift = errors.New("malformed footer")

type thriftWalker struct {
	b   []byte
	pos int
}

func (w *thriftWalker) byte1() (byte, error) {
	if w.pos >= len(w.b) {
		return 0, errThrift
	}
	c := w.b[w.pos]
	w.pos++
	return c, nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.pos:])
	if n <= 0 {
		return 0, errThrift
	}
	w.pos += n
	return v, nil
}

func (w *thriftWalker) zigzag() (int64, error) {
	u, err := w.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

func (w *thriftWalker) skipBytes(n uint64) error {
	if n > uint64(len(w.b)-w.pos) {
		return errThrift
	}
	w.pos += int(n)
	return nil
}

// collectionHeader reads a list or set header: element count and type.
func (w *thriftWalker) collectionHeader() (uint64, byte, error) {
	h, err := w.byte1()
	if err != nil {
		return 0, 0, err
	}
	size := uint64(h >> 4)
	if size == 15 {
		if size, err = w.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	// Every element takes at least one byte.
	if size > uint64(len(w.b)-w.pos) {
		return 0, 0, errThrift
	}
	return size, h & 0x0f, nil
}

// skip skips one value of type t.
func (w *thriftWalker) skip(t byte, depth int) error {
	if depth > thriftMaxDepth {
		return errThrift
	}
	switch t {
	case tcTrue, tcFalse:
		return nil
	case tcByte:
		return w.skipBytes(1)
	case tcI16, tcI32, tcI64:
		_, err := w.uvarint()
		return err
	case tcDouble:
		return w.skipBytes(8)
	case tcBinary:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		return w.skipBytes(n)
	case tcList, tcSet:
		n, et, err := w.collectionHeader()
		if err != nil {
			return err
		}
		for range n {
			if et == tcTrue || et == tcFalse {
				if err := w.skipBytes(1); err != nil { // a boolean element is one byte
					return err
				}
				continue
			}
			if err := w.skip(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tcMap:
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		if n > uint64(len(w.b)-w.pos) {
			return errThrift
		}
		kv, err := w.byte1()
		if err != nil {
			return err
		}
		for range n {
			for _, et := range []byte{kv >> 4, kv & 0x0f} {
				if et == tcTrue || et == tcFalse {
					if err := w.skipBytes(1); err != nil {
						return err
					}
					continue
				}
				if err := w.skip(et, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case tcStruct:
		return w.fields(depth+1, func(int16, byte) (bool, error) { return false, nil })
	default:
		return errThrift
	}
}

// fields walks a struct's fields up to its stop byte. visit sees each
// field id and type first; when it returns true it consumed the value.
func (w *thriftWalker) fields(depth int, visit func(id int16, t byte) (bool, error)) error {
	if depth > thriftMaxDepth {
		return errThrift
	}
	var last int16
	for {
		h, err := w.byte1()
		if err != nil {
			return err
		}
		t := h & 0x0f
		if t == tcStop {
			return nil
		}
		id := last + int16(h>>4)
		if h>>4 == 0 {
			v, err := w.zigzag()
			if err != nil {
				return err
			}
			id = int16(v)
		}
		last = id
		done, err := visit(id, t)
		if err != nil {
			return err
		}
		if !done {
			if err := w.skip(t, depth); err != nil {
				return err
			}
		}
	}
}

// checkFooterSchema refuses a footer whose schema elements claim more
// children than there are elements.
func checkFooterSchema(footer []byte) error {
	w := &thriftWalker{b: footer}
	var children []int64
	elements := uint64(0)
	err := w.fields(0, func(id int16, t byte) (bool, error) {
		if id != 2 || t != tcList {
			return false, nil
		}
		n, et, err := w.collectionHeader()
		if err != nil {
			return false, err
		}
		if et != tcStruct {
			return false, errThrift
		}
		elements += n
		for range n {
			err := w.fields(1, func(id int16, t byte) (bool, error) {
				if id != 5 || t != tcI32 {
					return false, nil
				}
				v, err := w.zigzag()
				children = append(children, v)
				return true, err
			})
			if err != nil {
				return false, err
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("%w at byte %d of %d", err, w.pos, len(footer))
	}
	for i, c := range children {
		if c < 0 || uint64(c) >= max(elements, 1) {
			return fmt.Errorf("%w: schema element %d: %d children among %d schema elements", errThrift, i, c, elements)
		}
	}
	return nil
}

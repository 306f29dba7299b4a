package fileindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf16"

	"github.com/paimon-go/paimon-go/format/schema"
)

// ErrCorrupt reports an index that cannot be decoded.
var ErrCorrupt = errors.New("fileindex: corrupt file index")

// magic starts every file index (Java FileIndexFormat.MAGIC).
const magic = 1493475289347502

// emptyIndex marks an index whose column held no value (Java
// FileIndexFormat.EMPTY_INDEX_FLAG).
const emptyIndex = -1

// File is a decoded file-index header over its bytes.
type File struct {
	data    []byte
	columns map[string]map[string][2]int32 // column -> index type -> (start, length)
	order   []string
}

// Parse decodes the header of a file index held in b (the embedded index
// bytes, or the whole content of a separate .index file).
func Parse(b []byte) (*File, error) {
	r := &reader{b: b}
	if r.i64() != magic || r.err != nil {
		return nil, fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	if v := r.i32(); v != 1 {
		return nil, fmt.Errorf("%w: version %d, want 1", ErrCorrupt, v)
	}
	headLen := r.i32()
	if r.err != nil || headLen < 16 || int(headLen) > len(b) {
		return nil, fmt.Errorf("%w: head length %d of %d bytes", ErrCorrupt, headLen, len(b))
	}
	r.b = b[:headLen]
	f := &File{data: b, columns: map[string]map[string][2]int32{}}
	n := r.i32()
	for i := int32(0); i < n && r.err == nil; i++ {
		col := r.utf()
		m := f.columns[col]
		if m == nil {
			m = map[string][2]int32{}
			f.columns[col] = m
			f.order = append(f.order, col)
		}
		k := r.i32()
		for j := int32(0); j < k && r.err == nil; j++ {
			typ := r.utf()
			start, length := r.i32(), r.i32()
			if r.err == nil && start != emptyIndex && (start < 0 || length < 0 || int64(start)+int64(length) > int64(len(b))) {
				r.err = fmt.Errorf("index %s of column %q at %d+%d out of %d bytes", typ, col, start, length, len(b))
			}
			m[typ] = [2]int32{start, length}
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, r.err)
	}
	return f, nil
}

// Columns lists the indexed columns in header order.
func (f *File) Columns() []string { return append([]string(nil), f.order...) }

// Types lists the index types of a column.
func (f *File) Types(column string) []string {
	var out []string
	for t := range f.columns[column] {
		out = append(out, t)
	}
	return out
}

// Index returns the decoded index of the given type on a column; nil when
// the file has none. t is the column's type in the file's schema.
// An index of a type this package does not decode, or one that fails to
// decode, is returned as an index that answers Remain to everything.
func (f *File) Index(column, typ string, t schema.DataType) Index {
	pos, ok := f.columns[column][typ]
	if !ok {
		return nil
	}
	if pos[0] == emptyIndex {
		return emptyIdx{} // Java EmptyFileIndexReader: the column held no value
	}
	b := f.data[pos[0] : pos[0]+pos[1]]
	var idx Index
	var err error
	switch typ {
	case "bloom-filter":
		idx, err = newBloom(b, t)
	case "bitmap":
		idx, err = newBitmap(b, t)
	case "bsi":
		idx, err = newBSI(b, t)
	case "range-bitmap":
		idx, err = newRangeBitmap(b, t)
	default:
		return remainIdx{}
	}
	if err != nil || idx == nil {
		return remainIdx{}
	}
	return idx
}

// IndexesOf returns every index of a column (see Index).
func (f *File) IndexesOf(column string, t schema.DataType) []Index {
	var out []Index
	for typ := range f.columns[column] {
		out = append(out, f.Index(column, typ, t))
	}
	return out
}

// reader reads Java DataInput values, recording the first error.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || r.off+n > len(r.b) {
		r.err = fmt.Errorf("truncated at byte %d", r.off)
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u8() byte {
	if s := r.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (r *reader) i16() int16 {
	if s := r.take(2); s != nil {
		return int16(binary.BigEndian.Uint16(s))
	}
	return 0
}

func (r *reader) i32() int32 {
	if s := r.take(4); s != nil {
		return int32(binary.BigEndian.Uint32(s))
	}
	return 0
}

func (r *reader) i64() int64 {
	if s := r.take(8); s != nil {
		return int64(binary.BigEndian.Uint64(s))
	}
	return 0
}

// utf reads Java's modified UTF-8 (DataInput.readUTF): a uint16 length,
// then 1-3 byte sequences; NUL is 0xC0 0x80 and supplementary characters
// are surrogate pairs.
func (r *reader) utf() string {
	n := int(uint16(r.i16()))
	s := r.take(n)
	if s == nil {
		return ""
	}
	units := make([]uint16, 0, n)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < 0x80:
			units = append(units, uint16(c))
			i++
		case c&0xE0 == 0xC0 && i+1 < len(s):
			units = append(units, uint16(c&0x1F)<<6|uint16(s[i+1]&0x3F))
			i += 2
		case c&0xF0 == 0xE0 && i+2 < len(s):
			units = append(units, uint16(c&0x0F)<<12|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F))
			i += 3
		default:
			r.err = fmt.Errorf("malformed modified UTF-8 at byte %d", r.off-n+i)
			return ""
		}
	}
	return string(utf16.Decode(units))
}

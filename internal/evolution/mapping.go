package evolution

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
)

// Options tunes NewWithOptions. The zero value (or nil) is valid.
type Options struct {
	// Location stands in for the JVM default time zone
	// (TimeZone.getDefault()) that Java's casts to, from and between
	// TIMESTAMP_LTZ use. Nil means time.Local.
	Location *time.Location
}

// Mapping reads batches of one data file's fields as the table's fields. It
// is immutable and safe for concurrent use.
type Mapping struct {
	tableFields []schema.DataField
	fileFields  []schema.DataField // what the reader must return (pruned)
	in          []arrow.DataType   // Arrow types of fileFields
	out         *arrow.Schema      // Arrow schema of tableFields
	cols        []column
	identity    bool
}

// column is how one table field is produced: from file field src (an index
// into fileFields) through node, or as all NULL when src < 0.
type column struct {
	src  int
	node node
}

// New builds the mapping from a data file's schema to the fields a reader
// wants, with the default Options. tableFields are the wanted fields (the
// current schema or a projection of it, in output order); fileFields are all
// the fields of the schema the file was written with. Fields are matched by
// id. Errors wrap ErrIncompatible when a field's type changed in a way Java
// cannot read.
func New(tableFields, fileFields []schema.DataField) (*Mapping, error) {
	return NewWithOptions(tableFields, fileFields, nil)
}

// NewWithOptions is New with explicit Options.
func NewWithOptions(tableFields, fileFields []schema.DataField, opts *Options) (*Mapping, error) {
	e := &env{loc: time.Local}
	if opts != nil && opts.Location != nil {
		e.loc = opts.Location
	}
	byID := make(map[int]int, len(fileFields))
	for i, f := range fileFields {
		if _, dup := byID[f.ID]; dup {
			return nil, fmt.Errorf("%w: field id %d appears twice in the file schema", ErrIncompatible, f.ID)
		}
		byID[f.ID] = i
	}
	wanted := make(map[int]schema.DataType, len(tableFields))
	for _, f := range tableFields {
		if _, seen := wanted[f.ID]; !seen {
			wanted[f.ID] = f.Type // Java prunes with the first request of an id
		}
	}

	m := &Mapping{tableFields: cloneFields(tableFields)}
	// The fields to read, in file order (FormatReaderMapping.readDataFields).
	readIndex := make(map[int]int)
	for _, f := range fileFields {
		t, ok := wanted[f.ID]
		if !ok {
			continue
		}
		pt, ok := pruneType(t, f.Type)
		if !ok {
			continue
		}
		rf := f.Clone()
		rf.Type = pt
		readIndex[f.ID] = len(m.fileFields)
		m.fileFields = append(m.fileFields, rf)
	}
	m.in = make([]arrow.DataType, len(m.fileFields))
	for i, f := range m.fileFields {
		af, err := schema.ToArrowField(f)
		if err != nil {
			return nil, fmt.Errorf("evolution: file field %q: %w", f.Name, err)
		}
		m.in[i] = af.Type
	}
	out, err := schema.ToArrowSchema(tableFields)
	if err != nil {
		return nil, fmt.Errorf("evolution: %w", err)
	}
	m.out = out

	m.cols = make([]column, len(tableFields))
	identity := len(tableFields) == len(m.fileFields)
	for i, tf := range tableFields {
		src, ok := readIndex[tf.ID]
		if !ok {
			m.cols[i] = column{src: -1}
			identity = false
			continue
		}
		rf := m.fileFields[src]
		n, err := buildNode(rf.Type, tf.Type, out.Field(i).Type, tf.Name, e)
		if err != nil {
			return nil, err
		}
		m.cols[i] = column{src: src, node: n}
		if _, same := n.(identityNode); !same || src != i || rf.Name != tf.Name ||
			rf.Type.Nullable != tf.Type.Nullable {
			identity = false
		}
	}
	m.identity = identity
	return m, nil
}

func cloneFields(fields []schema.DataField) []schema.DataField {
	out := make([]schema.DataField, len(fields))
	for i, f := range fields {
		out[i] = f.Clone()
	}
	return out
}

// FileFields returns the fields to request from the file reader, in the
// file's order: only those the table wants, with the file's names and types
// (nested ROWs pruned to the wanted sub-fields). The slice is a copy.
func (m *Mapping) FileFields() []schema.DataField { return cloneFields(m.fileFields) }

// Schema returns the Arrow schema of the batches Apply returns:
// schema.ToArrowSchema of the table fields.
func (m *Mapping) Schema() *arrow.Schema { return m.out }

// Identity reports whether the file's fields are exactly the table's (same
// ids, names, order and types), so that Apply returns its input unchanged.
func (m *Mapping) Identity() bool { return m.identity }

// Apply converts a batch read with FileFields (columns in that order, each of
// the Arrow type schema.ToArrowField gives its field) into a batch of the
// table fields with schema Schema(): NULL columns for fields the file lacks,
// values cast where the type changed. An identity mapping returns rec itself
// with one more reference. The caller keeps ownership of rec and must
// release the result. Errors wrap ErrBatch for a batch of the wrong shape and
// ErrCast for a value the cast rejects.
func (m *Mapping) Apply(rec arrow.RecordBatch, mem memory.Allocator) (_ arrow.RecordBatch, err error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if int(rec.NumCols()) != len(m.fileFields) {
		return nil, fmt.Errorf("%w: %d columns, want %d", ErrBatch, rec.NumCols(), len(m.fileFields))
	}
	for i, t := range m.in {
		if got := rec.Column(i).DataType(); !arrow.TypeEqual(got, t) {
			return nil, fmt.Errorf("%w: column %q is %s, want %s", ErrBatch, m.fileFields[i].Name, got, t)
		}
	}
	if m.identity {
		rec.Retain()
		return rec, nil
	}
	defer func() {
		// Arrow builders panic on impossible states; a bad batch must
		// surface as an error.
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: panic: %v", ErrBatch, p)
		}
	}()
	rows := int(rec.NumRows())
	cols := make([]arrow.Array, len(m.cols))
	defer releaseAll(cols)
	for i, c := range m.cols {
		if c.src < 0 {
			cols[i] = array.MakeArrayOfNull(mem, m.out.Field(i).Type, rows)
			continue
		}
		out, err := c.node.apply(rec.Column(c.src), mem)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", m.tableFields[i].Name, err)
		}
		cols[i] = out
	}
	return array.NewRecordBatch(m.out, cols, int64(rows)), nil
}

package orc

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/schema"
)

// Defaults of Java's ORC writer as Paimon configures it (OrcConf, Paimon
// OrcFileFormat and OrcOptions).
const (
	// DefaultStripeSize is orc.stripe.size (Paimon sets it from
	// file.block-size when that is given).
	DefaultStripeSize = 64 << 20
	// DefaultBlockSize is orc.compress.size, the largest compression chunk.
	DefaultBlockSize = 256 << 10
	// DefaultRowIndexStride is orc.row.index.stride.
	DefaultRowIndexStride = 10_000
	// DefaultDictionaryKeyThreshold is orc.dictionary.key.threshold.
	DefaultDictionaryKeyThreshold = 0.8
	// softwareVersion is recorded in the footer (informative).
	softwareVersion = "paimon-go"
	// writerVersionORC14 is the PostScript writer version Java's ORC 1.9
	// writes (ORC-14, column encryption). Files of this package are
	// meant to be read exactly like that writer's: same statistics, same
	// timestamp arithmetic.
	writerVersionORC14 = 9
)

// WriterOptions tunes NewWriter. The zero value (or nil) writes what Java
// Paimon writes with its defaults, except the compression kind (NONE here,
// zstd in Paimon: set it).
type WriterOptions struct {
	// Compression is the codec (Paimon file.compression, or orc.compress).
	Compression CompressionKind
	// ZstdLevel is the zstd level (file.compression.zstd-level; default 1).
	ZstdLevel int
	// StripeSize is the buffered size at which a stripe is written
	// (orc.stripe.size; default DefaultStripeSize).
	StripeSize int64
	// BlockSize is the largest compression chunk (orc.compress.size;
	// default as Java: the power of two nearest above StripeSize / (20 ×
	// columns), between 4 KiB and DefaultBlockSize).
	BlockSize int
	// RowIndexStride is the rows per row group of the row index
	// (orc.row.index.stride; default DefaultRowIndexStride; at least 1000
	// as in Java).
	RowIndexStride int
	// DictionaryKeyThreshold is orc.dictionary.key.threshold; nil means
	// DefaultDictionaryKeyThreshold. 0 disables dictionaries, 1 always
	// uses them.
	DictionaryKeyThreshold *float64
	// DirectColumns names top-level fields written without a dictionary
	// (orc.column.encoding.direct).
	DirectColumns []string
}

// Writer writes one ORC file (Java WriterImpl with Paimon's
// OrcWriterFactory): Paimon rows as Arrow batches in, stripes and a tail
// out, with the types, field ids (the paimon.id attribute), statistics and
// row index Java writes. It is not safe for concurrent use.
type Writer struct {
	out    io.Writer
	opts   WriterOptions
	fields []schema.DataField
	types  []orcType
	comp   *compressor
	block  int
	stride int

	root    *structCol
	all     []columnWriter // every column, by id
	strings []*stringCol

	written      int64 // bytes handed to out
	stripes      []stripeInfo
	stripeStats  [][]ColumnStatistics
	rows         int64 // rows in finished stripes
	stripeRows   int64
	groupRows    int
	closed       bool
	err          error
	fileStats    []ColumnStatistics
	hasTimestamp bool
}

// NewWriter starts an ORC file on out for rows of the given fields (the
// schema of the Arrow batches Write takes is schema.ToArrowSchema(fields)).
// Types ORC cannot hold (VARIANT, VECTOR) are ErrUnsupported.
func NewWriter(out io.Writer, fields []schema.DataField, opts *WriterOptions) (*Writer, error) {
	if opts == nil {
		opts = &WriterOptions{}
	}
	w := &Writer{out: out, opts: *opts, fields: fields}
	if w.opts.StripeSize <= 0 {
		w.opts.StripeSize = DefaultStripeSize
	}
	w.stride = w.opts.RowIndexStride
	if w.stride == 0 {
		w.stride = DefaultRowIndexStride
	}
	if w.stride < 1000 {
		return nil, fmt.Errorf("%w: row index stride %d is below 1000", ErrUnsupported, w.stride)
	}
	threshold := DefaultDictionaryKeyThreshold
	if opts.DictionaryKeyThreshold != nil {
		threshold = *opts.DictionaryKeyThreshold
	}
	direct := map[string]bool{}
	for _, n := range opts.DirectColumns {
		direct[n] = true
	}
	// The type tree: root struct, then each field in pre-order.
	w.types = []orcType{{kind: kindStruct}}
	for _, f := range fields {
		w.types[0].fieldNames = append(w.types[0].fieldNames, f.Name)
		id, err := w.addType(f.Type, f.ID, 0)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		w.types[0].subtypes = append(w.types[0].subtypes, uint64(id))
		setAttr(&w.types[id], strconv.Itoa(f.ID))
	}
	w.block = w.opts.BlockSize
	if w.block <= 0 {
		w.block = estimatedBlockSize(w.opts.StripeSize, len(w.types))
	}
	if w.block > maxBlockSize-1 {
		return nil, fmt.Errorf("%w: compression block size %d", ErrUnsupported, w.block)
	}
	var err error
	if w.opts.Compression != CompressionNone {
		if w.opts.ZstdLevel == 0 {
			w.opts.ZstdLevel = 1
		}
		if w.comp, err = newCompressor(w.opts.Compression, w.opts.ZstdLevel); err != nil {
			return nil, err
		}
	}
	w.all = make([]columnWriter, len(w.types))
	root := &structCol{colBase: w.newBase(0, &w.types[0])}
	w.all[0] = root
	for i, f := range fields {
		cw, err := w.columnWriter(int(w.types[0].subtypes[i]), f.Type, threshold, direct[f.Name])
		if err != nil {
			return nil, err
		}
		root.kids = append(root.kids, cw)
	}
	w.root = root
	for _, c := range w.all {
		recordStart(c)
	}
	if _, err := out.Write([]byte("ORC")); err != nil {
		return nil, err
	}
	w.written = 3
	return w, nil
}

func setAttr(t *orcType, id string) {
	for i := range t.attributes {
		if t.attributes[i][0] == FieldIDAttribute {
			t.attributes[i][1] = id
			return
		}
	}
	t.attributes = append(t.attributes, [2]string{FieldIDAttribute, id})
}

// estimatedBlockSize mirrors WriterImpl.getEstimatedBufferSize: about ten
// chunks for each of two big streams per column in a stripe.
func estimatedBlockSize(stripeSize int64, columns int) int {
	est := int(stripeSize / (20 * int64(columns)))
	p := 1
	if est > 1 {
		p = 1 << bits.Len64(uint64(est-1))
	}
	return min(DefaultBlockSize, max(4<<10, p))
}

// addType appends the ORC type of a Paimon type (Java OrcTypeUtil
// convertToOrcType after OrcFileFormat.refineDataType), with the paimon.id
// attributes of nested fields, and returns its id.
func (w *Writer) addType(t schema.DataType, fieldID, depth int) (int, error) {
	id := len(w.types)
	w.types = append(w.types, orcType{})
	var ot orcType
	switch t.Root {
	case schema.Boolean:
		ot.kind = kindBoolean
	case schema.TinyInt:
		ot.kind = kindByte
	case schema.SmallInt:
		ot.kind = kindShort
	case schema.Int, schema.Time:
		ot.kind = kindInt
	case schema.BigInt:
		ot.kind = kindLong
	case schema.Float:
		ot.kind = kindFloat
	case schema.Double:
		ot.kind = kindDouble
	case schema.Decimal:
		ot.kind, ot.precision, ot.scale = kindDecimal, uint64(t.Precision), uint64(t.Scale)
	case schema.Char:
		ot.kind, ot.maxLength = kindChar, uint64(t.Length)
	case schema.VarChar:
		if t.Length == schema.MaxLength {
			ot.kind = kindString
		} else {
			ot.kind, ot.maxLength = kindVarchar, uint64(t.Length)
		}
	case schema.Binary, schema.VarBinary, schema.Blob:
		ot.kind = kindBinary
	case schema.Date:
		ot.kind = kindDate
	case schema.Timestamp:
		ot.kind = kindTimestamp
		w.hasTimestamp = true
	case schema.TimestampLTZ:
		ot.kind = kindTimestampInstant
	case schema.Array:
		ot.kind = kindList
		w.types[id] = ot
		c, err := w.addType(*t.Element, fieldID, depth+1)
		if err != nil {
			return 0, err
		}
		setAttr(&w.types[c], strconv.Itoa(int(arrayElementID(int32(fieldID), int32(depth+1)))))
		ot.subtypes = []uint64{uint64(c)}
	case schema.Map, schema.Multiset:
		ot.kind = kindMap
		w.types[id] = ot
		kt, vt := t.Key, t.Value
		if t.Root == schema.Multiset {
			kt = t.Element
			it := schema.IntType().NotNull()
			vt = &it
		}
		k, err := w.addType(*kt, fieldID, depth+1)
		if err != nil {
			return 0, err
		}
		setAttr(&w.types[k], strconv.Itoa(int(mapKeyID(int32(fieldID), int32(depth+1)))))
		v, err := w.addType(*vt, fieldID, depth+1)
		if err != nil {
			return 0, err
		}
		setAttr(&w.types[v], strconv.Itoa(int(arrayElementID(int32(fieldID), int32(depth+1)))))
		ot.subtypes = []uint64{uint64(k), uint64(v)}
	case schema.Row:
		ot.kind = kindStruct
		w.types[id] = ot
		for _, f := range t.Fields {
			c, err := w.addType(f.Type, f.ID, 0)
			if err != nil {
				return 0, err
			}
			setAttr(&w.types[c], strconv.Itoa(f.ID))
			ot.fieldNames = append(ot.fieldNames, f.Name)
			ot.subtypes = append(ot.subtypes, uint64(c))
		}
	default:
		return 0, fmt.Errorf("%w: %s columns in ORC", ErrUnsupported, t.Root)
	}
	ot.attributes = w.types[id].attributes
	w.types[id] = ot
	return id, nil
}

// Field ids of list elements, map keys and map values (Java SpecialFields,
// 32-bit arithmetic as in schema.ToArrowField).
func arrayElementID(fieldID, depth int32) int32 { return 2147483647/4 + fieldID*1024 + depth }
func mapKeyID(fieldID, depth int32) int32       { return 2147483647/4 - fieldID*1024 - depth }

func (w *Writer) newStream() *outStream { return newOutStream(w.comp, w.block) }

// columnWriter builds the writer of column id (of Paimon type t).
func (w *Writer) columnWriter(id int, t schema.DataType, threshold float64, direct bool) (columnWriter, error) {
	ot := &w.types[id]
	b := w.newBase(id, ot)
	var cw columnWriter
	switch ot.kind {
	case kindBoolean:
		out := w.newStream()
		cw = &boolCol{colBase: b, out: out, data: newBoolWriter(out)}
	case kindByte:
		out := w.newStream()
		cw = &byteCol{colBase: b, out: out, data: &byteRLEWriter{out: out}}
	case kindShort, kindInt, kindLong, kindDate:
		out := w.newStream()
		cw = &intCol{colBase: b, out: out, data: newIntWriter(out, true)}
	case kindFloat, kindDouble:
		cw = &floatCol{colBase: b, out: w.newStream()}
	case kindString, kindChar, kindVarchar, kindBinary:
		sc := &stringCol{colBase: b, binary: ot.kind == kindBinary, threshold: threshold,
			dataOut: w.newStream(), lenOut: w.newStream(), dictOut: w.newStream(), dict: map[string]int32{}}
		if ot.kind == kindChar || ot.kind == kindVarchar {
			sc.maxLen = int(ot.maxLength)
		}
		sc.lengths = newIntWriter(sc.lenOut, false)
		sc.ids = newIntWriter(sc.dataOut, false)
		sc.useDict = !sc.binary && threshold > 0 && !direct
		sc.decided = !sc.useDict
		w.strings = append(w.strings, sc)
		cw = sc
	case kindDecimal:
		dc := &decimalCol{colBase: b, scale: int(ot.scale), dataOut: w.newStream(), scaleOut: w.newStream()}
		dc.scales = newIntWriter(dc.scaleOut, true)
		cw = dc
	case kindTimestamp, kindTimestampInstant:
		unit := arrow.Millisecond
		if at, err := schema.ToArrowType(t); err == nil {
			unit = at.(*arrow.TimestampType).Unit
		}
		tc := &timestampCol{colBase: b, unit: unit, secsOut: w.newStream(), nanosOut: w.newStream()}
		tc.secs = newIntWriter(tc.secsOut, true)
		tc.nanos = newIntWriter(tc.nanosOut, false)
		cw = tc
	case kindStruct:
		sc := &structCol{colBase: b}
		for i, f := range t.Fields {
			k, err := w.columnWriter(int(ot.subtypes[i]), f.Type, threshold, false)
			if err != nil {
				return nil, err
			}
			sc.kids = append(sc.kids, k)
		}
		cw = sc
	case kindList, kindMap:
		out := w.newStream()
		lc := &listCol{colBase: b, out: out, lengths: newIntWriter(out, false)}
		var kts []schema.DataType
		switch t.Root {
		case schema.Array:
			kts = []schema.DataType{*t.Element}
		case schema.Map:
			kts = []schema.DataType{*t.Key, *t.Value}
		default:
			kts = []schema.DataType{*t.Element, schema.IntType().NotNull()}
		}
		for i, kt := range kts {
			k, err := w.columnWriter(int(ot.subtypes[i]), kt, threshold, false)
			if err != nil {
				return nil, err
			}
			lc.kids = append(lc.kids, k)
		}
		cw = lc
	default:
		return nil, fmt.Errorf("%w: %s columns", ErrUnsupported, ot.kind)
	}
	w.all[id] = cw
	return cw, nil
}

// Write encodes the rows of rec, whose schema must be
// schema.ToArrowSchema of the writer's fields.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("orc: write after close")
	}
	if int(rec.NumCols()) != len(w.fields) {
		return fmt.Errorf("%w: batch of %d columns for %d fields", ErrSchema, rec.NumCols(), len(w.fields))
	}
	n := int(rec.NumRows())
	for pos := 0; pos < n; {
		k := min(n-pos, w.stride-w.groupRows)
		w.root.idx.increment(k)
		for i, c := range w.root.kids {
			c.write(rec.Column(i), rangeRows(pos, pos+k))
		}
		pos += k
		w.groupRows += k
		w.stripeRows += int64(k)
		if w.groupRows >= w.stride {
			w.endGroup()
		}
	}
	if w.buffered() >= w.opts.StripeSize {
		return w.flushStripe()
	}
	return nil
}

// endGroup closes the current row group of every column (Java
// createRowIndexEntry).
func (w *Writer) endGroup() {
	for _, c := range w.all {
		b := c.base()
		b.entries = append(b.entries, rowIndexEntry{
			positions: append([]uint64(nil), b.groupPos...),
			stats:     b.idx.serialize(), hasStats: true,
		})
		b.stripe.merge(b.idx)
		b.idx.reset()
	}
	for _, s := range w.strings {
		s.groupDone()
	}
	for _, c := range w.all {
		recordStart(c)
	}
	w.groupRows = 0
}

// buffered estimates the bytes the stripe being built will take.
func (w *Writer) buffered() int64 {
	var n int64
	for _, c := range w.all {
		b := c.base()
		n += int64(b.presentOut.size())
		switch c := c.(type) {
		case *boolCol:
			n += int64(c.out.size())
		case *byteCol:
			n += int64(c.out.size())
		case *intCol:
			n += int64(c.out.size()) + 8*int64(c.data.n)
		case *floatCol:
			n += int64(c.out.size())
		case *stringCol:
			n += int64(c.dataOut.size()+c.lenOut.size()) + c.dictSize + 4*int64(len(c.rows))
		case *decimalCol:
			n += int64(c.dataOut.size() + c.scaleOut.size())
		case *timestampCol:
			n += int64(c.secsOut.size() + c.nanosOut.size())
		case *listCol:
			n += int64(c.out.size())
		}
	}
	return n
}

// Buffered returns the bytes held in memory for the stripe being built
// (an estimate of what it will add to the file).
func (w *Writer) Buffered() int64 {
	if w.closed {
		return 0
	}
	return w.buffered()
}

// FlushStripe writes the stripe being built now (a writer sharing memory
// with others cuts its stripes early, as Java's ORC MemoryManager does).
func (w *Writer) FlushStripe() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("orc: flush after close")
	}
	return w.flushStripe()
}

// flushStripe writes the stripe being built: index streams, data streams,
// stripe footer (Java WriterImpl.flushStripe and PhysicalFsWriter).
func (w *Writer) flushStripe() error {
	if w.groupRows > 0 {
		w.endGroup()
	}
	if w.stripeRows == 0 {
		return nil
	}
	type streamOut struct {
		info streamInfo
		data []byte
	}
	var index, data []streamOut
	var sf stripeFooter
	if w.hasTimestamp {
		// As Java: only a file with a TIMESTAMP column records the
		// writer's zone (this writer's is always UTC).
		sf.timezone = "UTC"
	}
	stats := make([]ColumnStatistics, len(w.all))
	for _, c := range w.all {
		b := c.base()
		streams, enc := c.flush()
		if !b.foundNulls {
			// No PRESENT stream: its positions leave the index.
			drop := 3
			if w.comp != nil {
				drop = 4
			}
			for i := range b.entries {
				b.entries[i].positions = b.entries[i].positions[drop:]
			}
		}
		var colBytes uint64
		for _, s := range streams {
			if len(s.data) == 0 {
				continue
			}
			data = append(data, streamOut{streamInfo{kind: s.kind, column: uint64(b.id), length: uint64(len(s.data))}, s.data})
			colBytes += uint64(len(s.data))
		}
		ix := w.newStream()
		ix.write(encodeRowIndex(b.entries))
		raw := ix.finish()
		index = append(index, streamOut{streamInfo{kind: streamRowIndex, column: uint64(b.id), length: uint64(len(raw))}, raw})
		sf.encodings = append(sf.encodings, enc)
		st := b.stripe
		st.bytesOnDisk = colBytes
		stats[b.id] = st.serialize()
		b.file.merge(st)
		st.reset()
	}
	offset := w.written
	var indexLen, dataLen uint64
	for _, s := range index {
		sf.streams = append(sf.streams, s.info)
		if err := w.emit(s.data); err != nil {
			return err
		}
		indexLen += s.info.length
	}
	for _, s := range data {
		sf.streams = append(sf.streams, s.info)
		if err := w.emit(s.data); err != nil {
			return err
		}
		dataLen += s.info.length
	}
	fo := w.newStream()
	fo.write(sf.encode())
	foot := fo.finish()
	if err := w.emit(foot); err != nil {
		return err
	}
	w.stripes = append(w.stripes, stripeInfo{offset: uint64(offset), indexLength: indexLen, dataLength: dataLen,
		footerLength: uint64(len(foot)), numRows: uint64(w.stripeRows)})
	w.stripeStats = append(w.stripeStats, stats)
	w.rows += w.stripeRows
	w.stripeRows = 0
	for _, c := range w.all {
		c.reset()
	}
	for _, c := range w.all {
		recordStart(c)
	}
	return nil
}

func (w *Writer) emit(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	n, err := w.out.Write(b)
	w.written += int64(n)
	if err != nil {
		w.err = err
	}
	return err
}

// Close writes the last stripe and the tail: metadata, footer,
// PostScript. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	if err := w.flushStripe(); err != nil {
		return err
	}
	w.closed = true
	// Metadata: the stripes' statistics.
	var meta pbWriter
	for _, ss := range w.stripeStats {
		meta.message(1, func(m *pbWriter) {
			for i := range ss {
				m.message(1, ss[i].encode)
			}
		})
	}
	mo := w.newStream()
	mo.write(meta.b)
	metaBytes := mo.finish()
	if err := w.emit(metaBytes); err != nil {
		return err
	}
	// Footer.
	w.fileStats = make([]ColumnStatistics, len(w.all))
	for _, c := range w.all {
		b := c.base()
		w.fileStats[b.id] = b.file.serialize()
	}
	var ft pbWriter
	ft.uint(1, 3)
	ft.uint(2, uint64(w.written-int64(len(metaBytes))))
	for _, s := range w.stripes {
		ft.message(3, func(m *pbWriter) {
			m.uint(1, s.offset)
			m.uint(2, s.indexLength)
			m.uint(3, s.dataLength)
			m.uint(4, s.footerLength)
			m.uint(5, s.numRows)
		})
	}
	for i := range w.types {
		ft.message(4, w.types[i].encode)
	}
	ft.uint(6, uint64(w.rows))
	for i := range w.fileStats {
		ft.message(7, w.fileStats[i].encode)
	}
	ft.uint(8, uint64(w.stride))
	ft.uint(9, 0)  // ORC Java's code: the file reads as that writer's (see writerVersionORC14)
	ft.uint(11, 1) // JULIAN_GREGORIAN, as Java without orc.proleptic.gregorian
	ft.str(12, softwareVersion)
	fo := w.newStream()
	fo.write(ft.b)
	footBytes := fo.finish()
	if err := w.emit(footBytes); err != nil {
		return err
	}
	ps := postScript{footerLength: uint64(len(footBytes)), compression: w.opts.Compression,
		blockSize: uint64(w.block), version: []uint64{0, 12}, metadataLength: uint64(len(metaBytes)),
		writerVersion: writerVersionORC14, magic: []byte("ORC")}
	psBytes := ps.encode()
	if err := w.emit(append(psBytes, byte(len(psBytes)))); err != nil {
		return err
	}
	return nil
}

// NumRows returns the rows written (complete after Close).
func (w *Writer) NumRows() int64 { return w.rows + w.stripeRows }

// Size returns the bytes handed to the underlying writer so far.
func (w *Writer) Size() int64 { return w.written }

// FileStatistics returns, after Close, the footer's statistics of the
// top-level column holding field i of the writer's fields.
func (w *Writer) FileStatistics(i int) ColumnStatistics {
	if w.fileStats == nil || i < 0 || i >= len(w.fields) {
		return ColumnStatistics{}
	}
	return w.fileStats[w.types[0].subtypes[i]]
}

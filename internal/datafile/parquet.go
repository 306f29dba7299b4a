package datafile

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	// The Hadoop-framed LZ4 codec parquet-java writes for file.compression
	// lz4, registered with arrow-go's codec registry.
	_ "github.com/paimon-go/paimon-go/format/parquet"
)

// parquetWriter writes a Parquet data file the way Java's
// RowDataParquetBuilder configures parquet-java, as far as pqarrow can:
// the Paimon field id on every column and nested field, root message
// "paimon_schema", decimals up to precision 18 as INT32/INT64, the table's
// codec and zstd level. Row groups are cut when their encoded size reaches
// the block size (parquet.block.size / file.block-size, 128 MiB by default;
// parquet-java checks its buffered size the same way, so boundaries are
// close but not identical), or at a fixed row count when one is asked for.
type parquetWriter struct {
	fw pqFileWriter
	// cols is fw when the columns are encoded on several goroutines.
	cols      *columnFileWriter
	blockSize int64 // 0 when row groups have a fixed row count
	// cut is set once the current row group is full; the next write
	// starts a new one (starting it right away could leave an empty row
	// group at the end of the file).
	cut bool
	// leaves is the number of Parquet leaf columns.
	leaves int
	// pending estimates the Arrow bytes given to the current row group.
	pending int64
	// share, when set, is the writer's share of a Budget: the row group
	// is also cut once the file holds half of it (so that the file of the
	// previous partition of an ordered load and the current one fit
	// together before the Budget finishes either; a row group's pages
	// are buffered in buffers that grow by doubling, so what the heap
	// holds is up to twice what is counted), but never with less than
	// minRowGroupMemory of pages, as parquet-java's MemoryManager shrinks
	// the row groups of files open together.
	share func() int64
}

// Memory estimates of an open Parquet file, measured with arrow-go v18
// (pqarrow, buffered row groups): each leaf column's encoder, statistics
// and page writer hold about 19 KiB before any data; the values of the
// page and dictionary being built take up to about twice their Arrow size,
// but a column flushes its page at 1 MiB and falls back from a dictionary
// at 1 MiB, so about 2 MiB per column bound them; compressed pages stay in
// memory until the row group closes. (The zstd encoders' windows are
// pooled by arrow-go and shared by all files.)
const (
	parquetFileCost   = 16 << 10
	parquetColumnCost = 24 << 10
)

// Variables for tests only.
var (
	parquetPageBound int64 = 2 << 20
	// minRowGroupMemory is the least compressed row group a Budget's share
	// cuts: smaller ones would cost more in new encoders than they save.
	minRowGroupMemory int64 = 8 << 20
)

// sample, when not nil, is the file's first rows (in the file's layout):
// the columns it shows to be nearly unique are written PLAIN (see
// plainColumns).
func newParquetWriter(w io.Writer, sc *arrow.Schema, cfg *config, mem memory.Allocator, rowGroupRows int64, workers int, sample arrow.RecordBatch) (*parquetWriter, error) {
	p := &parquetWriter{blockSize: cfg.blockSize}
	maxRows := pq.DefaultMaxRowGroupLen
	if rowGroupRows > 0 {
		maxRows, p.blockSize = rowGroupRows, 0
	}
	opts := []pq.WriterProperty{
		pq.WithAllocator(mem),
		pq.WithCompression(cfg.parquetCodec),
		pq.WithCompressionLevel(cfg.parquetLevel),
		pq.WithMaxRowGroupLength(maxRows),
		pq.WithStoreDecimalAsInteger(true),
		pq.WithRootName("paimon_schema"),
	}
	arrowProps := pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem))
	leaves, err := pqarrow.ToParquet(sc, pq.NewWriterProperties(opts...), arrowProps)
	if err != nil {
		return nil, fmt.Errorf("%w: Parquet schema: %w", ErrUnsupported, err)
	}
	var plain []bool
	if leaves.NumColumns() == sc.NumFields() && sample != nil && sample.NumCols() == int64(sc.NumFields()) {
		plain = plainColumns(sample) // flat schemas: leaf i is field i
	}
	for i := 0; i < leaves.NumColumns(); i++ {
		col := leaves.Column(i)
		path := col.ColumnPath().String()
		if plain != nil && plain[i] {
			opts = append(opts, pq.WithDictionaryFor(path, false))
		}
		switch col.PhysicalType() {
		case pq.Types.FixedLenByteArray:
			// Java writes decimals above precision 18 PLAIN. Java 1.4.2's
			// row-group filter compares a literal with the 16-byte
			// entries of a dictionary page and drops matching row
			// groups, so a dictionary here would hide rows from it.
			opts = append(opts, pq.WithDictionaryFor(path, false))
		case pq.Types.Float, pq.Types.Double:
			// arrow-go leaves NaN out of min/max where parquet-java (and
			// so Java's reader) expects it in: a footer without NaN lets
			// Java skip row groups holding NaN rows (a filter "> +Inf"
			// matches NaN in Java's order). No footer statistics is
			// always safe; the manifest keeps Java's statistics.
			opts = append(opts, pq.WithStatsFor(path, false))
		}
	}
	props := pq.NewWriterProperties(opts...)
	if workers > 1 && flatSchema(sc, leaves.NumColumns()) {
		cw, err := newColumnFileWriter(sc, w, props, arrowProps, workers)
		if err != nil {
			return nil, fmt.Errorf("%w: Parquet schema: %w", ErrUnsupported, err)
		}
		p.fw, p.cols = cw, cw
	} else {
		fw, err := pqarrow.NewFileWriter(sc, w, props, arrowProps)
		if err != nil {
			return nil, fmt.Errorf("%w: Parquet schema: %w", ErrUnsupported, err)
		}
		p.fw = fw
	}
	p.leaves = leaves.NumColumns()
	return p, nil
}

// columnHook has hook called with every column of every batch on the
// column encoders' workers (columnFileWriter.hook), and reports whether it
// will be (only when the columns are encoded on several goroutines).
func (p *parquetWriter) columnHook(hook func(col int, arr arrow.Array)) bool {
	if p.cols == nil {
		return false
	}
	p.cols.hook = hook
	return true
}

func (p *parquetWriter) write(rec arrow.RecordBatch) error {
	rec, err := withValueBuffers(rec)
	if err != nil {
		return err
	}
	defer rec.Release()
	if p.cut {
		if err := p.fw.NewBufferedRowGroupChecked(); err != nil {
			return err
		}
		p.cut, p.pending = false, 0
	}
	if err := p.fw.WriteBuffered(rec); err != nil {
		return err
	}
	p.pending += arrowBytes(rec)
	p.cut = p.blockSize > 0 && (p.fw.RowGroupTotalBytesWritten() >= p.blockSize ||
		(p.share != nil && p.memory() >= max(p.share()/2, p.encoderBound()+minRowGroupMemory)))
	return nil
}

// encoderBound is the most the file holds besides its compressed pages.
func (p *parquetWriter) encoderBound() int64 {
	return p.fixedCost() + int64(p.leaves)*parquetPageBound
}

func (p *parquetWriter) fixedCost() int64 {
	return parquetFileCost + int64(p.leaves)*parquetColumnCost
}

// memory estimates what the open file holds in memory.
func (p *parquetWriter) memory() int64 {
	return p.fixedCost() + p.fw.RowGroupTotalBytesWritten() + min(2*p.pending, int64(p.leaves)*parquetPageBound)
}

// arrowBytes estimates the bytes of rec's values, counting only the rows
// of the slice (a slice shares the buffers of its parent).
func arrowBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		n += arrayBytes(c)
	}
	return n
}

// spanBytes is the length of the values an offsets buffer spans.
func spanBytes[T int32 | int64](offsets []T) int64 {
	if len(offsets) < 2 {
		return 0
	}
	return int64(offsets[len(offsets)-1] - offsets[0])
}

func arrayBytes(a arrow.Array) int64 {
	rows := int64(a.Len())
	switch v := a.(type) {
	case *array.String:
		return spanBytes(v.ValueOffsets()) + 4*rows
	case *array.Binary:
		return spanBytes(v.ValueOffsets()) + 4*rows
	case *array.LargeString:
		return spanBytes(v.ValueOffsets()) + 8*rows
	}
	if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok {
		return rows * int64(max(fw.BitWidth()/8, 1))
	}
	// Nested and other types: the buffers' size scaled to the slice.
	d := a.Data()
	total := int64(d.Offset() + d.Len())
	if total == 0 {
		return 0
	}
	return int64(d.(*array.Data).SizeInBytes()) * rows / total
}

// blockRoom is how many more bytes the current row group takes before it
// is cut at parquet.block.size.
func (p *parquetWriter) blockRoom() int64 {
	if p.blockSize <= 0 {
		return 1 << 62
	}
	return p.blockSize - p.fw.RowGroupTotalBytesWritten()
}

// buffered is the current row group: in buffered mode pqarrow keeps its
// compressed pages in memory until the row group closes.
func (p *parquetWriter) buffered() int64 { return p.fw.RowGroupTotalBytesWritten() }

func (p *parquetWriter) close() error { return p.fw.Close() }

// discard closes the pqarrow writer, which frees its buffers; what it
// writes goes to a file that is being aborted.
func (p *parquetWriter) discard() { _ = p.fw.Close() }

// withValueBuffers works around arrow-go's Parquet statistics, which take an
// empty string of a string or binary column without a values buffer (all
// its values empty, as a take kernel produces) for "no value": the footer
// minimum then misses "", and Java's row-group filter skips rows. Such
// columns get a one-byte buffer; their values do not change.
func withValueBuffers(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	var cols []arrow.Array
	for i, c := range rec.Columns() {
		d := c.Data()
		switch c.DataType().ID() {
		case arrow.STRING, arrow.BINARY:
		default:
			continue
		}
		if c.Len() == c.NullN() || len(d.Buffers()) < 3 || (d.Buffers()[2] != nil && d.Buffers()[2].Len() > 0) {
			continue
		}
		if cols == nil {
			cols = append([]arrow.Array(nil), rec.Columns()...)
		}
		bufs := append([]*memory.Buffer(nil), d.Buffers()...)
		bufs[2] = memory.NewBufferBytes([]byte{0})
		nd := array.NewData(d.DataType(), d.Len(), bufs, d.Children(), d.NullN(), d.Offset())
		cols[i] = array.MakeFromData(nd)
		nd.Release()
		defer cols[i].Release()
	}
	if cols == nil {
		rec.Retain()
		return rec, nil
	}
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()), nil
}

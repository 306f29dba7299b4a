package datafile

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
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
	fw        *pqarrow.FileWriter
	blockSize int64 // 0 when row groups have a fixed row count
	// cut is set once the current row group is full; the next write
	// starts a new one (starting it right away could leave an empty row
	// group at the end of the file).
	cut bool
}

func newParquetWriter(w io.Writer, sc *arrow.Schema, cfg *config, mem memory.Allocator, rowGroupRows int64) (*parquetWriter, error) {
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
	for i := 0; i < leaves.NumColumns(); i++ {
		col := leaves.Column(i)
		path := col.ColumnPath().String()
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
	fw, err := pqarrow.NewFileWriter(sc, w, props, arrowProps)
	if err != nil {
		return nil, fmt.Errorf("%w: Parquet schema: %w", ErrUnsupported, err)
	}
	p.fw = fw
	return p, nil
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
		p.cut = false
	}
	if err := p.fw.WriteBuffered(rec); err != nil {
		return err
	}
	p.cut = p.blockSize > 0 && p.fw.RowGroupTotalBytesWritten() >= p.blockSize
	return nil
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

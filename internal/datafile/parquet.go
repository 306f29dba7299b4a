package datafile

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
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
	props := pq.NewWriterProperties(
		pq.WithAllocator(mem),
		pq.WithCompression(cfg.parquetCodec),
		pq.WithCompressionLevel(cfg.parquetLevel),
		pq.WithMaxRowGroupLength(maxRows),
		pq.WithStoreDecimalAsInteger(true),
		pq.WithRootName("paimon_schema"),
	)
	fw, err := pqarrow.NewFileWriter(sc, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		return nil, fmt.Errorf("%w: Parquet schema: %w", ErrUnsupported, err)
	}
	p.fw = fw
	return p, nil
}

func (p *parquetWriter) write(rec arrow.RecordBatch) error {
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

package parquet

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// validateFooter checks the footer's row-group and column-chunk geometry
// against the file size before any page is read. arrow-go trusts these
// numbers and, for nested columns, opens column chunks on goroutines of its
// own, where a panic on a negative length could not be recovered; checking
// them here turns such files into ErrCorrupt errors.
func validateFooter(rdr *file.Reader, size int64) error {
	md := rdr.MetaData()
	if md.NumRows < 0 {
		return fmt.Errorf("negative row count %d", md.NumRows)
	}
	ncols := md.Schema.NumColumns()
	for g := 0; g < md.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		if rg.NumRows() < 0 {
			return fmt.Errorf("row group %d: negative row count %d", g, rg.NumRows())
		}
		if rg.NumColumns() != ncols {
			return fmt.Errorf("row group %d: %d column chunks for %d columns", g, rg.NumColumns(), ncols)
		}
		for c := 0; c < ncols; c++ {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return fmt.Errorf("row group %d column %d: %w", g, c, err)
			}
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && start > cc.DictionaryPageOffset() {
				start = cc.DictionaryPageOffset()
			}
			length := cc.TotalCompressedSize()
			if start < 0 || length < 0 || start > size || length > size-start || length > math.MaxInt32 {
				return fmt.Errorf("row group %d column %d: chunk [%d, +%d) outside file of %d bytes", g, c, start, length, size)
			}
			if cc.NumValues() < 0 {
				return fmt.Errorf("row group %d column %d: negative value count %d", g, c, cc.NumValues())
			}
		}
	}
	return nil
}

// checkCodecs refuses a file whose column chunks use a compression codec
// arrow-go has no implementation for (LZO, which parquet-java writes
// through Hadoop's native codec): before any page is read, and as
// ErrUnsupported, since the file itself is well formed. LZ4 (Hadoop
// framing, lz4.go), LZ4_RAW, SNAPPY, GZIP, ZSTD and BROTLI are decoded.
func checkCodecs(rdr *file.Reader, name string) error {
	md := rdr.MetaData()
	for g := 0; g < md.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		for c := 0; c < rg.NumColumns(); c++ {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return fmt.Errorf("%w: %s: row group %d column %d: %w", ErrCorrupt, name, g, c, err)
			}
			if !knownCodec(cc.Compression()) {
				// Not a value of Parquet's CompressionCodec enum: damage,
				// not a feature this reader lacks.
				return fmt.Errorf("%w: %s: row group %d column %s: compression codec %d is not a Parquet codec",
					ErrCorrupt, name, g, cc.PathInSchema(), cc.Compression())
			}
			if _, err := compress.GetCodec(cc.Compression()); err != nil {
				return fmt.Errorf("%w: %s: compression codec %s (column %s)", ErrUnsupported, name, cc.Compression(), cc.PathInSchema())
			}
		}
	}
	return nil
}

// knownCodec reports whether c is one of the codecs of Parquet's
// CompressionCodec enum (parquet.thrift).
func knownCodec(c compress.Compression) bool {
	switch c {
	case compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Gzip, compress.Codecs.Lzo,
		compress.Codecs.Brotli, compress.Codecs.Lz4, compress.Codecs.Zstd, compress.Codecs.Lz4Raw:
		return true
	}
	return false
}

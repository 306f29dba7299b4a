package testtable

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
)

// DefaultRowGroupRows is the Parquet row-group length used when a DataFile
// does not set one. Java cuts row groups at 128 MiB (parquet.block.size),
// which for narrow test rows means one row group per file; a fixed row count
// keeps files deterministic.
const DefaultRowGroupRows = 1 << 20

// DataFile is one Parquet file of a commit: its rows and where they belong.
type DataFile struct {
	// Partition holds the values of the partition keys, in the order of
	// the schema's partition keys, as format/data values (nil for NULL).
	// Leave it nil for an unpartitioned table.
	Partition []any
	// Bucket is the bucket the rows belong to: 0 for bucket-unaware tables
	// (option bucket = -1, the default), 0..N-1 for fixed-bucket ones. The
	// builder does not check that rows hash to it.
	Bucket int
	// Records are the rows, with the table's columns in schema order
	// (schema.ToArrowSchema types; field metadata is ignored). The builder
	// neither retains nor releases them.
	Records []arrow.RecordBatch
	// RowGroupRows is the number of rows per Parquet row group; 0 means
	// DefaultRowGroupRows.
	RowGroupRows int64
}

// Table options read for data files (Java CoreOptions).
const (
	optFileCompression   = "file.compression"
	optZstdLevel         = "file.compression.zstd-level"
	optDataFilePrefix    = "data-file.prefix"
	optSuffixCompression = "file.suffix.include.compression"
	optFileFormat        = "file.format"
)

// fileFormat is how data files are named and compressed.
type fileFormat struct {
	codec  compress.Compression
	level  int
	prefix string
	ext    string // ".parquet" or ".<compression>.parquet"
}

func newFileFormat(ts *schema.TableSchema) (fileFormat, error) {
	f := fileFormat{prefix: "data-", level: compress.DefaultCompressionLevel}
	if v, ok := ts.Options[optFileFormat]; ok && !strings.EqualFold(v, "parquet") {
		return f, fmt.Errorf("%w: file.format %q (only parquet is written)", ErrUnsupported, v)
	}
	name := "zstd"
	if v, ok := ts.Options[optFileCompression]; ok {
		name = strings.ToLower(v)
	}
	switch name {
	case "zstd":
		f.codec, f.level = compress.Codecs.Zstd, 1
		if v, ok := ts.Options[optZstdLevel]; ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return f, fmt.Errorf("%w: option %s=%q", ErrInvalid, optZstdLevel, v)
			}
			f.level = n
		}
	case "snappy":
		f.codec = compress.Codecs.Snappy
	case "gzip":
		f.codec = compress.Codecs.Gzip
	case "lz4_raw":
		f.codec = compress.Codecs.Lz4Raw
	case "none", "uncompressed":
		f.codec = compress.Codecs.Uncompressed
	default:
		return f, fmt.Errorf("%w: file.compression %q", ErrUnsupported, name)
	}
	if v, ok := ts.Options[optDataFilePrefix]; ok {
		f.prefix = v
	}
	f.ext = ".parquet"
	// DataFilePathFactory.makeExtension: ".<extension>.parquet" when asked
	// for, with the Hadoop codec's file extension (none for "none").
	if v := ts.Options[optSuffixCompression]; strings.EqualFold(strings.TrimSpace(v), "true") {
		if ext, ok := compressionExtensions[name]; !ok {
			f.ext = "." + name + f.ext
		} else if ext != "" {
			f.ext = "." + ext + f.ext
		}
	}
	return f, nil
}

// compressionExtensions are the file extensions of Java's
// HadoopCompressionType; other compression names are used as they are.
var compressionExtensions = map[string]string{
	"none": "", "gzip": "gz", "bzip2": "bz2", "deflate": "deflate", "snappy": "snappy", "lz4": "lz4", "zstd": "zst",
}

// writtenFile is the outcome of writing one data file.
type writtenFile struct {
	path  string // relative to the file system root
	entry manifest.ManifestEntry
	part  []any
}

// writeDataFile writes f as one Parquet file and describes it the way Java
// DataFileMeta.forAppend does. seq is the first sequence number of its rows.
func (t *Table) writeDataFile(ctx context.Context, f DataFile, seq int64) (*writtenFile, error) {
	if f.Partition == nil && len(t.part.fields) > 0 {
		return nil, fmt.Errorf("%w: the table is partitioned by %v; DataFile.Partition is nil", ErrInvalid, t.schema.PartitionKeys)
	}
	partRow, err := t.part.row(f.Partition)
	if err != nil {
		return nil, err
	}
	partDir, err := t.part.dir(f.Partition)
	if err != nil {
		return nil, err
	}
	if err := t.checkBucket(f.Bucket); err != nil {
		return nil, err
	}
	recs, columns, rows, err := t.conform(f.Records)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	if rows == 0 {
		return nil, fmt.Errorf("%w: a data file needs at least one row (Java never writes empty files)", ErrInvalid)
	}
	rg := f.RowGroupRows
	if rg <= 0 {
		rg = DefaultRowGroupRows
	}

	bucketDir := partDir + "bucket-" + strconv.Itoa(f.Bucket)
	names := t.dataNames[bucketDir]
	if names == nil {
		names = &nameSeq{}
		t.dataNames[bucketDir] = names
	}
	name := names.next(t.format.prefix, t.format.ext)
	path := fs.Join(t.dir, bucketDir+"/"+name)

	size, err := t.writeParquet(ctx, path, recs, rg)
	if err != nil {
		return nil, err
	}
	stats, statsCols, err := valueStats(t.schema.Fields, columns, t.modes, t.dense)
	if err != nil {
		return nil, err
	}
	created := manifest.CreationTimeMillis(t.now())
	zero := int64(0)
	source := manifest.FileSourceAppend
	meta := manifest.DataFileMeta{
		FileName:          name,
		FileSize:          size,
		RowCount:          rows,
		MinKey:            manifest.EmptyRow(),
		MaxKey:            manifest.EmptyRow(),
		KeyStats:          manifest.EmptyStats(),
		ValueStats:        stats,
		MinSequenceNumber: seq,
		MaxSequenceNumber: seq + rows - 1,
		SchemaID:          t.schema.ID,
		Level:             0,
		ExtraFiles:        []string{},
		CreationTime:      &created,
		DeleteRowCount:    &zero,
		FileSource:        &source,
		ValueStatsCols:    statsCols,
	}
	return &writtenFile{
		path: path,
		part: f.Partition,
		entry: manifest.ManifestEntry{
			Kind:         manifest.FileKindAdd,
			Partition:    partRow,
			Bucket:       int32(f.Bucket),
			TotalBuckets: int32(t.buckets),
			File:         meta,
		},
	}, nil
}

// conform checks the batches against the table's columns and relabels them
// with the table's Arrow schema (which carries the Parquet field ids). It
// returns the relabelled batches (to Release), every column's chunks and the
// row count.
func (t *Table) conform(in []arrow.RecordBatch) ([]arrow.RecordBatch, [][]arrow.Array, int64, error) {
	fields := t.arrowSchema.Fields()
	columns := make([][]arrow.Array, len(fields))
	out := make([]arrow.RecordBatch, 0, len(in))
	var rows int64
	fail := func(err error) ([]arrow.RecordBatch, [][]arrow.Array, int64, error) {
		for _, r := range out {
			r.Release()
		}
		return nil, nil, 0, err
	}
	for bi, rec := range in {
		if int(rec.NumCols()) != len(fields) {
			return fail(fmt.Errorf("%w: batch %d has %d columns, the table %d", ErrInvalid, bi, rec.NumCols(), len(fields)))
		}
		for i, f := range fields {
			col := rec.Column(i)
			if !arrow.TypeEqual(col.DataType(), f.Type) {
				return fail(fmt.Errorf("%w: batch %d column %d (%s) is %s, the table wants %s", ErrInvalid, bi, i, f.Name, col.DataType(), f.Type))
			}
			if !f.Nullable && col.NullN() > 0 {
				return fail(fmt.Errorf("%w: batch %d column %s is NOT NULL but has %d nulls", ErrInvalid, bi, f.Name, col.NullN()))
			}
		}
		if rec.NumRows() == 0 {
			continue
		}
		r := array.NewRecordBatch(t.arrowSchema, rec.Columns(), rec.NumRows())
		out = append(out, r)
		for i := range fields {
			columns[i] = append(columns[i], r.Column(i))
		}
		rows += rec.NumRows()
	}
	return out, columns, rows, nil
}

// writeParquet writes the batches to path and returns the file size.
func (t *Table) writeParquet(ctx context.Context, path string, recs []arrow.RecordBatch, rowGroupRows int64) (int64, error) {
	w, err := t.fsys.Create(ctx, path, nil)
	if err != nil {
		return 0, err
	}
	defer w.Abort()
	cw := &countingWriter{w: w}
	props := pq.NewWriterProperties(
		pq.WithAllocator(t.mem),
		pq.WithCompression(t.format.codec),
		pq.WithCompressionLevel(t.format.level),
		pq.WithMaxRowGroupLength(rowGroupRows),
		pq.WithStoreDecimalAsInteger(true),
		pq.WithRootName("paimon_schema"),
	)
	fw, err := pqarrow.NewFileWriter(t.arrowSchema, cw, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(t.mem)))
	if err != nil {
		return 0, fmt.Errorf("testtable: %s: %w", path, err)
	}
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			fw.Close()
			return 0, err
		}
		if err := fw.WriteBuffered(r); err != nil {
			fw.Close()
			return 0, fmt.Errorf("testtable: write %s: %w", path, err)
		}
	}
	if err := fw.Close(); err != nil {
		return 0, fmt.Errorf("testtable: write %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return cw.n, nil
}

// countingWriter counts bytes and hides the fs.Writer's Close from the
// Parquet writer, which would otherwise publish the file itself.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

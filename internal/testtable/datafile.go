package testtable

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// DefaultRowGroupRows is the Parquet row-group length used when a DataFile
// does not set one. Java cuts row groups at 128 MiB (parquet.block.size),
// which for narrow test rows means one row group per file; a fixed row count
// keeps files deterministic.
const DefaultRowGroupRows = 1 << 20

// DataFile is one data file of a commit: its rows and where they belong.
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
	// DefaultRowGroupRows. Avro files ignore it.
	RowGroupRows int64
}

// writtenFile is the outcome of writing one data file.
type writtenFile struct {
	path  string // relative to the file system root
	entry manifest.ManifestEntry
	part  []any
}

// writeDataFile writes f as one data file through internal/datafile (the
// write path's file writer, so format, naming and statistics are Java's) and
// returns its manifest entry. seq is the first sequence number of its rows.
// The file is never rolled, whatever target-file-size says: one DataFile is
// one file.
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
	var rows int64
	for _, r := range f.Records {
		rows += r.NumRows()
	}
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
		names = datafile.NewFileNames()
		t.dataNames[bucketDir] = names
	}
	w, err := datafile.NewWriter(datafile.Options{
		FS:             t.fsys,
		Dir:            fs.Join(t.dir, bucketDir),
		Schema:         t.schema,
		Allocator:      t.mem,
		FirstSequence:  seq,
		Now:            t.now,
		Names:          names,
		TargetFileSize: math.MaxInt64,
		RowGroupRows:   rg,
	})
	if err != nil {
		return nil, fromDatafile(err)
	}
	metas, err := writeAll(ctx, w, f.Records)
	if err != nil {
		return nil, fromDatafile(err)
	}
	if len(metas) != 1 {
		return nil, fmt.Errorf("testtable: %d data files written for one DataFile", len(metas))
	}
	return &writtenFile{
		path: fs.Join(t.dir, bucketDir+"/"+metas[0].FileName),
		part: f.Partition,
		entry: manifest.ManifestEntry{
			Kind:         manifest.FileKindAdd,
			Partition:    partRow,
			Bucket:       int32(f.Bucket),
			TotalBuckets: int32(t.buckets),
			File:         metas[0],
		},
	}, nil
}

// writeAll writes the batches and closes w, removing what it wrote on any
// error.
func writeAll(ctx context.Context, w *datafile.Writer, recs []arrow.RecordBatch) ([]manifest.DataFileMeta, error) {
	for _, r := range recs {
		if err := w.Write(ctx, r); err != nil {
			return nil, errors.Join(err, w.Abort(ctx))
		}
	}
	metas, err := w.Close(ctx)
	if err != nil {
		return nil, errors.Join(err, w.Abort(ctx))
	}
	return metas, nil
}

// fromDatafile adds this package's sentinel to an internal/datafile error.
func fromDatafile(err error) error {
	switch {
	case errors.Is(err, datafile.ErrInvalid):
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	case errors.Is(err, datafile.ErrUnsupported):
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return err
}

package datafile

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/blobfile"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// BLOB columns (Java DedicatedFormatRollingFileWriter with
// MultipleBlobFileWriter, data-evolution tables): the table's top-level
// BLOB columns are not written into the data file but each into .blob
// files of its own (format/blobfile), next to it:
//
//   - the data file holds the other columns and lists them in _WRITE_COLS;
//     it rolls at target-file-size as any data file, and when it does, the
//     open .blob files are finished with it;
//   - each BLOB column's values go to a .blob file that rolls by itself
//     after the value that brings it to blob.target-file-size (default
//     target-file-size; Java's BlobFormatWriter checks after every value),
//     so one data file may have several .blob files per column; a .blob
//     file lists its column in _WRITE_COLS and has no statistics;
//   - names come from the data file's counter: the data file takes its name
//     when it opens, a .blob file when its first value arrives;
//   - Close and Release return a data file followed by its .blob files,
//     column by column in schema order, each column's in row order: the
//     order the commit needs to give the .blob files the data file's row
//     ids (RowTrackingCommitUtils).
//
// Rows of every file are numbered from 0 (Java's data-evolution counter per
// file), as Options.SequencePerFile does for data files.

const optBlobTargetFileSize = coreoptions.BlobTargetFileSize

// blobExtension ends the names of BLOB files (Java DataFilePathFactory
// newBlobPath).
const blobExtension = ".blob"

// blobColumn is one BLOB column of a data file: the .blob file being
// written and those finished.
type blobColumn struct {
	field schema.DataField
	in    int // index among the Writer's input columns
	cur   *blobOut
	metas []manifest.DataFileMeta
}

// blobOut is an open .blob file.
type blobOut struct {
	name, path string
	out        fs.Writer
	w          *blobfile.Writer
}

// blobLayout splits the append layout's fields into the data file's and
// the BLOB columns' (top-level BLOB fields).
func blobLayout(l *layout) {
	var normal []schema.DataField
	for i, f := range l.inFields {
		if f.Type.Root == schema.Blob {
			l.blobIdx = append(l.blobIdx, i)
			continue
		}
		l.normIdx = append(l.normIdx, i)
		normal = append(normal, f)
	}
	if len(l.blobIdx) > 0 {
		l.fileFields = normal
	}
}

// parseBlobTarget reads blob.target-file-size (Java
// CoreOptions.blobTargetFileSize: target-file-size when unset).
func parseBlobTarget(opts map[string]string, target int64) (int64, error) {
	v, ok := opts[optBlobTargetFileSize]
	if !ok {
		return target, nil
	}
	n, err := ParseMemorySize(v)
	if err != nil {
		return 0, fmt.Errorf("option %s: %w", optBlobTargetFileSize, err)
	}
	return n, nil
}

// newBlobColumns returns the BLOB columns of a new data file.
func (w *Writer) newBlobColumns() []*blobColumn {
	if len(w.layout.blobIdx) == 0 {
		return nil
	}
	out := make([]*blobColumn, len(w.layout.blobIdx))
	for j, i := range w.layout.blobIdx {
		out[j] = &blobColumn{field: w.layout.inFields[i], in: i}
	}
	return out
}

// writeBlobs appends the BLOB values of rec (input layout) to the .blob
// files of f, rolling each after the value that reaches the target.
func (f *dataFile) writeBlobs(w *Writer, rec arrow.RecordBatch) error {
	for _, c := range f.blobs {
		type binaryLike interface {
			arrow.Array
			Value(int) []byte
		}
		col, ok := rec.Column(c.in).(binaryLike)
		if !ok {
			return fmt.Errorf("datafile: BLOB column %s has Arrow type %s", c.field.Name, rec.Column(c.in).DataType())
		}
		for i := 0; i < col.Len(); i++ {
			if c.cur == nil {
				name := w.names.Next(w.cfg.prefix, blobExtension)
				path := fs.Join(w.opts.Dir, name)
				out, err := w.opts.FS.Create(f.ctx, path, nil)
				if err != nil {
					return fmt.Errorf("datafile: create %s: %w", path, err)
				}
				w.paths = append(w.paths, path) // removed by Abort if written
				c.cur = &blobOut{name: name, path: path, out: out, w: blobfile.NewWriter(out)}
			}
			if err := c.cur.w.Add(col.Value(i), col.IsNull(i)); err != nil {
				return fmt.Errorf("datafile: write %s: %w", c.cur.path, err)
			}
			if c.cur.w.Pos() >= w.blobTarget {
				if err := c.finish(w, w.now()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// finish completes the column's open .blob file and describes it as Java's
// RowDataFileWriter does for a blob file (no statistics, _WRITE_COLS the
// column).
func (c *blobColumn) finish(w *Writer, createdAt time.Time) error {
	b := c.cur
	c.cur = nil
	if err := b.w.Close(); err != nil {
		_ = b.out.Abort()
		return fmt.Errorf("datafile: write %s: %w", b.path, err)
	}
	if err := b.out.Close(); err != nil {
		return fmt.Errorf("datafile: publish %s: %w", b.path, err)
	}
	stats, cols, err := toBinary([]schema.DataField{c.field}, []colStats{{}}, w.cfg.dense)
	if err != nil {
		return fmt.Errorf("datafile: %s: %w", b.path, err)
	}
	rows := b.w.NumRows()
	created := manifest.CreationTimeMillis(createdAt)
	zero := int64(0)
	source := manifest.FileSourceAppend
	if w.opts.Compaction {
		source = manifest.FileSourceCompact
	}
	c.metas = append(c.metas, manifest.DataFileMeta{
		FileName:          b.name,
		FileSize:          b.w.Pos(),
		RowCount:          rows,
		MinKey:            manifest.EmptyRow(),
		MaxKey:            manifest.EmptyRow(),
		KeyStats:          manifest.EmptyStats(),
		ValueStats:        stats,
		MinSequenceNumber: 0,
		MaxSequenceNumber: rows - 1,
		SchemaID:          w.opts.Schema.ID,
		ExtraFiles:        []string{},
		CreationTime:      &created,
		DeleteRowCount:    &zero,
		FileSource:        &source,
		ValueStatsCols:    cols,
		WriteCols:         []string{c.field.Name},
	})
	return nil
}

// finishBlobs completes the open .blob files of f and returns every .blob
// file of f, column by column, after checking that each column holds the
// data file's rows.
func (f *dataFile) finishBlobs(w *Writer, createdAt time.Time) ([]manifest.DataFileMeta, error) {
	var out []manifest.DataFileMeta
	for _, c := range f.blobs {
		if c.cur != nil {
			if err := c.finish(w, createdAt); err != nil {
				return nil, err
			}
		}
		var rows int64
		for _, m := range c.metas {
			rows += m.RowCount
		}
		if rows != f.rows {
			return nil, fmt.Errorf("datafile: %s: BLOB column %s has %d rows, the data file %d", f.path, c.field.Name, rows, f.rows)
		}
		out = append(out, c.metas...)
	}
	return out, nil
}

// abortBlobs drops the open .blob files of f (finished ones are removed by
// the Writer's Abort through its paths).
func (f *dataFile) abortBlobs() {
	for _, c := range f.blobs {
		if c.cur != nil {
			_ = c.cur.out.Abort()
			c.cur = nil
		}
	}
}

// project returns the columns of rec at idx as a batch of schema sc.
func project(sc *arrow.Schema, rec arrow.RecordBatch, idx []int) arrow.RecordBatch {
	cols := make([]arrow.Array, len(idx))
	for j, i := range idx {
		cols[j] = rec.Column(i)
	}
	return array.NewRecordBatch(sc, cols, rec.NumRows())
}

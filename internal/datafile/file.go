package datafile

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs"
)

// dataFile is the file a Writer is filling (Java's RowDataFileWriter): the
// format encoder, the statistics of what went in, and the rows' first
// sequence number.
type dataFile struct {
	name     string
	path     string
	out      fs.Writer
	sink     *countingWriter
	body     formatWriter
	stats    *fileStats
	kv       *kvTracker // key-value files only
	firstSeq int64
	rows     int64
	// statsByColumn: the encoder folds each column into stats itself.
	statsByColumn bool
	index         *fileIndexes    // nil without file-index options
	blobs         []*blobColumn   // BLOB columns, in .blob files (blob.go)
	ctx           context.Context // of Create: the index file is written with it
}

// openFile creates the next data file of the bucket directory. The fs
// Writer is bound to ctx until the file is finished. Rows from off on of
// batch (input layout) are the file's first rows.
func (w *Writer) openFile(ctx context.Context, batch arrow.RecordBatch, off int64) (*dataFile, error) {
	name := w.names.Next(w.cfg.prefix, w.cfg.extension)
	path := fs.Join(w.opts.Dir, name)
	out, err := w.opts.FS.Create(ctx, path, nil)
	if err != nil {
		return nil, fmt.Errorf("datafile: create %s: %w", path, err)
	}
	f := &dataFile{
		name:     name,
		path:     path,
		out:      out,
		sink:     &countingWriter{w: out},
		stats:    newFileStats(w.cfg.format, w.layout.fileFields, w.cfg.modes),
		firstSeq: w.next,
	}
	if w.opts.SequencePerFile {
		f.firstSeq = 0
	}
	f.blobs = w.newBlobColumns()
	if w.layout.kv != nil {
		f.kv = &kvTracker{l: w.layout}
	}
	f.ctx = ctx
	if f.index, err = newFileIndexes(w.cfg.index); err != nil {
		_ = out.Abort()
		return nil, fmt.Errorf("datafile: %s: %w", path, err)
	}
	switch w.cfg.format {
	case FormatAvro:
		f.body, err = newAvroWriter(f.sink, w.layout.fileFields, w.cfg)
	case FormatORC:
		var ow *orcWriter
		ow, err = newORCWriter(f.sink, w.opts.Schema.Fields, w.cfg)
		if err == nil && w.opts.Budget != nil {
			ow.share = w.opts.Budget.Share
		}
		f.body = ow
	default:
		var pw *parquetWriter
		sample := batch.NewSlice(off, min(batch.NumRows(), off+dictSampleRows))
		fileSample := w.layout.fileBatch(w.fileSchema, sample)
		sample.Release()
		pw, err = newParquetWriter(f.sink, w.fileSchema, w.cfg, w.mem, w.opts.RowGroupRows, w.workers, fileSample)
		fileSample.Release()
		if err == nil && w.opts.Budget != nil {
			pw.share = w.opts.Budget.Share
		}
		if err == nil {
			// Each column's statistics are gathered by the goroutine
			// that encodes it.
			f.statsByColumn = pw.columnHook(func(i int, arr arrow.Array) { f.stats.cols[i].add(arr) })
		}
		f.body = pw
	}
	if err != nil {
		_ = out.Abort()
		return nil, fmt.Errorf("datafile: %s: %w", path, err)
	}
	return f, nil
}

// write encodes rec (in the Writer's input layout) and folds it into the
// statistics.
func (f *dataFile) write(w *Writer, rec arrow.RecordBatch) error {
	if f.kv != nil {
		if err := f.kv.add(rec); err != nil {
			return fmt.Errorf("datafile: %s: %w", f.path, err)
		}
	}
	out := w.layout.fileBatch(w.fileSchema, rec)
	defer out.Release()
	if err := f.body.write(out); err != nil {
		return fmt.Errorf("datafile: write %s: %w", f.path, err)
	}
	if !f.statsByColumn {
		f.stats.add(out)
	}
	if f.index != nil {
		f.index.add(out)
	}
	if f.blobs != nil {
		if err := f.writeBlobs(w, rec); err != nil {
			return err
		}
	}
	f.rows += rec.NumRows()
	return nil
}

// memory estimates what the open file holds: the encoder's buffers and
// the file system's write buffer.
func (f *dataFile) memory() int64 { return f.body.memory() + fs.WriterBufferSize(f.out) }

// size estimates the file's size so far: what reached the file system plus
// what the encoder holds.
func (f *dataFile) size() int64 { return f.sink.n + f.body.buffered() }

// finish completes and publishes the file and describes it as Java's
// DataFileMeta.forAppend does.
//
// It may run on a Finisher's goroutine: it reads only the Writer's
// options and configuration, and is given the creation time.
func (f *dataFile) finish(w *Writer, createdAt time.Time) (manifest.DataFileMeta, error) {
	if err := f.body.close(); err != nil {
		_ = f.out.Abort()
		return manifest.DataFileMeta{}, fmt.Errorf("datafile: write %s: %w", f.path, err)
	}
	if err := f.out.Close(); err != nil {
		return manifest.DataFileMeta{}, fmt.Errorf("datafile: publish %s: %w", f.path, err)
	}
	created := manifest.CreationTimeMillis(createdAt)
	var embedded []byte
	extra := []string{}
	if f.index != nil {
		b, name, err := f.index.finish(f.ctx, w.opts.FS, w.opts.Dir, f.name, w.cfg.index.threshold)
		if err != nil {
			return manifest.DataFileMeta{}, err
		}
		embedded = b
		if name != "" {
			extra = append(extra, name)
		}
	}
	if f.kv != nil {
		base := manifest.DataFileMeta{
			FileName:      f.name,
			FileSize:      f.sink.n,
			RowCount:      f.rows,
			SchemaID:      w.opts.Schema.ID,
			ExtraFiles:    extra,
			CreationTime:  &created,
			EmbeddedIndex: embedded,
		}
		meta, err := f.kv.meta(base, f.stats.results(), w.cfg.dense)
		if err != nil {
			return manifest.DataFileMeta{}, fmt.Errorf("datafile: %s: %w", f.path, err)
		}
		return meta, nil
	}
	var stats manifest.SimpleStats
	var cols []string
	var err error
	if ow, ok := f.body.(*orcWriter); ok {
		stats, cols, err = toBinary(w.opts.Schema.Fields, ow.valueStats(w.cfg.modes), w.cfg.dense)
	} else {
		stats, cols, err = f.stats.valueStats(w.cfg.dense)
	}
	if err != nil {
		return manifest.DataFileMeta{}, fmt.Errorf("datafile: %s: %w", f.path, err)
	}
	zero := int64(0)
	source := manifest.FileSourceAppend
	if w.opts.Compaction {
		source = manifest.FileSourceCompact
	}
	return manifest.DataFileMeta{
		FileName:          f.name,
		FileSize:          f.sink.n,
		RowCount:          f.rows,
		MinKey:            manifest.EmptyRow(),
		MaxKey:            manifest.EmptyRow(),
		KeyStats:          manifest.EmptyStats(),
		ValueStats:        stats,
		MinSequenceNumber: f.firstSeq,
		MaxSequenceNumber: f.firstSeq + f.rows - 1,
		SchemaID:          w.opts.Schema.ID,
		Level:             0,
		ExtraFiles:        extra,
		CreationTime:      &created,
		DeleteRowCount:    &zero,
		EmbeddedIndex:     embedded,
		FileSource:        &source,
		ValueStatsCols:    cols,
		WriteCols:         f.writeCols(w),
	}, nil
}

// writeCols is the _WRITE_COLS of a data file: nil (all columns) but
// beside .blob files, where Java lists the columns it holds.
func (f *dataFile) writeCols(w *Writer) []string {
	if f.blobs == nil {
		return nil
	}
	names := make([]string, len(w.layout.fileFields))
	for i, fl := range w.layout.fileFields {
		names[i] = fl.Name
	}
	return names
}

// abort drops the unfinished file.
func (f *dataFile) abort() {
	f.body.discard()
	_ = f.out.Abort()
	f.abortBlobs()
}

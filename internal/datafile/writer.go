package datafile

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
)

// rollCheckRows is how often (in rows) a Writer compares the current file's
// size with the target: whenever its row count is a multiple of it, as
// Java's RollingFileWriterImpl does (CHECK_ROLLING_RECORD_CNT).
const rollCheckRows = 1000

// Options configure one Writer, which writes the data files of ONE
// partition and bucket of an append-only table.
type Options struct {
	// FS holds the table.
	FS fs.FS
	// Dir is the bucket directory relative to the FS root, e.g.
	// "wh/db.db/t/dt=2024-01-01/bucket-0".
	Dir string
	// Schema is the table schema: its fields are the columns of every
	// batch, its options choose format, compression, rolling and
	// statistics, its id goes into every DataFileMeta.
	Schema *schema.TableSchema
	// Allocator allocates Parquet encoding buffers; nil means
	// memory.DefaultAllocator.
	Allocator memory.Allocator
	// FirstSequence is the sequence number of the first row written (Java
	// keeps a per-writer counter); the rows after it are numbered on,
	// across files.
	FirstSequence int64
	// SequencePerFile numbers the rows of every file from 0 instead, as
	// Java's AppendOnlyWriter does on a data-evolution table (a new
	// LongCounter(0) per file), whose commit then gives each file the
	// snapshot id as its sequence numbers. FirstSequence still counts the
	// rows written.
	SequencePerFile bool
	// Now stamps DataFileMeta.CreationTime; nil means time.Now.
	Now func() time.Time

	// Names names the files; nil means a FileNames of the Writer's own
	// (a fresh uuid, counting from 0), as Java's per-writer
	// DataFilePathFactory does.
	Names *FileNames
	// TargetFileSize, when positive, replaces the table's target-file-size
	// (default DefaultTargetFileSize).
	TargetFileSize int64
	// Compaction marks the files as compaction output (_FILE_SOURCE
	// COMPACT, as Java's compactRewrite writes them) instead of new data
	// (APPEND).
	Compaction bool
	// RowGroupRows, when positive, cuts Parquet row groups every that many
	// rows instead of at the block size (parquet.block.size or
	// file.block-size, default DefaultBlockSize), which makes the layout
	// independent of encoded sizes.
	RowGroupRows int64
	// Budget, when set, is shared with the other writers of a table
	// writer: after each Write the Writer reports what its open file holds
	// and the Budget finishes the least recently written files (of any
	// writer sharing it) while the total exceeds the limit. A Writer also
	// cuts its Parquet row groups once its file holds its share of the
	// limit (Budget.Share). The writers sharing a Budget must be used
	// from one goroutine.
	Budget *Budget

	// Workers bounds the goroutines that encode a Parquet batch's columns
	// at once (flat schemas; files are the same bytes whatever the count).
	// 0 means GOMAXPROCS; 1 encodes on the caller's goroutine with pqarrow.
	Workers int
	// Finisher, when set, finishes the Writer's files in the background
	// (shared by the Writers of a table writer; see Finisher). Close
	// waits for them; a file that fails to finish fails the Writer at its
	// next call, which removes every file it wrote.
	Finisher *Finisher

	// KeyValue, when set, writes the key-value files of a primary-key
	// table (see KeyValue) instead of an append table's files.
	KeyValue *KeyValue
}

// Writer writes the rows of one partition and bucket of an append-only table
// into data files, rolling to a new file when the current one reaches the
// target file size, and describes each file as Java's DataFileMeta.forAppend
// does. It mirrors Java's RowDataRollingFileWriter over RowDataFileWriter.
//
// A file is created by the Write that needs it, and bound (fs.FS.Create) to
// that Write's context until it is finished, so a Writer's calls should
// share one context. If writing or publishing a file fails, the Writer
// aborts itself as Java's rolling writer does (every file it created is
// removed) and every later call returns that error. Close or Abort must be
// called to release the encoder's buffers. A Writer is not safe for
// concurrent use.
//
// The size compared with the target is what reached the file system plus,
// for Parquet, the pages of the row group being buffered; the page being
// encoded (up to about 1 MiB per column) is not seen, where parquet-java
// counts it too, so a Parquet file can overshoot the target by that much.
// Avro counts what reached the file system, as Java does.
type Writer struct {
	opts        Options
	cfg         *config
	layout      *layout
	arrowSchema *arrow.Schema // of the batches Write takes
	fileSchema  *arrow.Schema // of the files
	names       *FileNames
	mem         memory.Allocator
	now         func() time.Time
	target      int64
	blobTarget  int64 // blob.target-file-size, with BLOB columns
	workers     int

	cur   *dataFile
	paths []string // files published or being published, for Abort
	metas []manifest.DataFileMeta
	// pending are files being finished by the Finisher; their metas
	// slots are filled when collected.
	pending []*pendingFile
	next    int64 // sequence number of the next row
	closed  bool
	failed  error
}

// NewWriter validates the options (Validate, plus Options' own fields) and
// returns a Writer. It creates no file until the first row arrives.
func NewWriter(opts Options) (*Writer, error) {
	if opts.FS == nil || opts.Schema == nil {
		return nil, fmt.Errorf("%w: Options need an FS and a Schema", ErrInvalid)
	}
	if opts.Dir != "" && !fs.ValidDir(opts.Dir) {
		return nil, fmt.Errorf("%w: directory %q is not a valid fs name", ErrInvalid, opts.Dir)
	}
	l := appendLayout(opts.Schema)
	if opts.KeyValue != nil {
		var err error
		if l, err = newKVLayout(opts.Schema, opts.KeyValue); err != nil {
			return nil, err
		}
	}
	cfg, err := parseConfig(opts.Schema, l)
	if err != nil {
		return nil, err
	}
	sc, err := schema.ToArrowSchema(l.inFields)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	fileSchema := sc
	if len(l.fileFields) != len(l.inFields) {
		if fileSchema, err = schema.ToArrowSchema(l.fileFields); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
	}
	w := &Writer{
		opts:        opts,
		cfg:         cfg,
		layout:      l,
		arrowSchema: sc,
		fileSchema:  fileSchema,
		names:       opts.Names,
		mem:         opts.Allocator,
		now:         opts.Now,
		target:      cfg.targetSize,
		next:        opts.FirstSequence,
	}
	if w.names == nil {
		w.names = NewFileNames()
	}
	w.blobTarget = cfg.blobTarget
	if w.mem == nil {
		w.mem = memory.DefaultAllocator
	}
	if w.now == nil {
		w.now = time.Now
	}
	if opts.TargetFileSize > 0 {
		w.target = opts.TargetFileSize
	}
	if w.workers = opts.Workers; w.workers <= 0 {
		w.workers = defaultWorkers()
	}
	return w, nil
}

// ArrowSchema is the Arrow schema of the batches Write takes
// (schema.ToArrowSchema of the table's fields, preceded by _SEQUENCE_NUMBER
// and _VALUE_KIND for key-value files).
func (w *Writer) ArrowSchema() *arrow.Schema { return w.arrowSchema }

// NextSequence is the sequence number the next row written will get
// (append files; key-value rows carry their own).
func (w *Writer) NextSequence() int64 { return w.next }

// Write appends the rows of rec, whose columns are the table's fields in
// schema order with the Arrow types schema.ToArrowSchema gives (field
// metadata does not matter). A batch that does not fit the table is
// rejected with ErrInvalid before any of its rows is written, and the
// Writer stays usable. Write does not retain rec.
func (w *Writer) Write(ctx context.Context, rec arrow.RecordBatch) error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := w.collect(false); err != nil {
		return w.fail(ctx, err)
	}
	r, err := conform(w.arrowSchema, rec)
	if err != nil {
		return fmt.Errorf("datafile: %s: %w", w.opts.Dir, err)
	}
	defer r.Release()
	if err := w.layout.check(r); err != nil {
		return fmt.Errorf("datafile: %s: %w", w.opts.Dir, err)
	}
	// Cut the batch where the writer's row count reaches a multiple of
	// rollCheckRows, the only points where Java checks the file size.
	n := r.NumRows()
	for off := int64(0); off < n; {
		end := min(n, off+w.span())
		chunk := r
		if off > 0 || end < n {
			chunk = r.NewSlice(off, end)
		}
		err := w.writeChunk(ctx, chunk, r, off)
		if chunk != r {
			chunk.Release()
		}
		if err != nil {
			return w.fail(ctx, err)
		}
		off = end
	}
	if b := w.opts.Budget; b != nil {
		b.Update(w)
		return b.Enforce(ctx)
	}
	return nil
}

// HeldBytes estimates the memory the Writer's open file holds (0 without
// one), for a Budget.
func (w *Writer) HeldBytes() int64 {
	if w.cur == nil {
		return 0
	}
	return w.cur.memory()
}

// Release finishes the open file early (Budget), as if it had reached the
// target size; the next row goes to a new file. A failure aborts the
// Writer as a failed Write does.
func (w *Writer) Release(ctx context.Context) error {
	if w.cur == nil || w.failed != nil || w.closed {
		return nil
	}
	if err := w.finishCurrent(); err != nil {
		return w.fail(ctx, err)
	}
	return nil
}

// span is how many rows the next write may take: up to the next roll check
// point, or past as many check points as the current file surely stays
// below the target size over (estimated from its bytes per row so far,
// with a factor 2 of margin). Writing large slices matters: every pqarrow
// write call has a fixed cost (level buffers are allocated and cleared).
func (w *Writer) span() int64 {
	next := rollCheckRows - w.written()%rollCheckRows
	if w.cur == nil || w.cur.rows == 0 {
		return next
	}
	// Pages are buffered up to about 1 MiB per column before they count,
	// so a smaller size says nothing about the bytes per row yet.
	size := w.cur.size()
	if size >= w.target || size < 1<<20 {
		return next
	}
	room := w.target - size
	if b, ok := w.cur.body.(interface{ blockRoom() int64 }); ok {
		room = min(room, b.blockRoom()) // row groups are cut between writes too
	}
	perRow := max(1, size/w.cur.rows)
	safe := room / perRow / 2
	if safe <= next {
		return next
	}
	return next + (safe-next)/rollCheckRows*rollCheckRows
}

// written is the number of rows written so far.
func (w *Writer) written() int64 { return w.next - w.opts.FirstSequence }

// writeChunk writes rows to the current file, opening one if needed, and
// rolls when the file has reached the target size at a check point. rec
// is rows [off, off+rec.NumRows()) of batch, whose rows from off on are
// the new file's first rows (its encoding sample, plainColumns).
func (w *Writer) writeChunk(ctx context.Context, rec, batch arrow.RecordBatch, off int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.cur == nil {
		f, err := w.openFile(ctx, batch, off)
		if err != nil {
			return err
		}
		w.cur = f
	}
	if err := w.cur.write(w, rec); err != nil {
		return err
	}
	w.next += rec.NumRows()
	if w.written()%rollCheckRows == 0 && w.cur.size() >= w.target {
		return w.finishCurrent()
	}
	return nil
}

// finishCurrent publishes the current file and records its metadata. The
// path is kept for Abort even when finishing fails: a publish that reports
// an error may still have landed (a lost acknowledgement), and Abort
// ignores files that do not exist, as Java's SingleFileWriter.abort
// deletes its path in any case.
func (w *Writer) finishCurrent() error {
	f := w.cur
	w.cur = nil
	w.paths = append(w.paths, f.path)
	if f.index != nil {
		w.paths = append(w.paths, f.path+".index") // removed by Abort if written
	}
	created := w.now()
	if f.blobs == nil && w.finishAsync(f, created) {
		return nil
	}
	meta, err := f.finish(w, created)
	if err != nil {
		f.abortBlobs()
		return err
	}
	w.metas = append(w.metas, meta)
	if f.blobs != nil {
		blobs, err := f.finishBlobs(w, created)
		if err != nil {
			f.abortBlobs()
			return err
		}
		w.metas = append(w.metas, blobs...)
	}
	return nil
}

// Close finishes the current file and returns the metadata of every file
// written, in order (none if no row was written). Calling it again returns
// the same list.
func (w *Writer) Close(ctx context.Context) ([]manifest.DataFileMeta, error) {
	if w.failed != nil {
		return nil, w.failed
	}
	if !w.closed {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if w.cur != nil {
			if err := w.finishCurrent(); err != nil {
				return nil, w.fail(ctx, err)
			}
		}
		if err := w.collect(true); err != nil {
			return nil, w.fail(ctx, err)
		}
		w.closed = true
		w.forget()
	}
	return append([]manifest.DataFileMeta(nil), w.metas...), nil
}

// Abort removes every file the Writer created, published or not (also
// after Close, as Java's abort executors do), and releases its buffers.
// Files already gone are not an error. The Writer is unusable afterwards.
func (w *Writer) Abort(ctx context.Context) error {
	err := w.abort(ctx)
	w.closed = true
	if w.failed == nil {
		w.failed = fmt.Errorf("%w: the writer of %s was aborted", ErrInvalid, w.opts.Dir)
	}
	return err
}

// forget leaves the Budget: the Writer holds nothing any more.
func (w *Writer) forget() {
	if w.opts.Budget != nil {
		w.opts.Budget.Forget(w)
	}
}

func (w *Writer) abort(ctx context.Context) error {
	w.forget()
	if w.cur != nil {
		w.cur.abort()
		w.cur = nil
	}
	// Files still being finished may publish: wait, then remove them too.
	_ = w.collect(true)
	var errs []error
	for _, p := range w.paths {
		if err := w.opts.FS.Remove(ctx, p); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("datafile: remove %s: %w", p, err))
		}
	}
	w.paths = nil
	return errors.Join(errs...)
}

// fail aborts the Writer after a write or publish error, as Java's
// RollingFileWriterImpl does, and makes err sticky. Files are removed even
// when ctx is done, since a cancelled context is a common cause.
func (w *Writer) fail(ctx context.Context, err error) error {
	if aerr := w.abort(context.WithoutCancel(ctx)); aerr != nil {
		err = errors.Join(err, aerr)
	}
	w.failed = err
	return err
}

func (w *Writer) usable() error {
	if w.failed != nil {
		return w.failed
	}
	if w.closed {
		return fmt.Errorf("%w: Write after Close (%s)", ErrInvalid, w.opts.Dir)
	}
	return nil
}

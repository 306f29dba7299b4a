package paimon

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// WriterOptions configures a TableWriter. A nil *WriterOptions means
// defaults.
type WriterOptions struct {
	// Allocator allocates the buffers of batches the writer splits by
	// partition and bucket; nil means memory.DefaultAllocator.
	Allocator memory.Allocator
	// Now is the clock of the data files' creation times; nil means
	// time.Now.
	Now func() time.Time
	// MemoryBudget bounds the memory the open data files hold together,
	// across partitions and buckets: when a write pushes them over it,
	// the least recently written files are finished early (they roll as
	// at target-file-size) and Parquet row groups are cut before they
	// hold half of it. 0 means 48 MiB (datafile.DefaultMemoryBudget); a
	// negative value turns the budget off (one open file per partition
	// and bucket written, each buffering up to a row group).
	MemoryBudget int64
	// WriteOnly turns off the compaction a fixed-bucket writer runs after
	// each PrepareCommit, as the table option write-only does (set it
	// when a separate job compacts the table, e.g. Table.Compact or
	// `paimon compact`).
	WriteOnly bool

	// RowKindColumn names the column of each batch that holds the row
	// kind of its row, "+I", "-U", "+U" or "-D", for primary-key tables
	// (change data capture). A table column (as Java's rowkind.field) is
	// written like the others; any other column is only read for the kinds.
	// Empty means the table's rowkind.field option, if set; without
	// either, Write writes every row as +I (an upsert).
	RowKindColumn string
	// WriteBufferSize, when positive, replaces the table's
	// write-buffer-size: the memory the writer's buffers of a primary-key
	// table may hold together before the largest is written out as a
	// sorted run.
	WriteBufferSize int64
	// Workers bounds the goroutines that encode the columns of a Parquet
	// data file at once (the writer writes one file at a time, so this
	// bounds its encoding goroutines): 0 means GOMAXPROCS, 1 encodes on
	// the caller's goroutine. The files are the same bytes whatever the
	// count; nested columns (ARRAY, MAP, ROW, VARIANT) always encode on
	// one goroutine. Unless it is 1, a primary-key table's flushed write
	// buffer is merged on the caller's goroutine while another encodes
	// the merged rows.
	Workers int
	// CommitUser is the commit user the writer's files are for; only
	// postpone-bucket tables use it, in their file names (Java's
	// PostponeBucketFileStoreWrite). Empty means a random UUID.
	CommitUser string
}

// TableWriter writes Arrow record batches into the data files of a table
// (Java TableWriteImpl), and PrepareCommit hands the files over as
// CommitMessages for a TableCommit, possibly in another process.
//
// Append-only tables (AppendFileStoreWrite): rows go to the partition
// directory and bucket Java would choose, and files roll at
// target-file-size.
//
// Primary-key tables (KeyValueFileStoreWrite with write-only semantics):
// every row carries a row kind (RowKindColumn, WriteWithKind, Delete) and
// gets the next sequence number of its bucket, continuing from the
// bucket's live files. Each (partition, bucket) buffers its rows in
// off-heap memory; when the writer's buffers reach write-buffer-size the
// largest is sorted, merged with the table's merge engine and written as a
// level-0 sorted run, as is everything at PrepareCommit, with
// changelog-producer=input changelog files beside. Buckets are fixed
// (bucket-key or the primary key hashed as Java does), dynamic (bucket=-1:
// Java's HashBucketAssigner over the table's HASH index files, which the
// commit updates; cross-partition updates are refused) or postponed
// (bucket=-2: rows written unsorted into bucket-postpone, for Java's
// compaction to distribute). The writer does not compact by trigger, like
// Java's writer with write-only=true: tables that read only compacted
// levels (deletion-vectors.enabled, merge-engine=first-row) show the rows
// after a compaction, as do postpone buckets, and the changelog of
// changelog-producer lookup comes from compaction. Unless write-only, a
// table with changelog-producer=full-compaction or
// full-compaction.delta-commits is compacted fully every delta-commits
// PrepareCommits, as Java's Flink writer does (write_fullcl.go), which
// writes that producer's changelog.
//
// A TableWriter is not safe for concurrent use. Close it when done: files
// written since the last PrepareCommit are removed.
type TableWriter struct {
	t           *Table
	schema      *schema.TableSchema
	arrowSchema *arrow.Schema
	mem         memory.Allocator
	now         func() time.Time

	buckets      int // N > 0 for fixed buckets, -1 for bucket-unaware
	totalBuckets int32
	bucketFn     binaryrow.BucketFunction
	keyIdx       []int
	keyTypes     []schema.DataType
	partIdx      []int
	partTypes    []schema.DataType
	pather       *partitionPather
	restore      bool // fixed-bucket writers continue the bucket's sequence numbers
	// seqPerFile: data-evolution tables number each file's rows from 0
	// (datafile.Options.SequencePerFile); the commit stamps them.
	seqPerFile bool
	budget     *datafile.Budget
	workers    int // WriterOptions.Workers
	// finisher finishes rolled files in the background (nil with one
	// worker).
	finisher *datafile.Finisher

	pk *pkWriter // primary-key tables

	writers map[string]*bucketWriter
	order   []string         // keys of writers in creation order
	nextSeq map[string]int64 // next sequence number of each (partition, bucket)
	seqs    map[string]int64 // restored maxima of the latest snapshot, loaded once
	closed  bool

	// compaction is the compaction of fixed buckets after each
	// PrepareCommit (Java AppendOnlyWriter with
	// BucketedAppendCompactManager); nil for write-only and unaware-bucket
	// tables, which Java's writer does not compact either.
	compaction *writerCompaction
}

// bucketWriter is the rolling file writer of one partition and bucket.
type bucketWriter struct {
	partition []byte // serialized BinaryRow
	bucket    int32
	dir       string
	w         *datafile.Writer
	// queue holds the bucket's files the compaction may pick (Java
	// BucketedAppendCompactManager.toCompact): restored, flushed, and the
	// last output of a compaction while it is small.
	queue []*manifest.DataFileMeta
}

// NewWriter opens a writer on the table's schema. Batches given to Write
// must have exactly the table's columns, in order, with the Arrow types of
// ArrowSchema.
func (t *Table) NewWriter(opts *WriterOptions) (*TableWriter, error) {
	if opts == nil {
		opts = &WriterOptions{}
	}
	ts := t.schema
	if err := checkOptions(ts, coreoptions.Write, t.name()); err != nil {
		return nil, err
	}
	o := tableOptions(ts.Options)
	buckets, err := ts.Bucket()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	wo, err := writeOnly(ts.Options)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	w := &TableWriter{
		t: t, schema: ts, mem: opts.Allocator, now: opts.Now, workers: opts.Workers,
		writers: map[string]*bucketWriter{}, nextSeq: map[string]int64{},
		// Java's fixed-bucket writers continue the bucket's sequence
		// numbers even when write-only, unless bucket-append-ordered is
		// off (BucketedAppendFileStoreWrite: ignorePreviousFiles =
		// write-only only for unordered buckets).
		restore:    !(wo && !o.boolean(optBucketAppendOrdered, true)),
		seqPerFile: o.boolean(optDataEvolution, false),
	}
	compacts := !wo && !opts.WriteOnly
	if w.mem == nil {
		w.mem = memory.DefaultAllocator
	}
	if w.now == nil {
		w.now = time.Now
	}
	if len(ts.PrimaryKeys) > 0 {
		return w.newPrimaryKeyWriter(opts)
	}
	if opts.RowKindColumn != "" {
		return nil, fmt.Errorf("%w: a row-kind column for append table %s (row kinds are for primary-key tables)", ErrInvalidOption, t.name())
	}
	for _, f := range ts.Fields {
		// BLOB columns go to .blob files whose rows the commit places by
		// row id: Java requires data evolution for them.
		if containsBlob(f.Type) && !o.boolean(optDataEvolution, false) {
			return nil, fmt.Errorf("%w: BLOB column %q of table %s without %s", ErrUnsupported, f.Name, t.name(), optDataEvolution)
		}
	}
	if opts.MemoryBudget >= 0 {
		w.budget = datafile.NewBudget(opts.MemoryBudget)
	}
	// Files finish on workers-1 goroutines besides the caller's, holding
	// at most the budget between them: open and finishing files together
	// stay within twice MemoryBudget.
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var finishing int64
	if w.budget != nil {
		finishing = w.budget.Limit()
	}
	w.finisher = datafile.NewFinisher(workers-1, finishing)
	switch {
	case buckets == -1:
		w.buckets, w.totalBuckets = -1, -1
	case buckets > 0:
		w.buckets, w.totalBuckets = buckets, int32(buckets)
		if ts.Options[coreoptions.BucketKey] == "" {
			return nil, fmt.Errorf("%w: append table %s has bucket=%d but no bucket-key (Java requires one)", ErrInvalidOption, t.name(), buckets)
		}
		if v, ok := ts.Options[coreoptions.BucketFunctionType]; ok {
			if w.bucketFn, err = binaryrow.ParseBucketFunction(v); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
			}
		}
		for _, k := range ts.BucketKeys() {
			i := ts.FieldIndex(k)
			if i < 0 {
				return nil, fmt.Errorf("%w: bucket-key %q is not a column", ErrInvalidOption, k)
			}
			w.keyIdx = append(w.keyIdx, i)
			w.keyTypes = append(w.keyTypes, ts.Fields[i].Type)
		}
	default:
		return nil, fmt.Errorf("%w: writing to an append table with bucket=%d", ErrUnsupported, buckets)
	}
	if err := w.partitionFields(); err != nil {
		return nil, err
	}
	if w.arrowSchema, err = schema.ToArrowSchema(ts.Fields); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	if w.buckets > 0 && w.restore && compacts {
		if w.compaction, err = newWriterCompaction(t, ts, w.mem, w.now, w.budget); err != nil {
			return nil, err
		}
		if w.compaction != nil {
			w.compaction.rw.workers = w.workers
		}
	}
	// Refuse unwritable options now rather than at the first batch.
	probe, err := datafile.NewWriter(w.fileOptions("", 0))
	if err != nil {
		return nil, w.optionError(err)
	}
	_ = probe.Abort(context.Background())
	return w, nil
}

// newPrimaryKeyWriter finishes NewWriter for a primary-key table.
func (w *TableWriter) newPrimaryKeyWriter(opts *WriterOptions) (*TableWriter, error) {
	if err := w.partitionFields(); err != nil {
		return nil, err
	}
	var err error
	if w.arrowSchema, err = schema.ToArrowSchema(w.schema.Fields); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	if w.pk, err = newPKWriter(w, opts); err != nil {
		return nil, err
	}
	return w, nil
}

// partitionFields sets the partition columns and the path computer.
func (w *TableWriter) partitionFields() error {
	for _, k := range w.schema.PartitionKeys {
		i := w.schema.FieldIndex(k)
		if i < 0 {
			return fmt.Errorf("%w: partition key %q is not a column", ErrCorrupt, k)
		}
		w.partIdx = append(w.partIdx, i)
		w.partTypes = append(w.partTypes, w.schema.Fields[i].Type)
	}
	var err error
	w.pather, err = newPartitionPather(w.schema)
	return err
}

func (w *TableWriter) optionError(err error) error {
	if errors.Is(err, datafile.ErrUnsupported) {
		return fromInternal(ErrUnsupported, datafile.ErrUnsupported, err)
	}
	return fromInternal(ErrInvalidOption, datafile.ErrInvalid, err)
}

func (w *TableWriter) fileOptions(dir string, seq int64) datafile.Options {
	return datafile.Options{
		FS: w.t.meta.fsys, Dir: dir, Schema: w.schema, Allocator: w.mem,
		FirstSequence: seq, SequencePerFile: w.seqPerFile, Now: w.now, Budget: w.budget, Workers: w.workers, Finisher: w.finisher,
	}
}

// ArrowSchema is the schema batches given to Write must have.
func (w *TableWriter) ArrowSchema() *arrow.Schema { return w.arrowSchema }

// Write routes the rows of rec to their partitions and buckets and writes
// them. The batch is checked first (columns, types, NOT NULL columns, and
// for primary-key tables NULL keys and row kinds); a batch that does not fit
// fails with ErrSchemaMismatch before anything is written. rec is not
// retained.
//
// For a primary-key table rec has the table's columns in order, plus the
// row-kind column (WriterOptions.RowKindColumn) if that is not a table
// column; each row is written with its kind, or as +I without a row-kind
// column. Rows of a kind ignore-delete or ignore-update-before drop are
// left out, as Java's writer does.
func (w *TableWriter) Write(ctx context.Context, rec arrow.RecordBatch) error {
	if w.closed {
		return fmt.Errorf("paimon: write to a closed writer")
	}
	if w.pk != nil {
		return w.pk.write(ctx, rec, nil)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := w.check(rec); err != nil {
		return err
	}
	if rec.NumRows() == 0 {
		return nil
	}
	// Rebind the columns to the table's schema (its field ids and names).
	cols := rec.Columns()
	own := array.NewRecordBatch(w.arrowSchema, cols, rec.NumRows())
	defer own.Release()
	if len(w.partIdx) == 0 && w.buckets < 0 {
		bw, err := w.writer(ctx, "", manifest.EmptyRow(), nil, 0)
		if err != nil {
			return err
		}
		return bw.w.Write(ctx, own)
	}
	return w.route(ctx, own)
}

// check verifies the batch against the table schema.
func (w *TableWriter) check(rec arrow.RecordBatch) error {
	fields := w.schema.Fields
	if int(rec.NumCols()) != len(fields) {
		return fmt.Errorf("%w: batch has %d columns, table %s has %d", ErrSchemaMismatch, rec.NumCols(), w.t.name(), len(fields))
	}
	for i, f := range fields {
		got := rec.Schema().Field(i)
		if got.Name != f.Name {
			return fmt.Errorf("%w: column %d is %q, table column is %q", ErrSchemaMismatch, i, got.Name, f.Name)
		}
		want := w.arrowSchema.Field(i).Type
		if !arrow.TypeEqual(got.Type, want) {
			return fmt.Errorf("%w: column %q has Arrow type %s, table type %s needs %s",
				ErrSchemaMismatch, f.Name, got.Type, f.Type.String(), want)
		}
		if err := checkNotNull(rec.Column(i), f.Name, f.Type); err != nil {
			return err
		}
	}
	return nil
}

// checkNotNull refuses NULLs in NOT NULL columns and NOT NULL fields of
// ROW columns (where the row itself is not NULL).
func checkNotNull(arr arrow.Array, name string, t schema.DataType) error {
	if !t.Nullable && arr.NullN() > 0 {
		return fmt.Errorf("%w: column %q is NOT NULL but the batch has %d NULLs", ErrSchemaMismatch, name, arr.NullN())
	}
	st, ok := arr.(*array.Struct)
	if !ok || t.Root != schema.Row {
		return nil
	}
	for j, f := range t.Fields {
		if f.Type.Nullable || j >= st.NumField() {
			continue
		}
		child := st.Field(j)
		for r := 0; r < st.Len(); r++ {
			if st.IsValid(r) && child.IsNull(r) {
				return fmt.Errorf("%w: field %q of column %q is NOT NULL but row %d has NULL", ErrSchemaMismatch, f.Name, name, r)
			}
		}
	}
	return nil
}

// route splits rec by partition and bucket.
func (w *TableWriter) route(ctx context.Context, rec arrow.RecordBatch) error {
	var keyVals []any
	var bucketOf func(r int, _ string) (int32, error)
	if w.buckets > 0 {
		bucketOf = intKeyBuckets(rec, w.keyIdx, w.keyTypes, w.buckets, w.bucketFn)
	}
	if w.buckets > 0 && bucketOf == nil {
		keyVals = make([]any, len(w.keyIdx))
		bucketOf = func(r int, _ string) (int32, error) {
			for j, c := range w.keyIdx {
				v, err := parquet.ArrowValueView(rec.Column(c), r, w.keyTypes[j])
				if err != nil {
					return 0, fmt.Errorf("%w: %w", ErrSchemaMismatch, err)
				}
				keyVals[j] = v
			}
			b, err := binaryrow.BucketOf(w.keyTypes, keyVals, w.buckets, w.bucketFn)
			if err != nil {
				return 0, fmt.Errorf("paimon: bucket of row %d: %w", r, err)
			}
			return int32(b), nil
		}
	}
	order, err := w.groupRows(rec, bucketOf)
	if err != nil {
		return err
	}
	// Open every writer first: a partition Java cannot name fails the
	// whole batch before any of it is written.
	writers := make([]*bucketWriter, len(order))
	for i, g := range order {
		bw, err := w.writer(ctx, g.key, g.partition, g.values, g.bucket)
		if err != nil {
			return err
		}
		writers[i] = bw
	}
	for i, g := range order {
		part, err := g.take(rec, len(order), w.mem)
		if err != nil {
			return err
		}
		err = writers[i].w.Write(ctx, part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// writer returns the writer of a partition and bucket, opening it when
// needed.
func (w *TableWriter) writer(ctx context.Context, key string, partition []byte, values []any, bucket int32) (*bucketWriter, error) {
	if bw, ok := w.writers[key]; ok && bw.w != nil {
		return bw, nil
	}
	bw := w.writers[key]
	if bw == nil {
		p, err := w.pather.path(values)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidPartition, err)
		}
		bw = &bucketWriter{partition: partition, bucket: bucket, dir: w.t.meta.Path(bucketDirectory(w.schema, p, bucket))}
		if w.compaction != nil {
			if err := w.loadRestored(ctx); err != nil {
				return nil, err
			}
			bw.queue = w.compaction.restored(partition, bucket)
		}
		w.writers[key] = bw
		w.order = append(w.order, key)
	}
	seq, ok := w.nextSeq[key]
	if !ok && w.buckets > 0 && w.restore {
		var err error
		if seq, err = w.restoredSequence(ctx, partition, bucket); err != nil {
			return nil, err
		}
	}
	fw, err := datafile.NewWriter(w.fileOptions(bw.dir, seq))
	if err != nil {
		return nil, w.optionError(err)
	}
	bw.w = fw
	return bw, nil
}

// restoredSequence is the next sequence number of a fixed bucket: one past
// the largest of its live files (Java AppendOnlyWriter restoring its
// files); 0 for a new bucket.
func (w *TableWriter) restoredSequence(ctx context.Context, partition []byte, bucket int32) (int64, error) {
	if err := w.loadRestored(ctx); err != nil {
		return 0, err
	}
	if v, ok := w.seqs[string(partition)+"/"+fmt.Sprint(bucket)]; ok {
		return v + 1, nil
	}
	return 0, nil
}

// loadRestored reads, once, what a fixed-bucket writer restores from the
// latest snapshot (Java AbstractFileStoreWrite.createWriterContainer): the
// largest sequence number of each bucket and, when the writer compacts,
// the bucket's files and deletion vectors.
func (w *TableWriter) loadRestored(ctx context.Context) error {
	if w.seqs != nil {
		return nil
	}
	seqs := map[string]int64{}
	s, err := latestSnapshotOf(ctx, w.t.meta)
	if err != nil {
		return err
	}
	var live []manifest.ManifestEntry
	if s != nil {
		if live, err = liveEntries(ctx, w.t.meta, nil, s, nil); err != nil {
			return err
		}
		for _, e := range live {
			k := string(e.Partition) + "/" + fmt.Sprint(e.Bucket)
			if cur, ok := seqs[k]; !ok || e.File.MaxSequenceNumber > cur {
				seqs[k] = e.File.MaxSequenceNumber
			}
		}
	}
	if w.compaction != nil {
		if err := w.compaction.restore(ctx, s, live); err != nil {
			return err
		}
	}
	w.seqs = seqs
	return nil
}

// WriteWithKind writes every row of rec with the given row kind, whatever
// a row-kind column says (primary-key tables only). rec is as for Write.
func (w *TableWriter) WriteWithKind(ctx context.Context, rec arrow.RecordBatch, kind RowKind) error {
	if w.closed {
		return fmt.Errorf("paimon: write to a closed writer")
	}
	if w.pk == nil {
		return fmt.Errorf("%w: row kinds for append table %s (only +I rows; use Write)", ErrUnsupported, w.t.name())
	}
	if kind < RowKindInsert || kind > RowKindDelete {
		return fmt.Errorf("%w: unknown row kind %d", ErrSchemaMismatch, kind)
	}
	return w.pk.write(ctx, rec, &kind)
}

// Upsert writes every row of rec as +I: the row replaces (deduplicate) or
// merges into (partial-update, aggregation) the row of its key.
func (w *TableWriter) Upsert(ctx context.Context, rec arrow.RecordBatch) error {
	return w.WriteWithKind(ctx, rec, RowKindInsert)
}

// Delete writes every row of rec as -D, deleting its key (deduplicate and
// partial-update with partial-update.remove-record-on-delete) or
// retracting its values (aggregation). rec has either the table's columns,
// or only the primary-key columns (in table order), the other columns
// then being NULL (so they must be nullable).
func (w *TableWriter) Delete(ctx context.Context, rec arrow.RecordBatch) error {
	return w.WriteWithKind(ctx, rec, RowKindDelete)
}

// PrepareCommit finishes the open data files and returns one CommitMessage
// per partition and bucket written since the last call. The writer stays
// usable: later rows go to new files whose sequence numbers continue.
//
// A fixed-bucket writer of a table that is not write-only then compacts,
// as Java's writer does after each flush (AppendOnlyWriter with
// BucketedAppendCompactManager, waiting for the compaction as a batch
// write does): in each bucket it has written, once
// compaction.min.file-num consecutive files fit in twice
// target-file-size, it rewrites them into one file. The message of the
// bucket then carries the compaction (Compact), which its TableCommit
// publishes in a COMPACT snapshot after the APPEND one. A compaction
// that loses a race (CommitResult.CompactErr) or files another compactor
// removed make the writer re-sync the bucket with the latest snapshot
// before its next compaction; with a separate compaction job, WriteOnly
// writers avoid the wasted work. If a commit of its messages fails, close
// the writer and open a new one, which restores the buckets' files from
// the latest snapshot.
//
// For a primary-key table it writes every buffered row first. After an
// error the writer is failed: Close it and start again from the last
// commit.
func (w *TableWriter) PrepareCommit(ctx context.Context) ([]CommitMessage, error) {
	if w.closed {
		return nil, fmt.Errorf("paimon: prepare commit on a closed writer")
	}
	if w.pk != nil {
		return w.pk.prepareCommit(ctx)
	}
	// Hand every open file to the finisher first, so that files of
	// different buckets finish at once; errors surface in Close below.
	for _, key := range w.order {
		if bw := w.writers[key]; bw.w != nil && w.finisher != nil {
			_ = bw.w.Release(ctx)
		}
	}
	var msgs []CommitMessage
	for _, key := range w.order {
		bw := w.writers[key]
		var files []manifest.DataFileMeta
		if bw.w != nil {
			var err error
			files, err = bw.w.Close(ctx)
			w.nextSeq[key] = bw.w.NextSequence()
			if err != nil {
				// Nothing of this call reaches a committer: remove it all.
				_ = bw.w.Abort(context.WithoutCancel(ctx))
				bw.w = nil
				w.abortPrepared(ctx, msgs)
				return nil, err
			}
			bw.w = nil
		}
		msg := CommitMessage{Partition: bw.partition, Bucket: bw.bucket, TotalBuckets: w.totalBuckets, NewFiles: files}
		if w.compaction != nil {
			inc, err := w.compaction.compact(ctx, bw, files)
			if err != nil {
				w.abortPrepared(ctx, append(msgs, msg))
				return nil, err
			}
			msg.Compact = inc
		}
		if len(files) == 0 && msg.Compact == nil {
			continue
		}
		msgs = append(msgs, msg)
	}
	return msgs, nil
}

func (w *TableWriter) abortPrepared(ctx context.Context, msgs []CommitMessage) {
	ctx = context.WithoutCancel(ctx)
	for _, m := range msgs {
		for _, key := range w.order {
			bw := w.writers[key]
			if bw.bucket != m.Bucket || string(bw.partition) != string(m.Partition) {
				continue
			}
			// A data file's extra files (its separate file index) go
			// with it.
			for _, f := range m.NewFiles {
				_ = w.t.meta.fsys.Remove(ctx, bw.dir+"/"+f.FileName)
				for _, x := range f.ExtraFiles {
					_ = w.t.meta.fsys.Remove(ctx, bw.dir+"/"+x)
				}
			}
			if m.Compact != nil {
				for _, f := range m.Compact.After {
					_ = w.t.meta.fsys.Remove(ctx, bw.dir+"/"+f.FileName)
					for _, x := range f.ExtraFiles {
						_ = w.t.meta.fsys.Remove(ctx, bw.dir+"/"+x)
					}
				}
				for _, f := range m.Compact.NewIndexFiles {
					_ = w.t.meta.fsys.Remove(ctx, w.t.meta.IndexPath(f.FileName))
				}
			}
		}
	}
}

// Close removes the files written since the last PrepareCommit and
// releases the writer. Files handed out by PrepareCommit are the
// committer's: commit them or pass them to TableCommit.Abort.
func (w *TableWriter) Close(ctx context.Context) error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.pk != nil {
		return w.pk.close(ctx)
	}
	var errs []error
	for _, key := range w.order {
		if bw := w.writers[key]; bw.w != nil {
			errs = append(errs, bw.w.Abort(ctx))
			bw.w = nil
		}
	}
	return errors.Join(errs...)
}

package paimon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// compactRewriter rewrites data files of an append table into new ones
// (Java BaseAppendFileStoreWrite.compactRewrite), for Table.Compact and for
// the compaction inside a fixed-bucket TableWriter.
type compactRewriter struct {
	t            *Table
	ts           *schema.TableSchema // the schema written
	mem          memory.Allocator
	now          func() time.Time
	pather       *partitionPather
	totalBuckets int32
	dvs          *compactDVs // nil: no deletion vectors
	// budget bounds the memory of the file being written (a Budget of
	// its own per rewrite, since rewrites run concurrently); 0 for none.
	budget int64
	// shared, when set, is the Budget of the TableWriter whose compaction
	// this is (used from the writer's goroutine, as its other files).
	shared *datafile.Budget
	// workers is datafile.Options.Workers of the files written.
	workers int
}

// rewrite reads files (in the order given), deletion vectors applied, and
// writes their rows into new files of the same bucket: sequence numbers
// continue from the first file's minimum, the files are marked as
// compaction output (level 0, FileSource COMPACT), they roll at
// target-file-size. Then the vectors of the rewritten files are dropped.
// done, if set, is called after each input file. On failure every file
// written is removed.
func (r *compactRewriter) rewrite(ctx context.Context, partition []byte, bucket int32, files []*manifest.DataFileMeta,
	done func(f *manifest.DataFileMeta, rows int64)) (*CompactIncrement, error) {
	dir, err := r.bucketDir(partition, bucket)
	if err != nil {
		return nil, err
	}
	opts := datafile.Options{
		FS: r.t.meta.fsys, Dir: r.t.meta.Path(dir), Schema: r.ts, Allocator: r.mem,
		FirstSequence: files[0].MinSequenceNumber, Now: r.now, Compaction: true, Workers: r.workers,
	}
	switch {
	case r.shared != nil:
		opts.Budget = r.shared
	case r.budget > 0:
		opts.Budget = datafile.NewBudget(r.budget)
	}
	w, err := datafile.NewWriter(opts)
	if err != nil {
		if errors.Is(err, datafile.ErrUnsupported) {
			return nil, fromInternal(ErrUnsupported, datafile.ErrUnsupported, err)
		}
		return nil, fromInternal(ErrInvalidOption, datafile.ErrInvalid, err)
	}
	var index []string // index files written
	fail := func(err error) (*CompactIncrement, error) {
		errs := []error{err, w.Abort(context.WithoutCancel(ctx))}
		for _, p := range index {
			if rerr := r.t.meta.fsys.Remove(context.WithoutCancel(ctx), p); rerr != nil {
				errs = append(errs, rerr)
			}
		}
		return nil, errors.Join(errs...)
	}
	scan := r.t.NewScan(WithAllocator(r.mem))
	bk := bucketKey{string(partition), bucket}
	for _, f := range files {
		// One split per file: files of append tables are read one after
		// the other anyway, and progress is reported per file.
		sp := Split{Partition: partition, Bucket: bucket, TotalBuckets: r.totalBuckets,
			BucketPath: dir, Files: []manifest.DataFileMeta{*f}, RawConvertible: true}
		if r.dvs != nil {
			if df := r.dvs.deletionFile(bk, f.FileName); df != nil {
				sp.DeletionFiles = []*DeletionFile{df}
			}
		}
		var rows int64
		for rec, err := range scan.ReadSplits(ctx, sp) {
			if err != nil {
				return fail(fmt.Errorf("paimon: compact %s: %w", f.FileName, err))
			}
			rows += rec.NumRows()
			err = w.Write(ctx, rec)
			rec.Release()
			if err != nil {
				return fail(err)
			}
		}
		if done != nil {
			done(f, rows)
		}
	}
	after, err := w.Close(ctx)
	if err != nil {
		return fail(err)
	}
	inc := &CompactIncrement{After: after}
	for _, f := range files {
		inc.Before = append(inc.Before, *f)
	}
	if r.dvs != nil {
		inc.NewIndexFiles, inc.DeletedIndexFiles, err = r.dvs.drop(ctx, bk, files, &index)
		if err != nil {
			return fail(err)
		}
	}
	return inc, nil
}

func (r *compactRewriter) bucketDir(partition []byte, bucket int32) (string, error) {
	values, err := r.pather.values(partition)
	if err != nil {
		return "", fmt.Errorf("%w: partition: %w", ErrCorrupt, err)
	}
	p, err := r.pather.path(values)
	if err != nil {
		return "", err
	}
	return bucketDirectory(r.ts, p, bucket), nil
}

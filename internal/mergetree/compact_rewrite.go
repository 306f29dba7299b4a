package mergetree

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// CompactOptions configure RunCompactTask. The embedded Options are used as
// by Read (Schema, Merge and the sequence fields are required; KeepDeletes
// and KeyValues are ignored: the merge always yields the file layout).
type CompactOptions struct {
	Options
	// Open reads the files being rewritten, as for Read.
	Open OpenFunc
	// FS and Dir are where the new files go: the bucket's directory.
	FS  fs.FS
	Dir string
	// Names names the new files; nil means a FileNames of the task's own.
	Names *datafile.FileNames
	// Workers bounds the goroutines encoding a written file's Parquet
	// columns (datafile.Options.Workers): 0 means GOMAXPROCS.
	Workers int
	// Now stamps the files' creation time; nil means time.Now.
	Now func() time.Time
	// Budget, when set, bounds the memory of the files being written
	// (datafile.Options.Budget).
	Budget *datafile.Budget
}

// CompactResult is what a compaction task changed in a bucket (Java
// CompactResult): the files it removed and the files that replace them.
// An upgraded file appears in both, at its old and at its new level.
type CompactResult struct {
	Before, After []manifest.DataFileMeta
	// Written lists the files the task wrote (After without the upgraded
	// files), for cleanup when the compaction is not committed.
	Written []manifest.DataFileMeta
	// Changelog lists the changelog files the task wrote (Java
	// CompactResult.changelog), for the compaction's commit.
	Changelog []manifest.DataFileMeta
}

// RunCompactTask executes the steps PlanCompactTask planned for a unit
// whose output level is outputLevel (Java MergeTreeCompactTask.doCompact
// with MergeTreeCompactRewriter): an upgraded file keeps its name and
// content and gets the new level (DataFileMeta.upgrade); the sections of a
// rewrite are merged with the table's merge function, as a read merges
// them, and written as one rolling run of key-value files at outputLevel
// with _FILE_SOURCE COMPACT. With dropDelete (DropDelete), the merged -U
// and -D records are left out (Java DropDeleteReader): nothing under the
// output level can hold an older version of their keys.
//
// The steps run in order and the result lists their files in order. On
// error every file the task wrote is removed.
func RunCompactTask(ctx context.Context, steps []CompactStep, outputLevel int, dropDelete bool, opts *CompactOptions) (*CompactResult, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	res := &CompactResult{}
	for _, st := range steps {
		if st.Upgrade != nil {
			up := *st.Upgrade
			up.Level = int32(outputLevel)
			res.Before = append(res.Before, *st.Upgrade)
			res.After = append(res.After, up)
			continue
		}
		before := st.rewriteFiles()
		written, err := rewriteFiles(ctx, before, outputLevel, dropDelete, &o)
		if err != nil {
			return nil, errors.Join(err, removeWritten(context.WithoutCancel(ctx), &o, res.Written))
		}
		res.Before = append(res.Before, before...)
		res.After = append(res.After, written...)
		res.Written = append(res.Written, written...)
	}
	return res, nil
}

// withDefaults checks the options of a compaction task and fills in the
// defaults of the fields left unset.
func (opts *CompactOptions) withDefaults() (CompactOptions, error) {
	if opts == nil || opts.FS == nil || opts.Open == nil {
		return CompactOptions{}, fmt.Errorf("%w: CompactOptions need an FS and an Open function", ErrInvalid)
	}
	o := *opts
	if o.Allocator == nil {
		o.Allocator = memory.DefaultAllocator
	}
	if o.Names == nil {
		o.Names = datafile.NewFileNames()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o, nil
}

// newWriter opens a rolling writer of key-value files in the bucket's
// directory (Java KeyValueFileWriterFactory).
func (o *CompactOptions) newWriter(kv datafile.KeyValue) (*datafile.Writer, error) {
	return datafile.NewWriter(datafile.Options{
		FS: o.FS, Dir: o.Dir, Schema: o.Schema, Allocator: o.Allocator, Now: o.Now, Names: o.Names,
		Budget: o.Budget, KeyValue: &kv, Workers: o.Workers,
	})
}

// rewriteFiles lists the files of a rewrite step: the sorted runs of its
// sections, in order.
func (st CompactStep) rewriteFiles() []manifest.DataFileMeta {
	var files []manifest.DataFileMeta
	for _, section := range st.Rewrite {
		for _, run := range section {
			files = append(files, run...)
		}
	}
	return files
}

// writeAdds writes the rows of rec whose kind adds (+I, +U): the merged
// -U and -D records are dropped (Java DropDeleteReader).
func writeAdds(ctx context.Context, w *datafile.Writer, rec arrow.RecordBatch, mem memory.Allocator) error {
	kinds, ok := rec.Column(kindColumn).(*array.Int8)
	if !ok {
		return fmt.Errorf("%w: merged batch without an int8 %s column", ErrCorrupt, rec.ColumnName(kindColumn))
	}
	if !anyRetract(kinds.Int8Values()) {
		return w.Write(ctx, rec)
	}
	kept, err := dropRetractions(rec, kinds.Int8Values(), mem)
	if err != nil {
		return err
	}
	defer kept.Release()
	if kept.NumRows() == 0 {
		return nil
	}
	return w.Write(ctx, kept)
}

// rewriteFiles merges files (the sorted runs of the sections of one
// rewrite: Read splits them into the same sections again) into new files at
// level (Java MergeTreeCompactRewriter.rewriteCompaction).
func rewriteFiles(ctx context.Context, files []manifest.DataFileMeta, level int, dropDelete bool, o *CompactOptions) ([]manifest.DataFileMeta, error) {
	w, err := o.newWriter(datafile.KeyValue{Level: int32(level), Source: manifest.FileSourceCompact})
	if err != nil {
		return nil, err
	}
	ro := o.Options
	ro.KeyValues = true
	write := func(rec arrow.RecordBatch) error {
		if !dropDelete {
			return w.Write(ctx, rec)
		}
		return writeAdds(ctx, w, rec, o.Allocator)
	}
	for rec, err := range Read(ctx, files, o.Open, &ro) {
		if err == nil {
			err = write(rec)
			rec.Release()
		}
		if err != nil {
			return nil, errors.Join(err, w.Abort(context.WithoutCancel(ctx)))
		}
	}
	out, err := w.Close(ctx)
	if err != nil {
		return nil, errors.Join(err, w.Abort(context.WithoutCancel(ctx)))
	}
	return out, nil
}

// kindColumn is the index of _VALUE_KIND in the key-value layout
// (ReadFields: _SEQUENCE_NUMBER, _VALUE_KIND, the table's fields).
const kindColumn = 1

// RemoveCompactOutput removes the files a compaction task wrote (its
// Written files), for a compaction that is not committed. Files already
// gone are not an error.
func RemoveCompactOutput(ctx context.Context, fsys fs.FS, dir string, written []manifest.DataFileMeta) error {
	return removeWritten(ctx, &CompactOptions{FS: fsys, Dir: dir}, written)
}

func removeWritten(ctx context.Context, o *CompactOptions, files []manifest.DataFileMeta) error {
	var errs []error
	for _, f := range files {
		p := fs.Join(o.Dir, f.FileName)
		if err := o.FS.Remove(ctx, p); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("mergetree: remove %s: %w", p, err))
		}
	}
	return errors.Join(errs...)
}

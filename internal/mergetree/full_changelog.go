package mergetree

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

// RunFullChangelogTask is RunCompactTask for tables with
// changelog-producer = full-compaction (Java
// FullChangelogMergeTreeCompactRewriter over ChangelogMergeTreeRewriter).
//
// Below the highest level (maxLevel) it is RunCompactTask: no changelog.
// A task whose output is the highest level is a full compaction (only
// full compactions write there, see Universal), and it also writes
// changelog files at maxLevel holding, key by key, how the merged result
// differs from the key's version at the highest level before
// (FullChangelogMergeFunctionWrapper):
//
//   - no version at the highest level: +I of the result, if it adds;
//   - a version there and others below: -D of the old top version when the
//     result retracts, else -U of the old top version and +U of the result
//     (also when the values are equal: Java compares them only with
//     changelog-producer.row-deduplicate, which the caller refuses);
//   - only the version at the highest level: nothing.
//
// A key's only version passes unchanged (Java does not call the merge
// function for it). A file upgraded to the highest level keeps its name
// and level change, and is read once for its +I rows (Java's
// CHANGELOG_NO_REWRITE upgrade strategy). The changelog rows carry the
// sequence number of the version they come from. Changelog files are
// written with _FILE_SOURCE APPEND, as Java's
// KeyValueFileWriterFactory.createRollingChangelogFileWriter writes them.
//
// On error every file the task wrote is removed.
func RunFullChangelogTask(ctx context.Context, steps []CompactStep, outputLevel, maxLevel int, dropDelete bool, opts *CompactOptions) (*CompactResult, error) {
	if outputLevel != maxLevel {
		return RunCompactTask(ctx, steps, outputLevel, dropDelete, opts)
	}
	if !dropDelete {
		// Java checks the same (rewriteChangelog's checkArgument).
		return nil, fmt.Errorf("%w: a full compaction that keeps retractions", ErrInvalid)
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	res := &CompactResult{}
	fail := func(err error) (*CompactResult, error) {
		ctx := context.WithoutCancel(ctx)
		return nil, errors.Join(err, removeWritten(ctx, &o, res.Written), removeWritten(ctx, &o, res.Changelog))
	}
	for _, st := range steps {
		var before []manifest.DataFileMeta
		rewrite := st.Upgrade == nil
		if rewrite {
			before = st.rewriteFiles()
		} else {
			before = []manifest.DataFileMeta{*st.Upgrade}
		}
		written, changelog, err := rewriteFullChangelog(ctx, before, maxLevel, rewrite, &o)
		res.Changelog = append(res.Changelog, changelog...)
		if err != nil {
			return fail(err)
		}
		res.Before = append(res.Before, before...)
		if !rewrite {
			up := *st.Upgrade
			up.Level = int32(outputLevel)
			res.After = append(res.After, up)
			continue
		}
		res.After = append(res.After, written...)
		res.Written = append(res.Written, written...)
	}
	return res, nil
}

// rewriteFullChangelog merges files into new files at maxLevel (when
// rewrite; retractions dropped) and into changelog files at maxLevel
// (Java ChangelogMergeTreeRewriter.rewriteOrProduceChangelog). The
// changelog files are returned also on error, for removal.
func rewriteFullChangelog(ctx context.Context, files []manifest.DataFileMeta, maxLevel int, rewrite bool, o *CompactOptions) (written, changelog []manifest.DataFileMeta, err error) {
	var dw *datafile.Writer
	if rewrite {
		if dw, err = o.newWriter(datafile.KeyValue{Level: int32(maxLevel), Source: manifest.FileSourceCompact}); err != nil {
			return nil, nil, err
		}
	}
	cw, err := o.newWriter(datafile.KeyValue{Level: int32(maxLevel), Changelog: true, Source: manifest.FileSourceAppend})
	if err != nil {
		if dw != nil {
			err = errors.Join(err, dw.Abort(context.WithoutCancel(ctx)))
		}
		return nil, nil, err
	}
	abort := func(err error) ([]manifest.DataFileMeta, []manifest.DataFileMeta, error) {
		errs := []error{err, cw.Abort(context.WithoutCancel(ctx))}
		if dw != nil {
			errs = append(errs, dw.Abort(context.WithoutCancel(ctx)))
		}
		return nil, nil, errors.Join(errs...)
	}
	var werr error
	writeData := func(rec arrow.RecordBatch) bool {
		if dw == nil {
			return true
		}
		werr = writeAdds(ctx, dw, rec, o.Allocator)
		return werr == nil
	}
	ro := o.Options
	ro.KeyValues = true
	r, err := newReader(o.Open, &ro, func(rec arrow.RecordBatch, _ error) bool {
		defer rec.Release()
		return writeData(rec)
	})
	if err != nil {
		return abort(err)
	}
	defer r.out.release()
	cl, err := newOutput(o.Schema, &ro, func(rec arrow.RecordBatch, _ error) bool {
		defer rec.Release()
		werr = cw.Write(ctx, rec)
		return werr == nil
	})
	if err != nil {
		return abort(err)
	}
	defer cl.release()
	fc := &fullChangelog{r: r, cl: cl, maxLevel: int32(maxLevel), data: rewrite}
	err = fc.run(ctx, files)
	if errors.Is(err, errStopped) {
		err = werr
	}
	if err != nil {
		return abort(err)
	}
	if dw != nil {
		if written, err = dw.Close(ctx); err != nil {
			return abort(err)
		}
	}
	if changelog, err = cw.Close(ctx); err != nil {
		errs := []error{err, cw.Abort(context.WithoutCancel(ctx))}
		if len(written) > 0 {
			errs = append(errs, removeWritten(context.WithoutCancel(ctx), o, written))
		}
		return nil, nil, errors.Join(errs...)
	}
	return written, changelog, nil
}

// fullChangelog is the merge of a full compaction that writes changelog
// (Java FullChangelogMergeFunctionWrapper driven by SortMergeReader): the
// reader's output takes the merged rows, cl the changelog rows.
type fullChangelog struct {
	r        *reader
	cl       *output
	maxLevel int32
	data     bool // write the merged rows (false for an upgraded file)
	vals     []any
}

func (fc *fullChangelog) run(ctx context.Context, files []manifest.DataFileMeta) error {
	sections, err := Sections(files, fc.r.keyCmp)
	if err != nil {
		return err
	}
	for _, sec := range sections {
		if len(sec) == 1 {
			err = fc.passSection(ctx, sec[0])
		} else {
			err = fc.mergeSection(ctx, sec)
		}
		if err != nil {
			return err
		}
	}
	if fc.data {
		if err := fc.r.out.flush(); err != nil {
			return err
		}
	}
	return fc.cl.flush()
}

// passSection handles a section of one sorted run: each key has one
// version, which passes unchanged and is inserted into the changelog
// unless it is at the highest level already or retracts.
func (fc *fullChangelog) passSection(ctx context.Context, run []manifest.DataFileMeta) error {
	c := fc.r.openRun(ctx, 0, run)
	defer c.close()
	for {
		ok, err := c.load(ctx)
		if err != nil || !ok {
			return err
		}
		if fc.data {
			if err := fc.r.out.pass(c.rec); err != nil {
				return err
			}
		}
		if c.file.Level == fc.maxLevel {
			continue
		}
		for row := 0; row < c.n; row++ {
			if !c.kindAt(row).IsRetract() {
				if err := fc.changelogRow(c, row, data.Insert); err != nil {
					return err
				}
			}
		}
	}
}

// mergeSection merges the sorted runs of a section with the reader's heap,
// as reader.mergeSection does, handing every key to mergeKey.
func (fc *fullChangelog) mergeSection(ctx context.Context, runs [][]manifest.DataFileMeta) error {
	r := fc.r
	cursors, err := r.openSection(ctx, runs)
	defer closeCursors(cursors)
	if err != nil {
		return err
	}
	for len(r.heap.items) > 0 {
		r.popGroup()
		if err := fc.mergeKey(r.versions); err != nil {
			return err
		}
		if err := r.advanceGroup(ctx); err != nil {
			return err
		}
	}
	return nil
}

// mergeKey merges the versions of one key, in merge order, into the
// merged output and the changelog.
func (fc *fullChangelog) mergeKey(group []version) error {
	var top *version
	for i := range group {
		if group[i].c.file.Level == fc.maxLevel {
			if top != nil {
				return fmt.Errorf("%w: a key has two versions at the highest level %d (data files %s and %s)",
					ErrCorrupt, fc.maxLevel, top.c.file.FileName, group[i].c.file.FileName)
			}
			top = &group[i]
		}
	}
	if len(group) == 1 {
		v := group[0]
		if fc.data {
			if err := fc.r.emitLone(v.c, v.row); err != nil {
				return err
			}
		}
		if top == nil && !v.c.kindAt(v.row).IsRetract() {
			return fc.changelogRow(v.c, v.row, data.Insert)
		}
		return nil
	}
	r := fc.r
	if err := r.addVersions(group); err != nil {
		return err
	}
	fn := r.fn
	// The merged result is either a version (a Selector's choice) or a row
	// the merge function computed; nil means the key has no row, which
	// counts as a retraction.
	var sel *version
	var res *mergefunc.Row
	if r.sel != nil {
		i := r.sel.Selected()
		if i >= len(group) {
			return fmt.Errorf("%w: merge function selected version %d of %d", ErrInvalid, i, len(group))
		}
		if i >= 0 {
			sel = &group[i]
		}
	} else {
		var err error
		if res, err = fn.Result(); err != nil {
			return fmt.Errorf("mergetree: merging a key of data file %s: %w", group[0].c.file.FileName, err)
		}
	}
	adds := (sel != nil && !sel.c.kindAt(sel.row).IsRetract()) || (res != nil && !res.Kind.IsRetract())
	if fc.data {
		switch {
		case sel != nil:
			if err := r.emitLone(sel.c, sel.row); err != nil {
				return err
			}
		case res != nil:
			if err := r.out.appendRow(res); err != nil {
				return err
			}
		}
	}
	after := func(kind data.RowKind) error {
		if sel != nil {
			return fc.changelogRow(sel.c, sel.row, kind)
		}
		cr := *res
		cr.Kind = kind
		return fc.cl.appendRow(&cr)
	}
	switch {
	case top == nil:
		if adds {
			return after(data.Insert)
		}
	case !adds:
		return fc.changelogRow(top.c, top.row, data.Delete)
	default:
		if err := fc.changelogRow(top.c, top.row, data.UpdateBefore); err != nil {
			return err
		}
		return after(data.UpdateAfter)
	}
	return nil
}

// changelogRow appends a row of c's current batch to the changelog with
// the given kind and the row's own sequence number.
func (fc *fullChangelog) changelogRow(c *runCursor, row int, kind data.RowKind) error {
	vals, err := c.values(row, fc.vals)
	if err != nil {
		return err
	}
	fc.vals = vals
	return fc.cl.appendRow(&mergefunc.Row{Seq: c.seq[row], Kind: kind, Values: vals})
}

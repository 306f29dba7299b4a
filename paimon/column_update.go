package paimon

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// ErrInvalidUpdate reports a column update that does not fit the table's
// rows: a _ROW_ID no live file holds, or one given twice.
var ErrInvalidUpdate = errors.New("paimon: invalid column update")

// Column updates of data-evolution tables (row-tracking.enabled and
// data-evolution.enabled): new values for some columns of existing rows,
// addressed by _ROW_ID, written without rewriting the other columns. This
// is pypaimon's TableUpdateByRowId (write_builder.new_update()
// .with_update_type(columns).update_by_arrow_with_row_id(batch)), the
// writer side of what Java's DataEvolutionSplitRead reads:
//
//   - the rows of a data-evolution table are grouped by row-id range: the
//     data files of a group all cover the same row ids, and each column of
//     a row comes from the newest file of its group that wrote it
//     (_WRITE_COLS, largest _MAX_SEQUENCE_NUMBER);
//   - an update writes, for every group it touches, ONE file holding the
//     updated columns for the group's whole range (_FIRST_ROW_ID = the
//     group's, _WRITE_COLS = the columns in table order, the row count of
//     the group): updated rows get the new values, the others their current
//     values, read through the data-evolution reader at the update's base
//     snapshot. Java requires the data files of a group to cover the same
//     rows (ConflictDetection.checkRowIdRangeConflicts and its reader), so
//     a file covering part of a group is never written;
//   - the files' rows are numbered from 0 and the commit stamps them with
//     its snapshot id (row_tracking_commit.go), which makes them the
//     newest files of their groups; their first row ids are kept;
//   - each message carries the base snapshot (CheckFromSnapshot, Java's
//     rowIdCheckConflict / pypaimon's check_from_snapshot): the commit
//     fails with ErrCommitConflict when a snapshot after it, other than a
//     compaction, added files over the same row ids (a concurrent update
//     would otherwise be silently undone), or when the groups no longer
//     line up with the files (a concurrent compaction).
//
// Refused, with ErrUnsupported before any file is written: tables without
// data evolution, deletion vectors (the reader would drop deleted rows
// from the group's range), partition keys and BLOB columns as updated
// columns.
type ColumnUpdate struct {
	t       *Table
	ts      *schema.TableSchema
	fields  []schema.DataField // updated columns, table order
	names   []string
	mem     memory.Allocator
	now     func() time.Time
	base    *snapshot.Snapshot
	groups  []updateGroup // by first row id
	schema  *arrow.Schema // _ROW_ID, then fields
	batches []arrow.RecordBatch
	closed  bool
}

// updateGroup is one row-id group of the base snapshot: its range and the
// split of its files.
type updateGroup struct {
	first, count int64
	split        Split
}

// ColumnUpdateOptions configures a ColumnUpdate; nil means defaults.
type ColumnUpdateOptions struct {
	// Allocator allocates the buffers of merged columns and reads; nil
	// means memory.DefaultAllocator.
	Allocator memory.Allocator
	// Now is the clock of the files' creation times; nil means time.Now.
	Now func() time.Time
}

// NewColumnUpdate prepares an update of the named columns of existing rows,
// computed against the table's latest snapshot. Batches given to Update
// carry _ROW_ID (BIGINT, no NULL) and the named columns, by name.
func (t *Table) NewColumnUpdate(ctx context.Context, columns []string, opts *ColumnUpdateOptions) (*ColumnUpdate, error) {
	if opts == nil {
		opts = &ColumnUpdateOptions{}
	}
	ts := t.schema
	if err := checkOptions(ts, coreoptions.Write, t.name()); err != nil {
		return nil, err
	}
	o := tableOptions(ts.Options)
	if !o.boolean(optRowTracking, false) || !o.boolean(optDataEvolution, false) {
		return nil, fmt.Errorf("%w: column updates of table %s, which does not set %s and %s", ErrUnsupported, t.name(), optRowTracking, optDataEvolution)
	}
	if o.deletionVectors() {
		return nil, fmt.Errorf("%w: column updates of table %s with deletion vectors", ErrUnsupported, t.name())
	}
	if len(columns) == 0 {
		return nil, fmt.Errorf("%w: no column to update", ErrInvalidUpdate)
	}
	want := map[string]bool{}
	for _, c := range columns {
		if want[c] {
			return nil, fmt.Errorf("%w: column %q named twice", ErrInvalidUpdate, c)
		}
		want[c] = true
		f, ok := ts.FieldByName(c)
		switch {
		case !ok:
			return nil, fmt.Errorf("%w: table %s has no column %q", ErrInvalidUpdate, t.name(), c)
		case slices.Contains(ts.PartitionKeys, c):
			return nil, fmt.Errorf("%w: updating partition key %q", ErrUnsupported, c)
		case containsBlob(f.Type):
			return nil, fmt.Errorf("%w: updating BLOB column %q", ErrUnsupported, c)
		}
	}
	u := &ColumnUpdate{t: t, ts: ts, mem: opts.Allocator, now: opts.Now}
	if u.mem == nil {
		u.mem = memory.DefaultAllocator
	}
	if u.now == nil {
		u.now = time.Now
	}
	for _, f := range ts.Fields {
		if want[f.Name] {
			u.fields = append(u.fields, f)
			u.names = append(u.names, f.Name)
		}
	}
	sc, err := schema.ToArrowSchema(append([]schema.DataField{rowIDField}, u.fields...))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	u.schema = sc
	// Refuse what the file writer cannot write now, not at PrepareCommit.
	probe, err := datafile.NewWriter(u.fileOptions(""))
	if err != nil {
		if errors.Is(err, datafile.ErrUnsupported) {
			return nil, fromInternal(ErrUnsupported, datafile.ErrUnsupported, err)
		}
		return nil, fromInternal(ErrInvalidOption, datafile.ErrInvalid, err)
	}
	_ = probe.Abort(ctx)
	if u.base, err = latestSnapshotOf(ctx, t.meta); err != nil {
		return nil, err
	}
	if u.base != nil {
		if err := u.loadGroups(ctx); err != nil {
			return nil, err
		}
	}
	return u, nil
}

func containsBlob(t schema.DataType) bool {
	if t.Root == schema.Blob {
		return true
	}
	for _, c := range []*schema.DataType{t.Element, t.Key, t.Value} {
		if c != nil && containsBlob(*c) {
			return true
		}
	}
	for _, f := range t.Fields {
		if containsBlob(f.Type) {
			return true
		}
	}
	return false
}

// loadGroups plans the base snapshot and lists its row-id groups.
func (u *ColumnUpdate) loadGroups(ctx context.Context) error {
	plan, err := u.t.NewScan(WithSnapshotID(u.base.ID)).Plan(ctx)
	if err != nil {
		return err
	}
	for _, sp := range plan.Splits {
		groups, err := evolutionGroups(sp.Files)
		if err != nil {
			return err
		}
		for _, g := range groups {
			var anchor *manifest.DataFileMeta
			files := make([]manifest.DataFileMeta, len(g))
			for i, f := range g {
				files[i] = *f
				if anchor == nil && !isBlobFile(f.FileName) {
					anchor = f
				}
			}
			if anchor == nil {
				return fmt.Errorf("%w: row ids %d.. of table %s are held by BLOB files only", ErrCorrupt, *g[0].FirstRowID, u.t.name())
			}
			proto := sp
			proto.Files = files
			proto.DeletionFiles = nil
			u.groups = append(u.groups, updateGroup{first: *anchor.FirstRowID, count: anchor.RowCount, split: proto})
		}
	}
	slices.SortFunc(u.groups, func(a, b updateGroup) int { return cmp.Compare(a.first, b.first) })
	return nil
}

// ArrowSchema is the schema of the batches Update takes: _ROW_ID, then the
// updated columns in table order (Update matches columns by name).
func (u *ColumnUpdate) ArrowSchema() *arrow.Schema { return u.schema }

// BaseSnapshot is the snapshot the update reads current values from, nil
// for an empty table (where every row id is refused).
func (u *ColumnUpdate) BaseSnapshot() *snapshot.Snapshot { return u.base }

// groupOf returns the index of the group holding row id, or -1.
func (u *ColumnUpdate) groupOf(id int64) int {
	i, found := slices.BinarySearchFunc(u.groups, id, func(g updateGroup, id int64) int { return cmp.Compare(g.first, id) })
	if !found {
		i--
	}
	if i < 0 || id >= u.groups[i].first+u.groups[i].count {
		return -1
	}
	return i
}

// Update takes new values: rec has a _ROW_ID column and one column per
// updated column (by name, any order, the Arrow types of ArrowSchema).
// A row id no live file of the base snapshot holds fails with
// ErrInvalidUpdate, a batch of another shape with ErrSchemaMismatch, both
// before anything is kept. rec is retained until PrepareCommit or Close.
func (u *ColumnUpdate) Update(ctx context.Context, rec arrow.RecordBatch) error {
	if u.closed {
		return fmt.Errorf("paimon: update on a closed column update")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if int(rec.NumCols()) != u.schema.NumFields() {
		return fmt.Errorf("%w: batch has %d columns, the update takes %d (_ROW_ID and %v)", ErrSchemaMismatch, rec.NumCols(), u.schema.NumFields(), u.names)
	}
	cols := make([]arrow.Array, u.schema.NumFields())
	for i, f := range u.schema.Fields() {
		idx := rec.Schema().FieldIndices(f.Name)
		if len(idx) != 1 {
			return fmt.Errorf("%w: batch has %d columns named %q, want 1", ErrSchemaMismatch, len(idx), f.Name)
		}
		c := rec.Column(idx[0])
		if !arrow.TypeEqual(c.DataType(), f.Type) {
			return fmt.Errorf("%w: column %q has Arrow type %s, the update needs %s", ErrSchemaMismatch, f.Name, c.DataType(), f.Type)
		}
		cols[i] = c
	}
	ids := cols[0].(*array.Int64)
	if ids.NullN() > 0 {
		return fmt.Errorf("%w: %s has %d NULLs", ErrInvalidUpdate, rowIDFieldName, ids.NullN())
	}
	for i, f := range u.fields {
		if err := checkNotNull(cols[i+1], f.Name, f.Type); err != nil {
			return err
		}
	}
	for i := 0; i < ids.Len(); i++ {
		if u.groupOf(ids.Value(i)) < 0 {
			return fmt.Errorf("%w: no row of table %s has %s %d (snapshot %s)", ErrInvalidUpdate, u.t.name(), rowIDFieldName, ids.Value(i), u.baseName())
		}
	}
	if rec.NumRows() == 0 {
		return nil
	}
	u.batches = append(u.batches, array.NewRecordBatch(u.schema, cols, rec.NumRows()))
	return nil
}

func (u *ColumnUpdate) baseName() string {
	if u.base == nil {
		return "none: the table is empty"
	}
	return fmt.Sprint(u.base.ID)
}

// fileOptions are the options of the file of one group: the updated
// columns only, rows numbered from 0 (the commit stamps them), never
// rolled.
func (u *ColumnUpdate) fileOptions(dir string) datafile.Options {
	ts := *u.ts
	ts.Fields = u.fields
	ts.PartitionKeys, ts.PrimaryKeys = nil, nil
	return datafile.Options{
		FS: u.t.meta.fsys, Dir: dir, Schema: &ts, Allocator: u.mem, Now: u.now,
		SequencePerFile: true, TargetFileSize: math.MaxInt64, Workers: 1,
	}
}

// PrepareCommit writes one file per row-id group the updates touch and
// returns their commit messages, to commit with a TableCommit of the same
// table. Row ids given twice fail with ErrInvalidUpdate before any file is
// written. The update is finished afterwards.
func (u *ColumnUpdate) PrepareCommit(ctx context.Context) ([]CommitMessage, error) {
	if u.closed {
		return nil, fmt.Errorf("paimon: prepare commit on a closed column update")
	}
	defer u.release()
	u.closed = true
	if len(u.batches) == 0 {
		return nil, nil
	}
	// All updates as one batch: row ids and the new values.
	all, err := concatBatches(u.schema, u.batches, u.mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	ids := all.Column(0).(*array.Int64)
	order := make([]int, ids.Len())
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ids.Value(a), ids.Value(b)) })
	for i := 1; i < len(order); i++ {
		if ids.Value(order[i]) == ids.Value(order[i-1]) {
			return nil, fmt.Errorf("%w: %s %d is updated twice", ErrInvalidUpdate, rowIDFieldName, ids.Value(order[i]))
		}
	}
	var msgs []CommitMessage
	fail := func(err error) ([]CommitMessage, error) {
		u.removeFiles(context.WithoutCancel(ctx), msgs)
		return nil, err
	}
	for lo := 0; lo < len(order); {
		g := u.groupOf(ids.Value(order[lo]))
		grp := &u.groups[g]
		hi := lo
		for hi < len(order) && ids.Value(order[hi]) < grp.first+grp.count {
			hi++
		}
		meta, err := u.writeGroup(ctx, grp, all, order[lo:hi])
		if err != nil {
			return fail(err)
		}
		msgs = append(msgs, CommitMessage{Partition: grp.split.Partition, Bucket: grp.split.Bucket,
			TotalBuckets: grp.split.TotalBuckets, NewFiles: []manifest.DataFileMeta{meta}, CheckFromSnapshot: u.base.ID})
		lo = hi
	}
	return msgs, nil
}

// writeGroup writes the file of one group: the current values of the
// updated columns with the rows at positions upd (of all, ascending row
// ids) replaced.
func (u *ColumnUpdate) writeGroup(ctx context.Context, grp *updateGroup, all arrow.RecordBatch, upd []int) (manifest.DataFileMeta, error) {
	w, err := datafile.NewWriter(u.fileOptions(u.t.meta.Path(grp.split.BucketPath)))
	if err != nil {
		return manifest.DataFileMeta{}, err
	}
	ok := false
	defer func() {
		if !ok {
			_ = w.Abort(context.WithoutCancel(ctx))
		}
	}()
	cols := append(slices.Clone(u.names), rowIDFieldName)
	scan := u.t.NewScan(WithSnapshotID(u.base.ID), WithColumns(cols...), WithAllocator(u.mem))
	ids := all.Column(0).(*array.Int64)
	next := grp.first
	j := 0 // next update of upd
	for rec, err := range scan.ReadSplits(ctx, grp.split) {
		if err != nil {
			return manifest.DataFileMeta{}, err
		}
		err := func() error {
			defer rec.Release()
			n := rec.NumRows()
			rids := rec.Column(len(u.names)).(*array.Int64)
			for i := 0; i < int(n); i++ {
				if rids.IsNull(i) || rids.Value(i) != next+int64(i) {
					return fmt.Errorf("%w: the rows of row ids %d..%d of table %s do not read back in order (at row id %d)",
						ErrCorrupt, grp.first, grp.first+grp.count-1, u.t.name(), next+int64(i))
				}
			}
			var at []int
			for j < len(upd) && ids.Value(upd[j]) < next+n {
				at = append(at, upd[j])
				j++
			}
			out, err := u.merge(rec, all, at, next)
			if err != nil {
				return err
			}
			defer out.Release()
			next += n
			return w.Write(ctx, out)
		}()
		if err != nil {
			return manifest.DataFileMeta{}, err
		}
	}
	if next != grp.first+grp.count || j != len(upd) {
		return manifest.DataFileMeta{}, fmt.Errorf("%w: row ids %d..%d of table %s read back %d rows",
			ErrCorrupt, grp.first, grp.first+grp.count-1, u.t.name(), next-grp.first)
	}
	metas, err := w.Close(ctx)
	if err != nil {
		return manifest.DataFileMeta{}, err
	}
	if len(metas) != 1 || metas[0].RowCount != grp.count {
		return manifest.DataFileMeta{}, fmt.Errorf("paimon: column update of row ids %d..%d wrote %d files", grp.first, grp.first+grp.count-1, len(metas))
	}
	meta := metas[0]
	first := grp.first
	meta.FirstRowID = &first
	meta.WriteCols = slices.Clone(u.names)
	ok = true
	return meta, nil
}

// merge returns the updated columns of rec (rows from row id lo on) with
// the rows of all at positions at replaced, in the file writer's schema.
func (u *ColumnUpdate) merge(rec, all arrow.RecordBatch, at []int, lo int64) (arrow.RecordBatch, error) {
	n := int(rec.NumRows())
	k := len(u.names)
	fields := make([]arrow.Field, k)
	for i := range fields {
		fields[i] = u.schema.Field(i + 1)
	}
	sc := arrow.NewSchema(fields, nil)
	out := make([]arrow.Array, k)
	defer func() {
		for _, a := range out {
			if a != nil {
				a.Release()
			}
		}
	}()
	if len(at) == 0 {
		for i := 0; i < k; i++ {
			out[i] = rec.Column(i)
			out[i].Retain()
		}
		return array.NewRecordBatch(sc, out, int64(n)), nil
	}
	ids := all.Column(0).(*array.Int64)
	// take indices: a row of rec, or n + its update's position in at.
	pick := array.NewInt64Builder(u.mem)
	defer pick.Release()
	src := array.NewInt64Builder(u.mem)
	defer src.Release()
	for _, p := range at {
		src.Append(int64(p))
	}
	srcIdx := src.NewArray()
	defer srcIdx.Release()
	next := 0
	for i := 0; i < n; i++ {
		if next < len(at) && ids.Value(at[next]) == lo+int64(i) {
			pick.Append(int64(n + next))
			next++
		} else {
			pick.Append(int64(i))
		}
	}
	pickIdx := pick.NewArray()
	defer pickIdx.Release()
	for i := 0; i < k; i++ {
		newVals, err := takeArray(all.Column(i+1), srcIdx, u.mem)
		if err != nil {
			return nil, err
		}
		both, err := array.Concatenate([]arrow.Array{rec.Column(i), newVals}, u.mem)
		newVals.Release()
		if err != nil {
			return nil, err
		}
		out[i], err = takeArray(both, pickIdx, u.mem)
		both.Release()
		if err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(sc, out, int64(n)), nil
}

// concatBatches joins batches of one schema into one.
func concatBatches(sc *arrow.Schema, batches []arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, sc.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	var rows int64
	for _, b := range batches {
		rows += b.NumRows()
	}
	for i := range cols {
		parts := make([]arrow.Array, len(batches))
		for j, b := range batches {
			parts[j] = b.Column(i)
		}
		c, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, fmt.Errorf("paimon: column update: %w", err)
		}
		cols[i] = c
	}
	return array.NewRecordBatch(sc, cols, rows), nil
}

// removeFiles removes the files of messages prepared before a failure.
func (u *ColumnUpdate) removeFiles(ctx context.Context, msgs []CommitMessage) {
	for _, m := range msgs {
		for _, g := range u.groups {
			if string(g.split.Partition) != string(m.Partition) || g.split.Bucket != m.Bucket {
				continue
			}
			for _, f := range m.NewFiles {
				_ = u.t.meta.fsys.Remove(ctx, u.t.meta.Path(g.split.BucketPath, f.FileName))
			}
			break
		}
	}
}

func (u *ColumnUpdate) release() {
	for _, b := range u.batches {
		b.Release()
	}
	u.batches = nil
}

// Close drops the updates not prepared. Files handed out by PrepareCommit
// are the committer's.
func (u *ColumnUpdate) Close(context.Context) error {
	u.closed = true
	u.release()
	return nil
}

// checkRowIDMessages is the commit's check of column updates (Java
// ConflictDetection.checkForRowIdFromSnapshot and checkRowIdRangeConflicts
// with rowIdCheckFromSnapshot set): when messages carry CheckFromSnapshot,
// no snapshot after the oldest of them, compactions aside, may have added
// files over the row ids of the messages' files that existed at that
// snapshot, and the data files of every row-id group of the changed
// partitions, with the new ones, must still cover the same row ids. Both
// fail with ErrCommitConflict, which is not retried: the update must be
// computed again.
func (c *TableCommit) checkRowIDMessages(ctx context.Context, latest *snapshot.Snapshot, msgs []CommitMessage) error {
	if !c.cfg.dataEvolution || latest == nil {
		return nil
	}
	var from int64
	type span struct{ lo, hi int64 }
	var spans []span
	var added []manifest.ManifestEntry
	changed := map[string]bool{}
	for i := range msgs {
		m := &msgs[i]
		if m.CheckFromSnapshot <= 0 {
			continue
		}
		if from == 0 || m.CheckFromSnapshot < from {
			from = m.CheckFromSnapshot
		}
		changed[string(m.Partition)] = true
		for _, f := range m.NewFiles {
			if f.FirstRowID != nil {
				spans = append(spans, span{*f.FirstRowID, *f.FirstRowID + f.RowCount - 1})
			}
			added = append(added, manifest.ManifestEntry{Kind: manifest.FileKindAdd, Partition: m.Partition, Bucket: m.Bucket,
				TotalBuckets: m.TotalBuckets, File: f})
		}
	}
	if from == 0 {
		return nil
	}
	base, err := c.meta.ReadSnapshot(ctx, from)
	if err != nil {
		return fmt.Errorf("%w: snapshot %d, which a column update was computed from: %w", ErrCommitConflict, from, err)
	}
	if base.NextRowID == nil {
		return fmt.Errorf("%w: snapshot %d, which a column update was computed from, has no next row id", ErrCommitConflict, from)
	}
	for id := from + 1; id <= latest.ID; id++ {
		s := latest
		if id != latest.ID {
			if s, err = c.meta.ReadSnapshot(ctx, id); err != nil {
				return err
			}
		}
		if s.CommitKind == snapshot.CommitCompact {
			continue
		}
		metas, err := c.meta.DeltaManifests(ctx, s)
		if err != nil {
			return err
		}
		for i := range metas {
			entries, err := c.meta.ReadListedManifest(ctx, &metas[i])
			if err != nil {
				return err
			}
			for _, e := range entries {
				f := &e.File
				if !changed[string(e.Partition)] || f.FirstRowID == nil || *f.FirstRowID >= *base.NextRowID {
					continue
				}
				lo, hi := *f.FirstRowID, *f.FirstRowID+f.RowCount-1
				for _, sp := range spans {
					if lo <= sp.hi && sp.lo <= hi {
						return fmt.Errorf("%w: snapshot %d changed row ids %d..%d, which this column update (computed from snapshot %d) also updates",
							ErrCommitConflict, s.ID, lo, hi, from)
					}
				}
			}
		}
	}
	live, err := c.liveEntries(ctx, latest, func(p []byte) (bool, error) { return changed[string(p)], nil })
	if err != nil {
		return err
	}
	var withRows []manifest.ManifestEntry
	for _, e := range append(live, added...) {
		if e.File.FirstRowID != nil {
			withRows = append(withRows, e)
		}
	}
	groups, err := groupByRowIDRange(withRows, func(e manifest.ManifestEntry) *manifest.DataFileMeta { return &e.File })
	if err != nil {
		return err
	}
	for _, g := range groups {
		var first *manifest.DataFileMeta
		for i := range g {
			f := &g[i].File
			if isBlobFile(f.FileName) {
				continue
			}
			if first == nil {
				first = f
				continue
			}
			if *f.FirstRowID != *first.FirstRowID || f.RowCount != first.RowCount {
				return fmt.Errorf("%w: data files %s and %s of a data-evolution table no longer cover the same row ids (a concurrent compaction?)",
					ErrCommitConflict, first.FileName, f.FileName)
			}
		}
	}
	return nil
}

package paimon

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Data evolution (Java CoreOptions data-evolution.enabled, on top of row
// tracking): a writer may update some columns of existing rows by adding a
// file that holds only those columns (_WRITE_COLS) for the same row ids
// (_FIRST_ROW_ID and row count). A row is then spread over the files whose
// row-id ranges cover it, and each column comes from the newest file
// (largest _MAX_SEQUENCE_NUMBER) that wrote it; a column no file wrote is
// NULL. This file mirrors Java's DataEvolutionSplitGenerator (splits keep
// each row-id range whole), DataEvolutionFileStoreScan.pruneByReadType
// (files that hold none of the read columns are not read; 2.0.0's rules)
// and DataEvolutionSplitRead (files grouped by row-id range, newest file
// first, columns zipped by position).
//
// Statistics of a partial-column file describe only its columns, so a
// data-evolution table is never pruned file by file by value statistics
// (Java prunes whole row-id groups with merged statistics; not pruning is
// equally correct, only slower). Deletion vectors (Java 2.0.0; 1.4.2
// refuses them on such tables) hang on each row-id group's anchor file,
// positions counted from the group's first row id. BLOB columns live in .blob files
// (format/blobfile) whose row-id ranges split a data file's (they roll by
// size); each column's BLOB files are read one after the other as one
// member of the group (fieldBunches).

// blobFileSuffix ends the names of BLOB files (Java BlobFileFormat.isBlobFile).
const blobFileSuffix = ".blob"

func isBlobFile(name string) bool { return strings.HasSuffix(name, blobFileSuffix) }

// rowIDRange is the inclusive range of row ids a file holds.
func rowIDRange(f *manifest.DataFileMeta) (from, to int64, err error) {
	if f.FirstRowID == nil {
		return 0, 0, fmt.Errorf("%w: data file %s of a data-evolution table has no first row id", ErrCorrupt, f.FileName)
	}
	return *f.FirstRowID, *f.FirstRowID + f.RowCount - 1, nil
}

// groupByRowIDRange groups items whose row-id ranges overlap, groups in
// order of their first row id and items of a group in input order (Java
// RangeHelper.mergeOverlappingRanges).
func groupByRowIDRange[T any](items []T, file func(T) *manifest.DataFileMeta) ([][]T, error) {
	type ranged struct {
		from, to int64
		i        int
	}
	rs := make([]ranged, len(items))
	for i, it := range items {
		from, to, err := rowIDRange(file(it))
		if err != nil {
			return nil, err
		}
		rs[i] = ranged{from, to, i}
	}
	slices.SortStableFunc(rs, func(a, b ranged) int {
		if c := cmp.Compare(a.from, b.from); c != 0 {
			return c
		}
		return cmp.Compare(a.to, b.to)
	})
	var groups [][]T
	var cur []ranged
	var end int64
	flush := func() {
		slices.SortFunc(cur, func(a, b ranged) int { return cmp.Compare(a.i, b.i) })
		g := make([]T, len(cur))
		for j, r := range cur {
			g[j] = items[r.i]
		}
		groups = append(groups, g)
	}
	for _, r := range rs {
		if len(cur) > 0 && r.from <= end {
			cur = append(cur, r)
			end = max(end, r.to)
			continue
		}
		if len(cur) > 0 {
			flush()
		}
		cur, end = []ranged{r}, r.to
	}
	if len(cur) > 0 {
		flush()
	}
	return groups, nil
}

// evolutionGroups splits the files of a data-evolution split into its
// row-id groups, each ordered as Java's mergeRangesAndSort orders them: data
// files newest first (by maximum sequence number, stable), then BLOB files
// by first row id and newest first. The data files of a group must cover
// the same row ids; anything else is metadata no writer produces.
func evolutionGroups(files []manifest.DataFileMeta) ([][]*manifest.DataFileMeta, error) {
	ptrs := make([]*manifest.DataFileMeta, len(files))
	for i := range files {
		ptrs[i] = &files[i]
	}
	groups, err := groupByRowIDRange(ptrs, func(f *manifest.DataFileMeta) *manifest.DataFileMeta { return f })
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		var data, blobs []*manifest.DataFileMeta
		for _, f := range g {
			if isBlobFile(f.FileName) {
				blobs = append(blobs, f)
			} else {
				data = append(data, f)
			}
		}
		slices.SortStableFunc(data, func(a, b *manifest.DataFileMeta) int {
			return cmp.Compare(b.MaxSequenceNumber, a.MaxSequenceNumber)
		})
		slices.SortStableFunc(blobs, func(a, b *manifest.DataFileMeta) int {
			if c := cmp.Compare(*a.FirstRowID, *b.FirstRowID); c != 0 {
				return c
			}
			return cmp.Compare(b.MaxSequenceNumber, a.MaxSequenceNumber)
		})
		for _, f := range data[min(1, len(data)):] {
			if *f.FirstRowID != *data[0].FirstRowID || f.RowCount != data[0].RowCount {
				return nil, fmt.Errorf("%w: data files %s (row ids %d+%d) and %s (row ids %d+%d) of a data-evolution table overlap without covering the same rows",
					ErrCorrupt, data[0].FileName, *data[0].FirstRowID, data[0].RowCount, f.FileName, *f.FirstRowID, f.RowCount)
			}
		}
		copy(g, data)
		copy(g[len(data):], blobs)
	}
	return groups, nil
}

// evolutionRowCount is the number of rows a data-evolution split returns
// before filters: per row-id group, the rows of its largest data file (Java
// DataSplit.mergedRowCount).
func evolutionRowCount(files []manifest.DataFileMeta) int64 {
	groups, err := evolutionGroups(files)
	if err != nil {
		var n int64
		for i := range files {
			n += files[i].RowCount
		}
		return n
	}
	var n int64
	for _, g := range groups {
		var rows int64
		from, to := int64(-1), int64(-1)
		for _, f := range g {
			if !isBlobFile(f.FileName) {
				rows = max(rows, f.RowCount)
			} else if lo, hi, err := rowIDRange(f); err == nil {
				if from < 0 || lo < from {
					from = lo
				}
				to = max(to, hi)
			}
		}
		if rows == 0 && from >= 0 {
			// A group of BLOB files alone (the read needs no data file):
			// they cover its row ids without gaps.
			rows = to - from + 1
		}
		n += rows
	}
	return n
}

// fileFieldIDs are the ids of the table fields a file holds (the schema it
// was written with, projected to its _WRITE_COLS).
func (st *scanState) fileFieldIDs(ctx context.Context, f *manifest.DataFileMeta) (map[int]bool, error) {
	fs, err := st.schemas.get(ctx, f.SchemaID)
	if err != nil {
		return nil, err
	}
	fields, err := physicalFields(fs, f)
	if err != nil {
		return nil, err
	}
	ids := make(map[int]bool, len(fields))
	for _, fld := range fields {
		if !isRowTrackingField(fld) {
			ids[fld.ID] = true
		}
	}
	return ids, nil
}

// pruneEvolutionFiles drops the files of each row-id group that hold none
// of the columns the scan reads, keeping one file of a group none of whose
// files does (it still yields the group's rows, NULL in those columns).
// Reads of row-tracking columns alone prune nothing. It mirrors Java 2.0.0's
// DataEvolutionFileStoreScan.pruneByReadType; 1.4.2 dropped such a group
// altogether, losing its rows, and matched columns by name.
func (st *scanState) pruneEvolutionFiles(ctx context.Context, entries []*manifest.ManifestEntry) ([]*manifest.ManifestEntry, error) {
	read := map[int]bool{}
	for _, f := range st.readFields {
		if !isRowTrackingField(f) {
			read[f.ID] = true
		}
	}
	if len(read) == 0 {
		return entries, nil
	}
	groups, err := groupByRowIDRange(entries, func(e *manifest.ManifestEntry) *manifest.DataFileMeta { return &e.File })
	if err != nil {
		return nil, err
	}
	out := entries[:0:0]
	for _, g := range groups {
		if len(g) == 1 {
			out = append(out, g[0])
			continue
		}
		n := len(out)
		var anchor *manifest.ManifestEntry
		if st.evolutionDVs {
			// The anchor holds the group's deletion vector (Java 2.0.0
			// pruneByReadType keeps it).
			anchor, _ = evolutionAnchor(g, func(e *manifest.ManifestEntry) *manifest.DataFileMeta { return &e.File })
		}
		for _, e := range g {
			if e == anchor {
				out = append(out, e)
				continue
			}
			ids, err := st.fileFieldIDs(ctx, &e.File)
			if err != nil {
				return nil, &entryError{e, err}
			}
			for id := range read {
				if ids[id] {
					out = append(out, e)
					break
				}
			}
		}
		if len(out) == n {
			// Java keeps the group's first entry, a data file as Java
			// writes them (a data file before its BLOB files); a BLOB
			// file would cover only some of the group's rows.
			keep := g[0]
			for _, e := range g {
				if !isBlobFile(e.File.FileName) {
					keep = e
					break
				}
			}
			out = append(out, keep)
		}
	}
	return out, nil
}

// evolutionSplits packs the files of one partition and bucket of a
// data-evolution table into splits, keeping each row-id group whole (Java
// DataEvolutionSplitGenerator): groups in row-id order, each weighing the
// size of its files and at least openCost. A split is raw convertible when
// every group in it is a single file.
func evolutionSplits(splits []Split, es []*manifest.ManifestEntry, files []manifest.DataFileMeta, proto Split, target, openCost int64) ([]Split, error) {
	groups, err := groupByRowIDRange(es, func(e *manifest.ManifestEntry) *manifest.DataFileMeta { return &e.File })
	if err != nil {
		return nil, err
	}
	// files holds the metadata of es in order; lay it out group by group.
	i := 0
	for _, g := range groups {
		for _, e := range g {
			files[i] = e.File
			i++
		}
	}
	start, weight, raw := 0, int64(0), true
	pos := 0
	for _, g := range groups {
		var w int64
		for _, e := range g {
			w += e.File.FileSize
		}
		w = max(w, openCost)
		if pos > start && weight+w > target {
			sp := proto
			sp.Files = files[start:pos:pos]
			sp.RawConvertible = raw
			splits = append(splits, sp)
			start, weight, raw = pos, 0, true
		}
		weight += w
		raw = raw && len(g) == 1
		pos += len(g)
	}
	proto.Files = files[start:pos:pos]
	proto.RawConvertible = raw
	return append(splits, proto), nil
}

// readEvolutionSplit reads a split of a data-evolution table group by
// group: a group of one file (or a read of no column) as that file, a
// larger group as the union of its files' columns.
func (r *splitReader) readEvolutionSplit(ctx context.Context, sp *Split, dvs map[string]*index.DeletionVector, yield func(arrow.RecordBatch, error) bool) bool {
	groups, err := evolutionGroups(sp.Files)
	if err != nil {
		yield(nil, fmt.Errorf("paimon: %s: %w", r.scan.table.name(), err))
		return false
	}
	for _, g := range groups {
		dv, err := groupDeletionVector(g, dvs)
		if err != nil {
			yield(nil, fmt.Errorf("paimon: %s: %w", r.scan.table.name(), err))
			return false
		}
		var batches iter.Seq2[arrow.RecordBatch, error]
		if len(g) == 1 || len(r.st.readFields) == 0 {
			// g[0] is a data file (data files sort first), whose
			// positions are the anchor's when the group has one.
			batches = r.readFile(ctx, sp, g[0], dv)
		} else {
			batches = r.readUnion(ctx, sp, g, dv)
		}
		for rec, err := range batches {
			if err != nil {
				yield(nil, err)
				return false
			}
			if !r.emit(rec, yield) {
				return false
			}
		}
	}
	return true
}

// readUnion reads one row-id group of several files: each read field comes
// from the first file (newest first) that holds it, the row-tracking fields
// from the first file, and the files' batches are zipped by position (Java
// DataEvolutionFileReader). A field no file holds is NULL.
func (r *splitReader) readUnion(ctx context.Context, sp *Split, group []*manifest.DataFileMeta, dv *index.DeletionVector) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		st := r.st
		fields := st.readFields
		type member struct {
			fields []schema.DataField
			cols   []int // readFields position of each of fields
			next   func() (arrow.RecordBatch, error, bool)
			stop   func()
			cur    arrow.RecordBatch
			off    int64
		}
		from := make([]int, len(fields)) // member of each read field, -1 none
		for j := range from {
			from[j] = -1
		}
		bunches, err := r.st.fieldBunches(ctx, group)
		if err != nil {
			yield(nil, fmt.Errorf("paimon: %s: %w", r.scan.table.name(), err))
			return
		}
		var members []*member
		for _, b := range bunches {
			ids, err := st.fileFieldIDs(ctx, b[0])
			if err != nil {
				yield(nil, fmt.Errorf("paimon: data file %s: %w", b[0].FileName, err))
				return
			}
			m := &member{}
			for j, fld := range fields {
				if from[j] < 0 && (ids[fld.ID] || isRowTrackingField(fld)) {
					from[j] = len(members)
					m.fields = append(m.fields, fld)
					m.cols = append(m.cols, j)
				}
			}
			if len(m.fields) == 0 {
				continue
			}
			m.next, m.stop = iter.Pull2(r.readBunch(ctx, sp, b, m.fields))
			members = append(members, m)
		}
		defer func() {
			for _, m := range members {
				if m.cur != nil {
					m.cur.Release()
				}
				m.stop()
			}
		}()
		for j, fld := range fields {
			if from[j] < 0 && !fld.Type.Nullable {
				yield(nil, fmt.Errorf("%w: NOT NULL column %s is in no file of the row-id group of %s", ErrCorrupt, fld.Name, group[0].FileName))
				return
			}
		}
		target, err := schema.ToArrowSchema(fields)
		if err != nil {
			yield(nil, err)
			return
		}
		var pos int64 // rows of the group zipped so far
		for {
			// Fill every member's current batch; all end together.
			ended := 0
			for _, m := range members {
				for m.cur == nil || m.off == m.cur.NumRows() {
					if m.cur != nil {
						m.cur.Release()
						m.cur = nil
					}
					rec, err, ok := m.next()
					if err != nil {
						yield(nil, err)
						return
					}
					if !ok {
						break
					}
					m.cur, m.off = rec, 0
				}
				if m.cur == nil {
					ended++
				}
			}
			if ended == len(members) {
				return
			}
			if ended > 0 {
				yield(nil, fmt.Errorf("%w: the files of the row-id group of %s hold different numbers of rows", ErrCorrupt, group[0].FileName))
				return
			}
			n := members[0].cur.NumRows() - members[0].off
			for _, m := range members[1:] {
				n = min(n, m.cur.NumRows()-m.off)
			}
			cols := make([]arrow.Array, len(fields))
			for _, m := range members {
				for k, j := range m.cols {
					cols[j] = array.NewSlice(m.cur.Column(k), m.off, m.off+n)
				}
				m.off += n
			}
			for j := range cols {
				if cols[j] == nil {
					cols[j] = array.MakeArrayOfNull(r.mem, target.Field(j).Type, int(n))
				}
			}
			rec := array.NewRecordBatch(target, cols, n)
			for _, c := range cols {
				c.Release()
			}
			if dv != nil {
				// Positions in the group count from its first row id,
				// the anchor's (Java ApplyDeletionVectorReader).
				next, err := dropDeleted(rec, dv, pos, r.mem)
				rec.Release()
				if err != nil {
					yield(nil, err)
					return
				}
				rec = next
			}
			pos += n
			out, err := r.finish(ctx, rec)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(out, nil) {
				return
			}
		}
	}
}

// evolutionAnchor is the anchor file of a row-id group (Java 2.0.0
// DataEvolutionUtils.retrieveAnchorFile): of its data files the one with
// the smallest maximum sequence number, then file name; nil when the group
// has only BLOB files.
func evolutionAnchor[T any](g []T, file func(T) *manifest.DataFileMeta) (T, bool) {
	var anchor T
	var best *manifest.DataFileMeta
	for _, it := range g {
		f := file(it)
		if isBlobFile(f.FileName) {
			continue
		}
		if best == nil || f.MaxSequenceNumber < best.MaxSequenceNumber ||
			(f.MaxSequenceNumber == best.MaxSequenceNumber && f.FileName < best.FileName) {
			anchor, best = it, f
		}
	}
	return anchor, best != nil
}

// groupDeletionVector is the deletion vector of a row-id group: its anchor
// file's, positions counted from the group's first row id (Java 2.0.0
// DataEvolutionSplitRead.readDeletionVector). A vector on another file of
// the group is not Java's layout (Java would ignore it): refused.
func groupDeletionVector(g []*manifest.DataFileMeta, dvs map[string]*index.DeletionVector) (*index.DeletionVector, error) {
	if len(dvs) == 0 {
		return nil, nil
	}
	anchor, ok := evolutionAnchor(g, func(f *manifest.DataFileMeta) *manifest.DataFileMeta { return f })
	for _, f := range g {
		if dvs[f.FileName] != nil && (!ok || f != anchor) {
			return nil, fmt.Errorf("%w: deletion vector on %s, which is not the anchor file of its row-id group (%s with %s)",
				ErrUnsupported, f.FileName, optDataEvolution, optDeletionVectors)
		}
	}
	if !ok {
		return nil, nil
	}
	return dvs[anchor.FileName], nil
}

// readBunch reads fields from the files of a field bunch: a data file
// alone; the BLOB files of one column one after the other when they share
// one maximum sequence number (Java's sequentialReadOptimize); else the
// BLOB files of several writes of the column, each row's value from the
// newest file that holds one (readBlobFallback).
func (r *splitReader) readBunch(ctx context.Context, sp *Split, bunch []*manifest.DataFileMeta, fields []schema.DataField) iter.Seq2[arrow.RecordBatch, error] {
	if len(bunch) > 1 && slices.ContainsFunc(bunch, func(f *manifest.DataFileMeta) bool {
		return f.MaxSequenceNumber != bunch[0].MaxSequenceNumber
	}) {
		return r.readBlobFallback(ctx, sp, bunch, fields)
	}
	return func(yield func(arrow.RecordBatch, error) bool) {
		for _, f := range bunch {
			for rec, err := range r.readFileFields(ctx, sp, f, nil, fields, false) {
				if !yield(rec, err) || err != nil {
					return
				}
			}
		}
	}
}

// fieldBunches splits a row-id group (ordered by evolutionGroups) into the
// bunches its columns are read from, in the order a column is looked up:
// each data file alone, then per BLOB column all its BLOB files, by first
// row id and newest first. It mirrors Java 2.0.0's
// DataEvolutionSplitRead.splitFieldBunches and BlobFileBunch: the files of
// one maximum sequence number (one write) must not overlap, and together
// the files must cover one contiguous range of row ids, the data files' when
// the group has any. Java 1.4.2 (SpecialFieldBunch) read only the newest of
// overlapping files and failed where it covered fewer rows; 2.0.0 falls back
// to older files for rows a newer one does not hold (placeholders and
// gaps), which gives 1.4.2's rows wherever 1.4.2 reads the table.
func (st *scanState) fieldBunches(ctx context.Context, group []*manifest.DataFileMeta) ([][]*manifest.DataFileMeta, error) {
	var out [][]*manifest.DataFileMeta
	blobs := map[int][]*manifest.DataFileMeta{}
	var blobIDs []int
	var data *manifest.DataFileMeta
	for _, f := range group {
		if !isBlobFile(f.FileName) {
			out = append(out, []*manifest.DataFileMeta{f})
			data = f
			continue
		}
		ids, err := st.fileFieldIDs(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("data file %s: %w", f.FileName, err)
		}
		if len(ids) != 1 {
			return nil, fmt.Errorf("%w: BLOB file %s holds %d columns, want one", ErrCorrupt, f.FileName, len(ids))
		}
		var id int
		for k := range ids {
			id = k
		}
		if _, ok := blobs[id]; !ok {
			blobIDs = append(blobIDs, id)
		}
		blobs[id] = append(blobs[id], f)
	}
	slices.Sort(blobIDs)
	for _, id := range blobIDs {
		files := blobs[id]
		if err := checkBlobBunch(files, data); err != nil {
			return nil, err
		}
		out = append(out, files)
	}
	return out, nil
}

// checkBlobBunch checks the BLOB files of one column of a row-id group
// (sorted by first row id, newest first) as Java 2.0.0's BlobFileBunch and
// BlobFallbackRecordReader do: files of one maximum sequence number do not
// overlap, and the files cover one contiguous range of row ids, the data
// file's when there is one.
func checkBlobBunch(files []*manifest.DataFileMeta, data *manifest.DataFileMeta) error {
	lastOfSeq := map[int64]*manifest.DataFileMeta{}
	var from, to int64
	for i, f := range files {
		lo, hi, err := rowIDRange(f)
		if err != nil {
			return err
		}
		if prev := lastOfSeq[f.MaxSequenceNumber]; prev != nil && *prev.FirstRowID+prev.RowCount > lo {
			return fmt.Errorf("%w: BLOB files %s and %s of one write (sequence number %d) overlap in row ids",
				ErrCorrupt, prev.FileName, f.FileName, f.MaxSequenceNumber)
		}
		lastOfSeq[f.MaxSequenceNumber] = f
		switch {
		case i == 0:
			from, to = lo, hi
		case lo > to+1:
			return fmt.Errorf("%w: BLOB file %s starts at row id %d, the files before it end at %d",
				ErrCorrupt, f.FileName, lo, to)
		default:
			to = max(to, hi)
		}
	}
	if data != nil {
		dlo, dhi, err := rowIDRange(data)
		if err != nil {
			return err
		}
		if from != dlo || to != dhi {
			return fmt.Errorf("%w: BLOB files from %s cover row ids %d-%d, their data file %s %d-%d",
				ErrCorrupt, files[0].FileName, from, to, data.FileName, dlo, dhi)
		}
	}
	return nil
}

// splitRows is the number of rows a split holds before deletion vectors and
// filters: its files' row counts, or for a data-evolution table the rows of
// its row-id groups.
func (st *scanState) splitRows(sp *Split) int64 {
	if st.dataEvolution {
		return evolutionRowCount(sp.Files)
	}
	return sp.RowCount()
}

// mergedRows is the number of rows a split returns before filters, when
// that is known without reading it (Java DataSplit.mergedRowCount): the rows
// of a raw-convertible split less those its deletion vectors remove (known
// when every vector records its cardinality), or the rows of a
// data-evolution split's row-id groups.
func (st *scanState) mergedRows(sp *Split) (int64, bool) {
	if sp.RawConvertible {
		var n int64
		known := true
		for i := range sp.Files {
			n += sp.Files[i].RowCount
			if sp.DeletionFiles != nil && sp.DeletionFiles[i] != nil {
				if sp.DeletionFiles[i].Cardinality < 0 {
					known = false
				}
				n -= sp.DeletionFiles[i].Cardinality
			}
		}
		if known {
			return n, true
		}
	}
	if st.dataEvolution && sp.DeletionFiles == nil {
		return evolutionRowCount(sp.Files), true
	}
	return 0, false
}

// checkSplits refuses, before any row is read, planned splits this library
// cannot read correctly: a deletion vector of a data-evolution table on a
// file that is not its row-id group's anchor.
func (st *scanState) checkSplits(splits []Split) error {
	if !st.dataEvolution {
		return nil
	}
	for i := range splits {
		sp := &splits[i]
		if sp.DeletionFiles == nil {
			continue
		}
		groups, err := evolutionGroups(sp.Files)
		if err != nil {
			return err
		}
		dvs := map[string]*index.DeletionVector{}
		for j, df := range sp.DeletionFiles {
			if df != nil {
				dvs[sp.Files[j].FileName] = &index.DeletionVector{}
			}
		}
		for _, g := range groups {
			if _, err := groupDeletionVector(g, dvs); err != nil {
				return err
			}
		}
	}
	return nil
}

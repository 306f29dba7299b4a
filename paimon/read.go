package paimon

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/blobfile"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/evolution"
)

// ErrFormatNotSupported reports a data file in a format this library cannot
// decode (formats other than Parquet, ORC and Avro).
var ErrFormatNotSupported = fmt.Errorf("paimon: data file format not supported: %w", ErrUnsupported)

// readSplits reads splits one after the other, or Workers at a time,
// yielding batches of the output schema. It stops at the scan's limit.
func (s *Scan) readSplits(ctx context.Context, st *scanState, splits []Split, yield func(arrow.RecordBatch, error) bool) {
	if len(splits) > 1 && s.spec.Workers >= 0 {
		units := fileUnits(st, splits)
		if s.spec.Unordered && len(units) > 1 {
			// Largest first, taken by whichever worker is free: the last
			// unit to finish is a small one (longest-processing-time
			// order).
			if len(units) == len(splits) {
				units = slices.Clone(units)
			}
			slices.SortStableFunc(units, func(a, b Split) int { return cmp.Compare(splitBytes(&b), splitBytes(&a)) })
		}
		if workers := s.workers(len(units)); workers > 0 {
			s.readSplitsParallel(ctx, st, units, workers, yield)
			return
		}
	}
	r := &splitReader{scan: s, st: st, mem: s.allocator(), remaining: s.spec.Limit}
	for i := range splits {
		if !r.readSplit(ctx, &splits[i], yield) {
			return
		}
	}
}

// fileUnits cuts the splits whose files are read one after the other (no
// merge, no data evolution, the scanned branch's own) into one split per
// file, in the same order, for the parallel reader: it then balances files,
// not splits. The suite's append table has five splits of two files; read
// split by split on two cores the fifth ran alone, a sixth of the read
// with one core idle. A read of a single split is left whole (a
// compaction's rewrite reads its split so, on one goroutine).
func fileUnits(st *scanState, splits []Split) []Split {
	n := 0
	for i := range splits {
		if cuttable(st, &splits[i]) {
			n += len(splits[i].Files)
		} else {
			n++
		}
	}
	if n == len(splits) {
		return splits
	}
	out := make([]Split, 0, n)
	for i := range splits {
		sp := &splits[i]
		if !cuttable(st, sp) {
			out = append(out, *sp)
			continue
		}
		for j := range sp.Files {
			u := *sp
			u.Files = sp.Files[j : j+1 : j+1]
			if sp.DeletionFiles != nil {
				u.DeletionFiles = sp.DeletionFiles[j : j+1 : j+1]
			}
			out = append(out, u)
		}
	}
	return out
}

// merges reports whether sp's files are read through a primary-key merge
// of their sorted runs rather than one after the other.
func (st *scanState) merges(sp *Split) bool {
	return len(st.schema.PrimaryKeys) > 0 && !sp.RawConvertible
}

// splitBytes is the size of sp's data files.
func splitBytes(sp *Split) int64 {
	var n int64
	for i := range sp.Files {
		n += sp.Files[i].FileSize
	}
	return n
}

// cuttable reports whether fileUnits may read sp's files as splits of
// their own: readSplit reads them one after the other, each on its own.
func cuttable(st *scanState, sp *Split) bool {
	return len(sp.Files) > 1 && sp.Branch == "" && !st.dataEvolution &&
		!st.merges(sp) &&
		(sp.DeletionFiles == nil || len(sp.DeletionFiles) == len(sp.Files))
}

// splitReader holds the per-read state shared by the splits of one read.
type splitReader struct {
	scan      *Scan
	st        *scanState
	mem       memory.Allocator
	remaining int64 // rows still allowed by the limit; 0 without limit
	limited   bool
	inBranch  bool // reading a split of the other branch (readBranchSplit)
}

// readSplit reads one split; it returns false when the consumer stopped,
// an error was yielded or the limit was reached.
func (r *splitReader) readSplit(ctx context.Context, sp *Split, yield func(arrow.RecordBatch, error) bool) bool {
	if sp.Branch != "" && !r.inBranch {
		return r.readBranchSplit(ctx, sp, yield)
	}
	var dvs map[string]*index.DeletionVector
	if sp.DeletionFiles != nil {
		var err error
		if dvs, err = r.readDeletionFiles(ctx, sp); err != nil {
			yield(nil, err)
			return false
		}
	}
	if r.st.merges(sp) {
		return r.mergeSplit(ctx, sp, dvs, yield)
	}
	if r.st.dataEvolution {
		return r.readEvolutionSplit(ctx, sp, dvs, yield)
	}
	for i := range sp.Files {
		f := &sp.Files[i]
		if len(r.st.schema.PrimaryKeys) == 0 {
			skip, err := r.readSkipsFile(ctx, sp, f)
			if err != nil {
				yield(nil, err)
				return false
			}
			if skip {
				continue
			}
		}
		ok := true
		for rec, err := range r.readFile(ctx, sp, f, dvs[f.FileName]) {
			if err != nil {
				yield(nil, err)
				return false
			}
			if !r.emit(rec, yield) {
				ok = false
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// emit applies the limit and yields a batch; it owns rec.
func (r *splitReader) emit(rec arrow.RecordBatch, yield func(arrow.RecordBatch, error) bool) bool {
	if rec.NumRows() == 0 {
		rec.Release()
		return true
	}
	if r.scan.spec.Limit > 0 {
		if r.remaining == 0 && !r.limited {
			r.remaining = r.scan.spec.Limit
		}
		r.limited = true
		if rec.NumRows() >= r.remaining {
			out := rec.NewSlice(0, r.remaining)
			rec.Release()
			r.remaining = 0
			yield(out, nil)
			return false
		}
		r.remaining -= rec.NumRows()
	}
	return yield(rec, nil)
}

func (r *splitReader) readDeletionFiles(ctx context.Context, sp *Split) (map[string]*index.DeletionVector, error) {
	out := map[string]*index.DeletionVector{}
	meta := r.scan.table.meta
	for i, df := range sp.DeletionFiles {
		if df == nil {
			continue
		}
		p := meta.Path(df.Path)
		file, err := meta.fsys.Open(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("paimon: deletion vector of %s: %w", sp.Files[i].FileName, err)
		}
		// A range outside the index file: the plan checks the ranges an
		// index manifest records, so this is an index file shorter than
		// its metadata says (or a split built by hand).
		if df.Offset < 0 || df.Offset > math.MaxInt32 || df.Length < 0 || df.Length > math.MaxInt32 || df.Offset+df.Length > file.Size() {
			file.Close()
			return nil, corrupt(p, fmt.Errorf("deletion vector of %s at %d+%d is outside the file's %d bytes",
				sp.Files[i].FileName, df.Offset, df.Length, file.Size()))
		}
		dm := index.DVMeta{DataFile: sp.Files[i].FileName, Offset: int32(df.Offset), Length: int32(df.Length)}
		if df.Cardinality >= 0 {
			c := df.Cardinality
			dm.Cardinality = &c
		}
		dvs, err := index.ReadAll(ctx, file, []index.DVMeta{dm}, nil)
		file.Close()
		if err != nil {
			return nil, corrupt(p, err)
		}
		out[sp.Files[i].FileName] = dvs[sp.Files[i].FileName]
	}
	return out, nil
}

// dataFilePath is where a data file lives relative to the fs root.
func (r *splitReader) dataFilePath(sp *Split, f *manifest.DataFileMeta) (string, error) {
	if f.ExternalPath != nil && *f.ExternalPath != "" {
		return "", fmt.Errorf("%w: data file %s has external path %s", ErrUnsupported, f.FileName, *f.ExternalPath)
	}
	return r.scan.table.meta.Path(sp.BucketPath, f.FileName), nil
}

// fileFormat is the format of a data file, from its extension as Java's
// DataFilePathFactory.formatIdentifier derives it.
func fileFormat(name string) string {
	ext := strings.TrimPrefix(path.Ext(name), ".")
	return strings.ToLower(ext)
}

// batchSource reads batches of the given fields from an open data file.
type batchSource func(ctx context.Context, fields []schema.DataField) iter.Seq2[arrow.RecordBatch, error]

// readFile reads one data file of a raw-convertible split as the scan's
// output batches: the file's columns mapped to readFields, deleted positions
// removed, the residual filter applied and the output columns projected.
func (r *splitReader) readFile(ctx context.Context, sp *Split, f *manifest.DataFileMeta, dv *index.DeletionVector) iter.Seq2[arrow.RecordBatch, error] {
	return r.readFileFields(ctx, sp, f, dv, r.st.readFields, true)
}

// readFileFields reads want (readFields, or the part of them one file of a
// data-evolution group supplies) from one data file through the residual
// filter and the projection when finish is set.
func (r *splitReader) readFileFields(ctx context.Context, sp *Split, f *manifest.DataFileMeta, dv *index.DeletionVector,
	want []schema.DataField, finish bool) iter.Seq2[arrow.RecordBatch, error] {
	fileFields := func(fs *schema.TableSchema, f *manifest.DataFileMeta) ([]schema.DataField, error) {
		fields := fs.Fields
		if r.st.rowTracking {
			var err error
			if fields, err = physicalFields(fs, f); err != nil {
				return nil, err
			}
		}
		if r.st.kindCol >= 0 {
			return append(append([]schema.DataField(nil), fields...), valueKindField), nil
		}
		return fields, nil
	}
	return func(yield func(arrow.RecordBatch, error) bool) {
		// The members of a data-evolution union are read whole: their
		// batches are zipped by position.
		for rec, err := range r.readMapped(ctx, sp, f, dv, want, fileFields, finish) {
			if err != nil {
				yield(nil, err)
				return
			}
			if !finish {
				if !yield(rec, nil) {
					return
				}
				continue
			}
			out, err := r.finish(ctx, rec)
			if err != nil {
				yield(nil, fmt.Errorf("paimon: data file %s: %w", f.FileName, err))
				return
			}
			if !yield(out, nil) {
				return
			}
		}
	}
}

// readMapped reads one data file as batches of want, the file's own fields
// (fileFields of the schema the file was written with and the file) mapped
// to want by field id, with the row-tracking columns completed and the rows
// a deletion vector marks removed. Parquet row groups are pruned by the
// residual filter when prune is set. The consumer owns every batch.
func (r *splitReader) readMapped(ctx context.Context, sp *Split, f *manifest.DataFileMeta, dv *index.DeletionVector,
	want []schema.DataField, fileFields func(*schema.TableSchema, *manifest.DataFileMeta) ([]schema.DataField, error), prune bool) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		p, err := r.dataFilePath(sp, f)
		if err != nil {
			yield(nil, err)
			return
		}
		fileSchema, err := r.st.schemas.get(ctx, f.SchemaID)
		if err != nil {
			yield(nil, fmt.Errorf("paimon: data file %s: %w", p, err))
			return
		}
		physical, err := fileFields(fileSchema, f)
		if err != nil {
			yield(nil, fmt.Errorf("paimon: data file %s: %w", p, err))
			return
		}
		mapping, err := evolution.New(want, physical)
		if err != nil {
			yield(nil, fmt.Errorf("paimon: data file %s (schema %d): %w", p, f.SchemaID, err))
			return
		}
		file, err := r.scan.table.meta.fsys.Open(ctx, p)
		if err != nil {
			yield(nil, fmt.Errorf("paimon: data file %s: %w", p, err))
			return
		}
		defer file.Close()
		// The size the manifest recorded must be the file's: a file
		// replaced by another (a rewrite, a copy from elsewhere) can hold
		// the same number of rows and would read silently. Open already
		// learned the size (a stat, an object's attributes), so this costs
		// no request. Java passes the recorded size to its format readers
		// (FormatReaderContext) instead, which then fail less clearly.
		if f.FileSize != file.Size() {
			yield(nil, corrupt(p, fmt.Errorf("file has %d bytes, manifest says %d", file.Size(), f.FileSize)))
			return
		}
		var fill *rowTrackingFill
		if r.st.rowTracking {
			fill = newRowTrackingFill(want, f)
		}
		var pruned bool
		// Deletion vectors and row ids address file positions, which
		// skipping row groups would shift.
		src, err := r.openFormat(ctx, p, file, file.Size(), f, dv != nil || fill != nil || !prune, &pruned)
		if err != nil {
			yield(nil, err)
			return
		}
		var pos int64
		for rec, err := range src(ctx, mapping.FileFields()) {
			if err != nil {
				yield(nil, formatErr(p, err))
				return
			}
			n := rec.NumRows()
			out, err := applyMapping(rec, mapping, fill, dv, pos, r.mem)
			pos += n
			if err != nil {
				yield(nil, fmt.Errorf("paimon: data file %s: %w", p, err))
				return
			}
			if !yield(out, nil) {
				return
			}
		}
		if f.RowCount != pos && !pruned {
			// Whole-file reads must see every row the manifest counts.
			yield(nil, corrupt(p, fmt.Errorf("file has %d rows, manifest says %d", pos, f.RowCount)))
		}
	}
}

// formatErr maps an error of a file-format decoder: a feature the decoder
// lacks (parquet.ErrUnsupported: a codec; orc.ErrUnsupported: a codec, a
// file version, a column encoding) is ErrUnsupported, never labelled
// corrupt, since the file is well formed; anything else is a CorruptError.
func formatErr(p string, err error) error {
	if errors.Is(err, parquet.ErrUnsupported) || errors.Is(err, orc.ErrUnsupported) || errors.Is(err, blobfile.ErrPlaceholder) {
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return corrupt(p, err)
}

// openFormat opens a data file with the decoder of its format.
//
// Row groups are pruned by the residual filter unless wholeFile is set (a
// deletion vector addresses file positions, which skipping would shift);
// *pruned reports whether any was skipped.
func (r *splitReader) openFormat(ctx context.Context, p string, ra io.ReaderAt, size int64, f *manifest.DataFileMeta, wholeFile bool, pruned *bool) (batchSource, error) {
	batch := r.scan.spec.BatchSize
	switch fileFormat(f.FileName) {
	case "parquet":
		pr, err := parquet.Open(ctx, ra, size, &parquet.ReadOptions{Name: p})
		if err != nil {
			return nil, formatErr(p, err)
		}
		return func(ctx context.Context, fields []schema.DataField) iter.Seq2[arrow.RecordBatch, error] {
			req := &parquet.ReadRequest{BatchSize: batch, Allocator: r.mem}
			if !wholeFile {
				req.RowGroups, *pruned = r.st.selectRowGroups(pr.RowGroups(), fields)
			}
			return pr.Read(ctx, fields, req)
		}, nil
	case "blob":
		// A BLOB file of a data-evolution table (Java BlobFileFormat):
		// one BLOB column, _WRITE_COLS names it.
		br, err := blobfile.Open(ctx, ra, size, &blobfile.ReadOptions{Name: p})
		if err != nil {
			return nil, formatErr(p, err)
		}
		return func(ctx context.Context, fields []schema.DataField) iter.Seq2[arrow.RecordBatch, error] {
			return br.Read(ctx, fields, &blobfile.ReadRequest{BatchSize: batch, Allocator: r.mem})
		}, nil
	case "avro":
		ar, err := avrofile.Open(ctx, ra, size, &avrofile.ReadOptions{Name: p})
		if err != nil {
			return nil, formatErr(p, err)
		}
		return func(ctx context.Context, fields []schema.DataField) iter.Seq2[arrow.RecordBatch, error] {
			return ar.Read(ctx, fields, &avrofile.ReadRequest{BatchSize: batch, Allocator: r.mem})
		}, nil
	case "orc":
		or, err := orc.Open(ctx, ra, size, &orc.ReadOptions{Name: p, TimestampLTZ: r.st.orcLTZMode()})
		if err != nil {
			return nil, formatErr(p, err)
		}
		return func(ctx context.Context, fields []schema.DataField) iter.Seq2[arrow.RecordBatch, error] {
			req := &orc.ReadRequest{BatchSize: batch, Allocator: r.mem}
			if !wholeFile {
				req.Select = r.st.orcSelector(fields, pruned)
			}
			return or.Read(ctx, fields, req)
		}, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrFormatNotSupported, p)
}

// applyMapping maps a batch read from a file to the wanted fields,
// completes the row-tracking columns (fill may be nil) and drops deleted
// rows. It owns rec. pos is the file position of rec's first row.
func applyMapping(rec arrow.RecordBatch, mapping *evolution.Mapping, fill *rowTrackingFill, dv *index.DeletionVector, pos int64, mem memory.Allocator) (arrow.RecordBatch, error) {
	cur, err := mapping.Apply(rec, mem)
	rec.Release()
	if err != nil {
		return nil, err
	}
	if cur, err = fill.apply(cur, pos, mem); err != nil {
		return nil, err
	}
	if dv != nil {
		next, err := dropDeleted(cur, dv, pos, mem)
		cur.Release()
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// finish applies the residual filter to a batch of readFields and projects
// the output columns. It owns rec.
func (r *splitReader) finish(ctx context.Context, cur arrow.RecordBatch) (arrow.RecordBatch, error) {
	if r.st.residual != nil {
		next, err := r.st.residual.Filter(cur, r.mem)
		cur.Release()
		if err != nil {
			return nil, err
		}
		cur = next
	}
	out, err := r.st.projectBatch(cur, r.mem)
	cur.Release()
	if err != nil {
		return nil, err
	}
	return r.resolveDescriptors(ctx, out)
}

// projectBatch selects the output columns of a batch of readFields.
func (st *scanState) projectBatch(rec arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(st.outputs))
	var owned []arrow.Array
	defer func() {
		for _, a := range owned {
			a.Release()
		}
	}()
	for j, oc := range st.outputs {
		if oc.read == rowKindColumn {
			kinds, err := st.rowKinds(rec, mem)
			if err != nil {
				return nil, err
			}
			owned = append(owned, kinds)
			cols[j] = kinds
			continue
		}
		col := rec.Column(oc.read)
		if oc.pruned != nil {
			pruned, err := pruneArray(col, st.readFields[oc.read].Type, *oc.pruned, st.outSchema.Field(j).Type)
			if err != nil {
				return nil, err
			}
			owned = append(owned, pruned)
			col = pruned
		}
		cols[j] = col
	}
	return array.NewRecordBatch(st.outSchema, cols, rec.NumRows()), nil
}

// rowKinds renders the audit log's rowkind column from the _VALUE_KIND
// column, or "+I" for every row of an append table.
func (st *scanState) rowKinds(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	n := int(rec.NumRows())
	b.Reserve(n)
	if st.kindCol < 0 {
		for range n {
			b.Append("+I")
		}
		return b.NewArray(), nil
	}
	if str, ok := rec.Column(st.kindCol).(*array.String); ok {
		str.Retain() // the merge reader's rowkind column
		return str, nil
	}
	kinds, ok := rec.Column(st.kindCol).(*array.Int8)
	if !ok {
		return nil, fmt.Errorf("paimon: _VALUE_KIND column has type %s", rec.Column(st.kindCol).DataType())
	}
	for i := range n {
		k := data.RowKind(kinds.Value(i))
		if kinds.IsNull(i) || k < data.Insert || k > data.Delete {
			return nil, fmt.Errorf("%w: row kind %d", ErrCorrupt, kinds.Value(i))
		}
		b.Append(k.String())
	}
	return b.NewArray(), nil
}

// pruneArray keeps the children of a struct array that a pruned ROW type
// selects, sharing their buffers.
func pruneArray(arr arrow.Array, full, pruned schema.DataType, target arrow.DataType) (arrow.Array, error) {
	d, err := pruneData(arr.Data(), full, pruned, target)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

func pruneData(d arrow.ArrayData, full, pruned schema.DataType, target arrow.DataType) (arrow.ArrayData, error) {
	st, ok := target.(*arrow.StructType)
	if !ok || full.Root != schema.Row {
		d.Retain()
		return d, nil
	}
	children := make([]arrow.ArrayData, len(pruned.Fields))
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	for j, pf := range pruned.Fields {
		i := full.FieldIndexByID(pf.ID)
		if i < 0 || i >= len(d.Children()) {
			return nil, errors.New("paimon: nested projection does not match the data")
		}
		c, err := pruneData(d.Children()[i], full.Fields[i].Type, pf.Type, st.Field(j).Type)
		if err != nil {
			return nil, err
		}
		children[j] = c
	}
	return array.NewData(target, d.Len(), d.Buffers()[:1], children, d.NullN(), d.Offset()), nil
}

// dropDeleted removes the rows of rec whose file positions (pos onwards)
// the deletion vector marks.
func dropDeleted(rec arrow.RecordBatch, dv *index.DeletionVector, pos int64, mem memory.Allocator) (arrow.RecordBatch, error) {
	n := rec.NumRows()
	var keep []int64
	next := int64(0) // first row not yet decided
	for p := range dv.DeletedIn(pos, pos+n) {
		if keep == nil {
			keep = make([]int64, 0, n)
		}
		for i := next; i < p-pos; i++ {
			keep = append(keep, i)
		}
		next = p - pos + 1
	}
	if keep == nil && next == 0 {
		rec.Retain()
		return rec, nil
	}
	for i := next; i < n; i++ {
		keep = append(keep, i)
	}
	return takeRows(rec, keep, mem)
}

// takeRows returns the rows of rec at the given ascending indices.
func takeRows(rec arrow.RecordBatch, rows []int64, mem memory.Allocator) (arrow.RecordBatch, error) {
	b := array.NewInt64Builder(mem)
	b.AppendValues(rows, nil)
	idx := b.NewInt64Array()
	b.Release()
	defer idx.Release()
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i := range cols {
		c, err := takeArray(rec.Column(i), idx, mem)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	return array.NewRecordBatch(rec.Schema(), cols, int64(len(rows))), nil
}

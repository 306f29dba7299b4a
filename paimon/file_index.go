package paimon

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/paimon-go/paimon-go/format/fileindex"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// File indexes (file-index.<type>.columns) are tested where Java tests
// them, and only on append tables (neither primary-key nor data-evolution
// tables, which this library prunes by key statistics or not at all):
//
//   - planning drops a file whose embedded index (_EMBEDDED_FILE_INDEX)
//     excludes the filter, after the value statistics (Java
//     AppendOnlyFileStoreScan.testFileIndex), counted in
//     PlanStats.FilesPrunedByIndex;
//   - reading skips a planned file whose index — embedded, or the separate
//     "<data file>.index" extra file — excludes the filter (Java
//     RawFileSplitRead.createFileReader through FileIndexEvaluator), so
//     separate indexes cost no I/O at planning, as in Java.
//
// Both are off when file-index.read.enabled is false. A bitmap index also
// selects rows inside a file (Java ApplyBitmapIndexRecordReader); the
// residual filter is exact here, so the rows returned are the same without
// that selection. An index that cannot be decoded keeps the file.

// fileIndexUsable reports whether the scan tests file indexes at all.
func (st *scanState) fileIndexUsable() bool {
	return st.filter != nil && st.fileIndexRead && len(st.schema.PrimaryKeys) == 0 && !st.dataEvolution
}

// keepByIndex tests the filter against a data file's index bytes; it keeps
// the file when the index is damaged or cannot answer.
func (st *scanState) keepByIndex(ctx context.Context, f *manifest.DataFileMeta, b []byte) (bool, error) {
	idx, err := fileindex.Parse(b)
	if err != nil {
		return true, nil
	}
	fileSchema, err := st.schemas.get(ctx, f.SchemaID)
	if err != nil {
		return false, err
	}
	return evalFileIndex(idx, st.schema, fileSchema, st.filter).Remain(), nil
}

// evalFileIndex evaluates a filter bound to scan over the indexes of a file
// written with schema file (Java FileIndexPredicate.FileIndexPredicateTest
// over the filter devolved to the file's schema): leaves test every index of
// their column and AND the answers, stopping at the first exclusion; AND and
// OR combine their children's answers. A leaf whose field the file lacks or
// holds with another type answers Remain.
func evalFileIndex(idx *fileindex.File, scan, file *schema.TableSchema, b *predicate.Bound) fileindex.Result {
	switch b.Kind() {
	case predicate.KindAnd, predicate.KindOr:
		var r fileindex.Result
		for i, c := range b.Children() {
			x := evalFileIndex(idx, scan, file, c)
			switch {
			case i == 0:
				r = x
			case b.Kind() == predicate.KindAnd:
				r = r.And(x)
			default:
				r = r.Or(x)
			}
			if b.Kind() == predicate.KindAnd && !r.Remain() {
				return r
			}
		}
		return r
	}
	op, ok := fileIndexOp[b.Kind()]
	if !ok {
		return fileindex.Remain()
	}
	fld := scan.Fields[b.FieldIndex()]
	ff, ok := file.FieldByID(fld.ID)
	if !ok || !ff.Type.EqualIgnoreFieldIDs(fld.Type) {
		return fileindex.Remain()
	}
	r := fileindex.Remain()
	for _, ix := range idx.IndexesOf(ff.Name, ff.Type) {
		r = r.And(ix.Test(op, b.Literals()))
		if !r.Remain() {
			return r
		}
	}
	return r
}

var fileIndexOp = map[predicate.Kind]fileindex.Op{
	predicate.KindEqual:          fileindex.OpEqual,
	predicate.KindNotEqual:       fileindex.OpNotEqual,
	predicate.KindIn:             fileindex.OpIn,
	predicate.KindNotIn:          fileindex.OpNotIn,
	predicate.KindIsNull:         fileindex.OpIsNull,
	predicate.KindIsNotNull:      fileindex.OpIsNotNull,
	predicate.KindLessThan:       fileindex.OpLessThan,
	predicate.KindLessOrEqual:    fileindex.OpLessOrEqual,
	predicate.KindGreaterThan:    fileindex.OpGreaterThan,
	predicate.KindGreaterOrEqual: fileindex.OpGreaterOrEqual,
}

// indexFileSuffix ends the name of a separate file index (Java
// DataFilePathFactory.INDEX_PATH_SUFFIX).
const indexFileSuffix = ".index"

// maxIndexFileSize bounds the separate index file read into memory.
const maxIndexFileSize = 256 << 20

// readSkipsFile reports whether the file index of a planned file excludes
// the filter (Java FileIndexEvaluator): the embedded index, else the
// file's one ".index" extra file.
func (r *splitReader) readSkipsFile(ctx context.Context, sp *Split, f *manifest.DataFileMeta) (bool, error) {
	st := r.st
	if !st.fileIndexUsable() {
		return false, nil
	}
	b := f.EmbeddedIndex
	if b == nil {
		var name string
		for _, x := range f.ExtraFiles {
			if strings.HasSuffix(x, indexFileSuffix) {
				if name != "" {
					return false, fmt.Errorf("%w: data file %s has more than one index file: %s and %s", ErrCorrupt, f.FileName, name, x)
				}
				name = x
			}
		}
		if name == "" {
			return false, nil
		}
		p := r.scan.table.meta.Path(sp.BucketPath, name)
		file, err := r.scan.table.meta.fsys.Open(ctx, p)
		if err != nil {
			return false, fmt.Errorf("paimon: file index %s: %w", p, err)
		}
		defer file.Close()
		size := file.Size()
		if size > maxIndexFileSize {
			return false, nil // too large to hold: read the data file
		}
		b = make([]byte, size)
		if _, err := file.ReadAt(b, 0); err != nil && err != io.EOF {
			return false, fmt.Errorf("paimon: file index %s: %w", p, err)
		}
	}
	keep, err := st.keepByIndex(ctx, f, b)
	return !keep, err
}

package datafile

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/fileindex"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// File indexes of append files (Java DataFileIndexWriter over
// FileIndexOptions): file-index.<type>.columns names the columns of each
// index type, file-index.<type>.<column>.<option> sets an index's options,
// and the serialized indexes (Java FileIndexFormat) go into the manifest
// when they take at most file-index.in-manifest-threshold bytes (default
// 500 B), else into "<data file>.index", an extra file of the data file.
// Written: bloom-filter, bitmap (version 2), bsi and range-bitmap, every
// type Java's FileIndexer accepts for them except a bsi on DECIMAL wider
// than 18 digits (Java truncates its unscaled value to a long); a column
// whose index cannot be built gets none, which readers (ours and Java's)
// take as "may match".
//
// Primary-key tables index their data files too, over the value columns
// (Java KeyValueFileWriterFactory.createDataFileWriter gives
// KeyValueDataFileWriter the table's index options for data files, none
// for changelog files); the _KEY_ and system columns are not indexable.

// defaultInManifestThreshold is Java CoreOptions
// FILE_INDEX_IN_MANIFEST_THRESHOLD's default.
const defaultInManifestThreshold = 500

// rangeBitmapChunkSize is Java RangeBitmapFileIndex.CHUNK_SIZE.
const rangeBitmapChunkSize = "chunk-size"

// indexSpec is one index to build per file.
type indexSpec struct {
	col  int // fileFields index
	name string
	typ  string
	t    schema.DataType
	opts map[string]string
}

type indexConfig struct {
	specs     []indexSpec
	threshold int64
}

// parseFileIndex reads the file-index options of a table whose files hold
// fields from file column first on (the value columns of key-value files
// follow the _KEY_ and system columns).
func parseFileIndex(opts map[string]string, fields []schema.DataField, first int) (*indexConfig, error) {
	c := &indexConfig{threshold: defaultInManifestThreshold}
	if v, ok := opts[coreoptions.FileIndexInManifestThreshold]; ok {
		n, err := ParseMemorySize(v)
		if err != nil {
			return nil, fmt.Errorf("%w: option %s=%q: %w", ErrInvalid, coreoptions.FileIndexInManifestThreshold, v, err)
		}
		c.threshold = n
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		typ, ok := strings.CutPrefix(k, "file-index.")
		if !ok {
			continue
		}
		typ, ok = strings.CutSuffix(typ, ".columns")
		if !ok || strings.Contains(typ, ".") {
			continue
		}
		for _, name := range strings.Split(opts[k], ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			col := -1
			for i, f := range fields {
				if f.Name == name {
					col = i
				}
			}
			if col < 0 {
				if strings.Contains(name, "[") {
					continue // a map key index (Java MapFileIndexMaintainer): not written
				}
				return nil, fmt.Errorf("%w: option %s: column %q does not exist", ErrInvalid, k, name)
			}
			prefix := "file-index." + typ + "." + name + "."
			o := map[string]string{}
			for _, kk := range keys {
				if rest, ok := strings.CutPrefix(kk, prefix); ok {
					o[rest] = opts[kk]
				}
			}
			if v, ok := o[rangeBitmapChunkSize]; ok && typ == "range-bitmap" {
				// Java MemorySize.parse; the codec takes bytes.
				n, err := ParseMemorySize(v)
				if err != nil {
					return nil, fmt.Errorf("%w: option %s%s=%q: %w", ErrInvalid, prefix, rangeBitmapChunkSize, v, err)
				}
				o[rangeBitmapChunkSize] = strconv.FormatInt(n, 10)
			}
			c.specs = append(c.specs, indexSpec{col: first + col, name: name, typ: typ, t: fields[col].Type, opts: o})
		}
	}
	return c, nil
}

// fileIndexes builds the indexes of one data file.
type fileIndexes struct {
	specs   []indexSpec
	writers []fileindex.ColumnWriter // nil where not written
}

func newFileIndexes(c *indexConfig) (*fileIndexes, error) {
	if c == nil || len(c.specs) == 0 {
		return nil, nil
	}
	fi := &fileIndexes{specs: c.specs}
	for _, s := range c.specs {
		w, err := fileindex.NewColumnWriter(s.typ, s.t, s.opts)
		if err != nil {
			return nil, fmt.Errorf("%w: file index %s of column %s: %w", ErrInvalid, s.typ, s.name, err)
		}
		fi.writers = append(fi.writers, w)
	}
	return fi, nil
}

// add feeds a batch of the file's rows (in file layout) to the indexes.
func (fi *fileIndexes) add(rec arrow.RecordBatch) {
	for i, s := range fi.specs {
		w := fi.writers[i]
		if w == nil {
			continue
		}
		col := rec.Column(s.col)
		for r := 0; r < col.Len(); r++ {
			v, ok := indexValue(col, r)
			if !ok {
				fi.writers[i] = nil // a type not indexed: no index for the column
				break
			}
			w.Add(v)
		}
	}
}

// indexValue is the predicate-package value of row r of col (nil for NULL).
func indexValue(col arrow.Array, r int) (any, bool) {
	if col.IsNull(r) {
		return nil, true
	}
	switch c := col.(type) {
	// Strings and binaries are copied: Value aliases the batch's buffer,
	// which the allocator may reuse once the batch is released, and the
	// bitmap index keeps its distinct values until the file closes.
	case *array.String:
		return strings.Clone(c.Value(r)), true
	case *array.LargeString:
		return strings.Clone(c.Value(r)), true
	case *array.Binary:
		return bytes.Clone(c.Value(r)), true
	case *array.Int8:
		return c.Value(r), true
	case *array.Int16:
		return c.Value(r), true
	case *array.Int32:
		return c.Value(r), true
	case *array.Int64:
		return c.Value(r), true
	case *array.Float32:
		return c.Value(r), true
	case *array.Float64:
		return c.Value(r), true
	case *array.Boolean:
		return c.Value(r), true
	case *array.Date32:
		return int32(c.Value(r)), true
	case *array.Time32:
		return int32(c.Value(r)), true
	case *array.Timestamp:
		v := int64(c.Value(r))
		switch c.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			return data.Timestamp{Millis: v * 1000}, true
		case arrow.Millisecond:
			return data.Timestamp{Millis: v}, true
		case arrow.Microsecond:
			return data.TimestampFromMicros(v), true
		}
		return data.TimestampFromNanos(v), true
	case *array.Decimal128:
		dt := c.DataType().(*arrow.Decimal128Type)
		return data.Decimal{Unscaled: c.Value(r).BigInt(), Precision: int(dt.Precision), Scale: int(dt.Scale)}, true
	}
	return nil, false
}

// finish serializes the indexes and stores them as Java does: the bytes
// for the manifest, or the name of the index file written beside the
// data file (dir/name.index).
func (fi *fileIndexes) finish(ctx context.Context, fsys fs.FS, dir, name string, threshold int64) (embedded []byte, extra string, err error) {
	var idx []fileindex.ColumnIndex
	for i, s := range fi.specs {
		if fi.writers[i] == nil {
			continue
		}
		if b := fi.writers[i].Bytes(); b != nil {
			idx = append(idx, fileindex.ColumnIndex{Column: s.name, Type: s.typ, Bytes: b})
		}
	}
	if len(idx) == 0 {
		return nil, "", nil
	}
	b := fileindex.Encode(idx)
	if int64(len(b)) <= threshold {
		return b, "", nil
	}
	extra = name + ".index"
	p := fs.Join(dir, extra)
	out, err := fsys.Create(ctx, p, nil)
	if err != nil {
		return nil, "", fmt.Errorf("datafile: create %s: %w", p, err)
	}
	if _, err := out.Write(b); err != nil {
		_ = out.Abort()
		return nil, "", fmt.Errorf("datafile: write %s: %w", p, err)
	}
	if err := out.Close(); err != nil {
		return nil, "", fmt.Errorf("datafile: publish %s: %w", p, err)
	}
	return nil, extra, nil
}

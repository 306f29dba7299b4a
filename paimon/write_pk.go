package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
	"github.com/paimon-go/paimon-go/internal/offheap"
)

// RowKind is the change a row of a primary-key table carries (Java
// org.apache.paimon.types.RowKind).
type RowKind = data.RowKind

// The row kinds.
const (
	RowKindInsert       = data.Insert       // +I
	RowKindUpdateBefore = data.UpdateBefore // -U
	RowKindUpdateAfter  = data.UpdateAfter  // +U
	RowKindDelete       = data.Delete       // -D
)

// ParseRowKind reads a row kind's short string ("+I", "-U", "+U", "-D"), as
// Java's RowKind.fromShortString.
func ParseRowKind(s string) (RowKind, error) {
	switch s {
	case "+I":
		return RowKindInsert, nil
	case "-U":
		return RowKindUpdateBefore, nil
	case "+U":
		return RowKindUpdateAfter, nil
	case "-D":
		return RowKindDelete, nil
	}
	return 0, fmt.Errorf("%w: unknown row kind %q (want +I, -U, +U or -D)", ErrSchemaMismatch, s)
}

// Options of primary-key writes (Java CoreOptions).
const (
	optRowKindField       = coreoptions.RowkindField
	optIgnoreDelete       = coreoptions.IgnoreDelete
	optIgnoreUpdateBefore = coreoptions.IgnoreUpdateBefore
	optChangelogProducer  = coreoptions.ChangelogProducer
	optWriteBufferSize    = coreoptions.WriteBufferSize
	optPageSize           = coreoptions.PageSize
)

// Bucket modes of primary-key tables (Java BucketMode).
const (
	bucketFixed    = iota // bucket = N > 0: HASH_FIXED
	bucketDynamic         // bucket = -1: HASH_DYNAMIC
	bucketPostpone        // bucket = -2: POSTPONE_MODE
)

// pkWriter writes a primary-key table (Java TableWriteImpl over
// KeyValueFileStoreWrite or PostponeBucketFileStoreWrite, write-only): rows
// carry a row kind, get a sequence number per bucket in arrival order, and
// go through a MergeTreeWriter per (partition, bucket) that sorts and
// merges them in memory and writes level-0 sorted runs. Postpone-bucket
// tables write their rows unsorted into bucket-postpone, for Java's
// compaction to distribute.
type pkWriter struct {
	w    *TableWriter
	ts   *schema.TableSchema
	mode int

	numBuckets   int
	bucketFn     binaryrow.BucketFunction
	bucketKeyIdx []int
	bucketTypes  []schema.DataType
	keyIdx       []int // trimmed primary key
	keyTypes     []schema.DataType
	pkIdx        []int // primary key, partition fields included

	rowKindCol     string // batch column of the row kinds ("" none)
	rowKindInTable bool
	ignoreDelete   bool
	ignoreUB       bool

	mergeOpts  mergetree.Options
	changelog  bool
	bufferSize int64
	pool       *offheap.Pool

	buckets map[string]*pkBucket
	order   []string

	baseLoaded bool
	base       *snapshot.Snapshot
	baseIndex  []manifest.IndexManifestEntry
	cache      *manifestCache
	parts      map[string]*partRestore

	assigner   *hashAssigner
	indexNames *datafile.FileNames

	// full is the writer's periodic full compaction (write_fullcl.go);
	// nil when it does not compact.
	full *pkFullCompaction

	postponeSchema *schema.TableSchema
	retractChecked map[data.RowKind]bool
	failed         error
}

// partRestore is what a partition's live files tell a new bucket writer.
type partRestore struct {
	maxSeq     map[int32]int64
	hashFiles  map[int32]manifest.IndexFileMeta
	indexFiles []string // live HASH index files of the partition, sorted
}

// pkBucket is the writer of one (partition, bucket).
type pkBucket struct {
	partition []byte
	partKey   string
	bucket    int32
	dir       string
	lsm       *mergetree.Writer
	post      *datafile.Writer // postpone buckets
	names     *datafile.FileNames

	hashes        map[int32]struct{} // dynamic buckets: the bucket's key hashes
	hashesChanged bool
}

func newPKWriter(w *TableWriter, opts *WriterOptions) (*pkWriter, error) {
	ts := w.schema
	// Options this writer does not implement fail before any row.
	if err := coreoptions.Check(ts.Options, coreoptions.Write, true); err != nil {
		if errors.Is(err, coreoptions.ErrUnsupported) {
			return nil, fmt.Errorf("%w: writing to %s: %w", ErrUnsupported, w.t.name(), err)
		}
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	o := tableOptions(ts.Options)
	p := &pkWriter{w: w, ts: ts, buckets: map[string]*pkBucket{}, parts: map[string]*partRestore{}, cache: newManifestCache(64)}
	buckets, err := ts.Bucket()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	switch {
	case buckets > 0:
		p.mode, p.numBuckets = bucketFixed, buckets
		if v, ok := ts.Options[coreoptions.BucketFunctionType]; ok {
			if p.bucketFn, err = binaryrow.ParseBucketFunction(v); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
			}
		}
		for _, f := range ts.BucketKeyFields() {
			p.bucketKeyIdx = append(p.bucketKeyIdx, ts.FieldIndexByID(f.ID))
			p.bucketTypes = append(p.bucketTypes, f.Type)
		}
	case buckets == -1:
		if ts.CrossPartitionUpdate() {
			return nil, fmt.Errorf("%w: writing to table %s: its primary key does not contain every partition key, "+
				"so an update may move a key to another partition (Java's cross-partition update, which needs a global index)",
				ErrUnsupported, w.t.name())
		}
		p.mode = bucketDynamic
		target, err := o.integer(optDynamicTargetRows, defaultDynamicTargetRows)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
		}
		maxBuckets, err := o.integer(optDynamicMaxBuckets, -1)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
		}
		if target <= 0 || (maxBuckets != -1 && maxBuckets <= 0) {
			return nil, fmt.Errorf("%w: %s must be positive and %s -1 or positive", ErrInvalidOption, optDynamicTargetRows, optDynamicMaxBuckets)
		}
		p.assigner = newHashAssigner(int64(target), maxBuckets)
		p.indexNames = &datafile.FileNames{}
	case buckets == -2:
		p.mode = bucketPostpone
	default:
		return nil, fmt.Errorf("%w: primary-key table %s has bucket=%d", ErrInvalidOption, w.t.name(), buckets)
	}
	for _, f := range ts.TrimmedPrimaryKeyFields() {
		p.keyIdx = append(p.keyIdx, ts.FieldIndexByID(f.ID))
		p.keyTypes = append(p.keyTypes, f.Type)
	}
	for _, k := range ts.PrimaryKeys {
		p.pkIdx = append(p.pkIdx, ts.FieldIndex(k))
	}
	p.rowKindCol = opts.RowKindColumn
	if p.rowKindCol == "" {
		p.rowKindCol = ts.Options[optRowKindField]
	}
	if p.rowKindCol != "" {
		if i := ts.FieldIndex(p.rowKindCol); i >= 0 {
			p.rowKindInTable = true
			if ts.Fields[i].Type.Root != schema.Char && ts.Fields[i].Type.Root != schema.VarChar {
				return nil, fmt.Errorf("%w: row-kind column %s is %s; it must be a string column holding +I, -U, +U or -D",
					ErrInvalidOption, p.rowKindCol, ts.Fields[i].Type)
			}
		} else if opts.RowKindColumn == "" {
			return nil, fmt.Errorf("%w: %s names %q, which is not a column of %s", ErrInvalidOption, optRowKindField, p.rowKindCol, w.t.name())
		}
	}
	p.ignoreDelete = o.boolean(optIgnoreDelete, o.boolean("first-row.ignore-delete",
		o.boolean("deduplicate.ignore-delete", o.boolean("partial-update.ignore-delete", false))))
	p.ignoreUB = o.boolean(optIgnoreUpdateBefore, false)
	switch cp := o.str(optChangelogProducer, "none"); cp {
	case "none", "lookup", "full-compaction":
		// Java's write-only writer writes level-0 files only; the
		// changelog of these producers comes from compaction.
	case "input":
		p.changelog = p.mode != bucketPostpone // postpone compaction writes it
	default:
		return nil, fmt.Errorf("%w: %s=%q", ErrInvalidOption, optChangelogProducer, cp)
	}
	f, err := mergefunc.NewFactory(ts)
	if err != nil {
		if errors.Is(err, mergefunc.ErrUnsupported) {
			return nil, fromInternal(ErrUnsupported, mergefunc.ErrUnsupported, err)
		}
		return nil, fromInternal(ErrInvalidOption, mergefunc.ErrInvalid, err)
	}
	seqFields, err := mergefunc.SequenceFields(ts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	desc, err := mergefunc.SequenceDescending(ts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	p.mergeOpts = mergetree.Options{Schema: ts, Merge: f, SequenceFields: seqFields, SequenceDescending: desc, Allocator: w.mem}
	if p.bufferSize, err = o.memory(optWriteBufferSize, mergetree.DefaultWriteBufferSize); err != nil {
		return nil, err
	}
	if opts.WriteBufferSize > 0 {
		p.bufferSize = opts.WriteBufferSize
	}
	pageSize, err := o.memory(optPageSize, 64<<10)
	if err != nil {
		return nil, err
	}
	p.pool = offheap.NewPool(int(max(pageSize, offheap.DefaultPageSize)))
	if p.mode == bucketPostpone {
		if p.postponeSchema, err = postponeSchema(ts, opts.CommitUser); err != nil {
			return nil, err
		}
	}
	wo, err := writeOnly(ts.Options)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	if p.full, err = newPKFullCompaction(w.t, ts, wo || opts.WriteOnly, p.mode); err != nil {
		return nil, err
	}
	// Refuse unwritable options now rather than at the first batch.
	if p.mode == bucketPostpone {
		err = datafile.ValidateKeyValue(p.postponeSchema, datafile.KeyValue{Source: manifest.FileSourceAppend})
	} else {
		_, err = mergetree.NewSortBuffer(&p.mergeOpts, p.pool)
		if err == nil {
			err = datafile.ValidateKeyValue(ts, datafile.KeyValue{Source: manifest.FileSourceAppend})
		}
		if err == nil && p.changelog {
			err = datafile.ValidateKeyValue(ts, datafile.KeyValue{Changelog: true, Source: manifest.FileSourceAppend})
		}
	}
	if err != nil {
		return nil, w.optionError(err)
	}
	return p, nil
}

// postponeSchema is the schema postpone-bucket files are written with
// (PostponeBucketFileStoreWrite): Avro without statistics when Avro can hold
// the columns, and a file prefix naming the commit user and a writer id, so
// that Java's compaction replays each writer's files in order.
func postponeSchema(ts *schema.TableSchema, commitUser string) (*schema.TableSchema, error) {
	out := ts.Clone()
	opts := make(map[string]string, len(ts.Options)+3)
	for k, v := range ts.Options {
		opts[k] = v
	}
	avro := out.Clone()
	avro.Options = map[string]string{coreoptions.FileFormat: "avro"}
	if datafile.ValidateKeyValue(avro, datafile.KeyValue{}) == nil {
		opts[coreoptions.FileFormat] = "avro"
		opts[coreoptions.MetadataStatsMode] = "none"
	}
	if commitUser == "" {
		commitUser = datafile.NewUUID()
	}
	prefix := "data-"
	if v, ok := ts.Options[coreoptions.DataFilePrefix]; ok {
		prefix = v
	}
	opts[coreoptions.DataFilePrefix] = fmt.Sprintf("%s-u-%s-s-%d-w-", prefix, commitUser, rand.Int32N(1<<31-1))
	out.Options = opts
	return out, nil
}

// batchLayout resolves where the table's columns are in a batch: the
// table's columns in order (or, for key-only deletes, the primary-key
// columns in order), with the row-kind column anywhere when it is not a
// table column.
func (p *pkWriter) batchLayout(rec arrow.RecordBatch, keyOnly bool) (cols []int, kindCol int, err error) {
	kindCol = -1
	var names []string
	for i := 0; i < int(rec.NumCols()); i++ {
		name := rec.Schema().Field(i).Name
		if p.rowKindCol != "" && !p.rowKindInTable && name == p.rowKindCol {
			if kindCol >= 0 {
				return nil, 0, fmt.Errorf("%w: the batch has two columns %q", ErrSchemaMismatch, name)
			}
			kindCol = i
			continue
		}
		names = append(names, name)
		cols = append(cols, i)
	}
	want := p.ts.FieldNames()
	if keyOnly && !slices.Equal(names, want) {
		// A key-only delete: the primary-key columns, in table order.
		want = nil
		for _, f := range p.ts.Fields {
			if slices.Contains(p.ts.PrimaryKeys, f.Name) {
				want = append(want, f.Name)
			}
		}
	}
	if !slices.Equal(names, want) {
		return nil, 0, fmt.Errorf("%w: batch columns %v, table %s needs %v", ErrSchemaMismatch, names, p.w.t.name(), want)
	}
	if p.rowKindCol != "" && p.rowKindInTable {
		if i := slices.Index(names, p.rowKindCol); i >= 0 {
			kindCol = cols[i]
		}
	}
	if p.rowKindCol != "" && kindCol < 0 && !keyOnly {
		return nil, 0, fmt.Errorf("%w: the batch has no row-kind column %q", ErrSchemaMismatch, p.rowKindCol)
	}
	return cols, kindCol, nil
}

// columns returns the table's columns of rec (NULL columns for the value
// fields of a key-only batch), checked against the table's types and NOT
// NULL constraints. The caller releases them.
func (p *pkWriter) columns(rec arrow.RecordBatch, idx []int) ([]arrow.Array, error) {
	n := int(rec.NumRows())
	out := make([]arrow.Array, len(p.ts.Fields))
	release := func() {
		for _, c := range out {
			if c != nil {
				c.Release()
			}
		}
	}
	byName := map[string]int{}
	for _, i := range idx {
		byName[rec.Schema().Field(i).Name] = i
	}
	for i, f := range p.ts.Fields {
		want := p.w.arrowSchema.Field(i).Type
		j, ok := byName[f.Name]
		if !ok {
			if !f.Type.Nullable {
				release()
				return nil, fmt.Errorf("%w: a key-only batch leaves column %q NULL, but it is NOT NULL: give whole rows",
					ErrSchemaMismatch, f.Name)
			}
			out[i] = array.MakeArrayOfNull(p.w.mem, want, n)
			continue
		}
		c := rec.Column(j)
		if !arrow.TypeEqual(c.DataType(), want) {
			release()
			return nil, fmt.Errorf("%w: column %q has Arrow type %s, table type %s needs %s",
				ErrSchemaMismatch, f.Name, c.DataType(), f.Type.String(), want)
		}
		if err := checkNotNull(c, f.Name, f.Type); err != nil {
			release()
			return nil, err
		}
		c.Retain()
		out[i] = c
	}
	for _, i := range p.pkIdx {
		if out[i].NullN() > 0 {
			release()
			return nil, fmt.Errorf("%w: primary-key column %q has %d NULLs", ErrSchemaMismatch, p.ts.Fields[i].Name, out[i].NullN())
		}
	}
	return out, nil
}

// rowKinds reads the row kinds of a batch's row-kind column.
func (p *pkWriter) rowKinds(col arrow.Array) ([]int8, error) {
	kinds := make([]int8, col.Len())
	var value func(int) string
	switch a := col.(type) {
	case *array.String:
		value = a.Value
	case *array.LargeString:
		value = a.Value
	default:
		return nil, fmt.Errorf("%w: row-kind column %q has Arrow type %s; it must be a string column holding +I, -U, +U or -D",
			ErrSchemaMismatch, p.rowKindCol, col.DataType())
	}
	for i := range kinds {
		if col.IsNull(i) {
			return nil, fmt.Errorf("%w: row %d has a NULL row kind in column %q", ErrSchemaMismatch, i, p.rowKindCol)
		}
		k, err := ParseRowKind(value(i))
		if err != nil {
			return nil, fmt.Errorf("row %d, column %q: %w", i, p.rowKindCol, err)
		}
		kinds[i] = int8(k)
	}
	return kinds, nil
}

// write writes rec's rows with the kinds of the row-kind column, or all
// with kind when it is given.
func (p *pkWriter) write(ctx context.Context, rec arrow.RecordBatch, kind *RowKind) error {
	if p.failed != nil {
		return p.failed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	keyOnly := kind != nil && *kind == RowKindDelete
	idx, kindCol, err := p.batchLayout(rec, keyOnly)
	if err != nil {
		return err
	}
	cols, err := p.columns(rec, idx)
	if err != nil {
		return err
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	n := int(rec.NumRows())
	var kinds []int8
	switch {
	case kind != nil:
		kinds = make([]int8, n)
		for i := range kinds {
			kinds[i] = int8(*kind)
		}
	case kindCol >= 0:
		if kinds, err = p.rowKinds(rec.Column(kindCol)); err != nil {
			return err
		}
	default:
		kinds = make([]int8, n) // +I
	}
	table := array.NewRecordBatch(p.w.arrowSchema, cols, int64(n))
	defer table.Release()
	// Java's RowKindFilter: ignore-delete drops -U and -D rows,
	// ignore-update-before drops -U rows, before they get a sequence number.
	if p.ignoreDelete || p.ignoreUB {
		var keep []int64
		for i, k := range kinds {
			switch data.RowKind(k) {
			case data.Delete:
				if p.ignoreDelete {
					continue
				}
			case data.UpdateBefore:
				if p.ignoreDelete || p.ignoreUB {
					continue
				}
			}
			keep = append(keep, int64(i))
		}
		if len(keep) < n {
			filtered, err := takeRows(table, keep, p.w.mem)
			if err != nil {
				return err
			}
			defer filtered.Release()
			table = filtered
			kept := make([]int8, len(keep))
			for j, i := range keep {
				kept[j] = kinds[i]
			}
			kinds, n = kept, len(keep)
		}
	}
	if n == 0 {
		return nil
	}
	if err := p.checkRetractions(table, kinds); err != nil {
		return err
	}
	groups, hashes, err := p.route(ctx, table)
	if err != nil {
		return err
	}
	// Everything below writes; a failure leaves the writer failed.
	if err := p.writeGroups(ctx, table, kinds, groups, hashes); err != nil {
		p.failed = err
		return err
	}
	return nil
}

// checkRetractions makes sure the merge engine accepts the batch's kinds of
// retraction (-U, -D), once per kind and writer: it merges the first such
// row after an insert of the same values, as Java's merge of the key's
// versions would (the postpone writer's validateRetract does the same).
// Java's MergeTreeWriter lets a retraction through when it is the only
// version of its key in the buffer, and the table then fails to read or
// compact; refusing it before any row is written is safer.
func (p *pkWriter) checkRetractions(rec arrow.RecordBatch, kinds []int8) error {
	for i, k := range kinds {
		kind := data.RowKind(k)
		if !kind.IsRetract() || p.retractChecked[kind] {
			continue
		}
		vals := make([]any, len(p.ts.Fields))
		for c, f := range p.ts.Fields {
			v, err := parquet.ArrowValue(rec.Column(c), i, f.Type)
			if err != nil {
				return fmt.Errorf("%w: %w", ErrSchemaMismatch, err)
			}
			vals[c] = v
		}
		fn := p.mergeOpts.Merge.New()
		fn.Reset()
		err := fn.Add(&mergefunc.Row{Kind: data.Insert, Values: vals})
		if err == nil {
			err = fn.Add(&mergefunc.Row{Seq: 1, Kind: kind, Values: vals})
		}
		if err == nil {
			_, err = fn.Result()
		}
		if err != nil {
			return fmt.Errorf("%w: table %s cannot take %s rows (row %d): %w", ErrInvalidOption, p.w.t.name(), kind, i, err)
		}
		if p.retractChecked == nil {
			p.retractChecked = map[data.RowKind]bool{}
		}
		p.retractChecked[kind] = true
	}
	return nil
}

// route assigns every row to its partition and bucket; for dynamic buckets
// it also returns the key hashes of the rows.
func (p *pkWriter) route(ctx context.Context, rec arrow.RecordBatch) ([]*rowGroup, []int32, error) {
	var hashes []int32
	keyVals := make([]any, max(len(p.keyIdx), len(p.bucketKeyIdx)))
	values := func(r int, idx []int, types []schema.DataType) ([]any, error) {
		for j, c := range idx {
			v, err := parquet.ArrowValueView(rec.Column(c), r, types[j])
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrSchemaMismatch, err)
			}
			keyVals[j] = v
		}
		return keyVals[:len(idx)], nil
	}
	var bucketOf func(r int, partKey string) (int32, error)
	switch p.mode {
	case bucketFixed:
		if bucketOf = intKeyBuckets(rec, p.bucketKeyIdx, p.bucketTypes, p.numBuckets, p.bucketFn); bucketOf != nil {
			break
		}
		bucketOf = func(r int, _ string) (int32, error) {
			vals, err := values(r, p.bucketKeyIdx, p.bucketTypes)
			if err != nil {
				return 0, err
			}
			b, err := binaryrow.BucketOf(p.bucketTypes, vals, p.numBuckets, p.bucketFn)
			if err != nil {
				return 0, fmt.Errorf("paimon: bucket of row %d: %w", r, err)
			}
			return int32(b), nil
		}
	case bucketDynamic:
		precomputed := false
		if hashes, precomputed = intKeyHashes(rec, p.keyIdx, p.keyTypes); !precomputed {
			hashes = make([]int32, rec.NumRows())
		}
		bucketOf = func(r int, partKey string) (int32, error) {
			if !p.assigner.loaded(partKey) {
				if _, err := p.restore(ctx, partKey); err != nil {
					return 0, err
				}
			}
			if !precomputed {
				vals, err := values(r, p.keyIdx, p.keyTypes)
				if err != nil {
					return 0, err
				}
				h, err := binaryrow.KeyHash(p.keyTypes, vals)
				if err != nil {
					return 0, fmt.Errorf("paimon: key hash of row %d: %w", r, err)
				}
				hashes[r] = h
			}
			return p.assigner.assign(partKey, hashes[r])
		}
	case bucketPostpone:
		bucketOf = func(int, string) (int32, error) { return postponeBucket, nil }
	}
	groups, err := p.w.groupRows(rec, bucketOf)
	return groups, hashes, err
}

// writeGroups hands each group's rows to its bucket writer.
func (p *pkWriter) writeGroups(ctx context.Context, rec arrow.RecordBatch, kinds []int8, groups []*rowGroup, hashes []int32) error {
	// Open every writer first: a partition Java cannot name, or whose
	// bucket count changed, fails before any row is buffered.
	writers := make([]*pkBucket, len(groups))
	for i, g := range groups {
		b, err := p.bucketWriter(ctx, g)
		if err != nil {
			return err
		}
		writers[i] = b
	}
	for i, g := range groups {
		part, err := g.take(rec, len(groups), p.w.mem)
		if err != nil {
			return err
		}
		gk := kinds
		if len(groups) > 1 {
			gk = make([]int8, len(g.rows))
			for j, r := range g.rows {
				gk[j] = kinds[r]
			}
		}
		err = p.writeBucket(ctx, writers[i], part, gk)
		part.Release()
		if err != nil {
			return err
		}
		if b := writers[i]; b.hashes != nil {
			rows := g.rows
			for j := range part.NumRows() {
				r := j
				if rows != nil {
					r = rows[j]
				}
				if _, ok := b.hashes[hashes[r]]; !ok {
					b.hashes[hashes[r]] = struct{}{}
					b.hashesChanged = true
				}
			}
		}
	}
	return nil
}

// writeBucket writes rows into one bucket, flushing the largest buffers
// first when the writer's buffers would exceed write-buffer-size together
// (Java's MemoryPoolFactory preempts the largest owner the same way).
func (p *pkWriter) writeBucket(ctx context.Context, b *pkBucket, rec arrow.RecordBatch, kinds []int8) error {
	if b.post != nil {
		return p.writePostpone(ctx, b, rec, kinds)
	}
	est := mergetree.EstimateSize(rec.Columns(), int(rec.NumRows()))
	for p.buffered()+est > p.bufferSize {
		var largest *pkBucket
		for _, key := range p.order {
			o := p.buckets[key]
			if o.lsm != nil && o.lsm.Buffered() > 0 && (largest == nil || o.lsm.BufferSize() > largest.lsm.BufferSize()) {
				largest = o
			}
		}
		if largest == nil {
			break
		}
		if err := largest.lsm.Flush(ctx); err != nil {
			return err
		}
	}
	return b.lsm.Write(ctx, rec.Columns(), kinds)
}

func (p *pkWriter) buffered() int64 {
	var n int64
	for _, key := range p.order {
		if b := p.buckets[key]; b.lsm != nil {
			n += b.lsm.BufferSize()
		}
	}
	return n
}

// writePostpone writes rows straight into the bucket's postpone file, in
// arrival order, with sequence number -1 (Java's PostponeBucketWriter with
// its DirectSinkWriter: records keep KeyValue.UNKNOWN_SEQUENCE).
func (p *pkWriter) writePostpone(ctx context.Context, b *pkBucket, rec arrow.RecordBatch, kinds []int8) error {
	n := int(rec.NumRows())
	seq := array.NewInt64Builder(p.w.mem)
	defer seq.Release()
	kb := array.NewInt8Builder(p.w.mem)
	defer kb.Release()
	seq.Reserve(n)
	for range n {
		seq.UnsafeAppend(-1)
	}
	kb.AppendValues(kinds, nil)
	cols := []arrow.Array{seq.NewArray(), kb.NewArray()}
	defer cols[0].Release()
	defer cols[1].Release()
	cols = append(cols, rec.Columns()...)
	kv := array.NewRecordBatch(b.post.ArrowSchema(), cols, int64(n))
	defer kv.Release()
	return b.post.Write(ctx, kv)
}

// bucketWriter returns the writer of a group's partition and bucket,
// restoring the bucket's state from the table when it is new.
func (p *pkWriter) bucketWriter(ctx context.Context, g *rowGroup) (*pkBucket, error) {
	if b, ok := p.buckets[g.key]; ok {
		if b.post == nil && p.mode == bucketPostpone {
			if err := p.openPostpone(b); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	path, err := p.w.pather.path(g.values)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPartition, err)
	}
	b := &pkBucket{partition: g.partition, partKey: g.partKey, bucket: g.bucket, names: datafile.NewFileNames(),
		dir: p.w.t.meta.Path(bucketDirectory(p.ts, path, g.bucket))}
	if p.mode == bucketPostpone {
		if err := p.openPostpone(b); err != nil {
			return nil, err
		}
	} else {
		rs, err := p.restore(ctx, g.partKey)
		if err != nil {
			return nil, err
		}
		first := int64(0)
		if m, ok := rs.maxSeq[g.bucket]; ok {
			first = m + 1
		}
		lsm, err := mergetree.NewWriter(&mergetree.WriterOptions{
			Options: p.mergeOpts, FS: p.w.t.meta.fsys, Dir: b.dir, FirstSequence: first,
			BufferSize: p.bufferSize, Changelog: p.changelog, Pool: p.pool, Names: b.names, Now: p.w.now,
			Workers: p.w.workers,
		})
		if err != nil {
			return nil, p.w.optionError(err)
		}
		b.lsm = lsm
		if p.mode == bucketDynamic {
			b.hashes = map[int32]struct{}{}
			if f, ok := rs.hashFiles[g.bucket]; ok {
				hs, err := p.w.t.meta.ReadHashIndex(ctx, f)
				if err != nil {
					lsm.Close()
					return nil, err
				}
				for _, h := range hs {
					b.hashes[h] = struct{}{}
				}
			}
		}
	}
	p.buckets[g.key] = b
	p.order = append(p.order, g.key)
	return b, nil
}

func (p *pkWriter) openPostpone(b *pkBucket) error {
	w, err := datafile.NewWriter(datafile.Options{
		FS: p.w.t.meta.fsys, Dir: b.dir, Schema: p.postponeSchema, Allocator: p.w.mem, Now: p.w.now,
		Names: b.names, KeyValue: &datafile.KeyValue{Source: manifest.FileSourceAppend}, Workers: p.w.workers,
	})
	if err != nil {
		return p.w.optionError(err)
	}
	b.post = w
	return nil
}

// restore reads what the table's latest snapshot (the same one for the
// whole writer, as Java's writer restores from the snapshot it starts on)
// says about a partition: each bucket's largest sequence number, the
// bucket count the partition was written with (which must be the table's),
// and for dynamic buckets the HASH index files, which also install the
// partition's bucket assignment.
func (p *pkWriter) restore(ctx context.Context, partKey string) (*partRestore, error) {
	if rs, ok := p.parts[partKey]; ok {
		return rs, nil
	}
	if !p.baseLoaded {
		s, err := latestSnapshotOf(ctx, p.w.t.meta)
		if err != nil {
			return nil, err
		}
		p.base, p.baseLoaded = s, true
		if s != nil && s.IndexManifest != nil && p.mode == bucketDynamic {
			if p.baseIndex, err = p.w.t.meta.ReadIndexManifest(ctx, *s.IndexManifest); err != nil {
				return nil, err
			}
		}
	}
	rs := &partRestore{maxSeq: map[int32]int64{}, hashFiles: map[int32]manifest.IndexFileMeta{}}
	serialized := binaryrow.MarshalSerialized([]byte(partKey), len(p.w.partTypes))
	if p.base != nil {
		live, err := liveEntries(ctx, p.w.t.meta, p.cache, p.base, func(b []byte) (bool, error) {
			return string(b) == string(serialized), nil
		})
		if err != nil {
			return nil, err
		}
		want := int32(p.numBuckets)
		if p.mode == bucketDynamic {
			want = -1
		}
		for _, e := range live {
			if e.Bucket == postponeBucket {
				continue
			}
			if e.TotalBuckets != want {
				return nil, fmt.Errorf("%w: %s was written with %d buckets and the table now has %d; "+
					"rescale it by overwriting the partition first", ErrSchemaChanged, p.partitionName(serialized), e.TotalBuckets, want)
			}
			if m, ok := rs.maxSeq[e.Bucket]; !ok || e.File.MaxSequenceNumber > m {
				rs.maxSeq[e.Bucket] = e.File.MaxSequenceNumber
			}
		}
	}
	if p.mode == bucketDynamic {
		var files []hashIndexFile
		for _, e := range p.baseIndex {
			if e.IndexFile.IndexType != manifest.IndexTypeHash || string(e.Partition) != string(serialized) {
				continue
			}
			hs, err := p.w.t.meta.ReadHashIndex(ctx, e.IndexFile)
			if err != nil {
				return nil, err
			}
			files = append(files, hashIndexFile{bucket: e.Bucket, hashes: hs})
			rs.hashFiles[e.Bucket] = e.IndexFile
			rs.indexFiles = append(rs.indexFiles, e.IndexFile.FileName)
		}
		sort.Strings(rs.indexFiles)
		p.assigner.load(partKey, files)
	}
	p.parts[partKey] = rs
	return rs, nil
}

func (p *pkWriter) partitionName(serialized []byte) string {
	if len(p.w.partIdx) == 0 {
		return "the table"
	}
	vals, err := p.w.pather.values(serialized)
	if err != nil {
		return "a partition"
	}
	path, err := p.w.pather.path(vals)
	if err != nil {
		return "a partition"
	}
	return "partition " + path
}

// flushBuckets writes out the buffered rows of every bucket before
// PrepareCommit collects their files, several buckets at once (up to the
// writer's worker count). A flush sorts and merges on its goroutine while
// another encodes the output, so flushing one bucket after another left a
// core idle: in the suite's pk-write, four buckets' flushes at
// PrepareCommit took 1.9 s of the 7 s. Each bucket's writer is its own
// (buffer, file names, files); they share only the off-heap page pool,
// which is safe for concurrent use. The first error is returned; the
// other flushes still finish, and their files go with the writer's Close.
func (p *pkWriter) flushBuckets(ctx context.Context) error {
	var todo []*mergetree.Writer
	for _, key := range p.order {
		if b := p.buckets[key]; b.lsm != nil && b.lsm.Buffered() > 0 {
			todo = append(todo, b.lsm)
		}
	}
	workers := p.w.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(todo))
	if workers <= 1 {
		for _, lsm := range todo {
			if err := lsm.Flush(ctx); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, len(todo))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(todo) {
					return
				}
				errs[i] = todo[i].Flush(ctx)
			}
		})
	}
	wg.Wait()
	return firstError(ctx, errs)
}

// prepareCommit flushes every bucket and returns one message per bucket
// with new files.
func (p *pkWriter) prepareCommit(ctx context.Context) ([]CommitMessage, error) {
	if p.failed != nil {
		return nil, p.failed
	}
	var msgs []CommitMessage
	total := int32(p.numBuckets)
	switch p.mode {
	case bucketDynamic:
		total = -1
	case bucketPostpone:
		total = postponeBucket
	}
	fail := func(err error) ([]CommitMessage, error) {
		p.failed = err
		for i := range msgs {
			_ = p.removeMessage(context.WithoutCancel(ctx), &msgs[i])
		}
		return nil, err
	}
	// Every message of a partition names the index files the partition had
	// before this commit; the new ones become the base of the next.
	bases := map[string][]string{}
	for k, rs := range p.parts {
		bases[k] = slices.Clone(rs.indexFiles)
	}
	if err := p.flushBuckets(ctx); err != nil {
		return fail(err)
	}
	for _, key := range p.order {
		b := p.buckets[key]
		m := CommitMessage{Partition: b.partition, Bucket: b.bucket, TotalBuckets: total}
		switch {
		case b.post != nil:
			files, err := b.post.Close(ctx)
			if err != nil {
				_ = b.post.Abort(context.WithoutCancel(ctx))
				b.post = nil
				return fail(err)
			}
			b.post = nil
			m.NewFiles = files
		case b.lsm != nil:
			data, log, err := b.lsm.PrepareCommit(ctx)
			if err != nil {
				return fail(err)
			}
			m.NewFiles, m.ChangelogFiles = data, log
		}
		if b.hashes != nil && b.hashesChanged {
			f, err := p.writeHashIndex(ctx, b)
			if err != nil {
				msgs = append(msgs, m)
				return fail(err)
			}
			m.NewIndexFiles = []manifest.IndexFileMeta{f}
			m.IndexBase = bases[b.partKey]
			if m.IndexBase == nil {
				m.IndexBase = []string{}
			}
			b.hashesChanged = false
			rs := p.parts[b.partKey]
			if old, ok := rs.hashFiles[b.bucket]; ok {
				rs.indexFiles = slices.DeleteFunc(rs.indexFiles, func(n string) bool { return n == old.FileName })
			}
			rs.hashFiles[b.bucket] = f
			rs.indexFiles = append(rs.indexFiles, f.FileName)
			sort.Strings(rs.indexFiles)
		}
		if len(m.NewFiles) == 0 && len(m.ChangelogFiles) == 0 && len(m.NewIndexFiles) == 0 {
			continue
		}
		msgs = append(msgs, m)
	}
	if p.full != nil {
		out, err := p.full.afterPrepare(ctx, p.w, msgs)
		if err != nil {
			return fail(err)
		}
		msgs = out
	}
	return msgs, nil
}

// writeHashIndex writes a bucket's key hashes as a new HASH index file
// (DynamicBucketIndexMaintainer.prepareCommit), named as Java names index
// files: index-<uuid>-<n> in the table's index directory.
func (p *pkWriter) writeHashIndex(ctx context.Context, b *pkBucket) (manifest.IndexFileMeta, error) {
	hashes := make([]int32, 0, len(b.hashes))
	for h := range b.hashes {
		hashes = append(hashes, h)
	}
	slices.Sort(hashes)
	name := p.indexNames.Next("index-", "")
	body := index.EncodeHashIndex(hashes)
	path := p.w.t.meta.IndexPath(name)
	if err := fs.WriteFile(ctx, p.w.t.meta.fsys, path, body, &fs.CreateOptions{IfNotExist: true}); err != nil {
		// A failed close may still have published the file (the name is
		// ours alone): remove it, or it stays an orphan.
		if rerr := ignoreMissing(p.w.t.meta.fsys.Remove(context.WithoutCancel(ctx), path)); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return manifest.IndexFileMeta{}, fmt.Errorf("paimon: write hash index %s: %w", name, err)
	}
	return manifest.IndexFileMeta{IndexType: manifest.IndexTypeHash, FileName: name, FileSize: int64(len(body)), RowCount: int64(len(hashes))}, nil
}

// removeMessage deletes the files of a message that will not be handed out.
func (p *pkWriter) removeMessage(ctx context.Context, m *CommitMessage) error {
	var errs []error
	dir := ""
	for _, key := range p.order {
		if b := p.buckets[key]; b.bucket == m.Bucket && string(b.partition) == string(m.Partition) {
			dir = b.dir
		}
	}
	for _, list := range [][]manifest.DataFileMeta{m.NewFiles, m.ChangelogFiles} {
		for _, f := range list {
			errs = append(errs, ignoreMissing(p.w.t.meta.fsys.Remove(ctx, dir+"/"+f.FileName)))
			for _, x := range f.ExtraFiles { // its separate file index
				errs = append(errs, ignoreMissing(p.w.t.meta.fsys.Remove(ctx, dir+"/"+x)))
			}
		}
	}
	for _, f := range m.NewIndexFiles {
		errs = append(errs, ignoreMissing(p.w.t.meta.fsys.Remove(ctx, p.w.t.meta.IndexPath(f.FileName))))
	}
	return errors.Join(errs...)
}

func ignoreMissing(err error) error {
	if errors.Is(err, iofs.ErrNotExist) {
		return nil
	}
	return err
}

// close aborts every bucket: buffered rows are dropped and the files written
// since the last prepareCommit removed.
func (p *pkWriter) close(ctx context.Context) error {
	var errs []error
	for _, key := range p.order {
		b := p.buckets[key]
		if b.lsm != nil {
			errs = append(errs, b.lsm.Abort(ctx))
			b.lsm.Close()
		}
		if b.post != nil {
			errs = append(errs, b.post.Abort(ctx))
			b.post = nil
		}
	}
	p.pool.Release()
	return errors.Join(errs...)
}

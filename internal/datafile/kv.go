package datafile

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// KeyValue makes a Writer write the key-value data files of a primary-key
// table, as Java's KeyValueFileWriterFactory and KeyValueDataFileWriter do,
// instead of an append table's files.
//
// The batches given to Write then hold _SEQUENCE_NUMBER, _VALUE_KIND and
// every field of the table, in that order (mergetree.ReadFields), sorted by
// primary key: the Writer does not sort, it trusts the order as Java's
// writer does, and takes each file's minimum and maximum key from its first
// and last row. Files hold the _KEY_ columns of the trimmed primary key
// before those (KeyValue.createKeyValueFields), unless the table sets
// data-file.thin-mode.
//
// Each file is described as KeyValueDataFileWriter.result does: min and max
// key, key statistics (every key column, not dense), value statistics (the
// table fields, dense per metadata.stats-dense-store), the smallest and
// largest sequence number of its rows, the count of -U and -D rows, the
// level and the file source.
type KeyValue struct {
	// Level is the LSM level of the files (0 for new writes).
	Level int32
	// Changelog writes changelog files (changelog-file.prefix and the
	// changelog-file.format, .compression and .stats-mode options) instead
	// of data files.
	Changelog bool
	// Source is the files' _FILE_SOURCE: FileSourceAppend for writes,
	// FileSourceCompact for compaction output.
	Source manifest.FileSource
}

const optThinMode = coreoptions.DataFileThinMode

// layout describes the batches a Writer takes and the files it writes.
type layout struct {
	kv         *KeyValue          // nil for append tables
	inFields   []schema.DataField // columns of the batches Write takes
	fileFields []schema.DataField // columns of the files
	keyIdx     []int              // trimmed primary key among the table fields
	keyTypes   []schema.DataType
	keyFields  []schema.DataField
	thin       bool
	thinKeys   []string // value columns that are keys, in thin mode
	// blobIdx and normIdx are the input columns that go to .blob files
	// and to the data file, when the table has BLOB columns (blob.go).
	blobIdx, normIdx []int
}

func appendLayout(ts *schema.TableSchema) *layout {
	l := &layout{inFields: ts.Fields, fileFields: ts.Fields}
	blobLayout(l)
	return l
}

// kvSystemCols is the number of system columns before the table fields in
// the batches a key-value Writer takes.
const kvSystemCols = 2

func newKVLayout(ts *schema.TableSchema, kv *KeyValue) (*layout, error) {
	if len(ts.PrimaryKeys) == 0 {
		return nil, fmt.Errorf("%w: key-value files of table schema %d, which has no primary key", ErrInvalid, ts.ID)
	}
	keys := ts.TrimmedPrimaryKeyFields()
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: table schema %d has no primary key beyond its partition keys", ErrInvalid, ts.ID)
	}
	thin, err := boolOption(ts.Options, optThinMode, false)
	if err != nil {
		return nil, err
	}
	l := &layout{kv: kv, thin: thin, keyFields: keys}
	l.inFields = append(l.inFields, schema.SequenceNumberField(), schema.ValueKindField())
	for _, f := range ts.Fields {
		l.inFields = append(l.inFields, f.Clone())
	}
	for _, k := range keys {
		i := ts.FieldIndexByID(k.ID)
		if i < 0 {
			return nil, fmt.Errorf("%w: primary key %q is not a field of schema %d", ErrInvalid, k.Name, ts.ID)
		}
		l.keyIdx = append(l.keyIdx, i)
		l.keyTypes = append(l.keyTypes, k.Type)
		if thin {
			l.thinKeys = append(l.thinKeys, k.Name)
		}
	}
	if thin {
		l.fileFields = l.inFields
		return l, nil
	}
	for _, k := range keys {
		l.fileFields = append(l.fileFields, schema.KeyField(k))
	}
	l.fileFields = append(l.fileFields, l.inFields...)
	return l, nil
}

// keyCols is the number of _KEY_ columns in the files.
func (l *layout) keyCols() int { return len(l.fileFields) - len(l.inFields) }

// fileBatch turns a batch of the input layout into the file layout: the
// key columns are the same arrays as the value columns of the key fields.
// The result must be released.
func (l *layout) fileBatch(sc *arrow.Schema, in arrow.RecordBatch) arrow.RecordBatch {
	if l.kv == nil && len(l.blobIdx) > 0 {
		return project(sc, in, l.normIdx)
	}
	if l.kv == nil || l.keyCols() == 0 {
		in.Retain()
		return in
	}
	cols := make([]arrow.Array, 0, len(l.fileFields))
	for _, i := range l.keyIdx {
		cols = append(cols, in.Column(kvSystemCols+i))
	}
	cols = append(cols, in.Columns()...)
	return array.NewRecordBatch(sc, cols, in.NumRows())
}

// kvTracker gathers what a key-value file's meta needs beyond statistics.
type kvTracker struct {
	l       *layout
	minKey  []byte // serialized BinaryRow of the first row's key
	lastKey []any
	minSeq  int64
	maxSeq  int64
	deletes int64
}

// check refuses input a key-value file cannot hold: NULL or out-of-range
// system values. It runs before anything is written.
func (l *layout) check(in arrow.RecordBatch) error {
	if l.kv == nil {
		return nil
	}
	seq := in.Column(0)
	kinds := in.Column(1).(*array.Int8)
	if seq.NullN() > 0 || kinds.NullN() > 0 {
		return fmt.Errorf("%w: NULL in %s or %s", ErrInvalid, schema.SequenceNumberName, schema.ValueKindName)
	}
	for i, k := range kinds.Int8Values() {
		if k < int8(data.Insert) || k > int8(data.Delete) {
			return fmt.Errorf("%w: row %d has %s %d", ErrInvalid, i, schema.ValueKindName, k)
		}
	}
	for _, i := range l.keyIdx {
		if c := in.Column(kvSystemCols + i); c.NullN() > 0 {
			return fmt.Errorf("%w: primary-key column %s has %d NULLs", ErrInvalid, l.inFields[kvSystemCols+i].Name, c.NullN())
		}
	}
	return nil
}

func (k *kvTracker) add(in arrow.RecordBatch) error {
	n := int(in.NumRows())
	if n == 0 {
		return nil
	}
	seqs := in.Column(0).(*array.Int64).Int64Values()
	if k.minKey == nil {
		k.minSeq, k.maxSeq = seqs[0], seqs[0]
	}
	for _, s := range seqs {
		k.minSeq = min(k.minSeq, s)
		k.maxSeq = max(k.maxSeq, s)
	}
	for _, kind := range in.Column(1).(*array.Int8).Int8Values() {
		if data.RowKind(kind).IsRetract() {
			k.deletes++
		}
	}
	if k.minKey == nil {
		vals, err := k.keyAt(in, 0)
		if err != nil {
			return err
		}
		row, err := binaryrow.Encode(data.Insert, k.l.keyTypes, vals)
		if err != nil {
			return fmt.Errorf("datafile: encode min key: %w", err)
		}
		k.minKey = binaryrow.MarshalSerialized(row, len(vals))
	}
	last, err := k.keyAt(in, n-1)
	if err != nil {
		return err
	}
	k.lastKey = last
	return nil
}

func (k *kvTracker) keyAt(in arrow.RecordBatch, row int) ([]any, error) {
	out := make([]any, len(k.l.keyIdx))
	for j, i := range k.l.keyIdx {
		v, err := parquet.ArrowValue(in.Column(kvSystemCols+i), row, k.l.keyTypes[j])
		if err != nil {
			return nil, fmt.Errorf("datafile: key of row %d: %w", row, err)
		}
		out[j] = v
	}
	return out, nil
}

// meta completes a key-value file's DataFileMeta (DataFileMeta.create as
// KeyValueDataFileWriter.result calls it) from its column statistics.
func (k *kvTracker) meta(base manifest.DataFileMeta, cols []colStats, dense bool) (manifest.DataFileMeta, error) {
	l := k.l
	maxRow, err := binaryrow.Encode(data.Insert, l.keyTypes, k.lastKey)
	if err != nil {
		return base, fmt.Errorf("datafile: encode max key: %w", err)
	}
	valueCols := cols[l.keyCols()+kvSystemCols:]
	valueFields := l.fileFields[l.keyCols()+kvSystemCols:]
	keyStats := make([]colStats, len(l.keyIdx))
	if l.keyCols() > 0 {
		copy(keyStats, cols[:l.keyCols()])
	} else {
		for j, i := range l.keyIdx {
			keyStats[j] = valueCols[i]
		}
	}
	ks, err := toBinaryAll(l.keyFields, keyStats)
	if err != nil {
		return base, err
	}
	vs, names, err := toBinary(valueFields, valueCols, dense)
	if err != nil {
		return base, err
	}
	deletes := k.deletes
	source := l.kv.Source
	base.MinKey = k.minKey
	base.MaxKey = binaryrow.MarshalSerialized(maxRow, len(k.lastKey))
	base.KeyStats = ks
	base.ValueStats = vs
	base.ValueStatsCols = names
	base.MinSequenceNumber = k.minSeq
	base.MaxSequenceNumber = k.maxSeq
	base.Level = l.kv.Level
	base.DeleteRowCount = &deletes
	base.FileSource = &source
	return base, nil
}

// toBinaryAll serializes statistics as SimpleStatsConverter.toBinaryAllMode:
// every column, unknown values as NULL.
func toBinaryAll(fields []schema.DataField, stats []colStats) (manifest.SimpleStats, error) {
	types := make([]schema.DataType, len(fields))
	mins := make([]any, len(fields))
	maxs := make([]any, len(fields))
	nulls := make([]*int64, len(fields))
	for i, f := range fields {
		types[i] = f.Type.Copy(true)
		mins[i], maxs[i], nulls[i] = stats[i].min, stats[i].max, stats[i].nullCount
	}
	return encodeStats(types, mins, maxs, nulls)
}

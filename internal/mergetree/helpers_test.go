package mergetree_test

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// kv is one KeyValue row of a test data file: values are the table's fields.
type kv struct {
	seq    int64
	kind   data.RowKind
	values []any
}

// memFile is a data file held in memory as batches of ReadFields.
type memFile struct {
	meta    manifest.DataFileMeta
	batches []arrow.RecordBatch
}

// memTable serves data files from memory through an OpenFunc.
type memTable struct {
	ts     *schema.TableSchema
	files  map[string]*memFile
	opens  atomic.Int64
	active atomic.Int64 // readers started and not finished (runs may read ahead on goroutines of their own)
}

func newMemTable(ts *schema.TableSchema) *memTable {
	return &memTable{ts: ts, files: map[string]*memFile{}}
}

func (m *memTable) release() {
	for _, f := range m.files {
		for _, b := range f.batches {
			b.Release()
		}
	}
}

// serializedKey encodes a key as a manifest's _MIN_KEY/_MAX_KEY.
func serializedKey(t testing.TB, types []schema.DataType, key []any) []byte {
	t.Helper()
	b, err := binaryrow.Encode(data.Insert, types, key)
	require.NoError(t, err)
	return binaryrow.MarshalSerialized(b, len(types))
}

// keyOf returns the trimmed primary key of a value row.
func keyOf(ts *schema.TableSchema, values []any) []any {
	var key []any
	for _, f := range ts.TrimmedPrimaryKeyFields() {
		key = append(key, values[ts.FieldIndexByID(f.ID)])
	}
	return key
}

func keyTypes(ts *schema.TableSchema) []schema.DataType {
	var out []schema.DataType
	for _, f := range ts.TrimmedPrimaryKeyFields() {
		out = append(out, f.Type)
	}
	return out
}

// addFile stores rows (sorted by key) as a data file cut into batches of at
// most batch rows.
func (m *memTable) addFile(t testing.TB, mem memory.Allocator, name string, rows []kv, batch int) manifest.DataFileMeta {
	t.Helper()
	require.NotEmpty(t, rows)
	kt := keyTypes(m.ts)
	f := &memFile{meta: manifest.DataFileMeta{
		FileName: name,
		RowCount: int64(len(rows)),
		MinKey:   serializedKey(t, kt, keyOf(m.ts, rows[0].values)),
		MaxKey:   serializedKey(t, kt, keyOf(m.ts, rows[len(rows)-1].values)),
	}}
	fields := mergetree.ReadFields(m.ts)
	sc, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	for lo := 0; lo < len(rows); lo += batch {
		b := array.NewRecordBuilder(mem, sc)
		for _, r := range rows[lo:min(lo+batch, len(rows))] {
			b.Field(0).(*array.Int64Builder).Append(r.seq)
			b.Field(1).(*array.Int8Builder).Append(int8(r.kind))
			for i, f := range m.ts.Fields {
				require.NoError(t, arrowrow.AppendValue(b.Field(2+i), f.Type, r.values[i]))
			}
		}
		f.batches = append(f.batches, b.NewRecordBatch())
		b.Release()
	}
	m.files[name] = f
	return f.meta
}

// open is the memTable's OpenFunc: each batch is handed over with a
// reference of its own, as a file reader would.
func (m *memTable) open(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		m.opens.Add(1)
		m.active.Add(1)
		defer m.active.Add(-1)
		mf, ok := m.files[f.FileName]
		if !ok {
			yield(nil, fmt.Errorf("no file %s", f.FileName))
			return
		}
		for _, b := range mf.batches {
			b.Retain()
			if !yield(b, nil) {
				return
			}
		}
	}
}

// readAll runs Read and renders the output as canon-v1 lines (with the
// rowkind column first when kept), in output order.
func readAll(t testing.TB, files []manifest.DataFileMeta, open mergetree.OpenFunc, opts *mergetree.Options) ([]string, error) {
	t.Helper()
	var out []string
	for rec, err := range mergetree.Read(context.Background(), files, open, opts) {
		if err != nil {
			return out, err
		}
		fields := mergetree.OutputFields(opts.Schema, opts.KeepDeletes)
		if opts.BatchSize > 0 && rec.NumRows() > int64(opts.BatchSize) {
			rec.Release()
			return out, fmt.Errorf("batch of %d rows, BatchSize %d", rec.NumRows(), opts.BatchSize)
		}
		lines, err := renderBatch(rec, fields)
		rec.Release()
		if err != nil {
			return out, err
		}
		out = append(out, lines...)
	}
	return out, nil
}

// renderBatch renders the rows of a batch as canon-v1 lines.
func renderBatch(rec arrow.RecordBatch, fields []schema.DataField) ([]string, error) {
	want, err := schema.ToArrowSchema(fields)
	if err != nil {
		return nil, err
	}
	if !rec.Schema().Equal(want) {
		return nil, fmt.Errorf("batch schema %s, want %s", rec.Schema(), want)
	}
	var out []string
	for i := 0; i < int(rec.NumRows()); i++ {
		vals := make([]any, len(fields))
		for c, f := range fields {
			v, err := parquet.ArrowValue(rec.Column(c), i, f.Type)
			if err != nil {
				return nil, err
			}
			vals[c] = v
		}
		line, err := canon.EncodeRow(fields, vals)
		if err != nil {
			return nil, err
		}
		out = append(out, string(line))
	}
	return out, nil
}

// renderRows renders expected rows like renderBatch.
func renderRows(t testing.TB, ts *schema.TableSchema, keep bool, rows []kv) []string {
	t.Helper()
	fields := mergetree.OutputFields(ts, keep)
	var out []string
	for _, r := range rows {
		vals := r.values
		if keep {
			vals = append([]any{r.kind.String()}, vals...)
		}
		line, err := canon.EncodeRow(fields, vals)
		require.NoError(t, err)
		out = append(out, string(line))
	}
	return out
}

// dedupFunc is the deduplicate engine: the last version wins (Java
// DeduplicateMergeFunction without ignore-delete). It is a Selector.
type dedupFunc struct {
	last *mergefunc.Row
	n    int
	sel  int
}

func (d *dedupFunc) Reset()                          { d.last, d.n, d.sel = nil, 0, -1 }
func (d *dedupFunc) Add(r *mergefunc.Row) error      { d.last, d.sel = r, d.n; d.n++; return nil }
func (d *dedupFunc) Result() (*mergefunc.Row, error) { return d.last, nil }
func (d *dedupFunc) Selected() int                   { return d.sel }

// firstRowFunc keeps the first version that is not a retraction (Java
// FirstRowMergeFunction with ignore-delete). It is a Selector.
type firstRowFunc struct {
	first *mergefunc.Row
	n     int
	sel   int
}

func (f *firstRowFunc) Reset() { f.first, f.n, f.sel = nil, 0, -1 }
func (f *firstRowFunc) Add(r *mergefunc.Row) error {
	if f.first == nil && !r.Kind.IsRetract() {
		f.first, f.sel = r, f.n
	}
	f.n++
	return nil
}
func (f *firstRowFunc) Result() (*mergefunc.Row, error) { return f.first, nil }
func (f *firstRowFunc) Selected() int                   { return f.sel }

// sumFunc computes a row: the last version, with field sumField replaced by
// the sum of that field over the versions (NULLs skipped; NULL if all are).
// It exercises the value path of Read.
type sumFunc struct {
	field int
	last  *mergefunc.Row
	sum   int32
	any   bool
}

func (s *sumFunc) Reset() { s.last, s.sum, s.any = nil, 0, false }
func (s *sumFunc) Add(r *mergefunc.Row) error {
	if r.Values == nil {
		return fmt.Errorf("sumFunc needs values")
	}
	s.last = r
	if v, ok := r.Values[s.field].(int32); ok {
		s.sum += v
		s.any = true
	}
	return nil
}

func (s *sumFunc) Result() (*mergefunc.Row, error) {
	out := &mergefunc.Row{Seq: s.last.Seq, Kind: s.last.Kind, Values: append([]any(nil), s.last.Values...)}
	out.Values[s.field] = nil
	if s.any {
		out.Values[s.field] = s.sum
	}
	return out, nil
}

// factory adapts a constructor to mergefunc.Factory.
type factory func() mergefunc.Function

func (f factory) New() mergefunc.Function { return f() }

// hidden hides the Selector methods of a function, forcing the value path.
type hidden struct{ mergefunc.Function }

func dedupFactory() mergefunc.Factory {
	return factory(func() mergefunc.Function { return &dedupFunc{} })
}

func hiddenDedupFactory() mergefunc.Factory {
	return factory(func() mergefunc.Function { return hidden{&dedupFunc{}} })
}

// checked returns a checked allocator that the test verifies at cleanup.
func checked(t testing.TB) *memcheck.Allocator {
	mem := memcheck.New()
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// diff renders two line lists for a failure message.
func diff(want, got []string) string {
	return "want:\n  " + strings.Join(want, "\n  ") + "\ngot:\n  " + strings.Join(got, "\n  ")
}

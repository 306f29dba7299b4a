package mergetree_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

func kvTable(t testing.TB) *schema.TableSchema {
	return buildSchema(t, schema.NewSchemaBuilder().
		Column("k", schema.IntType()).Column("v", schema.StringType()).PrimaryKey("k"))
}

func row(seq int64, kind data.RowKind, k int32, v any) kv {
	return kv{seq: seq, kind: kind, values: []any{k, v}}
}

// TestRead runs scripted buckets through Read with the deduplicate engine.
func TestRead(t *testing.T) {
	I, UB, UA, D := data.Insert, data.UpdateBefore, data.UpdateAfter, data.Delete
	tests := []struct {
		name  string
		runs  [][][]kv // files of each sorted run
		keep  bool
		batch int
		want  []string
	}{
		{
			name: "single run drops retractions",
			runs: [][][]kv{{{row(1, I, 1, "a"), row(2, D, 2, "b"), row(3, UA, 3, "c"), row(4, UB, 4, "d")}}},
			want: []string{`{"k":1,"v":"a"}`, `{"k":3,"v":"c"}`},
		},
		{
			name: "single run keeps retractions for the audit log",
			runs: [][][]kv{{{row(1, I, 1, "a"), row(2, D, 2, "b")}}},
			keep: true,
			want: []string{`{"rowkind":"+I","k":1,"v":"a"}`, `{"rowkind":"-D","k":2,"v":"b"}`},
		},
		{
			name: "single run of only deletes",
			runs: [][][]kv{{{row(1, D, 1, "a"), row(2, D, 2, "b")}}},
			want: nil,
		},
		{
			name:  "single run sliced to the batch size",
			runs:  [][][]kv{{{row(1, I, 1, "a"), row(2, I, 2, "b"), row(3, I, 3, "c")}}},
			batch: 2,
			want:  []string{`{"k":1,"v":"a"}`, `{"k":2,"v":"b"}`, `{"k":3,"v":"c"}`},
		},
		{
			name: "newest version wins",
			runs: [][][]kv{
				{{row(1, I, 1, "old"), row(2, I, 2, "keep")}},
				{{row(5, UA, 1, "new")}},
			},
			want: []string{`{"k":1,"v":"new"}`, `{"k":2,"v":"keep"}`},
		},
		{
			name: "sequence number decides, not run order",
			runs: [][][]kv{
				{{row(9, I, 1, "newest")}},
				{{row(5, I, 1, "older")}},
				{{row(7, I, 1, "middle")}},
			},
			want: []string{`{"k":1,"v":"newest"}`},
		},
		{
			name: "delete removes the key",
			runs: [][][]kv{
				{{row(1, I, 1, "a"), row(2, I, 2, "b")}},
				{{row(3, D, 1, "a")}},
			},
			want: []string{`{"k":2,"v":"b"}`},
		},
		{
			name: "audit log keeps the delete result",
			runs: [][][]kv{
				{{row(1, I, 1, "a"), row(2, I, 2, "b")}},
				{{row(3, D, 1, nil), row(4, UA, 2, "b2")}},
			},
			keep: true,
			want: []string{`{"rowkind":"-D","k":1,"v":null}`, `{"rowkind":"+U","k":2,"v":"b2"}`},
		},
		{
			name: "lone retraction in a merged section",
			runs: [][][]kv{
				{{row(1, I, 1, "a"), row(2, UB, 3, "x")}},
				{{row(3, I, 2, "b")}},
			},
			want: []string{`{"k":1,"v":"a"}`, `{"k":2,"v":"b"}`},
		},
		{
			name: "several files per run and several sections",
			runs: [][][]kv{
				{{row(1, I, 1, "a")}, {row(2, I, 3, "c")}, {row(3, I, 10, "x")}},
				{{row(4, UA, 3, "c2")}, {row(5, I, 4, "d")}},
			},
			batch: 1,
			want:  []string{`{"k":1,"v":"a"}`, `{"k":3,"v":"c2"}`, `{"k":4,"v":"d"}`, `{"k":10,"v":"x"}`},
		},
	}
	for _, tt := range tests {
		for _, merge := range []struct {
			name string
			f    mergefunc.Factory
		}{{"selector", dedupFactory()}, {"values", hiddenDedupFactory()}} {
			t.Run(tt.name+"/"+merge.name, func(t *testing.T) {
				mem := checked(t)
				ts := kvTable(t)
				m := newMemTable(ts)
				defer m.release()
				var files []manifest.DataFileMeta
				for i, run := range tt.runs {
					for j, f := range run {
						files = append(files, m.addFile(t, mem, string(rune('a'+i))+string(rune('0'+j)), f, 2))
					}
				}
				got, err := readAll(t, files, m.open, &mergetree.Options{
					Schema: ts, Merge: merge.f, KeepDeletes: tt.keep, BatchSize: tt.batch, Allocator: mem,
				})
				require.NoError(t, err)
				var want []string
				for _, line := range tt.want {
					c, err := canon.Canonicalize([]byte(line))
					require.NoError(t, err)
					want = append(want, c)
				}
				require.Equal(t, want, got)
			})
		}
	}
}

// TestReadSequenceField orders versions by sequence.field before the
// sequence number, NULL first, in both directions.
func TestReadSequenceField(t *testing.T) {
	ts := buildSchema(t, schema.NewSchemaBuilder().
		Column("k", schema.IntType()).Column("v", schema.StringType()).Column("ts", schema.BigIntType()).PrimaryKey("k"))
	r := func(seq int64, v string, sf any) kv {
		return kv{seq: seq, kind: data.Insert, values: []any{int32(1), v, sf}}
	}
	tests := []struct {
		name string
		desc bool
		runs [][]kv
		want string
	}{
		{"ascending: largest field wins over newer", false, [][]kv{{r(1, "big", int64(9))}, {r(2, "small", int64(3))}}, "big"},
		{"ascending: tie falls back to sequence", false, [][]kv{{r(2, "newer", int64(3))}, {r(1, "older", int64(3))}}, "newer"},
		{"ascending: NULL is oldest", false, [][]kv{{r(1, "set", int64(0))}, {r(2, "null", nil)}}, "set"},
		{"descending: smallest field wins", true, [][]kv{{r(1, "big", int64(9))}, {r(2, "small", int64(3))}}, "small"},
		{"descending: NULL is still oldest", true, [][]kv{{r(1, "set", int64(5))}, {r(2, "null", nil)}}, "set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			m := newMemTable(ts)
			defer m.release()
			var files []manifest.DataFileMeta
			for i, run := range tt.runs {
				files = append(files, m.addFile(t, mem, string(rune('a'+i)), run, 4))
			}
			got, err := readAll(t, files, m.open, &mergetree.Options{
				Schema: ts, Merge: dedupFactory(), SequenceFields: []int{2}, SequenceDescending: tt.desc, Allocator: mem,
			})
			require.NoError(t, err)
			require.Len(t, got, 1)
			require.Contains(t, got[0], `"v":"`+tt.want+`"`)
		})
	}
}

// badFunc is a merge function that misbehaves in a chosen way.
type badFunc struct {
	addErr   error
	selected int
	result   *mergefunc.Row
}

func (b *badFunc) Reset()                          {}
func (b *badFunc) Add(*mergefunc.Row) error        { return b.addErr }
func (b *badFunc) Result() (*mergefunc.Row, error) { return b.result, nil }

type badSelector struct{ badFunc }

func (b *badSelector) Selected() int { return b.selected }

func TestReadErrors(t *testing.T) {
	ts := kvTable(t)
	appendTable := buildSchema(t, schema.NewSchemaBuilder().Column("a", schema.IntType()))
	mapTable := buildSchema(t, schema.NewSchemaBuilder().
		Column("k", schema.IntType()).Column("m", schema.MapType(schema.IntType().NotNull(), schema.IntType())).PrimaryKey("k"))
	errAdd := errors.New("add failed")
	tests := []struct {
		name  string
		opts  func(*mergetree.Options)
		open  func(m *memTable) mergetree.OpenFunc
		check func(t *testing.T, err error)
	}{
		{"nil schema", func(o *mergetree.Options) { o.Schema = nil }, nil, isErr(mergetree.ErrInvalid)},
		{"append table", func(o *mergetree.Options) { o.Schema = appendTable }, nil, isErr(mergetree.ErrInvalid)},
		{"nil merge", func(o *mergetree.Options) { o.Merge = nil }, nil, isErr(mergetree.ErrInvalid)},
		{"nil open", nil, func(*memTable) mergetree.OpenFunc { return nil }, isErr(mergetree.ErrInvalid)},
		{"sequence field out of range", func(o *mergetree.Options) { o.SequenceFields = []int{2} }, nil, isErr(mergetree.ErrInvalid)},
		{"map sequence field", func(o *mergetree.Options) { o.Schema, o.SequenceFields = mapTable, []int{1} }, nil, isErr(mergetree.ErrUnsupported)},
		{"merge Add error", func(o *mergetree.Options) {
			o.Merge = factory(func() mergefunc.Function { return &badFunc{addErr: errAdd} })
		}, nil, isErr(errAdd)},
		{"selected out of range", func(o *mergetree.Options) {
			o.Merge = factory(func() mergefunc.Function { return &badSelector{badFunc{selected: 5}} })
		}, nil, isErr(mergetree.ErrInvalid)},
		{"result arity", func(o *mergetree.Options) {
			o.Merge = factory(func() mergefunc.Function { return &badFunc{result: &mergefunc.Row{Values: []any{int32(1)}}} })
		}, nil, isErr(mergetree.ErrInvalid)},
		{"result value type", func(o *mergetree.Options) {
			o.Merge = factory(func() mergefunc.Function { return &badFunc{result: &mergefunc.Row{Values: []any{"x", "y"}}} })
		}, nil, isErr(arrowrow.ErrMismatch)},
		{"open error passes through", nil, func(*memTable) mergetree.OpenFunc {
			return func(context.Context, *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
				return func(yield func(arrow.RecordBatch, error) bool) { yield(nil, errAdd) }
			}
		}, isErr(errAdd)},
		{"batch of other columns", nil, func(m *memTable) mergetree.OpenFunc {
			return withBatch(m, func(mem memory.Allocator, rec arrow.RecordBatch) arrow.RecordBatch {
				return rec.NewSlice(0, rec.NumRows())
			}, true)
		}, isCorrupt("batch has 2 columns")},
		{"unknown value kind", nil, func(m *memTable) mergetree.OpenFunc {
			return withBatch(m, func(mem memory.Allocator, rec arrow.RecordBatch) arrow.RecordBatch {
				return replaceColumn(mem, rec, 1, func(b array.Builder, i int) { b.(*array.Int8Builder).Append(7) })
			}, false)
		}, isCorrupt("_VALUE_KIND 7")},
		{"NULL sequence number", nil, func(m *memTable) mergetree.OpenFunc {
			return withBatch(m, func(mem memory.Allocator, rec arrow.RecordBatch) arrow.RecordBatch {
				return replaceColumn(mem, rec, 0, func(b array.Builder, i int) { b.AppendNull() })
			}, false)
		}, isCorrupt("NULL in _SEQUENCE_NUMBER")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			m := newMemTable(ts)
			defer m.release()
			files := []manifest.DataFileMeta{
				m.addFile(t, mem, "f1", []kv{row(1, data.Insert, 1, "a")}, 4),
				m.addFile(t, mem, "f2", []kv{row(2, data.Insert, 1, "b")}, 4),
			}
			opts := &mergetree.Options{Schema: ts, Merge: dedupFactory(), Allocator: mem}
			if tt.opts != nil {
				tt.opts(opts)
			}
			open := mergetree.OpenFunc(m.open)
			if tt.open != nil {
				open = tt.open(m)
			}
			_, err := readAll(t, files, open, opts)
			tt.check(t, err)
		})
	}
}

func isErr(target error) func(t *testing.T, err error) {
	return func(t *testing.T, err error) { require.ErrorIs(t, err, target) }
}

func isCorrupt(msg string) func(t *testing.T, err error) {
	return func(t *testing.T, err error) {
		require.ErrorIs(t, err, mergetree.ErrCorrupt)
		require.ErrorContains(t, err, msg)
		require.ErrorContains(t, err, "data file f")
	}
}

// withBatch wraps the memTable's OpenFunc, replacing every batch with
// change(batch); project keeps only the first two columns first.
func withBatch(m *memTable, change func(memory.Allocator, arrow.RecordBatch) arrow.RecordBatch, project bool) mergetree.OpenFunc {
	return func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		return func(yield func(arrow.RecordBatch, error) bool) {
			for rec, err := range m.open(ctx, f) {
				if err != nil {
					yield(nil, err)
					return
				}
				in := rec
				if project {
					sc := arrow.NewSchema(rec.Schema().Fields()[:2], nil)
					in = array.NewRecordBatch(sc, rec.Columns()[:2], rec.NumRows())
					rec.Release()
				}
				out := change(memcheck.New(), in)
				in.Release()
				if !yield(out, nil) {
					return
				}
			}
		}
	}
}

// replaceColumn rebuilds column c of rec with set.
func replaceColumn(mem memory.Allocator, rec arrow.RecordBatch, c int, set func(array.Builder, int)) arrow.RecordBatch {
	b := array.NewBuilder(mem, rec.Column(c).DataType())
	defer b.Release()
	for i := 0; i < int(rec.NumRows()); i++ {
		set(b, i)
	}
	col := b.NewArray()
	defer col.Release()
	cols := slices.Clone(rec.Columns())
	cols[c] = col
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows())
}

// TestReadEarlyBreak stops after the first batch: every reader must be
// stopped and every batch released.
func TestReadEarlyBreak(t *testing.T) {
	for _, tc := range []struct {
		sections  string
		readAhead int
	}{{"merged", 0}, {"passed", 0}, {"merged", 2}, {"passed", 2}} {
		sections := tc.sections
		t.Run(fmt.Sprintf("%s/readahead=%d", sections, tc.readAhead), func(t *testing.T) {
			mem := checked(t)
			ts := kvTable(t)
			m := newMemTable(ts)
			defer m.release()
			var a, b []kv
			for i := range int32(50) {
				a = append(a, row(int64(i), data.Insert, i, "a"))
				b = append(b, row(int64(100+i), data.Insert, i+1, "b"))
			}
			files := []manifest.DataFileMeta{m.addFile(t, mem, "a", a, 3)}
			if sections == "merged" {
				files = append(files, m.addFile(t, mem, "b", b, 3))
			}
			n := 0
			for rec, err := range mergetree.Read(context.Background(), files, m.open,
				&mergetree.Options{Schema: ts, Merge: dedupFactory(), BatchSize: 4, Allocator: mem, ReadAhead: tc.readAhead}) {
				require.NoError(t, err)
				rec.Release()
				n++
				break
			}
			require.Equal(t, 1, n)
			require.Zero(t, m.active.Load(), "file readers left running")
			require.Positive(t, m.opens.Load())
		})
	}
}

func TestReadCanceled(t *testing.T) {
	for _, readAhead := range []int{0, 2} {
		t.Run(fmt.Sprintf("readahead=%d", readAhead), func(t *testing.T) { testReadCanceled(t, readAhead) })
	}
}

func testReadCanceled(t *testing.T, readAhead int) {
	mem := checked(t)
	ts := kvTable(t)
	m := newMemTable(ts)
	defer m.release()
	files := []manifest.DataFileMeta{
		m.addFile(t, mem, "a", []kv{row(1, data.Insert, 1, "a")}, 4),
		m.addFile(t, mem, "b", []kv{row(2, data.Insert, 1, "b")}, 4),
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var err error
	for rec, e := range mergetree.Read(ctx, files, m.open, &mergetree.Options{Schema: ts, Merge: dedupFactory(), Allocator: mem, ReadAhead: readAhead}) {
		if rec != nil {
			rec.Release()
		}
		err = e
	}
	require.ErrorIs(t, err, context.Canceled)
}

func TestReadNoFiles(t *testing.T) {
	ts := kvTable(t)
	got, err := readAll(t, nil, newMemTable(ts).open, &mergetree.Options{Schema: ts, Merge: dedupFactory()})
	require.NoError(t, err)
	require.Empty(t, got)
}

// TestReadAsyncOutput checks the output batches finished on a goroutine of
// their own (ReadAhead > 0): the same batches as a synchronous read, a
// consumer stopping after any batch, and a file failing while a batch is
// being built, with every batch released.
func TestReadAsyncOutput(t *testing.T) {
	ts := kvTable(t)
	// a and b overlap (a merged section), c comes after both (a section
	// passed through whole, after the merged batches).
	var a, b, c []kv
	for i := range int32(60) {
		a = append(a, row(int64(i), data.Insert, 2*i, fmt.Sprint("a", i)))
		b = append(b, row(int64(100+i), data.Insert, 3*i, fmt.Sprint("b", i)))
		c = append(c, row(int64(200+i), data.Insert, 1000+i, fmt.Sprint("c", i)))
	}
	read := func(t *testing.T, readAhead, batch, stopAfter, failAfter int) ([]string, error) {
		mem := checked(t)
		m := newMemTable(ts)
		defer m.release()
		files := []manifest.DataFileMeta{m.addFile(t, mem, "a", a, 5), m.addFile(t, mem, "b", b, 5), m.addFile(t, mem, "c", c, 7)}
		open := mergetree.OpenFunc(m.open)
		if failAfter >= 0 {
			open = func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
				return func(yield func(arrow.RecordBatch, error) bool) {
					n := 0
					for rec, err := range m.open(ctx, f) {
						if err == nil && f.FileName == "b" && n == failAfter {
							rec.Release()
							yield(nil, errInjected)
							return
						}
						n++
						if !yield(rec, err) {
							return
						}
					}
				}
			}
		}
		var out []string
		batches := 0
		for rec, err := range mergetree.Read(context.Background(), files, open,
			&mergetree.Options{Schema: ts, Merge: dedupFactory(), BatchSize: batch, Allocator: mem, ReadAhead: readAhead}) {
			if err != nil {
				return out, err
			}
			require.LessOrEqual(t, rec.NumRows(), int64(batch))
			out = append(out, fmt.Sprintf("batch of %d", rec.NumRows()))
			lines, err := renderBatch(rec, mergetree.OutputFields(ts, false))
			rec.Release()
			require.NoError(t, err)
			out = append(out, lines...)
			batches++
			if batches == stopAfter {
				break
			}
		}
		require.Zero(t, m.active.Load(), "file readers left running")
		return out, nil
	}
	for _, batch := range []int{1, 3, 4, 7, 200} {
		want, err := read(t, 0, batch, -1, -1)
		require.NoError(t, err)
		got, err := read(t, 2, batch, -1, -1)
		require.NoError(t, err)
		require.Equal(t, want, got, "batch size %d", batch)
		for stop := 1; stop <= 4; stop++ {
			got, err := read(t, 2, batch, stop, -1)
			require.NoError(t, err)
			require.Equal(t, want[:len(got)], append([]string{}, got...), "batch size %d, stop after %d", batch, stop)
		}
		for fail := range 6 {
			got, err := read(t, 2, batch, -1, fail)
			require.ErrorIs(t, err, errInjected, "batch size %d, fail after %d", batch, fail)
			require.Equal(t, want[:len(got)], append([]string{}, got...), "batch size %d, fail after %d", batch, fail)
		}
	}
}

var errInjected = errors.New("injected read error")

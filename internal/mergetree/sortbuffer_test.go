package mergetree_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
	"github.com/paimon-go/paimon-go/internal/offheap"
)

// sortBufferTable is a table (k STRING, sub INT) -> (v INT, s BIGINT, name
// STRING) with the given options.
func sortBufferTable(t testing.TB, opts map[string]string) *schema.TableSchema {
	t.Helper()
	s, err := schema.NewSchemaBuilder().
		Column("k", schema.StringType().NotNull()).
		Column("sub", schema.IntType().NotNull()).
		Column("v", schema.IntType()).
		Column("s", schema.BigIntType()).
		Column("name", schema.StringType()).
		PrimaryKey("k", "sub").
		Options(opts).Build()
	require.NoError(t, err)
	ts, err := schema.NewTableSchema(0, s, 0)
	require.NoError(t, err)
	return ts
}

// TestSortBufferMatchesRead checks the write buffer against the merge
// reader: random rows (random keys, kinds, user sequence values, NULLs) put
// into a SortBuffer in random batches must flush into exactly what Read
// yields in key-value mode for the same rows given as one-row runs (the
// reader's heap orders the versions of a key by itself), for every merge
// engine; the raw output must be every row in merge order.
func TestSortBufferMatchesRead(t *testing.T) {
	engines := map[string]map[string]string{
		"deduplicate":      {},
		"dedup-seq-field":  {"sequence.field": "s"},
		"dedup-seq-desc":   {"sequence.field": "s", "sequence.field.sort-order": "descending"},
		"first-row":        {"merge-engine": "first-row", "ignore-delete": "true"},
		"partial-update":   {"merge-engine": "partial-update", "partial-update.remove-record-on-delete": "true"},
		"partial-seqgroup": {"merge-engine": "partial-update", "fields.s.sequence-group": "v,name", "fields.name.aggregate-function": "listagg", "fields.name.ignore-retract": "true"},
		"aggregation":      {"merge-engine": "aggregation", "fields.v.aggregate-function": "sum", "fields.s.aggregate-function": "max", "fields.s.ignore-retract": "true", "fields.name.aggregate-function": "last_non_null_value"},
	}
	for name, opts := range engines {
		t.Run(name, func(t *testing.T) {
			ts := sortBufferTable(t, opts)
			f, err := mergefunc.NewFactory(ts)
			require.NoError(t, err)
			seqFields, err := mergefunc.SequenceFields(ts)
			require.NoError(t, err)
			desc, err := mergefunc.SequenceDescending(ts)
			require.NoError(t, err)
			for seed := range uint64(8) {
				rng := rand.New(rand.NewPCG(seed, 7))
				mem := checked(t)
				o := &mergetree.Options{Schema: ts, Merge: f, SequenceFields: seqFields, SequenceDescending: desc,
					BatchSize: 1 + rng.IntN(50), Allocator: mem}
				rows := randomKVRows(rng, 1+rng.IntN(400), name != "first-row")
				checkSortBuffer(t, ts, o, rows, rng)
			}
		})
	}
}

func randomKVRows(rng *rand.Rand, n int, retract bool) []kv {
	kinds := []data.RowKind{data.Insert, data.UpdateAfter}
	if retract {
		kinds = append(kinds, data.UpdateBefore, data.Delete)
	}
	rows := make([]kv, n)
	keys := 1 + rng.IntN(40)
	for i := range rows {
		var v, s, name any
		if rng.IntN(5) > 0 {
			v = int32(rng.IntN(100))
		}
		if rng.IntN(6) > 0 {
			s = int64(rng.IntN(30))
		}
		if rng.IntN(4) > 0 {
			name = fmt.Sprintf("n%d", rng.IntN(9))
		}
		k := rng.IntN(keys)
		rows[i] = kv{
			seq:    int64(1000 + i),
			kind:   kinds[rng.IntN(len(kinds))],
			values: []any{fmt.Sprintf("key-%03d-%s", k%7, string(rune('a'+k/7))), int32(k % 3), v, s, name},
		}
	}
	return rows
}

func checkSortBuffer(t *testing.T, ts *schema.TableSchema, o *mergetree.Options, rows []kv, rng *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	pool := offheap.NewPool(1 << 16)
	defer pool.Release()
	buf, err := mergetree.NewSortBuffer(o, pool)
	require.NoError(t, err)
	defer buf.Release()
	sc, err := schema.ToArrowSchema(ts.Fields)
	require.NoError(t, err)
	for lo := 0; lo < len(rows); {
		hi := min(len(rows), lo+1+rng.IntN(60))
		b := array.NewRecordBuilder(memcheck.New(), sc)
		var kinds []int8
		for _, r := range rows[lo:hi] {
			for i, f := range ts.Fields {
				require.NoError(t, arrowrow.AppendValue(b.Field(i), f.Type, r.values[i]))
			}
			kinds = append(kinds, int8(r.kind))
		}
		rec := b.NewRecordBatch()
		b.Release()
		est := mergetree.EstimateSize(rec.Columns(), int(rec.NumRows()))
		before := buf.Size()
		require.NoError(t, buf.Put(rec.Columns(), kinds, rows[lo].seq))
		require.LessOrEqual(t, buf.Size()-before, est, "EstimateSize bounds what Put adds")
		rec.Release()
		lo = hi
	}
	require.Equal(t, len(rows), buf.Len())

	kvFields := mergetree.ReadFields(ts)
	var merged, raw []string
	collect := func(dst *[]string) func(arrow.RecordBatch) error {
		return func(rec arrow.RecordBatch) error {
			if rec.NumRows() > int64(o.BatchSize) {
				return fmt.Errorf("batch of %d rows", rec.NumRows())
			}
			lines, err := renderBatch(rec, kvFields)
			*dst = append(*dst, lines...)
			return err
		}
	}
	require.NoError(t, buf.Flush(ctx, collect(&merged), collect(&raw)))

	// The oracle: every row as a run of its own, merged by Read.
	mt := newMemTable(ts)
	defer mt.release()
	var files []manifest.DataFileMeta
	for i, r := range rows {
		files = append(files, mt.addFile(t, o.Allocator, fmt.Sprintf("f%d", i), []kv{r}, 1))
	}
	ro := *o
	ro.KeyValues = true
	var want []string
	for rec, err := range mergetree.Read(ctx, files, mt.open, &ro) {
		require.NoError(t, err)
		lines, err := renderBatch(rec, kvFields)
		require.NoError(t, err)
		want = append(want, lines...)
		rec.Release()
	}
	require.Equal(t, want, merged, diff(want, merged))

	// Raw: all rows in merge order.
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(a, b kv) int { return compareForMerge(ts, o, a, b) })
	var wantRaw []string
	for _, r := range sorted {
		line, err := renderKV(kvFields, r)
		require.NoError(t, err)
		wantRaw = append(wantRaw, line)
	}
	require.Equal(t, wantRaw, raw, diff(wantRaw, raw))
}

// compareForMerge orders rows by key, user sequence fields, sequence number.
func compareForMerge(ts *schema.TableSchema, o *mergetree.Options, a, b kv) int {
	kc, _ := mergetree.NewKeyComparator(keyTypes(ts))
	if c := kc.Compare(keyOf(ts, a.values), keyOf(ts, b.values)); c != 0 {
		return c
	}
	for _, i := range o.SequenceFields {
		x, y := a.values[i], b.values[i]
		var c int
		switch {
		case x == nil && y == nil:
		case x == nil:
			c = -1
		case y == nil:
			c = 1
		default:
			c = cmpAny(x, y)
			if o.SequenceDescending {
				c = -c
			}
		}
		if c != 0 {
			return c
		}
	}
	return cmpAny(a.seq, b.seq)
}

func cmpAny(x, y any) int {
	switch x := x.(type) {
	case int64:
		return cmpOrdered(x, y.(int64))
	case int32:
		return cmpOrdered(x, y.(int32))
	}
	panic(fmt.Sprintf("cmpAny %T", x))
}

func cmpOrdered[T int32 | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func renderKV(fields []schema.DataField, r kv) (string, error) {
	vals := append([]any{r.seq, int8(r.kind)}, r.values...)
	line, err := canon.EncodeRow(fields, vals)
	return string(line), err
}

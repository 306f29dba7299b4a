package mergetree_test

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// TestReadAllValueTypes merges rows whose values have every type canon-v1
// renders, NULLs included, through the copy path (lone versions and
// Selector winners) and the value path (converted and re-appended).
func TestReadAllValueTypes(t *testing.T) {
	row := schema.RowType(
		schema.NewField(100, "a", schema.IntType()),
		schema.NewField(101, "b", schema.ArrayType(schema.StringType())))
	ts := buildSchema(t, schema.NewSchemaBuilder().
		Column("k", schema.IntType()).
		Column("b", schema.BooleanType()).
		Column("i8", schema.TinyIntType()).
		Column("i16", schema.SmallIntType()).
		Column("i64", schema.BigIntType()).
		Column("f", schema.FloatType()).
		Column("d", schema.DoubleType()).
		Column("dec", schema.DecimalType(38, 6)).
		Column("c", schema.CharType(3)).
		Column("bin", schema.BinaryType(4)).
		Column("date", schema.DateType()).
		Column("time", schema.TimeType(3)).
		Column("ts", schema.TimestampType(9)).
		Column("ltz", schema.TimestampLTZType(3)).
		Column("arr", schema.ArrayType(schema.IntType())).
		Column("m", schema.MapType(schema.StringType().NotNull(), schema.DoubleType())).
		Column("ms", schema.MultisetType(schema.IntType())).
		Column("r", row).
		PrimaryKey("k"))
	r := rand.New(rand.NewPCG(3, 4))
	maybe := func(v any) any {
		if r.IntN(5) == 0 {
			return nil
		}
		return v
	}
	value := func(k int32) []any {
		return []any{
			k,
			maybe(r.IntN(2) == 0),
			maybe(int8(r.IntN(256) - 128)),
			maybe(int16(r.IntN(1000))),
			maybe(r.Int64()),
			maybe(float32(r.NormFloat64())),
			maybe(r.NormFloat64()),
			maybe(data.Decimal{Unscaled: new(big.Int).Lsh(big.NewInt(int64(r.IntN(1000)-500)), 90), Precision: 38, Scale: 6}),
			maybe(randString(r)),
			maybe(randBytes(r)),
			maybe(int32(r.IntN(40000) - 20000)),
			maybe(int32(r.IntN(86400000))),
			maybe(data.TimestampFromNanos(r.Int64N(1 << 60))),
			maybe(data.Timestamp{Millis: r.Int64N(1 << 40)}),
			maybe([]any{int32(r.IntN(9)), nil}),
			maybe(data.Map{Keys: []any{"x", randString(r) + "y"}, Values: []any{r.Float64(), nil}}),
			maybe(data.Map{Keys: []any{int32(r.IntN(3))}, Values: []any{int32(1 + r.IntN(3))}}),
			maybe([]any{maybe(int32(r.IntN(9))), maybe([]any{randString(r)})}),
		}
	}
	for iter := range 50 {
		var runs [][]kv
		seq := int64(0)
		for range 1 + r.IntN(4) {
			var rows []kv
			for k := range int32(12) {
				if r.IntN(2) == 0 {
					continue
				}
				seq++
				kind := data.Insert
				if r.IntN(6) == 0 {
					kind = data.Delete
				}
				rows = append(rows, kv{seq: seq, kind: kind, values: value(k)})
			}
			if len(rows) > 0 {
				runs = append(runs, rows)
			}
		}
		// Reference: the newest version of each key, deletes dropped.
		var all []kv
		for _, run := range runs {
			all = append(all, run...)
		}
		slices.SortStableFunc(all, func(a, b kv) int {
			if x, y := a.values[0].(int32), b.values[0].(int32); x != y {
				return int(x - y)
			}
			return int(a.seq - b.seq)
		})
		var want []kv
		for i, v := range all {
			if i+1 < len(all) && all[i+1].values[0] == v.values[0] {
				continue
			}
			if !v.kind.IsRetract() {
				want = append(want, v)
			}
		}
		for _, merge := range []mergefunc.Factory{dedupFactory(), hiddenDedupFactory()} {
			mem := checked(t)
			m := newMemTable(ts)
			var files []manifest.DataFileMeta
			for i, run := range runs {
				files = append(files, m.addFile(t, mem, string(rune('a'+i)), run, 1+r.IntN(4)))
			}
			got, err := readAll(t, files, m.open, &mergetree.Options{Schema: ts, Merge: merge, BatchSize: 1 + r.IntN(5), Allocator: mem})
			require.NoError(t, err)
			require.Equal(t, renderRows(t, ts, false, want), got, "iteration %d", iter)
			m.release()
		}
	}
}

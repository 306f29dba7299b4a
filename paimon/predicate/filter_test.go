package predicate_test

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	p "github.com/paimon-go/paimon-go/paimon/predicate"
)

func testSeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if env := os.Getenv("PREDICATE_SEED"); env != "" { // reproduce a logged failure
		v, err := strconv.ParseUint(env, 10, 64)
		require.NoError(t, err)
		seed = v
	}
	t.Logf("seed %d (rerun with PREDICATE_SEED=%d)", seed, seed)
	return seed
}

func randFilterLeaf(r *rand.Rand, cols []int) *p.Predicate {
	c := cols[r.IntN(len(cols))]
	f := filterFields[c]
	lit := func() any { return randLiteral(r, f.Type) }
	if f.Type.Root.IsCharacterString() && r.IntN(5) == 0 {
		return p.StartsWith(f.Name, []string{"", "a", "ab", "é", "b", "abcd"}[r.IntN(6)])
	}
	switch r.IntN(10) {
	case 0:
		return p.Equal(f.Name, lit())
	case 1:
		return p.NotEqual(f.Name, lit())
	case 2:
		return p.LessThan(f.Name, lit())
	case 3:
		return p.LessOrEqual(f.Name, lit())
	case 4:
		return p.GreaterThan(f.Name, lit())
	case 5:
		return p.GreaterOrEqual(f.Name, lit())
	case 6:
		lits := make([]any, r.IntN(12)) // > 8 literals switch to a hash set
		for i := range lits {
			lits[i] = lit()
		}
		return p.In(f.Name, lits...)
	case 7:
		lits := make([]any, r.IntN(11))
		for i := range lits {
			lits[i] = lit()
		}
		return p.NotIn(f.Name, lits...)
	case 8:
		return p.IsNull(f.Name)
	}
	return p.IsNotNull(f.Name)
}

func randFilterPred(r *rand.Rand, cols []int, depth int) *p.Predicate {
	if depth == 0 || r.IntN(3) == 0 {
		return randFilterLeaf(r, cols)
	}
	switch r.IntN(3) {
	case 0:
		return p.And(randFilterPred(r, cols, depth-1), randFilterPred(r, cols, depth-1), randFilterPred(r, cols, depth-1))
	case 1:
		return p.Or(randFilterPred(r, cols, depth-1), randFilterPred(r, cols, depth-1))
	}
	return p.Not(randFilterPred(r, cols, depth-1))
}

// TestFilterModel checks Mask and Filter against the row-wise Test on
// random batches (including sliced ones, whose buffers start at an offset)
// and random predicate trees over every filterable type.
func TestFilterModel(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 7))
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	cols := filterable()
	iters := 800
	if testing.Short() {
		iters = 300
	}
	for it := 0; it < iters; it++ {
		n := []int{0, 1, 5, 63, 64, 65, 130, 200, 700}[r.IntN(9)]
		off := 0
		if r.IntN(2) == 0 {
			off = r.IntN(70)
		}
		rows := make([][]any, n+off)
		for i := range rows {
			rows[i] = make([]any, len(filterFields))
			for c, f := range filterFields {
				rows[i][c] = randCell(r, f.Type)
			}
		}
		full := buildBatch(t, mem, filterFields, rows)
		rec := full.NewSlice(int64(off), int64(off+n))
		full.Release()
		vals := make([][]any, n)
		for i := range vals {
			vals[i] = rowOf(t, rec, filterFields, i)
		}

		for k := 0; k < 8; k++ {
			pred := randFilterPred(r, cols, 3)
			b, err := p.Bind(pred, filterFields)
			if err != nil {
				require.ErrorIs(t, err, p.ErrUnsupported, "%s", pred) // NOT over STARTS WITH
				continue
			}
			want := make([]bool, n)
			var wantRows [][]any
			for i := 0; i < n; i++ {
				want[i] = b.Test(vals[i])
				if want[i] {
					wantRows = append(wantRows, vals[i])
				}
			}
			mask, err := b.Mask(rec)
			require.NoError(t, err)
			require.Equal(t, want, mask, "iteration %d: %s", it, b)

			out, err := b.Filter(rec, mem)
			require.NoError(t, err, "iteration %d: %s", it, b)
			require.Equal(t, int64(len(wantRows)), out.NumRows(), "iteration %d: %s", it, b)
			require.True(t, out.Schema().Equal(rec.Schema()))
			for i := 0; i < int(out.NumRows()); i++ {
				if got := rowOf(t, out, filterFields, i); !sameValue(got, wantRows[i]) {
					t.Fatalf("iteration %d row %d: %s: got %v, want %v", it, i, b, got, wantRows[i])
				}
			}
			if len(wantRows) == n {
				require.Same(t, rec, out, "all rows pass: the batch itself")
			}
			out.Release()
		}
		rec.Release()
	}
}

func TestFilterShapes(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := []schema.DataField{
		schema.NewField(0, "k", schema.BigIntType()),
		schema.NewField(1, "m", schema.MapType(schema.StringType().NotNull(), schema.IntType())),
	}
	var rows [][]any
	for i := 0; i < 100; i++ {
		rows = append(rows, []any{int64(i), data.Map{Keys: []any{"x"}, Values: []any{int32(i)}}})
	}
	rec := buildBatch(t, mem, fields, rows)
	defer rec.Release()
	bind := func(pr *p.Predicate) *p.Bound {
		b, err := p.Bind(pr, fields)
		require.NoError(t, err)
		return b
	}
	tests := []struct {
		name  string
		pred  *p.Predicate
		first []int64 // the k values expected
		n     int64
	}{
		{"all", p.IsNotNull("k"), []int64{0, 1}, 100},
		{"none", p.LessThan("k", 0), nil, 0},
		{"run", p.And(p.GreaterOrEqual("k", 10), p.LessThan("k", 20)), []int64{10, 11}, 10},
		{"scattered", p.In("k", 3, 50, 99), []int64{3, 50, 99}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := bind(tt.pred).Filter(rec, mem)
			require.NoError(t, err)
			defer out.Release()
			require.Equal(t, tt.n, out.NumRows())
			require.Equal(t, 2, int(out.NumCols()))
			for i, k := range tt.first {
				require.Equal(t, k, out.Column(0).(*array.Int64).Value(i))
				m := out.Column(1).(*array.Map)
				require.Equal(t, int32(k), m.Items().(*array.Int32).Value(int(m.Offsets()[m.Data().Offset()+i])))
			}
		})
	}
}

func TestFilterErrors(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := []schema.DataField{
		schema.NewField(0, "a", schema.IntType()),
		schema.NewField(1, "b", schema.StringType()),
	}
	b, err := p.Bind(p.Equal("b", "x"), fields)
	require.NoError(t, err)

	// One column only: the predicate tests column 1.
	short := buildBatch(t, mem, fields[:1], [][]any{{int32(1)}})
	defer short.Release()
	_, err = b.Filter(short, mem)
	require.ErrorIs(t, err, p.ErrBatch)

	// Column 1 has the wrong Arrow type.
	swapped := []schema.DataField{fields[0], schema.NewField(1, "b", schema.IntType())}
	wrong := buildBatch(t, mem, swapped, [][]any{{int32(1), int32(2)}})
	defer wrong.Release()
	_, err = b.Mask(wrong)
	require.ErrorIs(t, err, p.ErrBatch)
	require.Contains(t, err.Error(), `"b"`)

	_, err = b.Filter(nil, mem)
	require.ErrorIs(t, err, p.ErrBatch)

	// Timestamps are accepted in any unit.
	tsFields := []schema.DataField{schema.NewField(0, "t", schema.TimestampType(3))}
	tb, err := p.Bind(p.GreaterThan("t", data.Timestamp{Millis: 1, NanoOfMilli: 1}), tsFields)
	require.NoError(t, err)
	nsRec := buildBatch(t, mem, []schema.DataField{schema.NewField(0, "t", schema.TimestampType(9))},
		[][]any{{data.Timestamp{Millis: 1}}, {data.Timestamp{Millis: 1, NanoOfMilli: 2}}})
	defer nsRec.Release()
	mask, err := tb.Mask(nsRec)
	require.NoError(t, err)
	require.Equal(t, []bool{false, true}, mask)
}

func BenchmarkFilter(b *testing.B) {
	const n = 1 << 20
	fields := []schema.DataField{
		schema.NewField(0, "id", schema.BigIntType()),
		schema.NewField(1, "name", schema.StringType()),
	}
	sc, err := schema.ToArrowSchema(fields)
	require.NoError(b, err)
	bld := array.NewRecordBuilder(memcheck.New(), sc)
	r := rand.New(rand.NewPCG(1, 2))
	names := make([]string, 1000)
	for i := range names {
		names[i] = "user-" + strconv.Itoa(i*7919%100000)
	}
	for i := 0; i < n; i++ {
		if i%10 == 0 {
			bld.Field(0).AppendNull()
		} else {
			bld.Field(0).(*array.Int64Builder).Append(r.Int64N(1_000_000))
		}
		bld.Field(1).(*array.StringBuilder).Append(names[r.IntN(len(names))])
	}
	rec := bld.NewRecordBatch()
	bld.Release()
	defer rec.Release()

	cases := []struct {
		name string
		pred *p.Predicate
	}{
		{"int64/lt-50%", p.LessThan("id", 500_000)},
		{"int64/eq-rare", p.Equal("id", 42)},
		{"int64/in-16", p.In("id", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)},
		{"int64/range", p.And(p.GreaterOrEqual("id", 100_000), p.LessThan("id", 200_000))},
		{"string/eq", p.Equal("name", names[3])},
		{"string/lt-50%", p.LessThan("name", "user-5")},
		{"string/prefix", p.StartsWith("name", "user-1")},
	}
	for _, c := range cases {
		bound, err := p.Bind(c.pred, fields)
		require.NoError(b, err)
		b.Run("mask/"+c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := bound.Mask(rec); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run("filter/"+c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out, err := bound.Filter(rec, memcheck.New())
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// TestFilterTimestampUnits compares Mask with Test on timestamp columns of
// every Arrow unit, seconds included, with literals between ticks and
// beyond the int64 range of the unit.
func TestFilterTimestampUnits(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := []schema.DataField{schema.NewField(0, "t", schema.TimestampType(9))}
	lits := []data.Timestamp{
		{Millis: 0}, {Millis: -1000}, {Millis: 1000}, {Millis: 999, NanoOfMilli: 999_999}, {Millis: -1, NanoOfMilli: 1},
		{Millis: 1, NanoOfMilli: 1000}, {Millis: 1, NanoOfMilli: 1}, {Millis: math.MaxInt64}, {Millis: math.MinInt64},
		{Millis: math.MaxInt64 / 1000}, {Millis: math.MinInt64 / 1000},
	}
	ticks := []int64{math.MinInt64, -1001, -1000, -999, -2, -1, 0, 1, 2, 999, 1000, 1001, math.MaxInt64}
	for _, unit := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
		bld := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: unit})
		for _, v := range ticks {
			if unit == arrow.Second && (v == math.MinInt64 || v == math.MaxInt64) {
				continue // beyond data.Timestamp's millisecond range
			}
			bld.Append(arrow.Timestamp(v))
		}
		bld.AppendNull()
		col := bld.NewArray()
		bld.Release()
		sc := arrow.NewSchema([]arrow.Field{{Name: "t", Type: col.DataType(), Nullable: true}}, nil)
		rec := array.NewRecordBatch(sc, []arrow.Array{col}, int64(col.Len()))
		col.Release()
		for _, l := range lits {
			for _, pr := range []*p.Predicate{
				p.Equal("t", l), p.NotEqual("t", l), p.LessThan("t", l), p.LessOrEqual("t", l),
				p.GreaterThan("t", l), p.GreaterOrEqual("t", l), p.In("t", l, lits[0]), p.NotIn("t", l),
			} {
				b, err := p.Bind(pr, fields)
				require.NoError(t, err)
				mask, err := b.Mask(rec)
				require.NoError(t, err)
				for i := range mask {
					vals := rowOf(t, rec, fields, i)
					require.Equal(t, b.Test(vals), mask[i], "unit %s row %d (%v): %s", unit, i, vals[0], b)
				}
			}
		}
		rec.Release()
	}
}

package orc_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

func fld(id int, name string, t schema.DataType) schema.DataField {
	return schema.DataField{ID: id, Name: name, Type: t}
}

// allTypesFields covers every type ORC holds, nested ones included.
func allTypesFields() []schema.DataField {
	arr := func(t schema.DataType) schema.DataType { return schema.ArrayType(t) }
	return []schema.DataField{
		fld(0, "id", schema.BigIntType().NotNull()),
		fld(1, "c_bool", schema.BooleanType()),
		fld(2, "c_tiny", schema.TinyIntType()),
		fld(3, "c_small", schema.SmallIntType()),
		fld(4, "c_int", schema.IntType()),
		fld(5, "c_big", schema.BigIntType()),
		fld(6, "c_float", schema.FloatType()),
		fld(7, "c_double", schema.DoubleType()),
		fld(8, "c_dec_5_2", schema.DecimalType(5, 2)),
		fld(9, "c_dec_18_4", schema.DecimalType(18, 4)),
		fld(10, "c_dec_38_10", schema.DecimalType(38, 10)),
		fld(11, "c_char", schema.CharType(5)),
		fld(12, "c_varchar", schema.VarCharType(10)),
		fld(13, "c_string", schema.StringType()),
		fld(14, "c_binary", schema.BinaryType(4)),
		fld(15, "c_varbinary", schema.VarBinaryType(8)),
		fld(16, "c_bytes", schema.BytesType()),
		fld(17, "c_date", schema.DateType()),
		fld(18, "c_time", schema.TimeType(3)),
		fld(19, "c_ts0", schema.TimestampType(0)),
		fld(20, "c_ts3", schema.TimestampType(3)),
		fld(21, "c_ts6", schema.TimestampType(6)),
		fld(22, "c_ts9", schema.TimestampType(9)),
		fld(23, "c_ltz3", schema.TimestampLTZType(3)),
		fld(24, "c_ltz6", schema.TimestampLTZType(6)),
		fld(25, "c_ltz9", schema.TimestampLTZType(9)),
		fld(26, "c_arr_int", arr(schema.IntType())),
		fld(27, "c_arr_str", arr(schema.StringType())),
		fld(28, "c_map", schema.MapType(schema.StringType().NotNull(), schema.IntType())),
		fld(29, "c_map_arr", schema.MapType(schema.IntType().NotNull(), arr(schema.StringType()))),
		fld(30, "c_multiset", schema.MultisetType(schema.StringType())),
		fld(31, "c_row", schema.RowType(
			fld(32, "x", schema.IntType()),
			fld(33, "y", schema.StringType()),
			fld(34, "z", schema.RowType(fld(35, "d", schema.DecimalType(20, 5)), fld(36, "t", schema.TimestampType(6)))))),
		fld(37, "c_arr_row", arr(schema.RowType(fld(38, "a", schema.BigIntType()), fld(39, "b", schema.DoubleType())))),
		fld(40, "c_nn_str", schema.StringType().NotNull()),
	}
}

// gen draws values of the data model; dict makes strings repeat (few
// distinct values) so that string columns get dictionaries.
type gen struct {
	r    *rand.Rand
	dict bool
}

func (g gen) str(maxChars int) string {
	alphabet := []string{"a", "b", "z", "é", "✓", "😀", " ", "0"}
	if g.dict {
		return []string{"", "alpha", "beta", "gamma", "δ"}[g.r.IntN(5)]
	}
	n := g.r.IntN(maxChars + 1)
	var sb strings.Builder
	for range n {
		sb.WriteString(alphabet[g.r.IntN(len(alphabet))])
	}
	return sb.String()
}

func (g gen) decimal(p, s int) data.Decimal {
	digits := g.r.IntN(p) + 1
	v := new(big.Int)
	for range digits {
		v.Mul(v, big.NewInt(10))
		v.Add(v, big.NewInt(int64(g.r.IntN(10))))
	}
	if g.r.IntN(2) == 0 {
		v.Neg(v)
	}
	return data.Decimal{Unscaled: v, Precision: p, Scale: s}
}

func (g gen) timestamp(p int) data.Timestamp {
	var ns int64
	switch g.r.IntN(6) {
	case 0:
		ns = -g.r.Int64N(2_000_000_000) // around the epoch, negative
	case 1:
		ns = g.r.Int64N(2_000_000_000)
	default:
		ns = g.r.Int64N(200*365*86400) - 70*365*86400
		ns = ns*1_000_000_000 + g.r.Int64N(1_000_000_000)
	}
	unit := int64(math.Pow10(9 - p))
	ns = ns / unit * unit
	return data.TimestampFromNanos(ns)
}

func (g gen) value(t schema.DataType) any {
	if t.Nullable && g.r.IntN(8) == 0 {
		return nil
	}
	r := g.r
	switch t.Root {
	case schema.Boolean:
		return r.IntN(2) == 0
	case schema.TinyInt:
		return int8(r.IntN(256) - 128)
	case schema.SmallInt:
		return int16(r.IntN(65536) - 32768)
	case schema.Int:
		if g.dict {
			return int32(r.IntN(3))
		}
		return int32(r.Uint32())
	case schema.BigInt:
		switch r.IntN(3) {
		case 0:
			return int64(r.Uint64())
		case 1:
			return int64(r.IntN(100))
		}
		return r.Int64N(1 << 40)
	case schema.Float:
		return []float32{float32(math.NaN()), float32(math.Inf(1)), 0, -1.5, r.Float32()*1e6 - 5e5}[r.IntN(5)]
	case schema.Double:
		return []float64{math.NaN(), math.Inf(-1), math.Copysign(0, -1), 2.25, r.NormFloat64() * 1e9}[r.IntN(5)]
	case schema.Decimal:
		return g.decimal(t.Precision, t.Scale)
	case schema.Char, schema.VarChar:
		n := t.Length
		if n > 40 {
			n = 40
		}
		return g.str(n)
	case schema.Binary, schema.VarBinary:
		n := min(t.Length, 20)
		b := make([]byte, r.IntN(n+1))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	case schema.Date:
		return int32(r.IntN(200*365) - 100*365)
	case schema.Time:
		return int32(r.IntN(86_400_000))
	case schema.Timestamp, schema.TimestampLTZ:
		return g.timestamp(t.Precision)
	case schema.Array:
		out := make([]any, r.IntN(4))
		for i := range out {
			out[i] = g.value(*t.Element)
		}
		return out
	case schema.Map, schema.Multiset:
		kt, vt := t.Key, t.Value
		if t.Root == schema.Multiset {
			kt = t.Element
			it := schema.IntType().NotNull()
			vt = &it
		}
		m := data.Map{}
		seen := map[string]bool{}
		for range r.IntN(4) {
			k := g.value(kt.Copy(false))
			if seen[fmt.Sprint(k)] {
				continue
			}
			seen[fmt.Sprint(k)] = true
			m.Keys = append(m.Keys, k)
			m.Values = append(m.Values, g.value(*vt))
		}
		return m
	case schema.Row:
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			out[i] = g.value(f.Type)
		}
		return out
	}
	panic(t.Root.String())
}

// expected is what a reader returns for a written value: CHAR values lose
// trailing spaces, timestamps whose epoch milliseconds are in [-999, -1]
// come back one second later (Java's writer truncates the seconds toward
// zero).
func expected(t schema.DataType, v any) any {
	if v == nil {
		return nil
	}
	switch t.Root {
	case schema.Char:
		return strings.TrimRight(v.(string), " ")
	case schema.Timestamp, schema.TimestampLTZ:
		ns := v.(data.Timestamp).Nanos()
		if ns < 0 && ns >= -999_000_000 {
			return data.TimestampFromNanos(ns + 1_000_000_000)
		}
	case schema.Array:
		out := make([]any, len(v.([]any)))
		for i, e := range v.([]any) {
			out[i] = expected(*t.Element, e)
		}
		return out
	case schema.Map:
		m := v.(data.Map)
		out := data.Map{Keys: make([]any, len(m.Keys)), Values: make([]any, len(m.Values))}
		for i := range m.Keys {
			out.Keys[i], out.Values[i] = expected(*t.Key, m.Keys[i]), expected(*t.Value, m.Values[i])
		}
		return out
	case schema.Row:
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			out[i] = expected(f.Type, v.([]any)[i])
		}
		return out
	}
	return v
}

// buildBatch builds a batch of rows; id is the row's position from start.
func buildBatch(t *testing.T, mem memory.Allocator, fields []schema.DataField, g gen, start, n int) (arrow.RecordBatch, [][]any) {
	sch, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	b := array.NewRecordBuilder(mem, sch)
	defer b.Release()
	var rows [][]any
	for i := range n {
		row := make([]any, len(fields))
		for c, f := range fields {
			if c == 0 {
				row[c] = int64(start + i)
			} else {
				row[c] = g.value(f.Type)
			}
			require.NoError(t, arrowrow.AppendValue(b.Field(c), f.Type, row[c]), f.Name)
		}
		rows = append(rows, row)
	}
	return b.NewRecordBatch(), rows
}

func canonRows(t *testing.T, fields []schema.DataField, rows [][]any) []string {
	var out []string
	for _, r := range rows {
		exp := make([]any, len(r))
		for c, f := range fields {
			exp[c] = expected(f.Type, r[c])
		}
		line, err := canon.EncodeRow(fields, exp)
		require.NoError(t, err)
		s, err := canon.Canonicalize(line)
		require.NoError(t, err)
		out = append(out, s)
	}
	return out
}

type writeCase struct {
	name string
	opts orc.WriterOptions
	dict bool
	rows int
}

func threshold(v float64) *float64 { return &v }

func TestWriteReadRoundTrip(t *testing.T) {
	ctx := context.Background()
	fields := allTypesFields()
	cases := []writeCase{
		{"none", orc.WriterOptions{}, false, 1200},
		{"zstd", orc.WriterOptions{Compression: orc.CompressionZstd}, false, 1200},
		{"zlib multi-stripe", orc.WriterOptions{Compression: orc.CompressionZlib, StripeSize: 48 << 10, RowIndexStride: 1000, BlockSize: 4 << 10}, false, 3500},
		{"snappy dictionary", orc.WriterOptions{Compression: orc.CompressionSnappy, RowIndexStride: 1000}, true, 2600},
		{"lz4 no dictionary", orc.WriterOptions{Compression: orc.CompressionLZ4, DictionaryKeyThreshold: threshold(0)}, true, 1500},
		{"always dictionary", orc.WriterOptions{Compression: orc.CompressionZstd, DictionaryKeyThreshold: threshold(1), StripeSize: 64 << 10, RowIndexStride: 1000}, false, 2600},
		{"one row", orc.WriterOptions{Compression: orc.CompressionZstd}, false, 1},
		{"empty", orc.WriterOptions{Compression: orc.CompressionZstd}, false, 0},
	}
	for i, wc := range cases {
		t.Run(wc.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			g := gen{r: rand.New(rand.NewPCG(uint64(i), 42)), dict: wc.dict}
			var buf bytes.Buffer
			w, err := orc.NewWriter(&buf, fields, &wc.opts)
			require.NoError(t, err)
			var want []string
			for start := 0; start < wc.rows; {
				n := min(wc.rows-start, 1+g.r.IntN(700))
				rec, rows := buildBatch(t, mem, fields, g, start, n)
				require.NoError(t, w.Write(rec))
				rec.Release()
				want = append(want, canonRows(t, fields, rows)...)
				start += n
			}
			require.NoError(t, w.Close())
			require.EqualValues(t, wc.rows, w.NumRows())
			data := buf.Bytes()
			if strings.Contains(wc.name, "multi-stripe") {
				r, err := orc.Open(ctx, bytes.NewReader(data), int64(len(data)), nil)
				require.NoError(t, err)
				require.Greater(t, r.NumStripes(), 1)
			}
			for _, batch := range []int{0, 7} {
				got := readLines(t, ctx, data, fields, &orc.ReadRequest{BatchSize: batch, Allocator: mem})
				require.Equal(t, len(want), len(got))
				for k := range want {
					require.Equal(t, want[k], got[k], "row %d", k)
				}
			}
			checkPruning(t, ctx, data, fields, want, mem)
		})
	}
}

func readLines(t *testing.T, ctx context.Context, raw []byte, fields []schema.DataField, req *orc.ReadRequest) []string {
	t.Helper()
	r, err := orc.Open(ctx, bytes.NewReader(raw), int64(len(raw)), &orc.ReadOptions{Name: "rt.orc"})
	require.NoError(t, err)
	var got []string
	for rec, err := range r.Read(ctx, fields, req) {
		require.NoError(t, err)
		lines, err := canon.BatchLines(fields, rec)
		require.NoError(t, err)
		got = append(got, lines...)
		rec.Release()
	}
	return got
}

// checkPruning reads with a Select on the id column's statistics (ids are
// the row positions) for a few ranges: the result must be exactly the rows
// of the row groups whose statistics overlap the range, which include
// every row of the range.
func checkPruning(t *testing.T, ctx context.Context, raw []byte, fields []schema.DataField, want []string, mem memory.Allocator) {
	if len(want) < 2 {
		return
	}
	r, err := orc.Open(ctx, bytes.NewReader(raw), int64(len(raw)), nil)
	require.NoError(t, err)
	n := int64(len(want))
	for _, span := range [][2]int64{{0, 0}, {n / 3, n/3 + 5}, {n - 1, n - 1}, {n / 2, n}} {
		lo, hi := span[0], span[1]
		var kept []string
		sel := func(rows int64, stats []*orc.ColumnStatistics) bool {
			s := stats[0]
			if s == nil || s.Int == nil || !s.Int.HasMinimum {
				return true
			}
			return s.Int.Maximum >= lo && s.Int.Minimum <= hi
		}
		for rec, err := range r.Read(ctx, fields, &orc.ReadRequest{Select: sel, Allocator: mem, BatchSize: 333}) {
			require.NoError(t, err)
			lines, err := canon.BatchLines(fields, rec)
			require.NoError(t, err)
			kept = append(kept, lines...)
			rec.Release()
		}
		// Every row of the range is there, in order, and the rows come in
		// whole row groups: ids are contiguous runs.
		got := map[string]bool{}
		for _, l := range kept {
			got[l] = true
		}
		for id := lo; id <= min(hi, n-1); id++ {
			require.True(t, got[want[id]], "row %d of range [%d, %d] missing", id, lo, hi)
		}
		require.LessOrEqual(t, len(kept), len(want))
		if r.RowIndexStride() > 0 && n > int64(r.RowIndexStride())*2 && hi-lo < 10 {
			require.Less(t, len(kept), len(want), "nothing pruned for [%d, %d]", lo, hi)
		}
	}
}

func TestWriterRejectsUnsupportedTypes(t *testing.T) {
	_, err := orc.NewWriter(&bytes.Buffer{}, []schema.DataField{fld(0, "v", schema.VariantType())}, nil)
	require.ErrorIs(t, err, orc.ErrUnsupported)
}

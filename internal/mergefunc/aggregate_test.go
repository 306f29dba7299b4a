package mergefunc_test

import (
	"math"
	"testing"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

// aggCase merges versions of one field aggregated by fn.
type aggCase struct {
	name string
	typ  schema.DataType
	fn   string
	opts map[string]string // extra options, "fields.v." prefix implied for keys starting with "."
	rows []mergefunc.Row
	want want
}

func runAggCases(t *testing.T, cases []aggCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := map[string]string{"merge-engine": "aggregation"}
			if tc.fn != "" {
				o["fields.v.aggregate-function"] = tc.fn
			}
			for k, val := range tc.opts {
				if k[0] == '.' {
					k = "fields.v" + k
				}
				o[k] = val
			}
			got, err := merge(t, tbl(o, fld("v", tc.typ)), tc.rows...)
			tc.want.check(t, got, err)
		})
	}
}

func rs(rows ...mergefunc.Row) []mergefunc.Row { return rows }

func TestAggregateSum(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	f1, f2 := float32(0.1), float32(0.2)
	d1, d2 := 0.1, 0.2
	runAggCases(t, []aggCase{
		{"int", schema.IntType(), "sum", nil, rs(ins(1, int32(1)), ins(2, int32(2)), ins(3, nil)), row(data.Insert, int32(3))},
		{"nulls skipped", schema.IntType(), "sum", nil, rs(ins(1, nil), ins(2, int32(2)), ins(3, nil)), row(data.Insert, int32(2))},
		{"all null", schema.IntType(), "sum", nil, rs(ins(1, nil), ins(2, nil)), row(data.Insert, nil)},
		{"tinyint wraps", schema.TinyIntType(), "sum", nil, rs(ins(1, int8(127)), ins(2, int8(1))), row(data.Insert, int8(-128))},
		{"smallint wraps", schema.SmallIntType(), "sum", nil, rs(ins(1, int16(-32768)), ins(2, int16(-1))), row(data.Insert, int16(32767))},
		{"int wraps", schema.IntType(), "sum", nil, rs(ins(1, int32(math.MaxInt32)), ins(2, int32(1))), row(data.Insert, int32(math.MinInt32))},
		{"bigint wraps", schema.BigIntType(), "sum", nil, rs(ins(1, int64(math.MaxInt64)), ins(2, int64(2))), row(data.Insert, int64(math.MinInt64+1))},
		{"float", schema.FloatType(), "sum", nil, rs(ins(1, f1), ins(2, f2)), row(data.Insert, f1+f2)},
		{"double", schema.DoubleType(), "sum", nil, rs(ins(1, d1), ins(2, d2)), row(data.Insert, d1+d2)},
		{"retract", schema.BigIntType(), "sum", nil, rs(ins(1, int64(10)), ub(2, int64(3)), del(3, int64(2))), row(data.Insert, int64(5))},
		{"retract from null negates", schema.IntType(), "sum", nil, rs(ins(1, nil), ub(2, int32(3))), row(data.Insert, int32(-3))},
		{"retract null keeps", schema.IntType(), "sum", nil, rs(ins(1, int32(4)), ub(2, nil)), row(data.Insert, int32(4))},
		{"retract float from null", schema.FloatType(), "sum", nil, rs(ins(1, nil), ub(2, float32(0))), row(data.Insert, negZero)},
		{"decimal", schema.DecimalType(5, 2), "sum", nil, rs(ins(1, dec(150, 5, 2)), ins(2, dec(-25, 5, 2))), row(data.Insert, dec(125, 5, 2))},
		// DecimalUtils.add keeps a compact sum beyond the precision.
		{"compact decimal beyond precision kept", schema.DecimalType(5, 2), "sum", nil,
			rs(ins(1, dec(99999, 5, 2)), ins(2, dec(99999, 5, 2))), row(data.Insert, dec(199998, 5, 2))},
		// A long overflow falls back to BigDecimal, whose precision check
		// gives NULL.
		{"compact decimal long overflow is null", schema.DecimalType(18, 0), "sum", nil,
			rs(ins(1, dec(math.MaxInt64, 18, 0)), ins(2, dec(1, 18, 0))), row(data.Insert, nil)},
		{"wide decimal", schema.DecimalType(20, 1), "sum", nil,
			rs(ins(1, bigDec("12345678901234567890", 20, 1)), ins(2, bigDec("-1", 20, 1))),
			row(data.Insert, bigDec("12345678901234567889", 20, 1))},
		{"wide decimal overflow is null", schema.DecimalType(20, 1), "sum", nil,
			rs(ins(1, bigDec("99999999999999999999", 20, 1)), ins(2, bigDec("1", 20, 1))), row(data.Insert, nil)},
		{"decimal retract", schema.DecimalType(5, 2), "sum", nil, rs(ins(1, dec(150, 5, 2)), del(2, dec(50, 5, 2))), row(data.Insert, dec(100, 5, 2))},
		// negative() goes through fromBigDecimal: a compact value beyond
		// its precision becomes NULL.
		{"decimal negate beyond precision is null", schema.DecimalType(2, 0), "sum", nil, rs(ins(1, nil), ub(2, dec(123, 2, 0))), row(data.Insert, nil)},
	})
}

func TestAggregateProduct(t *testing.T) {
	runAggCases(t, []aggCase{
		{"int", schema.IntType(), "product", nil, rs(ins(1, int32(3)), ins(2, nil), ins(3, int32(-4))), row(data.Insert, int32(-12))},
		{"int wraps", schema.IntType(), "product", nil, rs(ins(1, int32(1<<30)), ins(2, int32(4))), row(data.Insert, int32(0))},
		{"tinyint wraps", schema.TinyIntType(), "product", nil, rs(ins(1, int8(16)), ins(2, int8(9))), row(data.Insert, int8(-112))},
		{"double", schema.DoubleType(), "product", nil, rs(ins(1, 1.5), ins(2, 4.0)), row(data.Insert, 6.0)},
		{"retract divides", schema.IntType(), "product", nil, rs(ins(1, int32(12)), ub(2, int32(5))), row(data.Insert, int32(2))},
		{"retract null accumulator stays null", schema.IntType(), "product", nil, rs(ins(1, nil), ub(2, int32(5))), row(data.Insert, nil)},
		{"retract by zero fails", schema.IntType(), "product", nil, rs(ins(1, int32(12)), ub(2, int32(0))), fails(mergefunc.ErrMerge, "/ by zero")},
		{"retract min by -1 wraps", schema.BigIntType(), "product", nil, rs(ins(1, int64(math.MinInt64)), ub(2, int64(-1))), row(data.Insert, int64(math.MinInt64))},
		{"float retract by zero is infinite", schema.FloatType(), "product", nil, rs(ins(1, float32(1)), ub(2, float32(0))), row(data.Insert, float32(math.Inf(1)))},
		// 1.25 * 1.25 = 1.5625 rounds HALF_UP to 1.56; 1.5 * 1.01 = 1.515 -> 1.52
		{"decimal rounds half up", schema.DecimalType(5, 2), "product", nil, rs(ins(1, dec(125, 5, 2)), ins(2, dec(125, 5, 2))), row(data.Insert, dec(156, 5, 2))},
		{"decimal tie rounds away from zero", schema.DecimalType(5, 2), "product", nil, rs(ins(1, dec(-150, 5, 2)), ins(2, dec(101, 5, 2))), row(data.Insert, dec(-152, 5, 2))},
		{"decimal overflow is null", schema.DecimalType(3, 1), "product", nil, rs(ins(1, dec(500, 3, 1)), ins(2, dec(30, 3, 1))), row(data.Insert, nil)},
		// 1.00 / 3.00 has no exact decimal: BigDecimal.divide throws.
		{"decimal retract non-terminating fails", schema.DecimalType(5, 2), "product", nil, rs(ins(1, dec(100, 5, 2)), ub(2, dec(300, 5, 2))),
			fails(mergefunc.ErrMerge, "Non-terminating decimal expansion")},
		// 1.00 / 8.00 = 0.125 exactly, then HALF_UP to 0.13.
		{"decimal retract rounds", schema.DecimalType(5, 2), "product", nil, rs(ins(1, dec(100, 5, 2)), ub(2, dec(800, 5, 2))), row(data.Insert, dec(13, 5, 2))},
		{"decimal retract by zero fails", schema.DecimalType(5, 2), "product", nil, rs(ins(1, dec(100, 5, 2)), ub(2, dec(0, 5, 2))),
			fails(mergefunc.ErrMerge, "Division by zero")},
	})
}

func TestAggregateMinMax(t *testing.T) {
	negZero := math.Copysign(0, -1)
	nan := math.NaN()
	runAggCases(t, []aggCase{
		{"max int", schema.IntType(), "max", nil, rs(ins(1, int32(3)), ins(2, nil), ins(3, int32(9)), ins(4, int32(2))), row(data.Insert, int32(9))},
		{"min int", schema.IntType(), "min", nil, rs(ins(1, int32(3)), ins(2, nil), ins(3, int32(9)), ins(4, int32(2))), row(data.Insert, int32(2))},
		{"max string unsigned bytes", schema.StringType(), "max", nil, rs(ins(1, "zz"), ins(2, "é")), row(data.Insert, "é")},
		{"min string prefix", schema.StringType(), "min", nil, rs(ins(1, "ab"), ins(2, "a")), row(data.Insert, "a")},
		{"max binary unsigned", schema.BytesType(), "max", nil, rs(ins(1, []byte{0x7f}), ins(2, []byte{0x80})), row(data.Insert, []byte{0x80})},
		{"max double NaN is largest", schema.DoubleType(), "max", nil, rs(ins(1, 1.0), ins(2, nan), ins(3, 2.0)), row(data.Insert, nan)},
		{"max double zero sign", schema.DoubleType(), "max", nil, rs(ins(1, 0.0), ins(2, negZero)), row(data.Insert, 0.0)},
		{"min double zero sign", schema.DoubleType(), "min", nil, rs(ins(1, 0.0), ins(2, negZero)), row(data.Insert, negZero)},
		{"min decimal by value", schema.DecimalType(10, 2), "min", nil, rs(ins(1, dec(100, 10, 2)), ins(2, dec(-1, 10, 2))), row(data.Insert, dec(-1, 10, 2))},
		{"max timestamp", schema.TimestampType(6), "max", nil,
			rs(ins(1, data.Timestamp{Millis: 5, NanoOfMilli: 1}), ins(2, data.Timestamp{Millis: 5})), row(data.Insert, data.Timestamp{Millis: 5, NanoOfMilli: 1})},
		{"max date", schema.DateType(), "max", nil, rs(ins(1, int32(-3)), ins(2, int32(-4))), row(data.Insert, int32(-3))},
		{"boolean with one value", schema.BooleanType(), "max", nil, rs(ins(1, true), ins(2, nil)), row(data.Insert, true)},
		{"boolean is incomparable", schema.BooleanType(), "max", nil, rs(ins(1, true), ins(2, false)), fails(mergefunc.ErrMerge, "Incomparable type")},
		{"max cannot retract", schema.IntType(), "max", nil, rs(ins(1, int32(1)), ub(2, int32(1))), fails(mergefunc.ErrMerge, "'max' does not support retraction")},
		{"ignore-retract", schema.IntType(), "max", map[string]string{".ignore-retract": "true"}, rs(ins(1, int32(1)), ub(2, int32(1)), ins(3, int32(0))), row(data.Insert, int32(1))},
	})
}

func TestAggregateValues(t *testing.T) {
	runAggCases(t, []aggCase{
		{"default is last_non_null_value", schema.IntType(), "", nil, rs(ins(1, int32(1)), ins(2, nil)), row(data.Insert, int32(1))},
		{"default function option", schema.IntType(), "", map[string]string{"fields.default-aggregate-function": "sum"}, rs(ins(1, int32(1)), ins(2, int32(2))), row(data.Insert, int32(3))},
		{"field function beats default", schema.IntType(), "max", map[string]string{"fields.default-aggregate-function": "sum"}, rs(ins(1, int32(1)), ins(2, int32(2))), row(data.Insert, int32(2))},
		{"last_value takes null", schema.IntType(), "last_value", nil, rs(ins(1, int32(1)), ins(2, nil)), row(data.Insert, nil)},
		{"last_value retract clears", schema.IntType(), "last_value", nil, rs(ins(1, int32(1)), ub(2, int32(7))), row(data.Insert, nil)},
		{"last_non_null_value", schema.IntType(), "last_non_null_value", nil, rs(ins(1, int32(1)), ins(2, nil), ins(3, int32(3)), ins(4, nil)), row(data.Insert, int32(3))},
		{"last_non_null_value retract value clears", schema.IntType(), "last_non_null_value", nil, rs(ins(1, int32(1)), ub(2, int32(9))), row(data.Insert, nil)},
		{"last_non_null_value retract null keeps", schema.IntType(), "last_non_null_value", nil, rs(ins(1, int32(1)), ub(2, nil)), row(data.Insert, int32(1))},
		{"first_value keeps first null", schema.IntType(), "first_value", nil, rs(ins(1, nil), ins(2, int32(2))), row(data.Insert, nil)},
		{"first_value", schema.IntType(), "first_value", nil, rs(ins(1, int32(1)), ins(2, int32(2))), row(data.Insert, int32(1))},
		{"first_value cannot retract", schema.IntType(), "first_value", nil, rs(ins(1, int32(1)), ub(2, int32(2))), fails(mergefunc.ErrMerge, "'first_value' does not support retraction")},
		{"first_non_null_value", schema.IntType(), "first_non_null_value", nil, rs(ins(1, nil), ins(2, int32(2)), ins(3, int32(3))), row(data.Insert, int32(2))},
		{"first_not_null_value legacy name", schema.IntType(), "first_not_null_value", nil, rs(ins(1, nil), ins(2, int32(2)), ins(3, int32(3))), row(data.Insert, int32(2))},
		{"bool_and", schema.BooleanType(), "bool_and", nil, rs(ins(1, true), ins(2, nil), ins(3, false)), row(data.Insert, false)},
		{"bool_or", schema.BooleanType(), "bool_or", nil, rs(ins(1, false), ins(2, nil), ins(3, true)), row(data.Insert, true)},
		{"bool_or cannot retract", schema.BooleanType(), "bool_or", nil, rs(ins(1, false), del(2, true)), fails(mergefunc.ErrMerge, "'bool_or' does not support retraction")},
		{"primary-key takes input", schema.IntType(), "primary-key", nil, rs(ins(1, int32(1)), ins(2, nil)), row(data.Insert, nil)},
		{"remove-record-on-delete", schema.IntType(), "sum", map[string]string{"aggregation.remove-record-on-delete": "true"},
			rs(ins(1, int32(1)), ins(2, int32(2)), del(3, int32(5))), row(data.Delete, int32(5))},
		// After a -D the deleted row's values are the accumulator.
		{"remove-record-on-delete then insert", schema.IntType(), "sum", map[string]string{"aggregation.remove-record-on-delete": "true"},
			rs(ins(1, int32(1)), del(2, int32(5)), ins(3, int32(2))), row(data.Insert, int32(7))},
		{"remove-record-on-delete retracts -U", schema.IntType(), "sum", map[string]string{"aggregation.remove-record-on-delete": "true"},
			rs(ins(1, int32(4)), ub(2, int32(1))), row(data.Insert, int32(3))},
		{"listagg", schema.StringType(), "listagg", nil, rs(ins(1, "a"), ins(2, nil), ins(3, ""), ins(4, "b")), row(data.Insert, "a,b")},
		{"listagg delimiter", schema.StringType(), "listagg", map[string]string{".list-agg-delimiter": "; "}, rs(ins(1, "a"), ins(2, "b")), row(data.Insert, "a; b")},
		{"listagg distinct", schema.StringType(), "listagg", map[string]string{".distinct": "true"},
			rs(ins(1, "a,b,a"), ins(2, "b,c,,c"), ins(3, "d")), row(data.Insert, "a,b,a,c,d")},
		{"listagg distinct empty delimiter splits on space", schema.StringType(), "listagg", map[string]string{".distinct": "true", ".list-agg-delimiter": ""},
			rs(ins(1, "a b"), ins(2, "b c")), row(data.Insert, "a bc")},
		{"listagg cannot retract", schema.StringType(), "listagg", nil, rs(ins(1, "a"), ub(2, "a")), fails(mergefunc.ErrMerge, "does not support retraction")},
	})
}

func TestAggregateCollect(t *testing.T) {
	ints := arr(schema.IntType())
	rowT := schema.RowType(fld("k", schema.IntType()), fld("f", schema.DoubleType()))
	a := func(vs ...any) []any { return vs }
	runAggCases(t, []aggCase{
		{"concat", ints, "collect", nil, rs(ins(1, a(int32(1), int32(1))), ins(2, nil), ins(3, a(int32(1), nil))), row(data.Insert, a(int32(1), int32(1), int32(1), nil))},
		// HashSet<Integer> iteration order: by bucket (value mod 16 here),
		// then insertion order within a bucket.
		{"distinct hash order", ints, "collect", map[string]string{".distinct": "true"},
			rs(ins(1, a(int32(3), int32(1), int32(17))), ins(2, a(int32(2), int32(1), int32(33), nil))),
			row(data.Insert, a(nil, int32(1), int32(17), int32(33), int32(2), int32(3)))},
		{"distinct with one side null still dedupes", ints, "collect", map[string]string{".distinct": "true"},
			rs(ins(1, a(int32(5), int32(5))), ins(2, nil)), row(data.Insert, a(int32(5)))},
		{"distinct rows keep order", arr(rowT), "collect", map[string]string{".distinct": "true"},
			rs(ins(1, a(a(int32(2), 1.0), a(int32(1), 0.0))), ins(2, a(a(int32(1), math.Copysign(0, -1)), a(int32(3), 1.0)))),
			// The equaliser compares doubles with ==, so -0.0 matches 0.0.
			row(data.Insert, a(a(int32(2), 1.0), a(int32(1), 0.0), a(int32(3), 1.0)))},
		{"retract removes one per element", ints, "collect", nil,
			rs(ins(1, a(int32(1), int32(2), int32(1), nil)), ub(2, a(int32(1), nil, int32(7)))), row(data.Insert, a(int32(2), int32(1)))},
		{"retract from null", ints, "collect", nil, rs(ins(1, nil), ub(2, a(int32(1)))), row(data.Insert, nil)},
		// byte[].equals is identity: nothing is ever retracted.
		{"retract binary never matches", arr(schema.BytesType()), "collect", nil,
			rs(ins(1, a([]byte{1})), ub(2, a([]byte{1}))), row(data.Insert, a([]byte{1}))},
		// Without distinct, nested elements compare as their binary form:
		// doubles by bits, so -0.0 and 0.0 differ.
		{"retract rows by bytes", arr(rowT), "collect", nil,
			rs(ins(1, a(a(int32(1), 0.0), a(int32(1), math.Copysign(0, -1)))), ub(2, a(a(int32(1), math.Copysign(0, -1))))),
			row(data.Insert, a(a(int32(1), 0.0)))},
		{"distinct arrays of arrays", arr(ints), "collect", map[string]string{".distinct": "true"},
			rs(ins(1, a(a(int32(1), int32(2)))), ins(2, a(a(int32(1), int32(2)), a(int32(3))))),
			row(data.Insert, a(a(int32(1), int32(2)), a(int32(3))))},
		{"distinct maps unsupported", arr(schema.MapType(schema.IntType(), schema.IntType())), "collect", map[string]string{".distinct": "true"},
			rs(ins(1, a(data.Map{Keys: a(int32(1)), Values: a(int32(1))})), ins(2, a(data.Map{Keys: a(int32(1)), Values: a(int32(1))}))),
			fails(mergefunc.ErrUnsupported, "collect (field v) with distinct")},
		{"distinct null row fails as in Java", arr(rowT), "collect", map[string]string{".distinct": "true"},
			rs(ins(1, a(nil)), ins(2, a(a(int32(1), 0.0)))), fails(mergefunc.ErrMerge, "NullPointerException")},
		{"distinct binary unsupported", arr(schema.BytesType()), "collect", map[string]string{".distinct": "true"},
			rs(ins(1, a([]byte{1})), ins(2, a([]byte{1}))), fails(mergefunc.ErrUnsupported, "identity hash")},
	})
}

func TestAggregateMaps(t *testing.T) {
	mt := schema.MapType(schema.IntType(), schema.StringType())
	m := func(kv ...any) data.Map {
		var out data.Map
		for i := 0; i < len(kv); i += 2 {
			out.Keys = append(out.Keys, kv[i])
			out.Values = append(out.Values, kv[i+1])
		}
		return out
	}
	vt := schema.RowType(fld("val", schema.StringType()), fld("ts", schema.StringType()))
	kt := schema.MapType(schema.IntType(), vt)
	r := func(val, ts any) []any { return []any{val, ts} }
	runAggCases(t, []aggCase{
		{"merge_map", mt, "merge_map", nil,
			rs(ins(1, m(int32(20), "a", int32(1), "b")), ins(2, m(int32(4), "c", int32(1), "d"))),
			// Buckets by Integer.hashCode: 1 -> bin 1; 20 and 4 -> bin 4 in
			// insertion order; the input's value wins for key 1.
			row(data.Insert, m(int32(1), "d", int32(20), "a", int32(4), "c"))},
		{"merge_map single side unchanged", mt, "merge_map", nil,
			rs(ins(1, m(int32(20), "a", int32(1), "b")), ins(2, nil)), row(data.Insert, m(int32(20), "a", int32(1), "b"))},
		{"merge_map retract", mt, "merge_map", nil,
			rs(ins(1, m(int32(20), "a", int32(1), "b", int32(3), "c")), ub(2, m(int32(3), "x"))),
			row(data.Insert, m(int32(1), "b", int32(20), "a"))},
		{"merge_map binary keys unsupported", schema.MapType(schema.BytesType(), schema.IntType()), "merge_map", nil,
			rs(ins(1, m([]byte{1}, int32(1))), ins(2, m([]byte{2}, int32(2)))), fails(mergefunc.ErrUnsupported, "map keys")},
		{"merge_map_with_keytime", kt, "merge_map_with_keytime", nil,
			rs(ins(1, m(int32(3), r("c1", "x"), int32(1), r("a1", "2024-01-02"), int32(2), r("b1", "2024-01-01"))),
				ins(2, m(int32(1), r("a2", "2024-01-01"), int32(2), r("b2", "2024-01-03"), int32(3), nil, int32(4), r("d2", nil)))),
			// 1 keeps the newer time, 2 takes it, 3 is deleted by a NULL
			// row, 4 has no time; bins by Integer.hashCode.
			row(data.Insert, m(int32(1), r("a1", "2024-01-02"), int32(2), r("b2", "2024-01-03")))},
		{"merge_map_with_keytime UTF-16 order", kt, "merge_map_with_keytime", nil,
			// U+FF61 sorts above U+1F600 in UTF-16 (0xFF61 > 0xD83D) but
			// below it in UTF-8 and code points.
			rs(ins(1, m(int32(1), r("a", "\U0001F600"))), ins(2, m(int32(1), r("b", "\uFF61")))),
			row(data.Insert, m(int32(1), r("b", "\uFF61")))},
		{"merge_map_with_keytime cannot retract", kt, "merge_map_with_keytime", nil,
			rs(ins(1, m(int32(1), r("a1", "1"))), ub(2, m(int32(1), r("a1", "1")))), fails(mergefunc.ErrMerge, "does not support retraction")},
	})
}

func TestAggregateNested(t *testing.T) {
	et := schema.RowType(fld("k", schema.IntType()), fld("a", schema.StringType()), fld("b", schema.StringType()))
	nt := arr(et)
	e := func(k, a, b any) []any { return []any{k, a, b} }
	l := func(vs ...any) []any { return vs }
	runAggCases(t, []aggCase{
		{"nested_update concat drops nulls", nt, "nested_update", nil,
			rs(ins(1, l(e(int32(1), "a", nil), nil)), ins(2, l(e(int32(1), "a", nil), e(int32(2), "x", "y")))),
			row(data.Insert, l(e(int32(1), "a", nil), e(int32(1), "a", nil), e(int32(2), "x", "y")))},
		{"nested_update count-limit", nt, "nested_update", map[string]string{".count-limit": "2"},
			rs(ins(1, l(e(int32(1), "a", nil))), ins(2, l(e(int32(2), "b", nil), e(int32(3), "c", nil)))),
			row(data.Insert, l(e(int32(1), "a", nil), e(int32(2), "b", nil)))},
		{"nested_update nested-key", nt, "nested_update", map[string]string{".nested-key": "k"},
			rs(ins(1, l(e(int32(1), "a", nil), e(int32(2), "b", nil))), ins(2, l(e(int32(1), "a2", nil)))),
			// HashMap<BinaryRow> order, later row wins.
			nestedKeyOrder(t, et, []int{0}, false, l(e(int32(1), "a2", nil), e(int32(2), "b", nil)))},
		{"nested_update retract by equality", nt, "nested_update", nil,
			rs(ins(1, l(e(int32(1), "a", nil), e(int32(2), "b", nil), e(int32(1), "a", nil))), ub(2, l(e(int32(1), "a", nil)))),
			row(data.Insert, l(e(int32(2), "b", nil)))},
		{"nested_update retract by key", nt, "nested_update", map[string]string{".nested-key": "k"},
			rs(ins(1, l(e(int32(1), "a", nil), e(int32(2), "b", nil))), ub(2, l(e(int32(2), "zzz", nil)))),
			row(data.Insert, l(e(int32(1), "a", nil)))},
		{"nested_partial_update", nt, "nested_partial_update", map[string]string{".nested-key": "k"},
			rs(ins(1, l(e(int32(1), "a", nil), e(int32(2), "b", "c"))), ins(2, l(e(int32(1), nil, "x"), e(int32(2), "b2", nil)))),
			nestedKeyOrder(t, et, []int{0}, true, l(e(int32(1), "a", "x"), e(int32(2), "b2", "c")))},
		{"nested_partial_update cannot retract", nt, "nested_partial_update", map[string]string{".nested-key": "k"},
			rs(ins(1, l(e(int32(1), "a", nil))), ub(2, l(e(int32(1), "a", nil)))), fails(mergefunc.ErrMerge, "does not support retraction")},
	})
}

func TestAggregateBinaryUnions(t *testing.T) {
	runAggCases(t, []aggCase{
		{"theta_sketch one side null", schema.BytesType(), "theta_sketch", nil, rs(ins(1, []byte{1, 2}), ins(2, nil)), row(data.Insert, []byte{1, 2})},
		{"theta_sketch union unsupported", schema.BytesType(), "theta_sketch", nil, rs(ins(1, []byte{1}), ins(2, []byte{2})), fails(mergefunc.ErrUnsupported, "theta_sketch (field v)")},
		{"hll_sketch union unsupported", schema.VarBinaryType(100), "hll_sketch", nil, rs(ins(1, []byte{1}), ins(2, []byte{2})), fails(mergefunc.ErrUnsupported, "hll_sketch (field v)")},
		{"rbm64 union unsupported", schema.BytesType(), "rbm64", nil, rs(ins(1, []byte{1}), ins(2, []byte{2})), fails(mergefunc.ErrUnsupported, "rbm64 (field v)")},
		{"rbm64 cannot retract", schema.BytesType(), "rbm64", nil, rs(ins(1, []byte{1}), ub(2, []byte{2})), fails(mergefunc.ErrMerge, "does not support retraction")},
		{"rbm32 corrupt", schema.BytesType(), "rbm32", nil, rs(ins(1, []byte{1}), ins(2, []byte{2})), fails(mergefunc.ErrMerge, "roaring bitmap")},
	})
}

func TestAggregateBadValues(t *testing.T) {
	runAggCases(t, []aggCase{
		{"wrong Go type", schema.IntType(), "sum", nil, rs(ins(1, int64(1)), ins(2, int64(2))), fails(mergefunc.ErrMerge, "Go type int64")},
		{"wrong map value", schema.MapType(schema.IntType(), schema.IntType()), "merge_map", nil, rs(ins(1, "x"), ins(2, "y")), fails(mergefunc.ErrMerge, "Go type string")},
	})
	f, err := mergefunc.NewFactory(tbl(nil, fld("v", schema.IntType())))
	if err != nil {
		t.Fatal(err)
	}
	_, err = mergeWith(f.New(), mergefunc.Row{Values: []any{int32(1)}})
	want{err: mergefunc.ErrMerge, errMsg: "1 values for 2 fields"}.check(t, nil, err)
}

// TestPartialUpdateCollectReversed checks FieldCollectAgg.aggReversed
// (which does not swap) and that the ignore-retract wrapper hides it (so
// the arguments are swapped), both for an older version.
func TestPartialUpdateCollectReversed(t *testing.T) {
	a := func(vs ...any) []any { return vs }
	for _, tc := range []struct {
		name string
		opts map[string]string
		want []any
	}{
		{"collect keeps order", nil, a(int32(1), int32(2))},
		{"ignore-retract swaps", map[string]string{"fields.c.ignore-retract": "true"}, a(int32(2), int32(1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := map[string]string{"merge-engine": "partial-update", "fields.g.sequence-group": "c", "fields.c.aggregate-function": "collect"}
			for k, val := range tc.opts {
				o[k] = val
			}
			ts := tbl(o, fld("c", arr(schema.IntType())), fld("g", schema.IntType()))
			got, err := merge(t, ts, ins(1, a(int32(1)), int32(2)), ins(2, a(int32(2)), int32(1)))
			row(data.Insert, tc.want, int32(2)).check(t, got, err)
		})
	}
}

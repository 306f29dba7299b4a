package evolution

import (
	"math"
	"math/big"
	"testing"
	"time"
	_ "time/tzdata" // the zone tests must not depend on the host's zoneinfo

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Expected values below are what Java Paimon 1.4.2 computes, derived from the
// cast rules' source (org.apache.paimon.casting.*, BinaryStringUtils,
// DecimalUtils, DateTimeUtils) and JDK semantics (JDK 19+ Double.toString).

func dec(s string, p, sc int) data.Decimal {
	u, scale, err := parseBigDecimal(s)
	if err != nil {
		panic(err)
	}
	d, ok := fromBigDecimal(u, scale, p, sc)
	if !ok {
		panic("decimal overflow in test data: " + s)
	}
	return d
}

func ts(millis int64, nano int32) data.Timestamp {
	return data.Timestamp{Millis: millis, NanoOfMilli: nano}
}

const (
	d20240305   = 19787
	ms20240305  = int64(d20240305) * millisPerDay
	ms1020_30_1 = ms20240305 + 10*3_600_000 + 20*60_000 + 30_000 + 123 // 2024-03-05 10:20:30.123
)

var (
	tInt      = schema.IntType()
	tTiny     = schema.TinyIntType()
	tSmall    = schema.SmallIntType()
	tBig      = schema.BigIntType()
	tFloat    = schema.FloatType()
	tDouble   = schema.DoubleType()
	tBool     = schema.BooleanType()
	tString   = schema.StringType()
	tDate     = schema.DateType()
	tBytes    = schema.BytesType()
	errResult = struct{}{}
)

type castCase struct {
	name     string
	from, to schema.DataType
	in       any
	want     any // errResult for an error, nil for NULL
}

func runCastCases(t *testing.T, e *env, cases []castCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fn, ok := resolve(c.from, c.to, e)
			require.True(t, ok, "no cast %s -> %s", c.from, c.to)
			got, err := fn(c.in)
			if c.want == errResult {
				require.Error(t, err, "got %v", got)
				require.ErrorIs(t, err, ErrCast)
				return
			}
			require.NoError(t, err)
			switch w := c.want.(type) {
			case data.Decimal:
				g, ok := got.(data.Decimal)
				require.True(t, ok, "got %T %v", got, got)
				require.Equal(t, w.String(), g.String())
				require.Equal(t, w.Precision, g.Precision)
				require.Equal(t, w.Scale, g.Scale)
			case float64:
				g, ok := got.(float64)
				require.True(t, ok, "got %T", got)
				if math.IsNaN(w) {
					require.True(t, math.IsNaN(g))
				} else {
					require.Equal(t, math.Float64bits(w), math.Float64bits(g), "got %v want %v", g, w)
				}
			case float32:
				g, ok := got.(float32)
				require.True(t, ok, "got %T", got)
				require.Equal(t, math.Float32bits(w), math.Float32bits(g), "got %v want %v", g, w)
			default:
				require.Equal(t, c.want, got)
			}
		})
	}
}

func TestNumericCasts(t *testing.T) {
	runCastCases(t, &env{loc: time.UTC}, []castCase{
		// NumericPrimitiveCastRule: Number::xxxValue.
		{"int to smallint wraps", tInt, tSmall, int32(100000), int16(-31072)},
		{"int to tinyint wraps", tInt, tTiny, int32(383), int8(127)},
		{"bigint to int wraps", tBig, tInt, int64(5000000000), int32(705032704)},
		{"int to bigint", tInt, tBig, int32(math.MaxInt32), int64(math.MaxInt32)},
		{"smallint to int", tSmall, tInt, int16(-2), int32(-2)},
		{"bigint to double rounds", tBig, tDouble, int64(9007199254740993), float64(9007199254740992)},
		{"bigint to float ties to even", tBig, tFloat, int64(16777217), float32(16777216)},
		{"bigint to float rounds up", tBig, tFloat, int64(16777219), float32(16777220)},
		{"bigint to float no double rounding", tBig, tFloat, int64(9007199791611905), float32(9007200328482816)},
		{"int to float", tInt, tFloat, int32(16777217), float32(16777216)},
		{"double to int saturates", tDouble, tInt, 1e20, int32(math.MaxInt32)},
		{"double to bigint saturates", tDouble, tBig, -1e20, int64(math.MinInt64)},
		{"NaN to int is 0", tDouble, tInt, math.NaN(), int32(0)},
		{"double to int truncates", tDouble, tInt, 3.9, int32(3)},
		{"negative double to int truncates", tDouble, tInt, -3.9, int32(-3)},
		{"double to tinyint via int", tDouble, tTiny, 300.7, int8(44)},
		{"double to smallint via saturated int", tDouble, tSmall, 1e10, int16(-1)},
		{"float to double widens exactly", tFloat, tDouble, float32(0.1), 0.10000000149011612},
		{"double to float rounds", tDouble, tFloat, 0.1, float32(0.1)},
		{"double to float overflows to inf", tDouble, tFloat, 1e40, float32(math.Inf(1))},
		{"float to bigint", tFloat, tBig, float32(-2.5), int64(-2)},

		// DecimalToDecimalCastRule: HALF_UP, NULL on overflow.
		{"decimal widen", schema.DecimalType(10, 2), schema.DecimalType(20, 2), dec("1.10", 10, 2), dec("1.10", 20, 2)},
		{"decimal half up", schema.DecimalType(10, 3), schema.DecimalType(10, 2), dec("1.235", 10, 3), dec("1.24", 10, 2)},
		{"decimal half up negative", schema.DecimalType(10, 3), schema.DecimalType(10, 2), dec("-1.235", 10, 3), dec("-1.24", 10, 2)},
		{"decimal round down", schema.DecimalType(10, 3), schema.DecimalType(10, 2), dec("1.234", 10, 3), dec("1.23", 10, 2)},
		{"decimal overflow is null", schema.DecimalType(10, 2), schema.DecimalType(5, 2), dec("12345678.90", 10, 2), nil},
		{"decimal rounding carries", schema.DecimalType(5, 2), schema.DecimalType(5, 1), dec("999.99", 5, 2), dec("1000.0", 5, 1)},
		{"decimal rounding overflows", schema.DecimalType(5, 2), schema.DecimalType(4, 1), dec("999.99", 5, 2), nil},
		{"decimal scale up", schema.DecimalType(3, 0), schema.DecimalType(38, 10), dec("-123", 3, 0), dec("-123.0000000000", 38, 10)},

		// NumericPrimitiveToDecimalCastRule.
		{"int to decimal", tInt, schema.DecimalType(5, 2), int32(123), dec("123.00", 5, 2)},
		{"int to decimal overflow", tInt, schema.DecimalType(5, 2), int32(1234), nil},
		{"double to decimal", tDouble, schema.DecimalType(5, 3), 0.1, dec("0.100", 5, 3)},
		{"float to decimal keeps float digits", tFloat, schema.DecimalType(20, 18), float32(0.1), dec("0.100000001490116120", 20, 18)},
		{"float to decimal rounds", tFloat, schema.DecimalType(10, 9), float32(0.1), dec("0.100000001", 10, 9)},
		{"double to decimal half up", tDouble, schema.DecimalType(2, 0), 2.5, dec("3", 2, 0)},
		{"negative double to decimal half up", tDouble, schema.DecimalType(2, 0), -2.5, dec("-3", 2, 0)},
		{"double in E notation to decimal", tDouble, schema.DecimalType(38, 0), 1e20, dec("100000000000000000000", 38, 0)},
		{"NaN to decimal throws", tDouble, schema.DecimalType(10, 2), math.NaN(), errResult},
		{"infinity to decimal throws", tFloat, schema.DecimalType(10, 2), float32(math.Inf(1)), errResult},

		// DecimalToNumericPrimitiveCastRule.
		{"decimal to int truncates", schema.DecimalType(10, 2), tInt, dec("1234.56", 10, 2), int32(1234)},
		{"negative decimal to int truncates", schema.DecimalType(10, 2), tInt, dec("-1234.56", 10, 2), int32(-1234)},
		{"decimal to tinyint wraps", schema.DecimalType(10, 2), tTiny, dec("1234.56", 10, 2), int8(-46)},
		{"wide decimal to bigint keeps low bits", schema.DecimalType(38, 0), tBig, dec("18446744073709551621", 38, 0), int64(5)},
		{"decimal to double", schema.DecimalType(10, 2), tDouble, dec("0.10", 10, 2), 0.1},
		{"decimal to float", schema.DecimalType(10, 2), tFloat, dec("0.10", 10, 2), float32(0.1)},
		{"wide decimal to double", schema.DecimalType(20, 2), tDouble, dec("3.30", 20, 2), 3.3},

		// Boolean <-> numeric.
		{"true to int", tBool, tInt, true, int32(1)},
		{"false to bigint", tBool, tBig, false, int64(0)},
		{"true to double", tBool, tDouble, true, 1.0},
		{"true to decimal", tBool, schema.DecimalType(5, 2), true, dec("1.00", 5, 2)},
		{"true to decimal(1,1) overflows", tBool, schema.DecimalType(1, 1), true, nil},
		{"tinyint to boolean", tTiny, tBool, int8(5), true},
		{"zero to boolean", tBig, tBool, int64(0), false},
	})
}

func TestStringCasts(t *testing.T) {
	runCastCases(t, &env{loc: time.UTC}, []castCase{
		// NumericToStringCastRule (value.toString(), then fitted to the type).
		{"int to string", tInt, tString, int32(42), "42"},
		{"int to char pads", tInt, schema.CharType(5), int32(42), "42   "},
		{"int to varchar cuts", tInt, schema.VarCharType(1), int32(42), "4"},
		{"double 1e7", tDouble, tString, 1e7, "1.0E7"},
		{"double plain", tDouble, tString, 1234567.0, "1234567.0"},
		{"double 0.001", tDouble, tString, 0.001, "0.001"},
		{"double 0.0001", tDouble, tString, 0.0001, "1.0E-4"},
		{"double 100", tDouble, tString, 100.0, "100.0"},
		{"double negative zero", tDouble, tString, math.Copysign(0, -1), "-0.0"},
		{"double NaN", tDouble, tString, math.NaN(), "NaN"},
		{"double min value", tDouble, tString, math.SmallestNonzeroFloat64, "4.9E-324"},
		{"double max value", tDouble, tString, math.MaxFloat64, "1.7976931348623157E308"},
		{"double 2e-3", tDouble, tString, 2e-3, "0.002"},
		{"double 1e23", tDouble, tString, 1e23, "1.0E23"},
		{"double -1.5e-7", tDouble, tString, -1.5e-7, "-1.5E-7"},
		{"float 0.1", tFloat, tString, float32(0.1), "0.1"},
		{"float 1e10", tFloat, tString, float32(1e10), "1.0E10"},
		{"float min value", tFloat, tString, float32(math.SmallestNonzeroFloat32), "1.4E-45"},
		{"float max value", tFloat, tString, float32(math.MaxFloat32), "3.4028235E38"},
		{"float infinity", tFloat, tString, float32(math.Inf(-1)), "-Infinity"},
		{"decimal to string", schema.DecimalType(10, 2), tString, dec("1.10", 10, 2), "1.10"},
		{"decimal to varchar cuts", schema.DecimalType(10, 2), schema.VarCharType(3), dec("-1.10", 10, 2), "-1."},
		{"boolean to string", tBool, tString, true, "true"},
		{"boolean to char cuts", tBool, schema.CharType(2), false, "fa"},

		// StringToStringCastRule (lengths in characters).
		{"string to char cuts by chars", tString, schema.CharType(3), "héllo", "hél"},
		{"string to char pads", tString, schema.CharType(7), "héllo", "héllo  "},
		{"string to varchar keeps short", tString, schema.VarCharType(10), "héllo", "héllo"},
		{"char to string keeps padding", schema.CharType(5), tString, "ab   ", "ab   "},
		{"varchar to varchar cuts", schema.VarCharType(10), schema.VarCharType(2), "日本語", "日本"},

		// StringToNumericPrimitiveCastRule (BinaryStringUtils).
		{"string to int", tString, tInt, "123", int32(123)},
		{"string to int plus", tString, tInt, "+5", int32(5)},
		{"string to int drops fraction", tString, tInt, "12.7", int32(12)},
		{"string to int drops negative fraction", tString, tInt, "-12.7", int32(-12)},
		{"string dot is zero", tString, tInt, ".", int32(0)},
		{"string to int no whitespace", tString, tInt, " 12", errResult},
		{"string to int overflow", tString, tInt, "2147483648", errResult},
		{"string to int min", tString, tInt, "-2147483648", int32(math.MinInt32)},
		{"string to int bad fraction", tString, tInt, "1.x", errResult},
		{"string to int exponent", tString, tInt, "1e3", errResult},
		{"string to int empty", tString, tInt, "", errResult},
		{"string to int sign only", tString, tInt, "-", errResult},
		{"string to tinyint overflow", tString, tTiny, "128", errResult},
		{"string to tinyint min", tString, tTiny, "-128", int8(-128)},
		{"string to smallint", tString, tSmall, "-32768", int16(-32768)},
		{"string to bigint max", tString, tBig, "9223372036854775807", int64(math.MaxInt64)},
		{"string to bigint min", tString, tBig, "-9223372036854775808", int64(math.MinInt64)},
		{"string to bigint overflow", tString, tBig, "9223372036854775808", errResult},
		{"string to bigint long overflow", tString, tBig, "99999999999999999999", errResult},
		{"string to double exponent", tString, tDouble, "1e3", 1000.0},
		{"string to double trims", tString, tDouble, " 1.5 ", 1.5},
		{"string to double suffix", tString, tDouble, "1.5f", 1.5},
		{"string to double hex", tString, tDouble, "0x1p3", 8.0},
		{"string to double NaN", tString, tDouble, "NaN", math.NaN()},
		{"string to double -Infinity", tString, tDouble, "-Infinity", math.Inf(-1)},
		{"string to double inf is not Java", tString, tDouble, "inf", errResult},
		{"string to double underscore", tString, tDouble, "1_0", errResult},
		{"string to double dangling exponent", tString, tDouble, "1e", errResult},
		{"string to double huge", tString, tDouble, "1e400", math.Inf(1)},
		{"string to double leading dot", tString, tDouble, ".5", 0.5},
		{"string to float", tString, tFloat, "0.1", float32(0.1)},

		// StringToDecimalCastRule.
		{"string to decimal rounds", tString, schema.DecimalType(5, 2), "12.345", dec("12.35", 5, 2)},
		{"string to decimal exponent", tString, schema.DecimalType(5, 0), "1E+2", dec("100", 5, 0)},
		{"string to decimal negative exponent", tString, schema.DecimalType(5, 3), "5e-3", dec("0.005", 5, 3)},
		{"string to decimal tiny rounds to zero", tString, schema.DecimalType(5, 2), "1e-999999", dec("0", 5, 2)},
		{"string to decimal huge is null", tString, schema.DecimalType(5, 2), "1e999999", nil},
		{"string to decimal whitespace", tString, schema.DecimalType(5, 2), " 1", errResult},
		{"string to decimal garbage", tString, schema.DecimalType(5, 2), "abc", errResult},
		{"string to decimal overflow is null", tString, schema.DecimalType(5, 2), "123456", nil},

		// StringToBooleanCastRule.
		{"Yes", tString, tBool, "Yes", true},
		{"0", tString, tBool, "0", false},
		{"TRUE", tString, tBool, "TRUE", true},
		{"n", tString, tBool, "n", false},
		{"maybe", tString, tBool, "maybe", errResult},
		{"padded true", tString, tBool, " true", errResult},

		// Binary strings.
		{"string to binary pads", tString, schema.BinaryType(5), "abc", []byte("abc\x00\x00")},
		{"string to varbinary cuts", tString, schema.VarBinaryType(2), "abc", []byte("ab")},
		{"string to bytes", tString, tBytes, "abc", []byte("abc")},
		{"binary to string raw", schema.BinaryType(3), schema.CharType(10), []byte("a\x00b"), "a\x00b"},
		{"varbinary to binary cuts", schema.VarBinaryType(10), schema.BinaryType(3), []byte("abcdef"), []byte("abc")},
		{"varbinary to binary pads", schema.VarBinaryType(10), schema.BinaryType(8), []byte("abcdef"), []byte("abcdef\x00\x00")},
		{"binary to varbinary keeps", schema.BinaryType(4), schema.VarBinaryType(10), []byte("abcd"), []byte("abcd")},

		// ARRAY/MAP/ROW to string.
		{"array to string", schema.ArrayType(tInt), tString, []any{int32(1), nil, int32(3)}, "[1, null, 3]"},
		{"array of double to string", schema.ArrayType(tDouble), tString, []any{1.0}, "[1.0]"},
		{"array of date to string", schema.ArrayType(tDate), tString, []any{int32(d20240305)}, "[2024-03-05]"},
		{"array to char is not fitted", schema.ArrayType(tInt), schema.CharType(2), []any{int32(1), int32(2)}, "[1, 2]"},
		{"nested array to string", schema.ArrayType(schema.ArrayType(tString)), tString, []any{[]any{"a", "b"}, []any{}}, "[[a, b], []]"},
		{"map to string", schema.MapType(tString, tInt), tString, data.Map{Keys: []any{"a", "b"}, Values: []any{int32(1), nil}}, "{a -> 1, b -> null}"},
		{"row to string", schema.RowType(schema.NewField(1, "a", tInt), schema.NewField(2, "b", tString)), tString, []any{int32(1), "x"}, "{1, x}"},
		{"row with null to string", schema.RowType(schema.NewField(1, "a", tInt)), tString, []any{nil}, "{null}"},
		{"array of variant fails on a value", schema.ArrayType(schema.VariantType()), tString, []any{data.Variant{}}, errResult},
		{"array of variant without values", schema.ArrayType(schema.VariantType()), tString, []any{nil}, "[null]"},
	})
}

func TestTimeCasts(t *testing.T) {
	utc := &env{loc: time.UTC}
	runCastCases(t, utc, []castCase{
		{"timestamp(6) to (3) truncates", schema.TimestampType(6), schema.TimestampType(3), ts(ms1020_30_1, 456000), ts(ms1020_30_1, 0)},
		{"timestamp(3) to (6)", schema.TimestampType(3), schema.TimestampType(6), ts(ms1020_30_1, 0), ts(ms1020_30_1, 0)},
		{"timestamp(9) to (4) keeps short nanos", schema.TimestampType(9), schema.TimestampType(4), ts(ms20240305, 1000), ts(ms20240305, 1000)},
		{"timestamp(9) to (4) truncates", schema.TimestampType(9), schema.TimestampType(4), ts(ms1020_30_1, 456789), ts(ms1020_30_1, 400000)},
		{"timestamp(3) to (0) truncates toward zero", schema.TimestampType(3), schema.TimestampType(0), ts(-1500, 0), ts(-1000, 0)},
		{"timestamp(3) to (0) whole second", schema.TimestampType(3), schema.TimestampType(0), ts(-1000, 0), ts(-1000, 0)},
		{"timestamp to date", schema.TimestampType(3), tDate, ts(3*millisPerDay+5, 0), int32(3)},
		{"timestamp before 1970 to date truncates", schema.TimestampType(3), tDate, ts(-1, 0), int32(0)},
		{"timestamp to time", schema.TimestampType(3), schema.TimeType(0), ts(millisPerDay+3_723_000, 0), int32(3_723_000)},
		{"timestamp before 1970 to time is negative", schema.TimestampType(3), schema.TimeType(0), ts(-1000, 0), int32(-1000)},
		{"date to timestamp", tDate, schema.TimestampType(3), int32(d20240305), ts(ms20240305, 0)},
		{"time to timestamp", schema.TimeType(0), schema.TimestampType(6), int32(3_723_000), ts(3_723_000, 0)},
		{"timestamp to bigint", schema.TimestampType(3), tBig, ts(1700000000123, 0), int64(1700000000)},
		{"timestamp to int", schema.TimestampType(3), tInt, ts(1700000000123, 0), int32(1700000000)},
		{"negative timestamp to bigint truncates", schema.TimestampType(3), tBig, ts(-1500, 0), int64(-1)},
		{"ltz to bigint", schema.TimestampLTZType(3), tBig, ts(1700000000123, 0), int64(1700000000)},
		{"int to timestamp", tInt, schema.TimestampType(3), int32(1700000000), ts(1700000000000, 0)},
		{"bigint to timestamp", tBig, schema.TimestampType(9), int64(-1), ts(-1000, 0)},
		{"timestamp to string", schema.TimestampType(3), tString, ts(1700000000123, 0), "2023-11-14 22:13:20.123"},
		{"timestamp to string keeps precision zeros", schema.TimestampType(3), tString, ts(1700000000120, 0), "2023-11-14 22:13:20.120"},
		{"timestamp(3) zero millis", schema.TimestampType(3), tString, ts(1700000000000, 0), "2023-11-14 22:13:20.000"},
		{"timestamp(0) to string", schema.TimestampType(0), tString, ts(1700000000000, 0), "2023-11-14 22:13:20"},
		{"timestamp(9) to string keeps nine", schema.TimestampType(9), tString, ts(1700000000123, 400000), "2023-11-14 22:13:20.123400000"},
		{"timestamp(4) to string strips to four", schema.TimestampType(4), tString, ts(1700000000123, 400000), "2023-11-14 22:13:20.1234"},
		{"timestamp(2) to string keeps nonzero digits", schema.TimestampType(2), tString, ts(1700000000123, 0), "2023-11-14 22:13:20.123"},
		{"timestamp(6) to string keeps six", schema.TimestampType(6), tString, ts(1700000000100, 0), "2023-11-14 22:13:20.100000"},
		{"timestamp before 1970 to string", schema.TimestampType(3), tString, ts(-1, 0), "1969-12-31 23:59:59.999"},
		{"time to string", schema.TimeType(3), tString, int32(3_723_500), "01:02:03.5"},
		{"time(3) zero millis", schema.TimeType(3), tString, int32(3_723_000), "01:02:03.0"},
		{"time(0) to string", schema.TimeType(0), tString, int32(3_723_500), "01:02:03"},
		{"negative time to string", schema.TimeType(0), tString, int32(-1000), "23:59:59"},
		{"date to string", tDate, tString, int32(d20240305), "2024-03-05"},
		{"date before 1970 to string", tDate, tString, int32(-1), "1969-12-31"},

		// String to DATE/TIME/TIMESTAMP.
		{"string to date", tString, tDate, "2024-3-5", int32(d20240305)},
		{"string to date leap day", tString, tDate, "2024-02-29", int32(19782)},
		{"string to date invalid day", tString, tDate, "2024-02-30", errResult},
		{"string to date ignores time", tString, tDate, "2024-03-05 10:00:00", int32(d20240305)},
		{"string to date year only", tString, tDate, "1970-", errResult},
		{"numeric string to date is a day number", tString, tDate, "2024", int32(2024)},
		{"negative numeric string to date", tString, tDate, "-3", int32(-3)},
		{"string to date garbage", tString, tDate, "yesterday", errResult},
		{"string to time", tString, schema.TimeType(3), "10:20:30.123", int32(37_230_123)},
		{"string to time rounds fourth digit", tString, schema.TimeType(3), "10:20:30.1236", int32(37_230_124)},
		{"string to time minutes", tString, schema.TimeType(0), "10:20", int32(37_200_000)},
		{"string to time unchecked", tString, schema.TimeType(0), "25:00", int32(90_000_000)},
		{"numeric string to time is millis", tString, schema.TimeType(0), "10", int32(10)},
		{"string to time zone", tString, schema.TimeType(0), "10:00:00+01:30", int32(41_400_000)},
		{"string to time garbage", tString, schema.TimeType(0), "noon", errResult},
		{"string to timestamp(6)", tString, schema.TimestampType(6), "2024-03-05 10:20:30.123456789", ts(ms1020_30_1, 456000)},
		{"string to timestamp(3)", tString, schema.TimestampType(3), "2024-03-05 10:20:30.123456789", ts(ms1020_30_1, 0)},
		{"string to timestamp date only", tString, schema.TimestampType(3), "2024-03-05", ts(ms20240305, 0)},
		{"string to timestamp short fields", tString, schema.TimestampType(3), "2024-3-5 1:2:3", ts(ms20240305+3_723_000, 0)},
		{"string to timestamp dot without digits", tString, schema.TimestampType(3), "2024-03-05 00:00:00.", ts(ms20240305, 0)},
		{"string to timestamp clamps day", tString, schema.TimestampType(3), "2024-02-30 00:00:00", ts(19782*millisPerDay, 0)},
		{"string to timestamp 24:00", tString, schema.TimestampType(3), "2024-03-04 24:00:00", ts(ms20240305, 0)},
		{"string to timestamp T separator", tString, schema.TimestampType(3), "2024-03-05T10:00:00", errResult},
		{"string to timestamp bad hour", tString, schema.TimestampType(3), "2024-03-05 25:00:00", errResult},
		{"string to timestamp bad month", tString, schema.TimestampType(3), "2024-13-05", errResult},
		{"string to timestamp 5-digit year", tString, schema.TimestampType(3), "20240-03-05", errResult},
		{"string to timestamp signed year", tString, schema.TimestampType(3), "+20240-01-01", ts(daysFromCivil(20240, 1, 1)*millisPerDay, 0)},
		{"string to timestamp trailing", tString, schema.TimestampType(3), "2024-03-05 10:00", errResult},
		{"numeric string to timestamp(3)", tString, schema.TimestampType(3), "1700000000123", ts(1700000000123, 0)},
		{"numeric string to timestamp(0)", tString, schema.TimestampType(0), "1700000000", ts(1700000000000, 0)},
		{"numeric string to timestamp(6)", tString, schema.TimestampType(6), "-1", ts(-1, 999000)},
		{"numeric string to timestamp(9)", tString, schema.TimestampType(9), "1500000001", ts(1500, 1)},
		{"numeric string to timestamp(4)", tString, schema.TimestampType(4), "1", errResult},
		{"string to ltz", tString, schema.TimestampLTZType(3), "2024-03-05 10:20:30.123", ts(ms1020_30_1, 0)},
	})

	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	newYork, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	const hour = 3_600_000
	gap := daysFromCivil(2024, 3, 10)*millisPerDay + 2*hour + hour/2   // 02:30, skipped
	overlap := daysFromCivil(2024, 11, 3)*millisPerDay + hour + hour/2 // 01:30, twice
	runCastCases(t, &env{loc: shanghai}, []castCase{
		{"timestamp to ltz", schema.TimestampType(3), schema.TimestampLTZType(3), ts(ms20240305+10*hour, 5), ts(ms20240305+2*hour, 5)},
		{"ltz to timestamp", schema.TimestampLTZType(3), schema.TimestampType(3), ts(ms20240305+2*hour, 0), ts(ms20240305+10*hour, 0)},
		{"ltz to date", schema.TimestampLTZType(3), tDate, ts(ms20240305+20*hour, 0), int32(d20240305 + 1)},
		{"ltz to time", schema.TimestampLTZType(3), schema.TimeType(0), ts(ms20240305+20*hour, 0), int32(4 * hour)},
		{"ltz to string", schema.TimestampLTZType(3), tString, ts(ms20240305+20*hour, 0), "2024-03-06 04:00:00.000"},
		{"date to ltz", tDate, schema.TimestampLTZType(3), int32(d20240305), ts(ms20240305-8*hour, 0)},
		{"time to ltz", schema.TimeType(0), schema.TimestampLTZType(3), int32(hour), ts(hour, 0)},
		{"int to ltz stores the local wall clock", tInt, schema.TimestampLTZType(3), int32(0), ts(8*hour, 0)},
		{"string to ltz", tString, schema.TimestampLTZType(3), "2024-03-05 10:00:00", ts(ms20240305+2*hour, 0)},
	})
	runCastCases(t, &env{loc: newYork}, []castCase{
		{"gap moves forward", schema.TimestampType(3), schema.TimestampLTZType(3), ts(gap, 0), ts(gap+5*hour, 0)},
		{"overlap takes the earlier offset", schema.TimestampType(3), schema.TimestampLTZType(3), ts(overlap, 0), ts(overlap+4*hour, 0)},
		{"int to ltz before epoch", tInt, schema.TimestampLTZType(3), int32(0), ts(-5*hour, 0)},
	})
}

// TestNoCast lists type changes Java's CastExecutors.resolve has no executor
// for (so ALTER TABLE rejects them too).
func TestNoCast(t *testing.T) {
	e := &env{loc: time.UTC}
	cases := []struct{ from, to schema.DataType }{
		{tFloat, tBool},
		{schema.DecimalType(10, 2), tBool},
		{tDate, tInt},
		{schema.TimeType(0), schema.TimeType(3)},
		{schema.TimestampType(3), tTiny},
		{schema.TimestampType(3), tDouble},
		{schema.DecimalType(10, 2), schema.TimestampType(3)},
		{tDouble, schema.TimestampType(3)},
		{tSmall, schema.TimestampType(3)},
		{tString, schema.ArrayType(tInt)},
		{tString, schema.MapType(tString, tInt)},
		{tString, schema.RowType(schema.NewField(1, "a", tInt))},
		{tBytes, tInt},
		{schema.VariantType(), tString},
		{schema.BlobType(), tBytes},
		{tBool, tDate},
		{tDate, schema.VarCharType(20)},
		{tDate, tString.NotNull()},
		{schema.TimestampType(3), schema.CharType(30)},
		{schema.TimeType(0), schema.VarCharType(100)},
		{schema.MultisetType(tInt), tString},
		{schema.VectorType(2, tFloat), tString},
		{tInt, schema.TimeType(0)},
		{tDate, schema.TimeType(0)},
		{schema.TimeType(0), tDate},
	}
	for _, c := range cases {
		t.Run(c.from.String()+"->"+c.to.String(), func(t *testing.T) {
			_, ok := resolve(c.from, c.to, e)
			require.False(t, ok)
		})
	}
}

func TestFromBigDecimal(t *testing.T) {
	cases := []struct {
		in    string
		p, s  int
		want  string
		isNil bool
	}{
		{"0.5", 1, 0, "1", false},
		{"-0.5", 1, 0, "-1", false},
		{"0.49", 1, 0, "0", false},
		{"0.0000", 1, 0, "0", false},
		{"99.5", 2, 0, "", true},
		{"1e-40", 38, 38, "0.00000000000000000000000000000000000000", false},
		{"5e-39", 38, 38, "0.00000000000000000000000000000000000001", false},
		{"12345678901234567890123456789012345678", 38, 0, "12345678901234567890123456789012345678", false},
		{"123456789012345678901234567890123456789", 38, 0, "", true},
	}
	for _, c := range cases {
		u, sc, err := parseBigDecimal(c.in)
		require.NoError(t, err, c.in)
		d, ok := fromBigDecimal(u, sc, c.p, c.s)
		if c.isNil {
			require.False(t, ok, c.in)
			continue
		}
		require.True(t, ok, c.in)
		require.Equal(t, c.want, d.String(), c.in)
	}
	_, _, err := parseBigDecimal("1e2147483648")
	require.Error(t, err)
	u, sc, err := parseBigDecimal("-.5E+1")
	require.NoError(t, err)
	require.Equal(t, big.NewInt(-5), u)
	require.Equal(t, int64(0), sc)
}

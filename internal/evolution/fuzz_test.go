package evolution

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/paimon-go/paimon-go/format/schema"
)

// FuzzStringCasts feeds arbitrary text to every cast from STRING: each must
// return a value or an error, never panic.
func FuzzStringCasts(f *testing.F) {
	for _, s := range []string{
		"", "1", "-1", "+.", "12.5", "1e3", "0x1p3", "NaN", "true", "2024-03-05",
		"2024-03-05 10:20:30.123456789", "+20240-1-1 24:00:00", "10:20:30.5-01:00",
		"9223372036854775808", "1e999999999", "héllo", "2024-1212-05", "2024--",
	} {
		f.Add(s)
	}
	targets := []schema.DataType{
		schema.BooleanType(), schema.TinyIntType(), schema.SmallIntType(), schema.IntType(),
		schema.BigIntType(), schema.FloatType(), schema.DoubleType(), schema.DecimalType(38, 10),
		schema.DecimalType(5, 2), schema.CharType(3), schema.VarCharType(2), schema.BinaryType(4),
		schema.VarBinaryType(2), schema.DateType(), schema.TimeType(3), schema.TimestampType(0),
		schema.TimestampType(3), schema.TimestampType(6), schema.TimestampType(7), schema.TimestampType(9),
		schema.TimestampLTZType(3),
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		ny = time.UTC
	}
	e := &env{loc: ny}
	f.Fuzz(func(t *testing.T, s string) {
		for _, to := range targets {
			fn, ok := resolve(schema.StringType(), to, e)
			if !ok {
				t.Fatalf("no cast to %s", to)
			}
			_, _ = fn(s)
		}
	})
}

// FuzzJavaDoubleString checks that the Java rendering of any double parses
// back (with Java's grammar) to the same value.
func FuzzJavaDoubleString(f *testing.F) {
	for _, v := range []float64{0, 1, 0.1, 1e7, 1e-3, 5e-324, math.MaxFloat64, 123456.789, -2.5e-10} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		s := javaDoubleString(v)
		got, err := parseJavaDouble(s, 64)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if math.IsNaN(v) {
			if !math.IsNaN(got) {
				t.Fatalf("%s: got %v", s, got)
			}
			return
		}
		if math.Float64bits(got) != bits {
			t.Fatalf("%v printed %s parsed %v", v, s, got)
		}
		v32 := float32(v)
		s32 := javaFloatString(v32)
		g32, err := strconv.ParseFloat(s32, 32)
		if err != nil && !math.IsInf(float64(v32), 0) && !math.IsNaN(float64(v32)) {
			t.Fatalf("%s: %v", s32, err)
		}
		if err == nil && float32(g32) != v32 {
			t.Fatalf("%v printed %s parsed %v", v32, s32, g32)
		}
	})
}

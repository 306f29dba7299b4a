package predicate

import (
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/schema"
)

// convertLoose converts what convertValue's strict table does not take: a
// Go number of another numeric type when the conversion is exact (int64(100)
// for a DOUBLE, 2.0 for an INT, 0.5 for a DECIMAL(3, 1)), and ISO-8601 text
// for DATE, TIME and TIMESTAMP columns ("2024-06-01", "12:30:00.5",
// "2024-06-01T12:30:00", "2024-06-01 12:30:00Z"). ok is false when lit is
// neither, so the caller reports the type mismatch.
func convertLoose(t schema.DataType, lit any) (v any, reason string, ok bool) {
	if s, isString := lit.(string); isString {
		switch t.Root {
		case schema.Date, schema.Time, schema.Timestamp, schema.TimestampLTZ:
			v, reason = parseISOTemporal(t, s)
			return v, reason, true
		}
		return nil, "", false
	}
	r, isNumber := exactRat(lit)
	if !isNumber {
		return nil, "", false
	}
	switch t.Root {
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt:
		if !r.IsInt() {
			return nil, "not a whole number", true
		}
		if !r.Num().IsInt64() {
			return nil, "out of range", true
		}
		v, reason = convertValue(t, r.Num().Int64())
		return v, reason, true
	case schema.Float, schema.Double:
		bits := 64
		if t.Root == schema.Float {
			bits = 32
		}
		if bits == 32 {
			f, exact := r.Float32()
			if !exact || math.IsInf(float64(f), 0) {
				return nil, "not exactly representable as FLOAT", true
			}
			return f, "", true
		}
		f, exact := r.Float64()
		if !exact || math.IsInf(f, 0) {
			return nil, "not exactly representable as DOUBLE", true
		}
		return f, "", true
	case schema.Decimal:
		v, reason = toDecimal(t, numberLiteral(r.FloatString(ratScale(r))))
		return v, reason, true
	}
	return nil, "", false
}

// exactRat returns a Go integer or finite float as an exact rational.
func exactRat(lit any) (*big.Rat, bool) {
	switch x := lit.(type) {
	case int:
		return new(big.Rat).SetInt64(int64(x)), true
	case int8:
		return new(big.Rat).SetInt64(int64(x)), true
	case int16:
		return new(big.Rat).SetInt64(int64(x)), true
	case int32:
		return new(big.Rat).SetInt64(int64(x)), true
	case int64:
		return new(big.Rat).SetInt64(x), true
	case uint:
		return new(big.Rat).SetUint64(uint64(x)), true
	case uint8:
		return new(big.Rat).SetUint64(uint64(x)), true
	case uint16:
		return new(big.Rat).SetUint64(uint64(x)), true
	case uint32:
		return new(big.Rat).SetUint64(uint64(x)), true
	case uint64:
		return new(big.Rat).SetUint64(x), true
	case float32:
		if math.IsInf(float64(x), 0) || x != x {
			return nil, false
		}
		return new(big.Rat).SetFloat64(float64(x)), true
	case float64:
		if math.IsInf(x, 0) || x != x {
			return nil, false
		}
		return new(big.Rat).SetFloat64(x), true
	}
	return nil, false
}

// ratScale is the number of decimal fraction digits r needs (a binary
// fraction always has a finite decimal form), capped at 400.
func ratScale(r *big.Rat) int {
	d := new(big.Int).Set(r.Denom())
	ten := big.NewInt(10)
	for n := 0; n <= 400; n++ {
		if new(big.Int).Mod(new(big.Int).Mul(r.Num(), new(big.Int).Exp(ten, big.NewInt(int64(n)), nil)), d).Sign() == 0 {
			return n
		}
	}
	return 400
}

// Layouts of ISO-8601 text for temporal columns: 'T' or a space between
// date and time, optional seconds and fraction.
var (
	isoTimeLayouts      = []string{"15:04:05.999999999", "15:04"}
	isoTimestampLayouts = []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"}
	isoZonedLayouts     = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00"}
)

// parseISOTemporal converts ISO-8601 text for a DATE, TIME, TIMESTAMP or
// TIMESTAMP_LTZ column. Text with a zone or offset is an instant: for
// TIMESTAMP_LTZ as it is, for TIMESTAMP refused (the column has no zone).
// Text without one is a wall-clock time, for TIMESTAMP_LTZ read as UTC.
func parseISOTemporal(t schema.DataType, s string) (any, string) {
	s = strings.TrimSpace(s)
	switch t.Root {
	case schema.Date:
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return nil, "not a DATE (2024-06-01)"
		}
		return convertValue(t, d)
	case schema.Time:
		for _, l := range isoTimeLayouts {
			if tm, err := time.Parse(l, s); err == nil {
				if tm.Nanosecond()%int(time.Millisecond) != 0 {
					return nil, "TIME holds milliseconds; the text has more digits"
				}
				d := time.Duration(tm.Hour())*time.Hour + time.Duration(tm.Minute())*time.Minute +
					time.Duration(tm.Second())*time.Second + time.Duration(tm.Nanosecond())
				return convertValue(t, d)
			}
		}
		return nil, "not a TIME (12:30:00 or 12:30:00.123)"
	}
	for _, l := range isoZonedLayouts {
		if tm, err := time.Parse(l, s); err == nil {
			if t.Root == schema.Timestamp {
				return nil, "TIMESTAMP has no time zone; give the wall-clock time without one"
			}
			return convertValue(t, tm)
		}
	}
	for _, l := range isoTimestampLayouts {
		if tm, err := time.Parse(l, s); err == nil {
			return convertValue(t, tm) // parsed in UTC: the wall clock
		}
	}
	return nil, "not a TIMESTAMP (2024-06-01T12:30:00 or 2024-06-01 12:30:00.123)"
}

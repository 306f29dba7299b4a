package predicate

import (
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// numberLiteral is a numeric literal read by Parse, kept as its text (like
// encoding/json.Number) because its Go type depends on the column it is
// bound to: 1 may be a BIGINT, a DOUBLE or a DECIMAL(10, 2).
type numberLiteral string

// dateLiteral is a DATE literal read by Parse, in days since 1970-01-01.
type dateLiteral int32

// convertNumber converts a numeric literal for a column of type t.
func convertNumber(t schema.DataType, n numberLiteral) (any, string) {
	switch t.Root {
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Date, schema.Time:
		r, ok := new(big.Rat).SetString(string(n))
		if !ok {
			return nil, "not a number"
		}
		if !r.IsInt() {
			return nil, "not a whole number"
		}
		if !r.Num().IsInt64() {
			return nil, "out of range"
		}
		return convertValue(t, r.Num().Int64())
	case schema.Float, schema.Double:
		bitSize := 64
		if t.Root == schema.Float {
			bitSize = 32
		}
		f, err := strconv.ParseFloat(string(n), bitSize)
		if err != nil {
			return nil, fmt.Sprintf("out of %s range", t.Root)
		}
		if t.Root == schema.Float {
			return float32(f), ""
		}
		return f, ""
	case schema.Decimal:
		return toDecimal(t, n)
	}
	return nil, reasonUnsupported
}

// convertDate converts a DATE literal: a day for DATE columns, its
// midnight for timestamp columns.
func convertDate(t schema.DataType, d dateLiteral) (any, string) {
	switch t.Root {
	case schema.Date:
		return int32(d), ""
	case schema.Timestamp, schema.TimestampLTZ:
		return data.Timestamp{Millis: int64(d) * 86_400_000}, ""
	}
	return nil, reasonUnsupported
}

// formatTemporal renders time literals in the syntax Parse reads; ok is
// false for values that syntax cannot express.
func formatTemporal(v any) (string, bool) {
	switch x := v.(type) {
	case dateLiteral:
		return "DATE " + quote(time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02")), true
	case time.Time:
		s := x.Format("2006-01-02 15:04:05.999999999")
		switch _, off := x.Zone(); {
		case off == 0:
		case off%60 != 0:
			s += x.Format("-07:00:00")
		default:
			s += x.Format("-07:00")
		}
		return "TIMESTAMP " + quote(s), true
	case data.Timestamp:
		return "TIMESTAMP " + quote(formatTimestamp(x)), true
	case time.Duration:
		if x < 0 || x >= 24*time.Hour {
			return "", false
		}
		s := time.Unix(0, int64(x)).UTC().Format("15:04:05.999999999")
		return "TIME " + quote(s), true
	}
	return "", false
}

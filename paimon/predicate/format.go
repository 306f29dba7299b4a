package predicate

import (
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// quote renders s as a SQL string literal, doubling single quotes.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// formatGoLiteral renders an unbound literal (any Go value), in the syntax
// Parse reads where one exists (see formatTemporal).
func formatGoLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return quote(x)
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	case numberLiteral:
		return string(x)
	}
	if s, ok := formatTemporal(v); ok {
		return s
	}
	switch x := v.(type) {
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// formatValue renders a bound literal, knowing its column type.
func formatValue(t schema.DataType, v any) string {
	if v == nil {
		return "NULL"
	}
	switch t.Root {
	case schema.Date:
		if d, ok := v.(int32); ok {
			return quote(time.Unix(int64(d)*86400, 0).UTC().Format("2006-01-02"))
		}
	case schema.Time:
		if ms, ok := v.(int32); ok {
			return quote(time.UnixMilli(int64(ms)).UTC().Format("15:04:05.000"))
		}
	}
	return formatGoLiteral(v)
}

// formatTimestamp renders a timestamp as its UTC wall clock with nanoseconds
// trimmed of trailing zeros.
func formatTimestamp(ts data.Timestamp) string {
	t := time.UnixMilli(ts.Millis).Add(time.Duration(ts.NanoOfMilli)).UTC()
	return t.Format("2006-01-02 15:04:05.999999999")
}

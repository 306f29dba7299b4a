// Package partpath computes the directory Java Paimon stores a partition's
// files in ("dt=2024-01-01/hr=3/"): the partition values rendered as Java
// InternalRowPartitionComputer.generatePartValues renders them, escaped as
// PartitionPathUtils.escapePathName escapes them. Readers need it to find
// data files and writers to place them, so it lives in one place.
package partpath

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// DefaultName is Java's partition.default-name default: the directory name
// of a NULL or blank partition value.
const DefaultName = "__DEFAULT_PARTITION__"

// ErrUnsupported reports a partition value type this package cannot render
// as Java does.
var ErrUnsupported = fmt.Errorf("partpath: unsupported: %w", errors.ErrUnsupported)

// Path returns the partition directory of values (one per field, in
// partition-key order) with a trailing slash, or "" without partition
// fields. A NULL or blank value uses defaultName; legacy selects Java's
// partition.legacy-name rendering (its default is true).
func Path(fields []schema.DataField, values []any, defaultName string, legacy bool) (string, error) {
	if len(fields) == 0 {
		return "", nil
	}
	if len(values) != len(fields) {
		return "", fmt.Errorf("partpath: %d values for %d partition fields", len(values), len(fields))
	}
	var sb strings.Builder
	for i, f := range fields {
		s := ""
		if values[i] != nil {
			v, err := ValueString(values[i], f.Type, legacy)
			if err != nil {
				return "", fmt.Errorf("partition field %s: %w", f.Name, err)
			}
			s = v
		}
		if blank(s) {
			s = defaultName
		}
		if i > 0 {
			sb.WriteByte('/')
		}
		Escape(&sb, f.Name)
		sb.WriteByte('=')
		Escape(&sb, s)
	}
	sb.WriteByte('/')
	return sb.String(), nil
}

// Blank reports whether s is empty or all whitespace as Java sees it: such
// a partition value takes the default partition name.
func Blank(s string) bool { return blank(s) }

// blank mirrors Java StringUtils.isNullOrWhitespaceOnly, which tests every
// character with Character.isWhitespace.
func blank(s string) bool {
	for _, r := range s {
		if !javaWhitespace(r) {
			return false
		}
	}
	return true
}

// javaWhitespace is Java's Character.isWhitespace: Unicode space, line and
// paragraph separators except the non-breaking ones, plus the ASCII
// controls \t \n \v \f \r and the file/group/record/unit separators.
func javaWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	case 0xa0, 0x2007, 0x202f:
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

// Escape percent-escapes the characters Hive-style partition paths
// may not contain, as Java PartitionPathUtils.escapePathName does.
func Escape(sb *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if needsEscaping(c) {
			fmt.Fprintf(sb, "%%%02X", c)
		} else {
			sb.WriteByte(c)
		}
	}
}

func needsEscaping(c byte) bool {
	if c < ' ' || c == 0x7f {
		return true
	}
	switch c {
	case '"', '#', '%', '\'', '*', '/', ':', '=', '?', '\\', '{', '}', '[', ']', '^':
		return true
	}
	return false
}

// ValueString renders a partition value. A STRING value is decoded as Java
// decodes its bytes (JavaString), so bytes that are not UTF-8 render as
// U+FFFD just as in Java's directory names. With legacy names (the
// default, partition.legacy-name=true) Java prints the internal
// representation's toString: DATE as its day number, TIMESTAMP as
// LocalDateTime.toString. Otherwise it casts the value to STRING.
func ValueString(v any, t schema.DataType, legacy bool) (string, error) {
	switch x := v.(type) {
	case string:
		return JavaString(x), nil
	case bool:
		return strconv.FormatBool(x), nil
	case int8:
		return strconv.FormatInt(int64(x), 10), nil
	case int16:
		return strconv.FormatInt(int64(x), 10), nil
	case int32:
		if !legacy {
			switch t.Root {
			case schema.Date:
				return time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02"), nil
			case schema.Time:
				return formatTimeOfDay(x, t.Precision), nil
			}
		}
		return strconv.FormatInt(int64(x), 10), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float32:
		return javaFloatString(float64(x), 32), nil
	case float64:
		return javaFloatString(x, 64), nil
	case data.Decimal:
		return x.String(), nil
	case data.Timestamp:
		if legacy {
			return localDateTimeString(x), nil
		}
		return javacompat.FormatTimestamp(x.Millis, x.NanoOfMilli, t.Precision), nil
	}
	return "", fmt.Errorf("%w: partition value %T of type %s", ErrUnsupported, v, t)
}

func timestampTime(ts data.Timestamp) time.Time {
	return time.UnixMilli(ts.Millis).UTC().Add(time.Duration(ts.NanoOfMilli))
}

// localDateTimeString mirrors java.time.LocalDateTime.toString: seconds are
// omitted when they and the fraction are zero; the fraction has 3, 6 or 9
// digits.
func localDateTimeString(ts data.Timestamp) string {
	t := timestampTime(ts)
	s := t.Format("2006-01-02T15:04")
	nano := t.Nanosecond()
	if t.Second() == 0 && nano == 0 {
		return s
	}
	s += fmt.Sprintf(":%02d", t.Second())
	switch {
	case nano == 0:
	case nano%1_000_000 == 0:
		s += fmt.Sprintf(".%03d", nano/1_000_000)
	case nano%1000 == 0:
		s += fmt.Sprintf(".%06d", nano/1000)
	default:
		s += fmt.Sprintf(".%09d", nano)
	}
	return s
}

func formatTimeOfDay(ms int32, precision int) string {
	for ms < 0 {
		ms += 86_400_000
	}
	s := fmt.Sprintf("%02d:%02d:%02d", ms/3_600_000, ms%3_600_000/60_000, ms%60_000/1000)
	if precision > 0 {
		frac := fmt.Sprintf("%03d", ms%1000)
		for len(frac) < precision {
			frac += "0"
		}
		s += "." + frac[:precision]
	}
	return s
}

// javaFloatString approximates Java's Float/Double.toString: plain notation
// with at least one fractional digit for magnitudes in [1e-3, 1e7), else
// computerized scientific notation ("1.0E10").
func javaFloatString(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	a := math.Abs(f)
	if a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, bits)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
